// A recorded program as a report: its iterations as runs (engine/record/iterations), the device its work ran on and
// the program block, so that every writer (text, CSV, JSON format 4, Chrome trace), the baseline gate and the window
// take it as they take a series of the built-in pipeline.
#pragma once

#include "engine/model/report.hpp"
#include "engine/record/iterations.hpp"
#include "engine/record/program_machine.hpp"
#include "engine/record/program_recorder.hpp"
#include "engine/record/recording.hpp"

namespace asyncscope {

// `program` as it ran (command, folder, how it ended); its iterations and notes are filled in from `split`. The
// device is the one the most GPU operations ran on (the first recorded where none ran); the configuration block
// holds the number of runs, the set-up iterations as warm-ups. The machine block is `machine`'s state of that device
// while the program ran; without `machine` (a report made from a kept recording), one saying it was not sampled.
Report programReport(const Recording& recording, RecordedRuns split, ProgramInfo program,
    ProgramMachine* machine = nullptr);

// A program run under the recorder: how it ended, its program block, the program as messages name it, and its
// recording as read while it ran (or the line refused).
struct RecordedProgram {
    RecordOutcome outcome;
    ProgramInfo program;
    std::string shown;
    Result<Recording> recording;
};
// Finds the injection and CUPTI libraries (into `request`), then runs the program under the recorder while `machine`
// samples the GPUs. Errors: a library is missing, the recorder fails, no process of the program initialised CUDA.
Result<RecordedProgram> recordForReport(RecordRequest request, ProgramMachine& machine, const std::atomic<bool>& stop);

// The program block of the program `request` ran, as it ended (`outcome`): the program as it was found, its
// arguments, folder and end.
ProgramInfo programInfoOf(const RecordRequest& request, const RecordOutcome& outcome);
// How it ended, as the recorder says it: "./app exited with 0 after 2.345 s".
std::string endText(const std::string& shownProgram, const RecordOutcome& outcome);
// An error where nothing was recorded: no process of the program initialised CUDA.
Status nothingRecorded(const std::string& shownProgram, const RecordOutcome& outcome);

}  // namespace asyncscope

// A recorded program as a report: its iterations as runs (engine/record/iterations), the device its work ran on and
// the program block, so that every writer (text, CSV, JSON format 4, Chrome trace), the baseline gate and the window
// take it as they take a series of the built-in pipeline.
#pragma once

#include "engine/model/report.hpp"
#include "engine/record/iterations.hpp"
#include "engine/record/program_machine.hpp"
#include "engine/record/program_recorder.hpp"
#include "engine/record/recording.hpp"
#include "engine/run/plan.hpp"

#include <string_view>

namespace asyncscope {

// `program` as it ran (command, folder, how it ended); its iterations and notes are filled in from `split`. The
// device is the one the most GPU operations ran on (the first recorded where none ran); the configuration block
// holds the number of runs, the set-up iterations as warm-ups. The machine block is `machine`'s state of that device
// while the program ran; without `machine` (a report made from a kept recording), one saying it was not sampled.
Report programReport(const Recording& recording, RecordedRuns split, ProgramInfo program,
    ProgramMachine* machine = nullptr);

// Which processes of a recording a report holds: each its own series (the default), all of them as one series, or
// one alone.
struct ProcessChoice {
    enum class Kind { Each, All, One };
    Kind kind = Kind::Each;
    std::uint32_t pid = 0;  // Kind::One
};
// "each", "all" or a PID; anything else is a usage error saying what is taken.
Result<ProcessChoice> parseProcessChoice(std::string_view text);

// One series of a recording: a process's iterations (or every process's), as a report.
struct ProgramSeries {
    std::string label;  // "process 4242 (app)"; "all processes"
    Report report;
};
// The step after recording, for the CLI and the window alike: the iterations `splitter` split off as the recording
// was read (what is left of `recording` its processes, devices and notes), a report for each series `choice` asks
// for (a program whose one process ran GPU work gives one whatever the choice). A PID that ran no GPU work is a usage
// error naming the processes that did. No series where the recording holds no GPU work.
Result<std::vector<ProgramSeries>> programSeries(const Recording& recording, IterationSplitter& splitter,
    const ProcessChoice& choice, const ProgramInfo& program, ProgramMachine* machine = nullptr);
// The same of a whole recording, its iterations split by `rule`.
Result<std::vector<ProgramSeries>> programSeries(const Recording& recording, const IterationRule& rule,
    const ProcessChoice& choice, const ProgramInfo& program, ProgramMachine* machine = nullptr);
// Several series of one program as a comparison of its processes, which every writer and the window take.
PlanReport processComparison(std::vector<ProgramSeries> series);
// Whether the program failed: it exited with a status other than 0, or a signal ended it, and the recorder did not
// stop it. Its figures are then no measurement to pass a gate with. An end not known (exit code -1 and no signal: a
// kept recording whose program neither exited nor said it died) is no failure.
bool programFailed(const ProgramInfo& program);
// How the program ended, for a report made from a kept recording: its first process's exit or fatal signal.
void programEndFrom(const Recording& recording, ProgramInfo& program);
// The program of a kept recording read from `path`: its first process's executable (the file's path where the
// recording names none), and how it ended.
ProgramInfo keptProgram(const Recording& recording, const std::string& path);
// What `record --from PATH` makes of a kept recording, for the window: read (split as it is read, iterations found
// by `rule`), a series for each process with GPU work (an error where none has a run), as `choice` asks.
Result<std::vector<ProgramSeries>> readKeptRecording(
    const std::string& path, const IterationRule& rule, const ProcessChoice& choice);
// Whether the file at `path` begins as a recording does (false where it cannot be read).
bool isRecordingFile(const std::string& path);

// A program run under the recorder: how it ended, its program block, the program as messages name it, and its
// recording as read while it ran (or the line refused).
struct RecordedProgram {
    RecordOutcome outcome;
    ProgramInfo program;
    std::string shown;
    Result<Recording> recording;
};
// Finds the injection and CUPTI libraries (into `request`), then runs the program under the recorder while `machine`
// samples the GPUs, its iterations split by `splitter` as they come. Errors: a library is missing, the recorder
// fails, no process of the program initialised CUDA. `ended`, where given, gets how the program ended whenever it
// ran, an error or not (what the window says of a program that recorded nothing).
Result<RecordedProgram> recordForReport(RecordRequest request, ProgramMachine& machine, IterationSplitter& splitter,
    const std::atomic<bool>& stop, RecordOutcome* ended = nullptr);

// The program block of the program `request` ran, as it ended (`outcome`): the program as it was found, its
// arguments, folder and end.
ProgramInfo programInfoOf(const RecordRequest& request, const RecordOutcome& outcome);
// How it ended, as the recorder says it: "./app exited with 0 after 2.345 s".
std::string endText(const std::string& shownProgram, const RecordOutcome& outcome);
// How soon after the program's end its report was ready (now): "report ready 0.081 s after the program ended (its
// last records came 0.004 s after it)".
std::string readyText(const RecordOutcome& outcome);
// An error where nothing was recorded: no process of the program initialised CUDA.
Status nothingRecorded(const std::string& shownProgram, const RecordOutcome& outcome);

}  // namespace asyncscope

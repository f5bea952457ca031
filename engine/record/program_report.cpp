#include "engine/record/program_report.hpp"

#include "engine/host/host_name.hpp"
#include "engine/io/input_file.hpp"
#include "engine/model/number_text.hpp"

#include <algorithm>
#include <map>

namespace asyncscope {

namespace {

// "GPU-01234567-89ab-cdef-0123-456789abcdef", as nvidia-smi names it, from 32 hex digits.
std::string uuidText(const std::string& hex)
{
    if (hex.size() != 32)
        return {};
    return "GPU-" + hex.substr(0, 8) + "-" + hex.substr(8, 4) + "-" + hex.substr(12, 4) + "-" + hex.substr(16, 4) +
        "-" + hex.substr(20);
}

const RecordedDevice* busiestDevice(const Recording& recording)
{
    std::map<std::uint32_t, std::size_t> operations;
    for (const RecordedOperation& op : recording.operations)
        ++operations[op.device];
    const RecordedDevice* best = recording.devices.empty() ? nullptr : &recording.devices.front();
    std::size_t most = 0;
    for (const RecordedDevice& d : recording.devices) {
        const auto found = operations.find(d.id);
        if (found != operations.end() && found->second > most) {
            most = found->second;
            best = &d;
        }
    }
    return best;
}

}  // namespace

Report programReport(const Recording& recording, RecordedRuns split, ProgramInfo program, ProgramMachine* machine)
{
    Report report;
    report.host = shortHostName();
    if (const RecordedDevice* d = busiestDevice(recording)) {
        report.device.index = int(d->id);
        report.device.name = d->name;
        report.device.computeMajor = int(d->ccMajor);
        report.device.computeMinor = int(d->ccMinor);
        report.device.multiprocessors = int(d->multiprocessors);
        report.device.totalMemoryBytes = std::size_t(d->memoryBytes);
        report.device.asyncEngineCount = int(d->copyEngines);
        report.device.clockKHz = int(d->clockKHz);
        report.device.uuid = uuidText(d->uuid);
        report.driverVersion = int(d->driverVersion);
        report.config.device = int(d->id);
    }
    report.machine = machine ? machine->stateOf(report.device.uuid, recording, split) : unsampledMachine();
    const auto warmups =
        int(std::count_if(split.runs.begin(), split.runs.end(), [](const RunResult& r) { return r.warmup; }));
    report.config.runs = std::max(1, int(split.runs.size()) - warmups);
    report.config.warmupRuns = warmups;
    report.runs.reserve(split.runs.size());
    for (const RunResult& run : split.runs) {
        report.runs.push_back(run);
        for (const Span& s : run.spans)
            report.config.streams = std::max(report.config.streams, onGpu(s.kind) ? s.stream + 1 : 1);
    }
    report.config.chunks = report.config.streams;  // a configuration holds a chunk or more per stream
    SeriesOutcome outcome;
    outcome.measuredRuns = int(split.runs.size()) - warmups;
    outcome.reason = StopReason::RunCount;
    report.outcome = outcome;
    program.iterations = split.how;
    program.notes = std::move(split.notes);
    program.copies = split.copies;
    report.program = std::move(program);
    return report;
}

Result<RecordedProgram> recordForReport(RecordRequest request, ProgramMachine& machine, const std::atomic<bool>& stop)
{
    auto injection = findInjectionLibrary();
    if (!injection)
        return injection.error();
    auto cupti = findCuptiLibrary();
    if (!cupti)
        return cupti.error();
    request.injectionLibrary = *injection;
    request.cuptiLibrary = *cupti;
    RecordingReader reader(request.recordingPath.empty() ? "the record stream" : request.recordingPath);
    machine.start();
    auto outcome = recordProgram(request, stop, &reader);
    machine.stop();
    if (!outcome)
        return outcome.error();
    RecordedProgram recorded { *outcome, programInfoOf(request, *outcome), shownPath(outcome->program),
        reader.finish() };
    if (Status nothing = nothingRecorded(recorded.shown, *outcome))
        return *nothing;
    return recorded;
}

ProgramInfo programInfoOf(const RecordRequest& request, const RecordOutcome& outcome)
{
    ProgramInfo program;
    program.command = request.command;
    if (!program.command.empty())
        program.command.front() = outcome.program;
    program.workingFolder = request.workingFolder;
    program.exitCode = outcome.exitCode;
    program.signal = outcome.signal;
    program.stopped = outcome.stopped;
    return program;
}

std::string endText(const std::string& shownProgram, const RecordOutcome& outcome)
{
    return shownProgram +
        (outcome.stopped          ? " was stopped"
            : outcome.signal != 0 ? " ended on signal " + std::to_string(outcome.signal)
                                  : " exited with " + std::to_string(outcome.exitCode)) +
        " after " + fixedText(outcome.wallSeconds, 3) + " s";
}

Status nothingRecorded(const std::string& shownProgram, const RecordOutcome& outcome)
{
    if (outcome.connected)
        return std::nullopt;
    return makeError(ErrorKind::Usage, shownProgram + " never initialised CUDA: nothing was recorded",
        "Record a program that uses the GPU (a script that starts one is recorded too).");
}

}  // namespace asyncscope

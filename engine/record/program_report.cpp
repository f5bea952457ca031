#include "engine/record/program_report.hpp"

#include "engine/host/host_name.hpp"
#include "engine/io/input_file.hpp"
#include "engine/model/display_text.hpp"
#include "engine/model/number_text.hpp"
#include "engine/record/record_stream.hpp"

#include <algorithm>
#include <charconv>
#include <chrono>
#include <filesystem>
#include <fstream>
#include <map>
#include <set>

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

// The device the most operations of the processes `pids` ran on (of any process where none is named).
const RecordedDevice* busiestDevice(const Recording& recording, const std::set<std::uint32_t>& pids)
{
    std::map<std::uint32_t, std::uint64_t> operations;
    for (const auto& [where, count] : recording.operationCounts)
        if (pids.empty() || pids.count(where.first) > 0)
            operations[where.second] += count;
    const RecordedDevice* best = recording.devices.empty() ? nullptr : &recording.devices.front();
    std::uint64_t most = 0;
    for (const RecordedDevice& d : recording.devices) {
        if (!pids.empty() && pids.count(d.pid) == 0)
            continue;
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
    std::set<std::uint32_t> pids;
    for (const ProgramThread& t : split.threads)
        pids.insert(t.pid);
    if (const RecordedDevice* d = busiestDevice(recording, pids)) {
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
    } else if (!split.runs.empty()) {
        // A recording cut before its device line (the recorder writes one as each process's context is made).
        report.device.name = "a GPU the recording does not describe";
        split.notes.push_back("The recording does not describe the GPU the runs ran on (its device line is missing).");
    }
    report.machine = machine ? machine->stateOf(report.device.uuid, recording, split) : unsampledMachine();
    int warmups = 0;
    for (std::size_t i = 0; i < split.runs.size(); ++i) {
        warmups += split.runs.warmup(i) ? 1 : 0;
        const RunStore::SpanView spans = split.runs.spans(i);
        for (std::size_t k = 0; k < spans.size(); ++k)
            if (onGpu(spans.kind(k)))
                report.config.streams = std::max(report.config.streams, spans[k].stream + 1);
    }
    report.config.runs = std::max(1, int(split.runs.size()) - warmups);
    report.config.warmupRuns = warmups;
    report.config.chunks = report.config.streams;  // a configuration holds a chunk or more per stream
    SeriesOutcome outcome;
    outcome.measuredRuns = int(split.runs.size()) - warmups;
    report.runs = std::move(split.runs);
    outcome.reason = StopReason::RunCount;
    report.outcome = outcome;
    program.iterations = split.how;
    program.notes = std::move(split.notes);
    if (program.notes.size() > kMaxProgramNotes) {  // as many as a report holds, the last saying how many more
        const std::size_t more = program.notes.size() - (kMaxProgramNotes - 1);
        program.notes.resize(kMaxProgramNotes - 1);
        program.notes.push_back(std::to_string(more) + " more notes are left out.");
    }
    program.copies = split.copies;
    program.threads = std::move(split.threads);
    program.names = std::move(split.names);
    program.pids.clear();
    for (const ProgramThread& t : program.threads)
        if (std::find(program.pids.begin(), program.pids.end(), t.pid) == program.pids.end())
            program.pids.push_back(t.pid);
    program.processes.clear();
    for (const RecordedProcess& p : recording.processes)
        program.processes.push_back({ p.pid, p.parent, p.executable, p.exited, p.signal });
    program.droppedRecords = recording.dropped;
    report.program = std::move(program);
    return report;
}

Result<ProcessChoice> parseProcessChoice(std::string_view text)
{
    if (text == "each")
        return ProcessChoice {};
    if (text == "all")
        return ProcessChoice { ProcessChoice::Kind::All, 0 };
    std::uint32_t pid = 0;
    const auto [end, error] = std::from_chars(text.data(), text.data() + text.size(), pid);
    if (error == std::errc() && end == text.data() + text.size() && !text.empty() && pid > 0)
        return ProcessChoice { ProcessChoice::Kind::One, pid };
    return makeError(ErrorKind::Usage, "--process '" + cutText(text, 40) + "' is not a process",
        "Give each (every process its own series), all (one series of every process) or the PID of one.");
}

namespace {

std::string processLabel(const Recording& recording, std::uint32_t pid)
{
    for (const RecordedProcess& p : recording.processes)
        if (p.pid == pid && !p.executable.empty())
            return "process " + std::to_string(pid) + " (" +
                cutText(std::filesystem::path(p.executable).filename().string(), 40) + ")";
    return "process " + std::to_string(pid);
}

}  // namespace

Result<std::vector<ProgramSeries>> programSeries(const Recording& recording, IterationSplitter& splitter,
    const ProcessChoice& choice, const ProgramInfo& program, ProgramMachine* machine)
{
    const std::vector<std::uint32_t> working = processesWithWork(recording);
    std::vector<std::optional<std::uint32_t>> chosen;
    if (choice.kind == ProcessChoice::Kind::One) {
        if (std::find(working.begin(), working.end(), choice.pid) == working.end()) {
            std::string listed;
            for (std::uint32_t pid : working)
                listed += (listed.empty() ? "" : ", ") + processLabel(recording, pid);
            return makeError(ErrorKind::Usage, "--process " + std::to_string(choice.pid) + " ran no GPU work here",
                working.empty() ? "No process of the program ran GPU work." : "Processes that did: " + listed + ".");
        }
        chosen.push_back(choice.pid);
    } else if (choice.kind == ProcessChoice::Kind::All || working.size() <= 1) {
        chosen.push_back(std::nullopt);
    } else {
        chosen.assign(working.begin(), working.end());
    }
    std::vector<ProgramSeries> series;
    for (const std::optional<std::uint32_t>& pid : chosen) {
        RecordedRuns split = splitter.runsOf(recording, pid);
        if (split.runs.empty() && chosen.size() > 1)
            continue;
        std::string label = pid ? processLabel(recording, *pid)
            : working.size() > 1 ? std::string("all processes")
            : working.empty()    ? std::string("the program")
                                 : processLabel(recording, working.front());
        series.push_back({ std::move(label), programReport(recording, std::move(split), program, machine) });
    }
    return series;
}

Result<std::vector<ProgramSeries>> programSeries(const Recording& recording, const IterationRule& rule,
    const ProcessChoice& choice, const ProgramInfo& program, ProgramMachine* machine)
{
    Recording rest = recording;
    IterationSplitter splitter(rule);
    splitter.take(rest, true);
    return programSeries(rest, splitter, choice, program, machine);
}

PlanReport processComparison(std::vector<ProgramSeries> series)
{
    PlanReport plan;
    plan.comparison = Comparison::Processes;
    plan.planned = series.size();
    for (ProgramSeries& s : series)
        plan.variants.push_back({ std::move(s.label), std::move(s.report), std::nullopt, std::nullopt });
    return plan;
}

bool programFailed(const ProgramInfo& program)
{
    return !program.stopped && (program.exitCode > 0 || program.signal != 0);  // -1 alone: how it ended is not known
}

void programEndFrom(const Recording& recording, ProgramInfo& program)
{
    const RecordedProcess* first = recording.processes.empty() ? nullptr : &recording.processes.front();
    // An exit line says it ended normally (not with what status), a signal line that it died; with neither, how it
    // ended is not known (a kill no handler sees, a recording cut short).
    program.exitCode = first && first->exited ? 0 : -1;
    program.signal = first ? first->signal : 0;
}

ProgramInfo keptProgram(const Recording& recording, const std::string& path)
{
    ProgramInfo program;
    const RecordedProcess* first = recording.processes.empty() ? nullptr : &recording.processes.front();
    program.command = { first && !first->executable.empty() ? first->executable : path };
    programEndFrom(recording, program);
    return program;
}

Result<std::vector<ProgramSeries>> readKeptRecording(
    const std::string& path, const IterationRule& rule, const ProcessChoice& choice)
{
    IterationSplitter splitter(rule);
    Result<Recording> recording = readRecordingFile(path, &splitter);
    if (!recording)
        return recording.error();
    auto series = programSeries(*recording, splitter, choice, keptProgram(*recording, path));
    if (series && std::all_of(series->begin(), series->end(),
                      [](const ProgramSeries& s) { return s.report.runs.empty(); }))
        return makeError(ErrorKind::Io, shownPath(path) + ": no iteration of the recorded program issued GPU work",
            "Record the program again, letting it run its GPU work.");
    return series;
}

bool isRecordingFile(const std::string& path)
{
    std::ifstream in(path, std::ios::binary);
    char start[32] = {};
    in.read(start, sizeof start);
    return std::string_view(start, std::size_t(in.gcount())).rfind(record::kMagic, 0) == 0;
}

Result<RecordedProgram> recordForReport(RecordRequest request, ProgramMachine& machine, IterationSplitter& splitter,
    const std::atomic<bool>& stop, RecordOutcome* ended)
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
    reader.splitAsRead(&splitter);
    machine.start();
    auto outcome = recordProgram(request, stop, &reader);
    machine.stop();
    if (!outcome)
        return outcome.error();
    if (ended)
        *ended = *outcome;
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

std::string readyText(const RecordOutcome& outcome)
{
    if (outcome.exitedSteadyNs == 0)
        return "report ready (the program was not seen to end)";
    const std::int64_t now =
        std::chrono::duration_cast<std::chrono::nanoseconds>(std::chrono::steady_clock::now().time_since_epoch())
            .count();
    return "report ready " + fixedText(double(now - outcome.exitedSteadyNs) / 1e9, 3) +
        " s after the program ended (its last records came " + fixedText(outcome.handOverSeconds, 3) + " s after it)";
}

Status nothingRecorded(const std::string& shownProgram, const RecordOutcome& outcome)
{
    if (outcome.connected)
        return std::nullopt;
    return makeError(ErrorKind::Usage, shownProgram + " never initialised CUDA: nothing was recorded",
        "Record a program that uses the GPU (a script that starts one is recorded too).");
}

}  // namespace asyncscope

#include "engine/io/csv/csv_columns.hpp"

#include "engine/io/csv/csv_text.hpp"
#include "engine/model/record_rules.hpp"
#include "engine/model/statistics.hpp"

#include <algorithm>
#include <cmath>
#include <limits>

namespace asyncscope::csv {

namespace {

// The device's and the configuration's columns.
template <class Write>
CsvColumn fixed(const char* name, Write write, std::function<bool(std::string_view, Report&)> read,
    std::string accepted = {}, bool required = true)
{
    std::function<bool(std::string_view, Report&, Row&)> readInto;
    if (read)
        readInto = [read](std::string_view t, Report& r, Row&) { return read(t, r); };
    return { name, [write](const Report& r, std::size_t, std::string& out) { out += quoted(write(r)); },
        std::move(readInto), std::move(accepted), required, false };
}

template <class Enum>
CsvColumn choice(const char* name, Enum PipelineConfig::*field, bool required = true)
{
    return fixed(
        name, [field](const Report& r) { return std::string(nameOf(r.config.*field)); },
        [field](std::string_view t, Report& r) { return parseChoice(t, r.config.*field); }, acceptedNames<Enum>(),
        required);
}

constexpr const char* kDurationAccepted = "a finite number of ms, 0 or more";

// A time of the series' host registration: empty where there is none.
CsvColumn registration(const char* name, std::optional<double> SeriesOutcome::*field)
{
    return fixed(
        name,
        [field](const Report& r) {
            std::string out;
            if (r.outcome && r.outcome.value().*field)
                appendNumber(out, *(r.outcome.value().*field));
            return out;
        },
        [field](std::string_view t, Report& r) {
            if (t.empty())
                return true;
            double ms = 0.0;
            if (!parseDuration(t, ms))
                return false;
            if (!r.outcome)
                r.outcome.emplace();
            r.outcome.value().*field = ms;
            return true;
        },
        "a finite number of ms, 0 or more, or empty", false);
}

// What the columns of a recorded program take besides being empty (the built-in pipeline's runs).
constexpr const char* kNoProgram = "empty where 'Program' is (the built-in pipeline)";

// A column of a recorded program's: empty for the built-in pipeline; read into the program 'Program' named (read
// before it: the table's order), and refused without one.
CsvColumn programColumn(const char* name, std::function<std::string(const ProgramInfo&)> write,
    std::function<bool(std::string_view, ProgramInfo&)> read, const std::string& accepted)
{
    return fixed(
        name, [write](const Report& r) { return r.program ? write(*r.program) : std::string(); },
        [read](std::string_view t, Report& r) { return t.empty() || (r.program && read(t, *r.program)); },
        accepted + ", or " + kNoProgram, false);
}

template <class T>
bool wholeIn(std::string_view t, T& out, T least, T most)
{
    T value {};
    if (!parseNumber(t, value) || value < least || value > most)
        return false;
    out = value;
    return true;
}

bool noteIn(std::string_view t, std::string& out)
{
    out = std::string(t);
    return !checkNote({}, out);
}

// A run's own columns.
template <class Write, class Read>
CsvColumn run(const char* name, Write write, Read read, std::string accepted = {}, bool required = true)
{
    return { name, write, read, std::move(accepted), required, true };
}

template <class T>
CsvColumn runWhole(const char* name, T (RunStore::*column)(std::size_t) const, T RunResult::*field)
{
    return run(
        name, [column](const Report& r, std::size_t i, std::string& out) { appendWhole(out, (r.runs.*column)(i)); },
        [field](std::string_view t, Report&, Row& row) { return parseNumber(t, row.run.*field); });
}

CsvColumn runFlag(const char* name, bool (RunStore::*column)(std::size_t) const, bool RunResult::*field)
{
    return run(
        name, [column](const Report& r, std::size_t i, std::string& out) { out += (r.runs.*column)(i) ? '1' : '0'; },
        [field](std::string_view t, Report&, Row& row) { return parseFlag(t, row.run.*field); });
}

// A stage's time from its spans; empty when the run has none (no events between stages).
CsvColumn stage(const char* name, SpanKind kind, double SerialDurations::*ms)
{
    return run(
        name,
        [kind](const Report& r, std::size_t i, std::string& out) {
            if (r.runs.has(i, kind))
                appendNumber(out, r.runs.totalMs(i, kind));
        },
        [ms](std::string_view t, Report&, Row& row) { return t.empty() || parseDuration(t, row.durations.*ms); },
        kDurationAccepted);
}

CsvColumn rate(const char* name, SpanKind kind)
{
    return run(
        name,
        [kind](const Report& r, std::size_t i, std::string& out) {
            if (r.runs.has(i, kind))
                appendNumber(out, gigabytesPerSecond(double(r.runs.totalBytes(i, kind)), r.runs.totalMs(i, kind)));
        },
        // Derived from the stage's bytes and time, so not taken; but a cell no writer writes is refused.
        [](std::string_view t, Report&, Row&) {
            double gbps = 0.0;
            return t.empty() || (parseNumber(t, gbps) && std::isfinite(gbps) && gbps >= 0.0);
        },
        "empty or a finite number of GB/s, 0 or more", false);
}

// The machine's reading in force when run i started: the last taken at or before its start, else the first.
const MachineSample* readingAt(const Report& r, std::size_t i)
{
    if (!r.machine || r.machine->samples.empty())
        return nullptr;
    const auto& samples = r.machine->samples;
    const double at = r.runs.startMs(i);
    auto after = std::upper_bound(
        samples.begin(), samples.end(), at, [](double t, const MachineSample& s) { return t < s.atMs; });
    return after == samples.begin() ? &*after : &*std::prev(after);
}

// A whole-number reading of the machine at the run's start; empty where unknown.
template <class T>
CsvColumn reading(const char* name, std::optional<T> MachineSample::*field, T low, T high)
{
    return { name,
        [field](const Report& r, std::size_t i, std::string& out) {
            if (const MachineSample* s = readingAt(r, i); s && s->*field)
                appendWhole(out, *(s->*field));
        },
        [field, low, high](std::string_view t, Report&, Row& row) {
            if (t.empty())
                return true;
            T value {};
            if (!parseNumber(t, value) || value < low || value > high)
                return false;
            row.machine.*field = value;
            row.machineRead = true;
            return true;
        },
        "empty or a whole number from " + std::to_string(low) + " to " + std::to_string(high), false, true };
}

// "1000* asyncscope; 4321 other-app": every process on the GPU, this one starred, names after their PIDs.
std::string processesText(const MachineSample& s, const std::optional<std::uint32_t>& self)
{
    std::string text;
    for (const GpuProcess& p : *s.processes) {
        text += text.empty() ? "" : "; ";
        text += std::to_string(p.pid) + (self && p.pid == *self ? "*" : "");
        if (!p.name.empty()) {
            std::string name = p.name;
            std::replace(name.begin(), name.end(), ';', ',');
            text += " " + name;
        }
    }
    return text.empty() ? "none" : text;
}

constexpr std::size_t kMaxCsvProcesses = 1024;

// Reads processesText() back; false for a list that is not one. `self` is set from the starred PID.
bool parseProcesses(std::string_view t, std::vector<GpuProcess>& out, std::optional<std::uint32_t>& self)
{
    out.clear();
    if (t == "none")
        return true;
    while (!t.empty()) {
        const std::size_t end = std::min(t.find("; "), t.size());
        std::string_view entry = t.substr(0, end);
        t.remove_prefix(std::min(end + 2, t.size()));
        const std::size_t space = std::min(entry.find(' '), entry.size());
        std::string_view pid = entry.substr(0, space);
        const bool starred = !pid.empty() && pid.back() == '*';
        if (starred)
            pid.remove_suffix(1);
        GpuProcess p;
        if (!parseNumber(pid, p.pid) || out.size() >= kMaxCsvProcesses)
            return false;
        if (space < entry.size())
            p.name = std::string(entry.substr(space + 1));
        if (p.name.size() > kMaxNameBytes)
            return false;
        if (starred)
            self = p.pid;
        out.push_back(std::move(p));
    }
    return true;
}

}  // namespace

const std::vector<CsvColumn>& runColumns()
{
    using R = const Report&;
    static const std::vector<CsvColumn> all = {
        fixed("Device Index", [](R r) { return std::to_string(r.device.index); },
            [](std::string_view t, Report& r) { return parseNumber(t, r.device.index); }),
        fixed("Device", [](R r) { return r.device.name; },
            [](std::string_view t, Report& r) {
                r.device.name = t;
                return !t.empty();
            }),
        fixed("UUID", [](R r) { return r.device.uuid; },
            [](std::string_view t, Report& r) {
                r.device.uuid = t;
                return true;
            }),
        fixed("PCI Bus Id", [](R r) { return r.device.pciBusId; },
            [](std::string_view t, Report& r) {
                r.device.pciBusId = t;
                return true;
            }),
        fixed("Compute Capability", [](R r) { return r.device.computeCapability(); },
            [](std::string_view t, Report& r) {
                return !parseComputeCapability({}, t, r.device.computeMajor, r.device.computeMinor);
            },
            "a compute capability such as \"9.0\""),
        fixed("Driver Version", [](R r) { return std::to_string(r.driverVersion); },
            [](std::string_view t, Report& r) { return parseNumber(t, r.driverVersion); }),
        fixed("Runtime Version", [](R r) { return std::to_string(r.runtimeVersion); },
            [](std::string_view t, Report& r) { return parseNumber(t, r.runtimeVersion); }),
        fixed("Elements", [](R r) { return std::to_string(r.config.elements); },
            [](std::string_view t, Report& r) { return parseNumber(t, r.config.elements); }),
        fixed("Size (B)", [](R r) { return std::to_string(r.config.bytes()); }, nullptr),
        fixed("Value", [](R r) { return std::to_string(r.config.value); },
            [](std::string_view t, Report& r) { return parseNumber(t, r.config.value); }),
        fixed("Threads/Block", [](R r) { return std::to_string(r.config.threadsPerBlock); },
            [](std::string_view t, Report& r) { return parseNumber(t, r.config.threadsPerBlock); }),
        fixed("Chunks", [](R r) { return std::to_string(r.config.chunks); },
            [](std::string_view t, Report& r) { return parseNumber(t, r.config.chunks); }, {}, false),
        fixed("Streams", [](R r) { return std::to_string(r.config.streams); },
            [](std::string_view t, Report& r) { return parseNumber(t, r.config.streams); }, {}, false),
        choice("Issue Order", &PipelineConfig::order, false),
        choice("Submission", &PipelineConfig::submission, false),
        choice("Host Memory", &PipelineConfig::hostMemory),
        choice("Wait", &PipelineConfig::waitMode),
        choice("Check", &PipelineConfig::checkMode),
        // Files from before the memory lab have none of these: copy-engine copies, the managed defaults.
        choice("Copy", &PipelineConfig::copy, false),
        choice("Managed Migration", &PipelineConfig::managedMigration, false),
        choice("Managed Advice", &PipelineConfig::managedAdvice, false),
        fixed("Prefer Overlap", [](R r) { return std::string(r.config.preferOverlap ? "1" : "0"); },
            [](std::string_view t, Report& r) { return parseFlag(t, r.config.preferOverlap); }, "0 or 1", false),
        // Registered host memory: the series' registration, the same on every row; empty for the other kinds.
        registration("Host Register (ms)", &SeriesOutcome::hostRegisterMs),
        registration("Host Unregister (ms)", &SeriesOutcome::hostUnregisterMs),
        fixed("Host Registered (B)",
            [](R r) {
                return r.outcome && r.outcome->hostRegisterMs ? std::to_string(r.outcome->hostRegisteredBytes)
                                                              : std::string();
            },
            [](std::string_view t, Report& r) {
                if (t.empty())
                    return true;
                if (!r.outcome)
                    r.outcome.emplace();
                return parseNumber(t, r.outcome->hostRegisteredBytes);
            },
            "a whole number of bytes, or empty", false),
        // The machine's state around the series: what read it, or why it could not be read; empty: not recorded.
        fixed("Machine State",
            [](R r) {
                if (!r.machine)
                    return std::string();
                return r.machine->read() ? r.machine->source : "not read: " + r.machine->unavailable;
            },
            [](std::string_view t, Report& r) {
                if (t.empty())
                    return true;
                if (t.size() > kMaxNoteBytes)
                    return false;
                r.machine.emplace();
                constexpr std::string_view notRead = "not read: ";
                if (t.substr(0, notRead.size()) == notRead)
                    r.machine->unavailable = std::string(t.substr(notRead.size()));
                else
                    r.machine->source = std::string(t);
                return true;
            },
            "empty, the source of the readings or why none were taken", false),
        // A recorded program's: what a comparison tells programs apart by (its command, where it ran), how its
        // iterations were found and how it ended; empty for the built-in pipeline. Files from before have none.
        fixed("Program", [](R r) { return r.program ? commandText(r.program->command) : std::string(); },
            [](std::string_view t, Report& r) {
                if (t.empty())
                    return true;
                auto words = commandWords(t);
                if (!words || std::any_of(words->begin(), words->end(),
                                  [](const std::string& w) { return bool(checkNote({}, w)); }))
                    return false;
                r.program.emplace().command = std::move(*words);
                return !r.program->command.front().empty();
            },
            "the program and its arguments, a word quoted in single quotes where it needs it, or empty (the built-in "
            "pipeline)",
            false),
        programColumn("Working Folder", [](const ProgramInfo& p) { return p.workingFolder; },
            [](std::string_view t, ProgramInfo& p) { return noteIn(t, p.workingFolder); }, "the folder it ran in"),
        programColumn("Iterations Found By", [](const ProgramInfo& p) { return p.iterations; },
            [](std::string_view t, ProgramInfo& p) { return noteIn(t, p.iterations); },
            "how its iterations were found"),
        programColumn("Exit Code", [](const ProgramInfo& p) { return std::to_string(p.exitCode); },
            [](std::string_view t, ProgramInfo& p) { return wholeIn(t, p.exitCode, -1, 255); },
            "a whole number from -1 to 255"),
        programColumn("Signal", [](const ProgramInfo& p) { return std::to_string(p.signal); },
            [](std::string_view t, ProgramInfo& p) { return wholeIn(t, p.signal, 0, 128); },
            "a whole number from 0 to 128"),
        programColumn("Stopped", [](const ProgramInfo& p) { return std::string(p.stopped ? "1" : "0"); },
            [](std::string_view t, ProgramInfo& p) { return parseFlag(t, p.stopped); }, "0 or 1"),
        runWhole("Run", &RunStore::index, &RunResult::index),
        runFlag("Warm-up", &RunStore::warmup, &RunResult::warmup),
        run("GPU Time (ms)", [](R r, std::size_t i, std::string& out) { appendNumber(out, r.runs.gpuMs(i)); },
            [](std::string_view t, Report&, Row& row) { return parseDuration(t, row.run.gpuMs); }, kDurationAccepted),
        run("CPU Time (ms)", [](R r, std::size_t i, std::string& out) { appendNumber(out, r.runs.cpuSubmitMs(i)); },
            [](std::string_view t, Report&, Row& row) { return parseDuration(t, row.durations.submitMs); },
            kDurationAccepted),
        runWhole("Poll Iterations", &RunStore::pollIterations, &RunResult::pollIterations),
        run("Wait Time (ms)", [](R r, std::size_t i, std::string& out) { appendNumber(out, r.runs.waitMs(i)); },
            [](std::string_view t, Report&, Row& row) { return parseDuration(t, row.durations.waitMs); },
            kDurationAccepted),
        run("Wait CPU Time (ms)", [](R r, std::size_t i, std::string& out) { appendNumber(out, r.runs.waitCpuMs(i)); },
            [](std::string_view t, Report&, Row& row) { return parseDuration(t, row.run.waitCpuMs); },
            kDurationAccepted),
        stage("H2D Time (ms)", SpanKind::H2D, &SerialDurations::h2dMs),
        stage("Kernel Time (ms)", SpanKind::Kernel, &SerialDurations::kernelMs),
        stage("D2H Time (ms)", SpanKind::D2H, &SerialDurations::d2hMs),
        rate("H2D GB/s", SpanKind::H2D),
        rate("D2H GB/s", SpanKind::D2H),
        runWhole("Expected Value", &RunStore::expectedValue, &RunResult::expectedValue),
        runFlag("Verified", &RunStore::verified, &RunResult::verified),
        runWhole("First Wrong Index", &RunStore::firstWrongIndex, &RunResult::firstWrongIndex),
        run("First Wrong Value",
            [](R r, std::size_t i, std::string& out) {
                if (!r.runs.verified(i))
                    appendWhole(out, r.runs.firstWrongValue(i));
            },
            [](std::string_view t, Report&, Row& row) { return t.empty() || parseNumber(t, row.run.firstWrongValue); }),
        // When the run was submitted: host clock, ms from the series' first run. Files from before it place every run
        // at 0; the machine's readings read back are at their rows' starts.
        run("Start (ms)", [](R r, std::size_t i, std::string& out) { appendNumber(out, r.runs.startMs(i)); },
            [](std::string_view t, Report&, Row& row) { return parseDuration(t, row.run.startMs); }, kDurationAccepted,
            false),
        // The machine's reading in force when the run started; empty where the series has none.
        reading("SM Clock (MHz)", &MachineSample::smClockMHz, 0, 100000),
        reading("SM Clock Max (MHz)", &MachineSample::smClockMaxMHz, 0, 100000),
        reading("Memory Clock (MHz)", &MachineSample::memoryClockMHz, 0, 100000),
        reading("Memory Clock Max (MHz)", &MachineSample::memoryClockMaxMHz, 0, 100000),
        reading<std::uint64_t>("Clock Reasons", &MachineSample::clockReasons, 0,
            std::numeric_limits<std::uint64_t>::max()),
        reading("GPU Temperature (C)", &MachineSample::temperatureC, -273, 1000),
        run("GPU Power (W)",
            [](R r, std::size_t i, std::string& out) {
                if (const MachineSample* s = readingAt(r, i); s && s->powerW)
                    appendNumber(out, *s->powerW);
            },
            [](std::string_view t, Report&, Row& row) {
                double w = 0.0;
                if (t.empty())
                    return true;
                if (!parseNumber(t, w) || !std::isfinite(w) || w < 0.0)
                    return false;
                row.machine.powerW = w;
                row.machineRead = true;
                return true;
            },
            "empty or a finite number of W, 0 or more", false),
        reading("PCIe Generation", &MachineSample::linkGeneration, 0, 64),
        reading("PCIe Width", &MachineSample::linkWidth, 0, 1024),
        reading("PCIe Generation Max", &MachineSample::linkGenerationMax, 0, 64),
        reading("PCIe Width Max", &MachineSample::linkWidthMax, 0, 1024),
        run("GPU Processes",
            [](R r, std::size_t i, std::string& out) {
                if (const MachineSample* s = readingAt(r, i); s && s->processes)
                    out += quoted(processesText(*s, r.machine->selfPid));
            },
            [](std::string_view t, Report& r, Row& row) {
                if (t.empty())
                    return true;
                std::vector<GpuProcess> processes;
                std::optional<std::uint32_t> self;
                if (!parseProcesses(t, processes, self))
                    return false;
                if (self) {
                    if (!r.machine)
                        r.machine.emplace();
                    r.machine->selfPid = self;
                }
                row.machine.processes = std::move(processes);
                row.machineRead = true;
                return true;
            },
            "empty, none, or PIDs each with an optional name, separated by '; ' (this process's starred)", false),
        // The run's block (--blocks), 0-based; files from before it hold one block.
        run("Block", [](R r, std::size_t i, std::string& out) { appendWhole(out, r.runs.block(i)); },
            [](std::string_view t, Report&, Row& row) { return parseNumber(t, row.run.block); },
            "a whole number, the run's block", false),
    };
    return all;
}

}  // namespace asyncscope::csv

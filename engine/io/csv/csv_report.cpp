#include "engine/io/csv/csv_report.hpp"

#include "engine/io/input_file.hpp"
#include "engine/io/json/header_blocks.hpp"

#include "engine/run/plan_advice.hpp"
#include "engine/run/plan_summary.hpp"
#include "engine/model/display_text.hpp"
#include "engine/model/record_rules.hpp"
#include "engine/model/statistics.hpp"

#include <algorithm>
#include <charconv>
#include <cmath>
#include <functional>
#include <memory>
#include <string_view>
#include <vector>

namespace asyncscope {

namespace {

// The shortest text that reads back as the same double, as the JSON report writes it.
std::string number(double v)
{
    char text[32];
    const auto end = std::to_chars(text, text + sizeof text, v).ptr;
    return std::string(text, end);
}

template <class T>
bool parseNumber(std::string_view text, T& out)
{
    const auto [end, error] = std::from_chars(text.data(), text.data() + text.size(), out);
    return error == std::errc() && end == text.data() + text.size();
}

// A duration in ms as the rules take it: finite and 0 or more.
bool parseDuration(std::string_view text, double& out)
{
    return parseNumber(text, out) && !checkDurationMs({}, out);
}

bool parseFlag(std::string_view text, bool& out)
{
    if (text != "0" && text != "1")
        return false;
    out = text == "1";
    return true;
}

template <class Enum>
bool parseChoice(std::string_view text, Enum& out)
{
    const auto choice = parseName<Enum>(text);
    if (choice)
        out = *choice;
    return choice.has_value();
}

// Quotes a field only when it needs it (RFC 4180): a comma or a quote. A text's control characters are written
// escaped ("\x1b", "\n": displayText) and bytes that are not UTF-8 as U+FFFD, so that every row is one line (as the
// reader takes it) and a file printed to a terminal shows what a device's or a host's name holds, never acts on it.
std::string quoted(const std::string& text)
{
    const std::string field = displayText(text);
    if (field.find_first_of(",\"\r\n") == std::string::npos)
        return field;
    std::string q = "\"";
    for (const char c : field) {
        q += c;
        if (c == '"')
            q += '"';
    }
    return q + '"';
}

// Splits one CSV line into fields; empty when a quote is left open. For the header: once a file.
std::optional<std::vector<std::string>> splitLine(std::string_view line)
{
    std::vector<std::string> fields(1);
    bool inQuotes = false;
    for (std::size_t i = 0; i < line.size(); ++i) {
        const char c = line[i];
        if (inQuotes) {
            if (c == '"' && i + 1 < line.size() && line[i + 1] == '"')
                fields.back() += line[++i];
            else if (c == '"')
                inQuotes = false;
            else
                fields.back() += c;
        } else if (c == '"') {
            inQuotes = true;
        } else if (c == ',') {
            fields.emplace_back();
        } else {
            fields.back() += c;
        }
    }
    if (inQuotes)
        return std::nullopt;
    return fields;
}

// Splits the rows: each field a view into the line, or, for a quoted field with a doubled quote in it, into a
// string of its own. The strings are kept from row to row, so a row costs no allocation.
class RowSplitter {
public:
    // False when a quote is left open.
    bool split(std::string_view line)
    {
        m_fields.clear();
        m_unquoted = 0;
        std::size_t i = 0;
        for (;;) {
            const std::size_t fieldBegin = i;
            if (i < line.size() && line[i] == '"') {
                // A quoted field: up to the quote that is not doubled.
                const std::size_t begin = i + 1;
                std::size_t at = begin;
                bool doubled = false;
                for (;;) {
                    at = line.find('"', at);
                    if (at == std::string_view::npos)
                        return false;
                    if (at + 1 < line.size() && line[at + 1] == '"') {
                        doubled = true;
                        at += 2;
                        continue;
                    }
                    break;
                }
                i = at + 1;
                if (i < line.size() && line[i] != ',')
                    return rest(line.substr(fieldBegin));  // text after the closing quote
                m_fields.push_back(doubled ? unquote(line.substr(begin, at - begin)) : line.substr(begin, at - begin));
                if (i == line.size())
                    return true;
                ++i;
                continue;
            }
            const std::size_t comma = line.find(',', i);
            const std::size_t length = comma == std::string_view::npos ? std::string_view::npos : comma - i;
            const std::string_view field = line.substr(i, length);
            if (field.find('"') != std::string_view::npos)
                return rest(line.substr(fieldBegin));  // a quote inside an unquoted field
            m_fields.push_back(field);
            if (comma == std::string_view::npos)
                return true;
            i = comma + 1;
        }
    }
    const std::vector<std::string_view>& fields() const { return m_fields; }

private:
    // The rest of a line that no exporter writes, split as the header is (a quote opens or closes quoting anywhere).
    bool rest(std::string_view line)
    {
        auto fields = splitLine(line);
        if (!fields)
            return false;
        for (const std::string& f : *fields)
            m_fields.push_back(scratch() = f);
        return true;
    }

    std::string& scratch()
    {
        if (m_unquoted == m_strings.size())
            m_strings.push_back(std::make_unique<std::string>());
        return *m_strings[m_unquoted++];
    }
    std::string_view unquote(std::string_view quoted)
    {
        std::string& out = scratch();
        out.clear();
        for (std::size_t i = 0; i < quoted.size(); ++i) {
            out += quoted[i];
            if (quoted[i] == '"')
                ++i;  // the second of a doubled quote
        }
        return out;
    }

    std::vector<std::string_view> m_fields;
    std::vector<std::unique_ptr<std::string>> m_strings;  // stable: a view into one outlives growth of the list
    std::size_t m_unquoted = 0;
};

// A row as it is read: the run, and the durations its spans are rebuilt from once the whole row is in.
struct Row {
    RunResult run;
    SerialDurations durations;
    MachineSample machine;  // the machine's state the row's cells give; a reading where any of them is filled
    bool machineRead = false;
};

// One column: its name, how a run's row writes it, and how a read field goes back into the report (false when the
// text is malformed). Columns without `read` are derived from others and not read back. `accepted` lists the names
// a choice column takes, for the message about a value it does not. A column that is not `required` came later:
// files written before it keep the configuration's default. A column that is not `perRun` holds the device or the
// configuration, the same on every row.
struct CsvColumn {
    const char* name;
    std::function<void(const Report&, std::size_t, std::string&)> write;  // the report's run i (any i: not perRun)
    std::function<bool(std::string_view, Report&, Row&)> read;
    std::string accepted;
    bool required = true;
    bool perRun = true;
};

void appendNumber(std::string& out, double v)
{
    char text[32];
    out.append(text, std::to_chars(text, text + sizeof text, v).ptr);
}

template <class T>
void appendWhole(std::string& out, T v)
{
    char text[24];
    out.append(text, std::to_chars(text, text + sizeof text, v).ptr);
}

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
        nullptr);
}

// Two readings alike but for when they were taken.
bool sameReading(const MachineSample& a, const MachineSample& b)
{
    auto pids = [](const MachineSample& s) {
        std::vector<std::pair<std::uint32_t, std::string>> list;
        if (s.processes)
            for (const GpuProcess& p : *s.processes)
                list.emplace_back(p.pid, p.name);
        return list;
    };
    return a.smClockMHz == b.smClockMHz && a.smClockMaxMHz == b.smClockMaxMHz && a.memoryClockMHz == b.memoryClockMHz
        && a.memoryClockMaxMHz == b.memoryClockMaxMHz && a.clockReasons == b.clockReasons
        && a.temperatureC == b.temperatureC && a.powerW == b.powerW && a.linkGeneration == b.linkGeneration
        && a.linkWidth == b.linkWidth && a.linkGenerationMax == b.linkGenerationMax && a.linkWidthMax == b.linkWidthMax
        && a.processes.has_value() == b.processes.has_value() && pids(a) == pids(b);
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
    };
    return all;
}

constexpr std::size_t kBlock = std::size_t(4) << 20;
// The longest line read: a row holds about 40 fields, the longest a device name of kMaxNameBytes.
constexpr std::size_t kMaxCsvLineBytes = std::size_t(64) << 10;

}  // namespace

std::string csvField(const std::string& field)
{
    return quoted(field);
}

void writeCsv(std::ostream& out, const Report& report)
{
    const auto& all = runColumns();
    std::string text;
    for (std::size_t i = 0; i < all.size(); ++i)
        text += (i ? "," : "") + quoted(all[i].name);
    text += '\n';
    // The device's and the configuration's columns are the same on every row: written once, then copied.
    std::string fixedPart;
    std::size_t first = 0;
    for (; first < all.size() && !all[first].perRun; ++first) {
        all[first].write(report, 0, fixedPart);
        fixedPart += ',';
    }
    for (std::size_t run = 0; run < report.runs.size(); ++run) {
        text += fixedPart;
        for (std::size_t i = first; i < all.size(); ++i) {
            if (i > first)
                text += ',';
            all[i].write(report, run, text);
        }
        text += '\n';
        if (text.size() >= kBlock) {
            out.write(text.data(), std::streamsize(text.size()));
            text.clear();
        }
    }
    out.write(text.data(), std::streamsize(text.size()));
}

void writeComparisonCsv(std::ostream& out, const PlanReport& plan)
{
    const std::vector<SeriesSummary> summaries = summarizePlan(plan);
    const std::vector<Column> values = comparisonColumns(summaries);
    out << "Variant,Size (B),Chunks,Streams,Issue Order,Submission,Host Memory,Wait,Check,Samples";
    for (const Column& c : values)
        out << ',' << quoted(headerOf(c.name, c.kind));
    out << ",Peak Path,Verified,Not Run,Findings\n";  // the copy path each variant's peak figures were measured on
    const std::vector<Advice> advice = advisePlan(plan, summaries);
    for (std::size_t i = 0; i < plan.variants.size(); ++i) {
        const VariantResult& v = plan.variants[i];
        const PipelineConfig& c = v.report.config;
        out << quoted(v.label) << ',' << c.bytes() << ',' << c.chunks << ',' << c.streams << ',' << nameOf(c.order)
            << ',' << nameOf(c.submission) << ',' << nameOf(c.hostMemory) << ',' << nameOf(c.waitMode)
            << ',' << nameOf(c.checkMode) << ',' << summaries[i].measuredRuns;
        for (const Column& column : values) {
            const auto value = v.ran() ? headlineValue(summaries[i], column.key) : std::nullopt;
            out << ',' << (value ? number(*value) : std::string());
        }
        out << ',' << (v.ran() && v.report.peak ? nameOf(v.report.peak->path) : "");
        const bool verified = v.ran() && summaries[i].verifiedRuns == v.report.runs.size();
        // "transfer-bound (info); submit-bound (suggestion)": each finding's rule and severity.
        std::string findings;
        for (const Finding& f : advice[i].findings)
            findings += (findings.empty() ? "" : "; ") + f.rule + " (" + nameOf(f.severity) + ")";
        out << ',' << (verified ? 1 : 0) << ',' << quoted(v.notRun ? v.notRun->message() : std::string()) << ','
            << quoted(findings) << '\n';
    }
}

Result<Report> readCsv(std::istream& in, const ReadControl& control)
{
    ReadMeter meter(control);
    if (!meter.advance(0))
        return makeError(ErrorKind::Cancelled, "reading was cancelled");
    std::string buffer;
    std::size_t pos = 0;  // where the next line begins in `buffer`
    bool ended = false;
    bool lastLineEnded = true;  // the line given last ended with a line break (not with the file)
    enum class Got { Line, End, Cancelled, TooLong };
    // The next line, without its end. A line is never longer than kMaxCsvLineBytes: the buffer holds at most that
    // and a block, so a file of NULs or one endless line is refused after a block, not read whole.
    auto nextLine = [&](std::string_view& line) -> Got {
        for (;;) {
            const std::size_t end = buffer.find('\n', pos);
            if (end != std::string::npos || (ended && pos < buffer.size())) {
                const std::size_t stop = end == std::string::npos ? buffer.size() : end;
                if (stop - pos > kMaxCsvLineBytes)
                    return Got::TooLong;
                line = std::string_view(buffer).substr(pos, stop - pos);
                if (!line.empty() && line.back() == '\r')
                    line.remove_suffix(1);
                lastLineEnded = end != std::string::npos;
                pos = stop + 1;
                return Got::Line;
            }
            if (ended)
                return Got::End;
            if (buffer.size() - pos > kMaxCsvLineBytes)
                return Got::TooLong;
            buffer.erase(0, pos);
            pos = 0;
            const std::size_t got = readMore(in, buffer, kBlock);
            ended = got == 0;
            if (!meter.advance(got))
                return Got::Cancelled;
        }
    };
    const auto tooLong = [](std::size_t lineNumber) {
        return makeError(ErrorKind::Io,
            "line " + std::to_string(lineNumber) + " is longer than " + std::to_string(kMaxCsvLineBytes / 1024) +
                " KiB, which no row of an AsyncScope run export is: it is not one");
    };
    const auto rowError = [](std::size_t lineNumber, const FieldProblem& p) {
        return makeError(ErrorKind::Io, "line " + std::to_string(lineNumber) + ": " + p.field + " is " +
                (p.found.empty() ? std::string("empty") : quotedValue(p.found)) + "; accepted: " + p.accepted);
    };

    // The header first: the body is not read before the header shows the file is an export of ours.
    std::string_view line;
    Got got = nextLine(line);
    if (got == Got::Cancelled)
        return makeError(ErrorKind::Cancelled, "reading was cancelled");
    if (got == Got::TooLong)
        return tooLong(1);
    if (got == Got::End)
        return makeError(ErrorKind::Io, "the file is empty");
    if (line.substr(0, 3) == "\xEF\xBB\xBF")  // a byte-order mark, as spreadsheets write
        line.remove_prefix(3);
    // The file ends inside its header: no column can be trusted, and no run follows.
    if (!lastLineEnded)
        return makeError(ErrorKind::Io, "line 1 is cut short: the file ends inside the header, before any run");
    const auto header = splitLine(line);
    if (!header)
        return makeError(ErrorKind::Io, "line 1 has an unterminated quote");

    // Where each readable column sits in this file.
    struct Found {
        const CsvColumn* column;
        std::size_t at;
        std::string last;  // a device or configuration column: its text on the row read before
        bool read = false;
    };
    std::vector<Found> found;
    for (const CsvColumn& column : runColumns()) {
        if (!column.read)
            continue;
        std::size_t at = 0;
        while (at < header->size() && (*header)[at] != column.name)
            ++at;
        if (at == header->size() && !column.required)
            continue;
        if (at == header->size())
            return makeError(ErrorKind::Io,
                std::string("the CSV has no '") + column.name + "' column, so it is not an AsyncScope run export");
        found.push_back({ &column, at, {} });
    }

    Report report;
    if (control.totalBytes > 0 && line.size() > 0)
        report.runs.reserve(std::size_t(std::min<std::uintmax_t>(control.totalBytes / (line.size() + 1), 1u << 28)));
    RowSplitter splitter;
    std::string repaired;  // a cell made well-formed UTF-8
    for (std::size_t lineNumber = 2;; ++lineNumber) {
        got = nextLine(line);
        if (got == Got::Cancelled)
            return makeError(ErrorKind::Cancelled, "reading was cancelled");
        if (got == Got::TooLong)
            return tooLong(lineNumber);
        if (got == Got::End)
            break;
        if (line.empty())
            continue;
        if (!splitter.split(line)) {
            if (!lastLineEnded)
                return makeError(ErrorKind::Io,
                    "line " + std::to_string(lineNumber) + " is cut short: the file ends inside a quoted field");
            return makeError(ErrorKind::Io, "line " + std::to_string(lineNumber) + " has an unterminated quote");
        }
        const auto& fields = splitter.fields();
        if (fields.size() < header->size() && !lastLineEnded)
            return makeError(ErrorKind::Io,
                "line " + std::to_string(lineNumber) + " is cut short: the file ends after " +
                    std::to_string(fields.size()) + " of the header's " + std::to_string(header->size()) + " fields");
        if (fields.size() != header->size())
            return makeError(ErrorKind::Io,
                "line " + std::to_string(lineNumber) + " has " + std::to_string(fields.size()) +
                    " fields, the header " +
                    std::to_string(header->size()));
        Row row;
        bool fixedRead = false;
        for (Found& f : found) {
            std::string_view text = fields[f.at];
            if (!f.column->perRun) {
                if (f.read && text == f.last)
                    continue;  // as on the row before: read already
                f.last = text;
                f.read = true;
                fixedRead = true;
            }
            // A text the file gives is taken as well-formed UTF-8 (U+FFFD for each byte that is not), so that every
            // writer of it can write it: JSON refuses anything else.
            if (!isValidUtf8(text)) {
                repaired = validUtf8(text);
                text = repaired;
            }
            if (!f.column->read(text, report, row)) {
                const std::string problem = std::string("column '") + f.column->name + "': '" + quotedValue(text) +
                    "' is not " + (f.column->accepted.empty() ? std::string("a valid value") : f.column->accepted);
                if (!lastLineEnded)  // the file ends inside this row: what it holds is what was cut
                    return makeError(ErrorKind::Io, "line " + std::to_string(lineNumber) +
                            " is cut short: the file ends inside the row, a value not whole (" + problem + ")");
                return makeError(ErrorKind::Io, "line " + std::to_string(lineNumber) + ", " + problem);
            }
        }
        if (fixedRead) {  // the device or the configuration read anew: held to the rules every reader applies
            if (auto bad = checkDevice(report.device))
                return rowError(lineNumber, *bad);
            if (auto bad = checkConfig(report.config))
                return rowError(lineNumber, *bad);
            if (report.outcome) {
                if (auto bad = checkHostRegistration(*report.outcome, {}))
                    return rowError(lineNumber, *bad);
            }
        }
        if (!lastLineEnded)  // every value whole, but the writer ends every row with a line break
            return makeError(ErrorKind::Io, "line " + std::to_string(lineNumber) +
                    " is cut short: the file ends inside the row, with no line break after its last value");
        if (row.machineRead) {
            // A reading where the row's cells differ from the row before's: one per reading the series took, at most.
            if (!report.machine)
                report.machine.emplace();
            auto& samples = report.machine->samples;
            row.machine.atMs = row.run.startMs;
            if (samples.empty() || !sameReading(samples.back(), row.machine)) {
                if (samples.size() >= kMaxMachineSamplesRead)
                    return makeError(ErrorKind::Io, "line " + std::to_string(lineNumber) + ": more than "
                            + std::to_string(kMaxMachineSamplesRead) + " different readings of the machine");
                samples.push_back(row.machine);
            }
        }
        row.durations.bytes = report.config.bytes();
        row.run.spans = serialSpans(report.device.index, row.durations);
        if (auto bad = checkRun(row.run, report.config)) {
            if (!lastLineEnded)
                return makeError(ErrorKind::Io, "line " + std::to_string(lineNumber) +
                        " is cut short: the file ends inside the row, a value not whole (" + bad->field + " is " +
                        (bad->found.empty() ? std::string("empty") : quotedValue(bad->found)) + ")");
            return rowError(lineNumber, *bad);
        }
        report.runs.push_back(row.run);
    }
    if (report.runs.empty())
        return makeError(ErrorKind::Io, "the CSV has a header but no runs");
    report.config.runs = 0;
    report.config.warmupRuns = 0;
    for (std::size_t i = 0; i < report.runs.size(); ++i)
        ++(report.runs.warmup(i) ? report.config.warmupRuns : report.config.runs);
    if (report.outcome)  // made by the registration's columns: the file says nothing more of how the series ended
        report.outcome->measuredRuns = report.config.runs;
    return report;
}

}  // namespace asyncscope

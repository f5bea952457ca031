#include "engine/io/chrome_trace.hpp"

#include "engine/io/chrome_trace_layout.hpp"
#include "engine/io/chrome_trace_names.hpp"

#include "engine/io/json/header_blocks.hpp"
#include "engine/model/advice.hpp"
#include "engine/model/call_names.hpp"
#include "engine/model/kernel_names.hpp"
#include "engine/model/size_parse.hpp"
#include "engine/model/trace_labels.hpp"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <cmath>
#include <set>
#include <string>
#include <unordered_map>
#include <vector>

namespace asyncscope {

// Keys in the order they are written: name, category, phase and times first, as the format's own examples have them.
using json = nlohmann::ordered_json;

using namespace chrome_trace;

namespace {

// The series as otherData describes it: device, configuration, where the spans come from and how they line up.
json seriesInfo(const Report& report, const Scan& found, const Advice& advice)
{
    const PipelineConfig& c = report.config;
    const std::size_t runs = report.runs.size();
    std::size_t warmups = 0;
    for (std::size_t i = 0; i < runs; ++i)
        warmups += report.runs.warmup(i) ? 1 : 0;
    json j = { { "device", deviceName(report) }, { "config", configText(c) }, { "size", formatBytes(c.bytes()) },
        { "bytes", c.bytes() }, { "chunks", c.chunks }, { "streams", c.streams }, { "order", nameOf(c.order) },
        { "submission", nameOf(c.submission) }, { "host_memory", nameOf(c.hostMemory) }, { "wait", nameOf(c.waitMode) },
        { "check", nameOf(c.checkMode) }, { "copy", nameOf(c.copy) }, { "runs", runs }, { "warmup_runs", warmups } };
    if (c.hostMemory == HostMemory::Managed) {
        j["managed_migration"] = nameOf(c.managedMigration);
        j["managed_advice"] = nameOf(c.managedAdvice);
    }
    if (c.submission == Submission::Batch)
        j["prefer_overlap"] = c.preferOverlap;
    if (report.outcome && report.outcome->hostRegisterMs) {
        j["host_register_ms"] = *report.outcome->hostRegisterMs;
        if (report.outcome->hostUnregisterMs)
            j["host_unregister_ms"] = *report.outcome->hostUnregisterMs;
        j["host_registered_bytes"] = report.outcome->hostRegisteredBytes;
    }
    const char* events = "GPU spans: CUDA events, 0 = start event recorded as submission begins; CPU spans: host "
                         "steady clock, 0 = submission begins";
    const char* cupti = "CUPTI: one clock for GPU spans and runtime calls, 0 = its reading as submission begins; "
                        "submit, wait and check: host steady clock, 0 = submission begins";
    if (found.tracedRuns == 0) {
        j["trace_source"] = nameOf(TraceSource::Events);
        j["clock_alignment"] = events;
    } else if (found.tracedRuns == runs) {
        j["trace_source"] = nameOf(TraceSource::Cupti);
        j["clock_alignment"] = cupti;
    } else {
        j["trace_source"] = "cupti where a run was traced, events otherwise";
        j["clock_alignment"] = std::string(cupti) + ". Runs without traced spans: " + events;
    }
    if (report.outcome && !report.outcome->traceNote.empty())
        j["trace_note"] = report.outcome->traceNote;
    if (const std::string note = hiddenTransferNote(c, found.migrations); !note.empty())
        j["memory_note"] = note;
    j["layout"] = hasStartTimes(report)
        ? "each run at its start: host clock, ms since the series' first submission"
        : "runs end to end: the report holds no start times";
    if (report.machine) {
        j["machine"] = report.machine->read() ? report.machine->source : "not read: " + report.machine->unavailable;
        j["machine_readings"] = report.machine->samples.size();
    }
    j["findings"] = json_header::findingsJson(advice);
    j["not_checked"] = json_header::notCheckedJson(advice);
    return j;
}

json header(const char* source)
{
    json j = { { "format", kChromeTraceFormatName }, { "format_version", kChromeTraceFormatVersion } };
#ifdef ASYNCSCOPE_VERSION
    j["asyncscope_version"] = ASYNCSCOPE_VERSION;
#endif
    j["source"] = source;
    return j;
}

// The trace file: otherData, then the events one at a time, each dumped by nlohmann.
class TraceWriter {
public:
    TraceWriter(std::ostream& out, const json& otherData)
        : m_out(out)
    {
        m_out << "{\"otherData\": " << dumped(otherData) << ",\n\"displayTimeUnit\": \"ms\",\n\"traceEvents\": [";
    }
    ~TraceWriter() { m_out << "\n]}\n"; }
    TraceWriter(const TraceWriter&) = delete;
    TraceWriter& operator=(const TraceWriter&) = delete;

    void event(const json& e)
    {
        m_out << (m_first ? "\n" : ",\n") << dumped(e);
        m_first = false;
    }

    // The process's name and place, and each of its tracks'.
    void names(int pid, const std::string& process, const std::set<int>& tracks)
    {
        event({ { "name", "process_name" }, { "ph", "M" }, { "pid", pid }, { "args", { { "name", process } } } });
        event({ { "name", "process_sort_index" }, { "ph", "M" }, { "pid", pid },
            { "args", { { "sort_index", pid } } } });
        for (int tid : tracks) {
            event({ { "name", "thread_name" }, { "ph", "M" }, { "pid", pid }, { "tid", tid },
                { "args", { { "name", trackName(tid) } } } });
            event({ { "name", "thread_sort_index" }, { "ph", "M" }, { "pid", pid }, { "tid", tid },
                { "args", { { "sort_index", sortIndex(tid) } } } });
        }
    }

    // One "C" event: the counter `name`'s value at `atMs`, named `unit` (Perfetto names the track by both).
    void counter(const char* name, double atMs, int pid, const char* unit, double value)
    {
        event({ { "name", name }, { "cat", "machine" }, { "ph", "C" }, { "ts", microseconds(atMs) }, { "pid", pid },
            { "args", { { unit, value } } } });
    }

    // One "i" event of process `pid`, drawn across its tracks, at `atMs`.
    void instant(const std::string& name, const char* category, double atMs, int pid, json args)
    {
        event({ { "name", name }, { "cat", category }, { "ph", "i" }, { "s", "p" }, { "ts", microseconds(atMs) },
            { "pid", pid }, { "tid", kRunsTid }, { "args", std::move(args) } });
    }

    // One "X" event, ts and dur in µs to the ns (what the spans resolve; no float noise in the file), a span that
    // ends where another begins ending at the same ns. The event's object is reused: only its values change.
    void complete(const char* name, const char* category, double beginMs, double endMs, int pid, int tid, json args)
    {
        const double beginNs = std::round(beginMs * 1e6);
        const double endNs = std::max(std::round(endMs * 1e6), beginNs);
        m_x["name"] = name;
        m_x["cat"] = category;
        m_x["ts"] = beginNs / 1e3;
        m_x["dur"] = (endNs - beginNs) / 1e3;
        m_x["pid"] = pid;
        m_x["tid"] = tid;
        m_x["args"] = std::move(args);
        event(m_x);
    }

private:
    static double microseconds(double ms) { return std::round(ms * 1e6) / 1e3; }

    // A device name or a label that is not valid UTF-8 (from a CSV file) is written with replacement characters.
    static std::string dumped(const json& j) { return j.dump(-1, ' ', false, json::error_handler_t::replace); }

    std::ostream& m_out;
    bool m_first = true;
    json m_x = { { "name", "" }, { "cat", "" }, { "ph", "X" }, { "ts", 0.0 }, { "dur", 0.0 }, { "pid", 0 },
        { "tid", 0 }, { "args", json::object() } };
};

json spanArgs(const RunStore& runs, std::size_t i, const Span& s, const PipelineConfig& config)
{
    const WaitMode wait = config.waitMode;
    json args = { { "run", runs.index(i) }, { "warmup", runs.warmup(i) } };
    if (onGpu(s.kind) && !isMigration(s.kind)) {
        args["stream"] = s.stream;
        args["chunk"] = s.chunk;
    }
    if (s.kind == SpanKind::H2D || s.kind == SpanKind::D2H) {
        if (const std::string mechanism = copyMechanismText(config); !mechanism.empty())
            args["copy"] = mechanism;
    }
    if (s.bytes > 0) {
        args["bytes"] = s.bytes;
        if (onGpu(s.kind) && s.ms() > 0.0)
            args["GB/s"] = double(s.bytes) / (s.ms() * 1e6);
    }
    if (s.kind == SpanKind::Wait && wait == WaitMode::Spin)
        args["poll_iterations"] = runs.pollIterations(i);
    return args;
}

// A recorded program's names for its spans, each worked out once: a kernel's demangled, a call's without suffixes.
class GivenNames {
public:
    explicit GivenNames(const Report& report) : m_program(report.program ? &*report.program : nullptr) {}

    const std::string* of(const Span& s)
    {
        if (!m_program || s.name == 0 || (s.kind != SpanKind::Kernel && s.kind != SpanKind::Api))
            return nullptr;
        const auto known = m_names.find(s.name);
        if (known != m_names.end())
            return known->second.empty() ? nullptr : &known->second;
        const std::string_view name = spanNameIn(*m_program, s.name);
        std::string& given = m_names[s.name];
        given = name.empty() ? std::string() : s.kind == SpanKind::Kernel ? demangledName(name) : callBaseName(name);
        return given.empty() ? nullptr : &given;
    }

private:
    const ProgramInfo* m_program;
    std::unordered_map<std::uint32_t, std::string> m_names;
};

// Every run of the series in process `pid`, `shiftMs` added to every time so that none is below 0.
void writeRuns(TraceWriter& writer, const Report& report, int pid, double shiftMs)
{
    const PipelineConfig& config = report.config;
    GivenNames names(report);
    forEachPlacedRun(report, [&](const RunSpans& spans, const Extent& extent, double at) {
        const RunStore& runs = spans.runs;
        const std::size_t i = spans.i;
        const double origin = shiftMs + at;
        json args = { { "run", runs.index(i) }, { "warmup", runs.warmup(i) }, { "gpu_time_ms", runs.gpuMs(i) },
            { "cpu_submit_ms", runs.cpuSubmitMs(i) }, { "verified", runs.verified(i) },
            { "gpu_spans", spans.traced ? "cupti" : "events" } };
        if (!runs.verified(i))
            args["first_wrong_index"] = runs.firstWrongIndex(i);
        const std::string name = "run " + std::to_string(runs.index(i));
        writer.complete(name.c_str(), "run", origin + extent.runBegin, origin + extent.runEnd, pid, kRunsTid,
            std::move(args));
        spans.forEach([&](const Span& s, int tid) {
            const std::string* given = names.of(s);
            writer.complete(given ? given->c_str() : spanName(s, config).c_str(), nameOf(s.kind), origin + s.beginMs,
                origin + s.endMs, pid, tid, spanArgs(runs, i, s, config));
        });
    });
}

// The machine's readings in process `pid`, `shiftMs` added to every time: counters for the SM clock, the power and the
// temperature at each reading (of those before the first moment shown, the last, at it), and a slice per stretch in
// which another process held a context on the GPU, on tracks of their own.
void writeMachine(TraceWriter& writer, const Report& report, int pid, double shiftMs)
{
    if (!showsMachine(report))
        return;
    const MachineState& m = *report.machine;
    std::size_t first = 0;
    while (first + 1 < m.samples.size() && m.samples[first + 1].atMs + shiftMs <= 0.0)
        ++first;
    for (std::size_t k = first; k < m.samples.size(); ++k) {
        const MachineSample& s = m.samples[k];
        const double at = std::max(0.0, shiftMs + s.atMs);
        if (s.smClockMHz)
            writer.counter("SM clock", at, pid, "MHz", *s.smClockMHz);
        if (s.powerW)
            writer.counter("GPU power", at, pid, "W", *s.powerW);
        if (s.temperatureC)
            writer.counter("GPU temperature", at, pid, "C", *s.temperatureC);
    }
    bool selfAmong = false;
    for (const ProcessStretch& p : processStretches(m, selfAmong)) {
        json args = { { "pid", p.process.pid } };
        if (!p.process.name.empty())
            args["name"] = p.process.name;
        args["seen_from_ms"] = p.firstMs;
        args["seen_to_ms"] = p.lastMs;
        args["readings"] = p.readings;
        if (p.process.usedBytes > 0)
            args["most_used_bytes"] = p.process.usedBytes;
        if (selfAmong)
            args["note"] = "this process's PID could not be told: it may be one of the processes listed";
        const std::string name =
            "PID " + std::to_string(p.process.pid) + (p.process.name.empty() ? "" : " " + p.process.name);
        writer.complete(name.c_str(), "machine", std::max(0.0, shiftMs + p.firstMs), std::max(0.0, shiftMs + p.lastMs),
            pid, p.tid, std::move(args));
    }
}

// The findings as instant events of process `pid` at the first moment shown: {rule, title, severity, evidence, action,
// and the runs they concern}.
void writeFindings(TraceWriter& writer, const Report& report, const Advice& advice, int pid)
{
    if (report.runs.empty())
        return;
    for (const Finding& f : advice.findings) {
        json args = { { "rule", f.rule }, { "title", f.title }, { "severity", nameOf(f.severity) },
            { "evidence", f.evidence }, { "action", f.action } };
        if (!f.runs.empty())
            args["runs"] = runRangesText(f.runs);
        writer.instant(f.title + " (" + nameOf(f.severity) + ")", "advice", 0.0, pid, std::move(args));
    }
}

}  // namespace

void writeChromeTrace(std::ostream& out, const Report& report, const Assessment& assessed)
{
    const Scan found = scan(report);
    const Advice& advice = assessed.advice;
    json other = header("series");
    other.update(seriesInfo(report, found, advice));
    TraceWriter writer(out, other);
    constexpr int pid = 1;
    if (!report.runs.empty())
        writer.names(pid, deviceName(report), found.tracks);
    writeFindings(writer, report, advice, pid);
    writeRuns(writer, report, pid, -found.earliestMs);
    writeMachine(writer, report, pid, -found.earliestMs);
}

void writeChromeTrace(std::ostream& out, const PlanReport& plan, const std::vector<Assessment>& assessed)
{
    std::vector<Scan> scans;
    double earliestMs = 0.0;
    json variants = json::array();
    for (std::size_t i = 0; i < plan.variants.size(); ++i) {
        const VariantResult& v = plan.variants[i];
        scans.push_back(scan(v.report));
        earliestMs = std::min(earliestMs, scans.back().earliestMs);
        json info = seriesInfo(v.report, scans.back(), assessed.at(i).advice);
        info["variant"] = v.label;
        if (v.notRun)
            info["not_run"] = v.notRun->message();
        if (v.failure)
            info["failure"] = v.failure->message();
        variants.push_back(std::move(info));
    }
    json other = header(plan.comparison ? nameOf(*plan.comparison) : "series");
    other["planned"] = plan.planned;
    other["layout"] = "one process per variant; each variant's series starts at 0, so variants line up";
    other["variants"] = std::move(variants);
    TraceWriter writer(out, other);
    for (std::size_t i = 0; i < plan.variants.size(); ++i) {
        const VariantResult& v = plan.variants[i];
        if (!v.report.runs.empty())
            writer.names(int(i) + 1, v.label + " · " + deviceName(v.report), scans[i].tracks);
    }
    for (std::size_t i = 0; i < plan.variants.size(); ++i) {
        writeFindings(writer, plan.variants[i].report, assessed.at(i).advice, int(i) + 1);
        writeRuns(writer, plan.variants[i].report, int(i) + 1, -earliestMs);
        writeMachine(writer, plan.variants[i].report, int(i) + 1, -earliestMs);
    }
}

}  // namespace asyncscope

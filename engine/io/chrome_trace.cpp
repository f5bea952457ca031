#include "engine/io/chrome_trace.hpp"

#include "engine/io/json/header_blocks.hpp"
#include "engine/model/advice.hpp"
#include "engine/model/size_parse.hpp"
#include "engine/model/trace_labels.hpp"
#include "engine/run/plan_advice.hpp"
#include "engine/run/plan_summary.hpp"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <array>
#include <cmath>
#include <limits>
#include <map>
#include <optional>
#include <set>
#include <string>
#include <vector>

namespace asyncscope {

// Keys in the order they are written: name, category, phase and times first, as the format's own examples have them.
using json = nlohmann::ordered_json;

namespace {

// The tracks of a device's process, as thread ids; streams take kStreamTid0 + their number.
constexpr int kRunsTid = 1;
constexpr int kSubmitTid = 2;
constexpr int kCallsTid = 3;
constexpr int kCheckTid = 4;
// Page migrations to the device and to the host, each on lanes of their own where they overlap (a track's slices
// must nest or follow one another).
constexpr int kMigrateH2DTid0 = 10;
constexpr int kMigrateD2HTid0 = 30;
constexpr int kMigrationLanes = 16;
constexpr int kStreamTid0 = 100;
// Other processes while the machine's readings saw them on the GPU, each on a lane of its own where they overlap.
constexpr int kOtherProcessesTid0 = 50;
constexpr int kOtherProcessLanes = 16;

bool migrationTrack(int tid)
{
    return tid >= kMigrateH2DTid0 && tid < kMigrateD2HTid0 + kMigrationLanes;
}

bool otherProcessTrack(int tid)
{
    return tid >= kOtherProcessesTid0 && tid < kOtherProcessesTid0 + kOtherProcessLanes;
}

// Runs, then the submitting thread and its runtime calls, then the other processes on the GPU, then the streams, then
// the page migrations, then the check threads.
int sortIndex(int tid)
{
    if (tid == kCheckTid)
        return std::numeric_limits<int>::max();
    if (otherProcessTrack(tid))
        return kCheckTid + 1 + tid - kOtherProcessesTid0;
    return migrationTrack(tid) ? std::numeric_limits<int>::max() - 100 + tid - kMigrateH2DTid0 : tid;
}

std::string trackName(int tid)
{
    switch (tid) {
    case kRunsTid: return "Runs";
    case kSubmitTid: return "CPU · submit & wait";
    case kCallsTid: return "CPU · runtime calls (CUPTI)";
    case kCheckTid: return "CPU · check threads";
    default: break;
    }
    if (otherProcessTrack(tid)) {
        const int lane = tid - kOtherProcessesTid0;
        return "Other processes on the GPU" + (lane > 0 ? " " + std::to_string(lane + 1) : std::string());
    }
    if (migrationTrack(tid)) {
        const bool toDevice = tid < kMigrateD2HTid0;
        const int lane = tid - (toDevice ? kMigrateH2DTid0 : kMigrateD2HTid0);
        return std::string("GPU · page migrations to the ") + (toDevice ? "device" : "host") + " (unified memory)" +
            (lane > 0 ? " " + std::to_string(lane + 1) : "");
    }
    return "Stream " + std::to_string(tid - kStreamTid0);
}

// CPU spans: the check threads' (stream 1, or a Check span) or the thread's that submits and waits.
int cpuTid(const Span& s)
{
    return s.kind == SpanKind::Check || s.stream == 1 ? kCheckTid : kSubmitTid;
}

bool hasGpuSpans(const RunStore::SpanView& spans)
{
    for (std::size_t k = 0; k < spans.size(); ++k) {
        if (onGpu(spans.kind(k)))
            return true;
    }
    return false;
}

// The spans a run shows: GPU operations from CUPTI where it saw them, else from the events; submit, wait and check
// from the host clock; runtime calls where CUPTI traced them.
struct RunSpans {
    RunSpans(const RunStore& runs, std::size_t i)
        : runs(runs)
        , i(i)
        , spanList(runs.spans(i))
        , tracedList(runs.traced(i))
        , traced(hasGpuSpans(tracedList))
    {
    }

    // Calls f(span, tid) for each span in a fixed order: GPU, CPU, runtime calls. A page migration goes on the
    // first lane of its direction free when it begins (in the order the spans come, by their begin).
    template <class F>
    void forEach(F&& f) const
    {
        std::array<std::array<double, kMigrationLanes>, 2> laneEnds;
        for (auto& lanes : laneEnds)
            lanes.fill(-std::numeric_limits<double>::infinity());
        for (const Span& s : traced ? tracedList : spanList) {
            if (isMigration(s.kind)) {
                auto& lanes = laneEnds[s.kind == SpanKind::MigrateH2D ? 0 : 1];
                int lane = 0;
                while (lane + 1 < kMigrationLanes && lanes[std::size_t(lane)] > s.beginMs)
                    ++lane;
                lanes[std::size_t(lane)] = std::max(lanes[std::size_t(lane)], s.endMs);
                f(s, (s.kind == SpanKind::MigrateH2D ? kMigrateH2DTid0 : kMigrateD2HTid0) + lane);
            } else if (onGpu(s.kind)) {
                f(s, kStreamTid0 + s.stream);
            }
        }
        for (const Span& s : spanList) {
            if (!onGpu(s.kind) && s.kind != SpanKind::Api)
                f(s, cpuTid(s));
        }
        for (const Span& s : tracedList) {
            if (s.kind == SpanKind::Api)
                f(s, kCallsTid);
        }
    }

    const RunStore& runs;
    std::size_t i;  // the run
    RunStore::SpanView spanList;
    RunStore::SpanView tracedList;
    bool traced;  // its GPU spans come from CUPTI
};

// A run's extent in ms from its start: of all its spans, and of the run event (everything but the check, which
// may overlap the next run).
struct Extent {
    double first = 0.0, last = 0.0;
    double runBegin = 0.0, runEnd = 0.0;
};

Extent extentOf(const RunSpans& spans)
{
    constexpr double inf = std::numeric_limits<double>::infinity();
    double first = inf, last = -inf, runBegin = inf, runEnd = -inf;
    spans.forEach([&](const Span& s, int tid) {
        first = std::min(first, s.beginMs);
        last = std::max(last, s.endMs);
        if (tid != kCheckTid) {
            runBegin = std::min(runBegin, s.beginMs);
            runEnd = std::max(runEnd, s.endMs);
        }
    });
    Extent e;
    e.runBegin = runBegin <= runEnd ? runBegin : 0.0;
    e.runEnd = runBegin <= runEnd ? runEnd : std::max(spans.runs.gpuMs(spans.i), 0.0);
    e.first = first <= last ? std::min(first, e.runBegin) : e.runBegin;
    e.last = first <= last ? std::max(last, e.runEnd) : e.runEnd;
    return e;
}

bool hasStartTimes(const Report& report)
{
    for (std::size_t i = 0; i < report.runs.size(); ++i) {
        if (report.runs.startMs(i) != 0.0)
            return true;
    }
    return false;
}

// Calls f(spans, extent, at) for each run of the series, `at` being where it begins on the series' axis in ms: its
// start time, or where the run before it ended when the report holds no start times.
template <class F>
void forEachPlacedRun(const Report& report, F&& f)
{
    const bool byStart = hasStartTimes(report);
    double cursor = 0.0;
    for (std::size_t i = 0; i < report.runs.size(); ++i) {
        const RunSpans spans(report.runs, i);
        const Extent extent = extentOf(spans);
        const double at = byStart ? report.runs.startMs(i) : cursor;
        cursor = std::max(cursor, at + extent.last);
        f(spans, extent, at);
    }
}

// A stretch of the machine's readings in which one other process held a context on the GPU: from the first reading
// that listed it to the last before one that listed processes without it. A reading that could not list them, or
// that listed only the one process that may be this one (its PID unknown), neither begins nor ends a stretch.
struct ProcessStretch {
    GpuProcess process;  // its name where some reading gave one; the most device memory a reading saw it hold
    double firstMs = 0.0, lastMs = 0.0;  // the readings' times
    std::size_t readings = 0;
    int tid = kOtherProcessesTid0;
};

// The stretches of `machine`'s readings by their first reading, each on the first lane free when it begins (the last
// lane where none is). `selfAmong`: this process's PID was unknown while others were listed, so it is among them.
std::vector<ProcessStretch> processStretches(const MachineState& machine, bool& selfAmong)
{
    std::vector<ProcessStretch> done;
    std::map<std::uint32_t, ProcessStretch> open;
    selfAmong = false;
    for (const MachineSample& sample : machine.samples) {
        const OtherProcesses others = otherProcesses(sample, machine.selfPid);
        if (!sample.processes || (others.selfAmong && others.processes.size() <= 1))
            continue;
        selfAmong = selfAmong || others.selfAmong;
        std::set<std::uint32_t> listed;
        for (const GpuProcess& p : others.processes) {
            if (!listed.insert(p.pid).second)
                continue;  // listed twice in one reading
            auto [it, fresh] = open.try_emplace(p.pid);
            ProcessStretch& s = it->second;
            if (fresh) {
                s.process.pid = p.pid;
                s.firstMs = sample.atMs;
            }
            if (s.process.name.empty())
                s.process.name = p.name;
            s.process.usedBytes = std::max(s.process.usedBytes, p.usedBytes);
            s.lastMs = sample.atMs;
            ++s.readings;
        }
        for (auto it = open.begin(); it != open.end();) {
            if (listed.count(it->first)) {
                ++it;
                continue;
            }
            done.push_back(std::move(it->second));
            it = open.erase(it);
        }
    }
    for (auto& entry : open)
        done.push_back(std::move(entry.second));
    std::stable_sort(done.begin(), done.end(),
        [](const ProcessStretch& a, const ProcessStretch& b) { return a.firstMs < b.firstMs; });
    std::array<double, kOtherProcessLanes> laneEnds;
    laneEnds.fill(-std::numeric_limits<double>::infinity());
    for (ProcessStretch& s : done) {
        int lane = 0;
        while (lane + 1 < kOtherProcessLanes && laneEnds[std::size_t(lane)] > s.firstMs)
            ++lane;
        laneEnds[std::size_t(lane)] = std::max(laneEnds[std::size_t(lane)], s.lastMs);
        s.tid = kOtherProcessesTid0 + lane;
    }
    return done;
}

// The machine's readings a trace shows: a series' with start times (the readings' times are on the runs' clock).
bool showsMachine(const Report& report)
{
    return report.machine && !report.machine->samples.empty() && hasStartTimes(report);
}

// What the first pass over a series finds: the tracks it uses, its earliest moment, where its GPU spans come from.
struct Scan {
    std::set<int> tracks;
    double earliestMs = 0.0;
    std::size_t tracedRuns = 0;
    bool migrations = false;  // some run has page migrations of its own
};

Scan scan(const Report& report)
{
    Scan s;
    forEachPlacedRun(report, [&](const RunSpans& spans, const Extent& extent, double at) {
        s.tracks.insert(kRunsTid);
        s.earliestMs = std::min(s.earliestMs, at + extent.first);
        s.tracedRuns += spans.traced ? 1 : 0;
        spans.forEach([&](const Span&, int tid) {
            s.tracks.insert(tid);
            s.migrations = s.migrations || migrationTrack(tid);
        });
    });
    if (showsMachine(report)) {
        bool selfAmong = false;
        for (const ProcessStretch& p : processStretches(*report.machine, selfAmong))
            s.tracks.insert(p.tid);
    }
    return s;
}

std::string deviceName(const Report& report)
{
    return "GPU " + std::to_string(report.device.index) + ": " + report.device.name;
}

std::string configText(const PipelineConfig& c)
{
    std::string text = formatBytes(c.bytes()) + ", K = " + std::to_string(c.chunks) + ", S = " +
        std::to_string(c.streams);
    if (c.chunks > 1)
        text += c.order == IssueOrder::ByChunk ? ", by chunk" : ", by stage";
    text += c.submission == Submission::Graph ? ", CUDA Graph"
        : c.submission == Submission::Batch  ? ", cudaMemcpyBatchAsync"
                                             : ", stream calls";
    text += ", " + std::string(nameOf(c.hostMemory)) + " host memory";
    if (c.hostMemory == HostMemory::Managed)
        text += " (" + std::string(nameOf(c.managedMigration)) + ")";
    if (const std::string mechanism = copyMechanismText(c); !mechanism.empty())
        text += ", copies: " + mechanism;
    return text + ", " + nameOf(c.waitMode) + " wait, " + nameOf(c.checkMode) + " check";
}

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

// A span's event name: its kind's (the copies named by what makes them: "H2D (SM copy kernel)" where a kernel
// copies), the wait by how it waits.
std::string spanName(const Span& s, const PipelineConfig& config)
{
    if (s.kind == SpanKind::Wait)
        return config.waitMode == WaitMode::Spin ? "wait (poll)" : "wait (blocking sync)";
    return spanTitle(s, config);
}

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

// Every run of the series in process `pid`, `shiftMs` added to every time so that none is below 0.
void writeRuns(TraceWriter& writer, const Report& report, int pid, double shiftMs)
{
    const PipelineConfig& config = report.config;
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
            writer.complete(spanName(s, config).c_str(), nameOf(s.kind), origin + s.beginMs, origin + s.endMs, pid,
                tid, spanArgs(runs, i, s, config));
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

void writeChromeTrace(std::ostream& out, const Report& report)
{
    const Scan found = scan(report);
    const Advice advice = judgeSeries(report, summarizeSeries(report));
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

void writeChromeTrace(std::ostream& out, const PlanReport& plan)
{
    std::vector<Scan> scans;
    double earliestMs = 0.0;
    json variants = json::array();
    const std::vector<Advice> advice = advisePlan(plan, summarizePlan(plan));  // each variant beside the others
    for (std::size_t i = 0; i < plan.variants.size(); ++i) {
        const VariantResult& v = plan.variants[i];
        scans.push_back(scan(v.report));
        earliestMs = std::min(earliestMs, scans.back().earliestMs);
        json info = seriesInfo(v.report, scans.back(), advice[i]);
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
        writeFindings(writer, plan.variants[i].report, advice[i], int(i) + 1);
        writeRuns(writer, plan.variants[i].report, int(i) + 1, -earliestMs);
        writeMachine(writer, plan.variants[i].report, int(i) + 1, -earliestMs);
    }
}

}  // namespace asyncscope

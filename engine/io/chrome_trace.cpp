#include "engine/io/chrome_trace.hpp"

#include "engine/io/json/header_blocks.hpp"
#include "engine/model/advice.hpp"
#include "engine/model/size_parse.hpp"
#include "engine/model/trace_labels.hpp"

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
constexpr int kOtherProcessesTid = 5;  // other processes while the machine's readings saw them on the GPU

bool migrationTrack(int tid)
{
    return tid >= kMigrateH2DTid0 && tid < kMigrateD2HTid0 + kMigrationLanes;
}

// Runs, then the submitting thread and its runtime calls, then the streams, then the page migrations, then the
// check threads.
int sortIndex(int tid)
{
    if (tid == kCheckTid)
        return std::numeric_limits<int>::max();
    return migrationTrack(tid) ? std::numeric_limits<int>::max() - 100 + tid - kMigrateH2DTid0 : tid;
}

std::string trackName(int tid)
{
    switch (tid) {
    case kRunsTid: return "Runs";
    case kSubmitTid: return "CPU · submit & wait";
    case kCallsTid: return "CPU · runtime calls (CUPTI)";
    case kCheckTid: return "CPU · check threads";
    case kOtherProcessesTid: return "Other processes on the GPU";
    default: break;
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
json seriesInfo(const Report& report, const Scan& found)
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
    const Advice advice = judgeSeries(report, summarizeSeries(report));
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

// The machine's readings in process `pid`: counters for the SM clock, the power and the temperature, and a span per
// other process on the GPU from the first reading that listed it to the last, on a track of their own.
void writeMachine(TraceWriter& writer, const Report& report, int pid, double shiftMs)
{
    if (!report.machine || report.machine->samples.empty() || !hasStartTimes(report))
        return;
    const MachineState& m = *report.machine;
    struct Seen {
        double first = 0.0, last = 0.0;
        std::string name;
    };
    std::map<std::uint32_t, Seen> seen;
    for (const MachineSample& s : m.samples) {
        const double ts = std::max(0.0, shiftMs + s.atMs) * 1e3;
        auto counter = [&](const char* name, const char* unit, std::optional<double> value) {
            if (value)
                writer.event({ { "name", name }, { "ph", "C" }, { "ts", ts }, { "pid", pid },
                    { "args", { { unit, *value } } } });
        };
        counter("SM clock", "MHz", s.smClockMHz ? std::optional<double>(*s.smClockMHz) : std::nullopt);
        counter("GPU power", "W", s.powerW);
        counter("GPU temperature", "C", s.temperatureC ? std::optional<double>(*s.temperatureC) : std::nullopt);
        const OtherProcesses others = otherProcesses(s, m.selfPid);
        if (others.selfAmong && others.processes.size() <= 1)
            continue;
        for (const GpuProcess& p : others.processes) {
            auto [it, fresh] = seen.try_emplace(p.pid, Seen { s.atMs, s.atMs, p.name });
            it->second.last = s.atMs;
        }
    }
    if (seen.empty())
        return;
    writer.event({ { "name", "thread_name" }, { "ph", "M" }, { "pid", pid }, { "tid", kOtherProcessesTid },
        { "args", { { "name", trackName(kOtherProcessesTid) } } } });
    for (const auto& [other, s] : seen) {
        const std::string name = "PID " + std::to_string(other) + (s.name.empty() ? "" : " " + s.name);
        writer.complete(name.c_str(), "machine", std::max(0.0, shiftMs + s.first), std::max(0.0, shiftMs + s.last),
            pid, kOtherProcessesTid, { { "pid", other }, { "seen_from_ms", s.first }, { "seen_to_ms", s.last } });
    }
}

}  // namespace

void writeChromeTrace(std::ostream& out, const Report& report)
{
    const Scan found = scan(report);
    json other = header("series");
    other.update(seriesInfo(report, found));
    TraceWriter writer(out, other);
    constexpr int pid = 1;
    if (!report.runs.empty())
        writer.names(pid, deviceName(report), found.tracks);
    writeRuns(writer, report, pid, -found.earliestMs);
    writeMachine(writer, report, pid, -found.earliestMs);
}

void writeChromeTrace(std::ostream& out, const PlanReport& plan)
{
    std::vector<Scan> scans;
    double earliestMs = 0.0;
    json variants = json::array();
    for (const VariantResult& v : plan.variants) {
        scans.push_back(scan(v.report));
        earliestMs = std::min(earliestMs, scans.back().earliestMs);
        json info = seriesInfo(v.report, scans.back());
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
        writeRuns(writer, plan.variants[i].report, int(i) + 1, -earliestMs);
        writeMachine(writer, plan.variants[i].report, int(i) + 1, -earliestMs);
    }
}

}  // namespace asyncscope

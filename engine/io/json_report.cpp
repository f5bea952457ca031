#include "engine/io/json_report.hpp"

#include "engine/run/plan_summary.hpp"

#include <stdexcept>

namespace asyncscope {

using nlohmann::json;

namespace {

constexpr const char* kFormatName = "asyncscope-report";
constexpr const char* kComparisonFormatName = "asyncscope-comparison";

json deviceJson(const Report& r)
{
    const DeviceInfo& d = r.device;
    return { { "index", d.index }, { "name", d.name }, { "uuid", d.uuid }, { "pci_bus_id", d.pciBusId },
        { "compute_capability", d.computeCapability() }, { "multiprocessors", d.multiprocessors },
        { "total_memory_bytes", d.totalMemoryBytes }, { "async_engine_count", d.asyncEngineCount },
        { "clock_khz", d.clockKHz }, { "driver_version", r.driverVersion }, { "runtime_version", r.runtimeVersion } };
}

json configJson(const PipelineConfig& c)
{
    return { { "device", c.device }, { "elements", c.elements }, { "bytes", c.bytes() }, { "value", c.value },
        { "threads_per_block", c.threadsPerBlock }, { "chunks", c.chunks }, { "streams", c.streams },
        { "order", nameOf(c.order) }, { "submission", nameOf(c.submission) }, { "runs", c.runs }, { "warmup_runs", c.warmupRuns },
        { "host_memory", nameOf(c.hostMemory) }, { "wait", nameOf(c.waitMode) }, { "check", nameOf(c.checkMode) },
        { "check_threads", c.checkThreads }, { "stage_events", c.stageEvents }, { "profiler_range", c.profilerRange },
        { "trace_source", nameOf(c.traceSource) }, { "stop_rule", nameOf(c.stopRule) }, { "target_noise_percent", c.targetNoisePercent },
        { "min_runs", c.minRuns }, { "min_gpu_ms", c.minGpuMs }, { "timeout_s", c.timeoutS } };
}

json statsJson(const Summary& s)
{
    return { { "samples", s.count }, { "min", s.min }, { "max", s.max }, { "mean", s.mean }, { "median", s.median },
        { "stddev", s.stddev }, { "noise_percent", s.noisePercent }, { "p95", s.p95 } };
}

json summaryJson(const SeriesSummary& s)
{
    json j = { { "samples", s.measuredRuns }, { "warmup_runs", s.warmupRuns }, { "verified_runs", s.verifiedRuns } };
    for (const Distribution& d : s.distributions)
        j[d.key] = statsJson(d.stats);
    for (const Figure& f : s.figures)
        j[f.key] = f.value;
    return j;
}

json spanJson(const Span& s)
{
    json j = { { "kind", nameOf(s.kind) }, { "device", s.device }, { "stream", s.stream }, { "chunk", s.chunk },
        { "bytes", s.bytes }, { "begin_ms", s.beginMs }, { "end_ms", s.endMs } };
    if (s.kind == SpanKind::Api)
        j["call"] = nameOf(s.call);
    return j;
}

json spansJson(const std::vector<Span>& spans)
{
    json j = json::array();
    for (const Span& s : spans)
        j.push_back(spanJson(s));
    return j;
}

json runJson(const RunResult& r)
{
    json j = { { "run", r.index }, { "warmup", r.warmup }, { "start_ms", r.startMs }, { "gpu_time_ms", r.gpuMs },
        { "poll_iterations", r.pollIterations }, { "wait_cpu_ms", r.waitCpuMs }, { "expected_value", r.expectedValue },
        { "verified", r.verified }, { "first_wrong_index", r.firstWrongIndex } };
    if (!r.verified)
        j["first_wrong_value"] = r.firstWrongValue;
    j["spans"] = spansJson(r.spans);
    if (!r.traced.empty())
        j["traced_spans"] = spansJson(r.traced);
    return j;
}

// A field that is there but wrong: the reader's message names it.
struct BadField : std::runtime_error {
    using std::runtime_error::runtime_error;
};

template <class Enum>
Enum choiceAt(const json& object, const char* path, const char* key)
{
    const std::string text = object.at(key).get<std::string>();
    if (const auto value = parseName<Enum>(text))
        return *value;
    throw BadField(std::string(path) + key + ": '" + text + "' is not " + acceptedNames<Enum>());
}

template <class Enum>
Enum choiceOr(const json& object, const char* path, const char* key, Enum fallback)
{
    return object.contains(key) ? choiceAt<Enum>(object, path, key) : fallback;
}

Span readSpan(const json& j)
{
    Span s;
    s.kind = choiceAt<SpanKind>(j, "runs[].spans[].", "kind");
    s.device = j.value("device", 0);
    s.stream = j.value("stream", 0);
    s.chunk = j.value("chunk", 0);
    s.bytes = j.value("bytes", std::uint64_t(0));
    s.beginMs = j.at("begin_ms");
    s.endMs = j.at("end_ms");
    s.call = choiceOr(j, "runs[].spans[].", "call", ApiCall::None);
    return s;
}

RunResult readRun(const json& run, int version, int device, std::uint64_t bytes)
{
    RunResult x;
    x.index = run.at("run");
    x.warmup = run.at("warmup");
    x.startMs = run.value("start_ms", 0.0);
    x.gpuMs = run.at("gpu_time_ms");
    x.pollIterations = run.at("poll_iterations");
    x.waitCpuMs = run.value("wait_cpu_ms", 0.0);
    x.expectedValue = run.value("expected_value", 0);
    x.verified = run.at("verified");
    x.firstWrongIndex = run.value("first_wrong_index", std::int64_t(-1));
    x.firstWrongValue = run.value("first_wrong_value", 0);
    if (version >= 2) {
        for (const json& span : run.at("spans"))
            x.spans.push_back(readSpan(span));
        if (run.contains("traced_spans")) {
            for (const json& span : run.at("traced_spans"))
                x.traced.push_back(readSpan(span));
        }
        return x;
    }
    // Version 1 gave durations, not spans: the one-stream pipeline's spans lie end to end.
    SerialDurations d;
    d.bytes = bytes;
    d.submitMs = run.at("cpu_submit_time_ms");
    d.waitMs = run.value("wait_ms", -1.0);
    if (run.contains("h2d_ms")) {
        d.h2dMs = run.at("h2d_ms");
        d.kernelMs = run.at("kernel_ms");
        d.d2hMs = run.at("d2h_ms");
    }
    x.spans = serialSpans(device, d);
    return x;
}

Report readReport(const json& j)
{
    const int version = j.value("format_version", 1);
    if (version < 1 || version > kReportFormatVersion)
        throw BadField("format_version " + std::to_string(version) + " is newer than this AsyncScope reads (" +
            std::to_string(kReportFormatVersion) + ")");
    Report r;
    const json& d = j.at("device");
    r.device.index = d.at("index");
    r.device.name = d.at("name");
    r.device.uuid = d.value("uuid", "");
    r.device.pciBusId = d.value("pci_bus_id", "");
    const std::string cc = d.value("compute_capability", "0.0");
    r.device.computeMajor = std::stoi(cc);
    r.device.computeMinor = std::stoi(cc.substr(cc.find('.') + 1));
    r.device.multiprocessors = d.value("multiprocessors", 0);
    r.device.totalMemoryBytes = d.value("total_memory_bytes", std::size_t(0));
    r.device.asyncEngineCount = d.value("async_engine_count", 0);
    r.device.clockKHz = d.value("clock_khz", 0);
    r.driverVersion = d.value("driver_version", 0);
    r.runtimeVersion = d.value("runtime_version", 0);

    const json& c = j.at("config");
    PipelineConfig& config = r.config;
    config.device = c.at("device");
    config.elements = c.at("elements");
    config.value = c.at("value");
    config.threadsPerBlock = c.at("threads_per_block");
    config.chunks = c.value("chunks", 1);  // reports from before chunked workloads
    config.streams = c.value("streams", 1);
    config.order = choiceOr(c, "config.", "order", IssueOrder::ByChunk);
    config.submission = choiceOr(c, "config.", "submission", Submission::Stream);
    config.runs = c.at("runs");
    config.warmupRuns = c.at("warmup_runs");
    config.hostMemory = choiceAt<HostMemory>(c, "config.", "host_memory");
    config.waitMode = choiceAt<WaitMode>(c, "config.", "wait");
    config.checkMode = choiceOr(c, "config.", "check", CheckMode::Serial);  // reports from before overlapped checking
    config.checkThreads = c.value("check_threads", 0);
    config.stageEvents = c.at("stage_events");
    config.profilerRange = c.value("profiler_range", false);
    config.traceSource = choiceOr(c, "config.", "trace_source", TraceSource::Events);
    config.stopRule = choiceOr(c, "config.", "stop_rule", StopRule::Fixed);
    config.targetNoisePercent = c.value("target_noise_percent", config.targetNoisePercent);
    config.minRuns = c.value("min_runs", config.minRuns);
    config.minGpuMs = c.value("min_gpu_ms", config.minGpuMs);
    config.timeoutS = c.value("timeout_s", config.timeoutS);

    for (const json& run : j.at("runs"))
        r.runs.push_back(readRun(run, version, r.device.index, config.bytes()));
    if (j.contains("calibration")) {
        const json& k = j.at("calibration");
        r.peak = CopyPeak { k.at("h2d_gbps"), k.at("d2h_gbps"), k.at("bytes"), k.value("cached", false),
            k.value("bidirectional_gbps", 0.0) };
    }
    if (j.contains("outcome")) {
        const json& o = j.at("outcome");
        r.outcome = SeriesOutcome { o.at("measured_runs"), choiceAt<StopReason>(o, "outcome.", "stop_reason"),
            o.value("noise_percent", 0.0), o.value("trace_note", std::string()) };
    }
    return r;
}

}  // namespace

namespace {

json reportJson(const Report& report, const SeriesSummary& summary)
{
    json runs = json::array();
    for (const RunResult& r : report.runs)
        runs.push_back(runJson(r));
    json j = { { "format", kFormatName }, { "format_version", kReportFormatVersion }, { "device", deviceJson(report) },
        { "config", configJson(report.config) }, { "summary", summaryJson(summary) }, { "runs", std::move(runs) } };
    if (report.peak)
        j["calibration"] = { { "h2d_gbps", report.peak->h2dGBps }, { "d2h_gbps", report.peak->d2hGBps },
            { "bidirectional_gbps", report.peak->bidirectionalGBps }, { "bytes", report.peak->bytes },
            { "cached", report.peak->fromCache } };
    if (report.outcome)
        j["outcome"] = { { "measured_runs", report.outcome->measuredRuns },
            { "stop_reason", nameOf(report.outcome->reason) }, { "noise_percent", report.outcome->noisePercent } };
    if (report.outcome && !report.outcome->traceNote.empty())
        j["outcome"]["trace_note"] = report.outcome->traceNote;
    return j;
}

}  // namespace

json toJson(const Report& report)
{
    return reportJson(report, summarizeSeries(report));
}

void writeJson(std::ostream& out, const Report& report)
{
    out << toJson(report).dump(2) << '\n';
}

void writeComparisonJson(std::ostream& out, const PlanReport& plan)
{
    json variants = json::array();
    const std::vector<SeriesSummary> summaries = summarizePlan(plan);
    for (std::size_t i = 0; i < plan.variants.size(); ++i) {
        const VariantResult& v = plan.variants[i];
        json j = reportJson(v.report, summaries[i]);
        j["variant"] = v.label;
        if (v.notRun)
            j["not_run"] = v.notRun->message();
        if (v.failure)
            j["failure"] = v.failure->message();
        variants.push_back(std::move(j));
    }
    const json j = { { "format", kComparisonFormatName }, { "format_version", kReportFormatVersion },
        { "comparison", plan.comparison ? nameOf(*plan.comparison) : "series" }, { "planned", plan.planned },
        { "variants", std::move(variants) } };
    out << j.dump(2) << '\n';
}

Result<Report> readJson(std::istream& in)
{
    const json j = json::parse(in, nullptr, false);
    if (j.is_discarded())
        return makeError(ErrorKind::Io, "the file is not valid JSON");
    try {
        if (!j.is_object() || !j.contains("format") || j.at("format") != kFormatName)
            return makeError(ErrorKind::Io, "the file is JSON but not an AsyncScope report");
        return readReport(j);
    } catch (const BadField& e) {
        return makeError(ErrorKind::Io, e.what());
    } catch (const json::exception& e) {
        return makeError(ErrorKind::Io, std::string("the report is incomplete: ") + e.what());
    } catch (const std::exception& e) {
        return makeError(ErrorKind::Io, std::string("the report has a malformed field: ") + e.what());
    }
}

}  // namespace asyncscope

#include "engine/json_report.hpp"

#include "engine/statistics.hpp"

namespace asyncscope {

using nlohmann::json;

NLOHMANN_JSON_SERIALIZE_ENUM(HostMemory, { { HostMemory::Pinned, "pinned" }, { HostMemory::Pageable, "pageable" } })
NLOHMANN_JSON_SERIALIZE_ENUM(WaitMode, { { WaitMode::Spin, "spin" }, { WaitMode::Blocking, "blocking" } })
NLOHMANN_JSON_SERIALIZE_ENUM(CheckMode, { { CheckMode::Overlapped, "overlapped" }, { CheckMode::Serial, "serial" } })
NLOHMANN_JSON_SERIALIZE_ENUM(StopRule, { { StopRule::Fixed, "fixed" }, { StopRule::Noise, "noise" } })
NLOHMANN_JSON_SERIALIZE_ENUM(StopReason, { { StopReason::RunCount, "run count" },
                                             { StopReason::NoiseReached, "noise target reached" },
                                             { StopReason::NoiseSettled, "noise settled above the target" },
                                             { StopReason::Timeout, "timeout" } })

namespace {

constexpr const char* kFormatName = "asyncscope-report";
constexpr int kFormatVersion = 1;

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
        { "threads_per_block", c.threadsPerBlock }, { "runs", c.runs }, { "warmup_runs", c.warmupRuns },
        { "host_memory", c.hostMemory }, { "wait", c.waitMode }, { "check", c.checkMode }, { "check_threads", c.checkThreads },
        { "stage_events", c.stageEvents },
        { "profiler_range", c.profilerRange }, { "stop_rule", c.stopRule },
        { "target_noise_percent", c.targetNoisePercent }, { "min_runs", c.minRuns }, { "min_gpu_ms", c.minGpuMs },
        { "timeout_s", c.timeoutS } };
}

json summaryJson(const Summary& s)
{
    return { { "samples", s.count }, { "min", s.min }, { "max", s.max }, { "mean", s.mean }, { "median", s.median },
        { "stddev", s.stddev }, { "noise_percent", s.noisePercent }, { "p95", s.p95 } };
}

json runJson(const RunResult& r, double bytes)
{
    json j = { { "run", r.index }, { "warmup", r.warmup }, { "gpu_time_ms", r.gpuMs },
        { "cpu_submit_time_ms", r.cpuSubmitMs }, { "poll_iterations", r.pollIterations }, { "wait_ms", r.waitMs },
        { "wait_cpu_ms", r.waitCpuMs }, { "expected_value", r.expectedValue }, { "verified", r.verified },
        { "first_wrong_index", r.firstWrongIndex } };
    if (!r.verified)
        j["first_wrong_value"] = r.firstWrongValue;
    if (r.stagesTimed) {
        j["h2d_ms"] = r.h2dMs;
        j["kernel_ms"] = r.kernelMs;
        j["d2h_ms"] = r.d2hMs;
        j["h2d_gbps"] = gigabytesPerSecond(bytes, r.h2dMs);
        j["d2h_gbps"] = gigabytesPerSecond(bytes, r.d2hMs);
    }
    return j;
}

}  // namespace

json toJson(const Report& report)
{
    const double bytes = static_cast<double>(report.config.bytes());
    const SeriesSummary s = summarizeRuns(report.runs, report.config.bytes());
    json summary = { { "samples", s.measuredRuns }, { "warmup_runs", s.warmupRuns },
        { "verified_runs", s.verifiedRuns }, { "gpu_time_ms", summaryJson(s.gpuMs) },
        { "cpu_submit_time_ms", summaryJson(s.cpuSubmitMs) }, { "poll_iterations", summaryJson(s.pollIterations) },
        { "wait_cpu_ms", summaryJson(s.waitCpuMs) }, { "noise_percent", s.gpuMs.noisePercent } };
    if (s.stagesTimed) {
        summary["h2d_ms"] = summaryJson(s.h2dMs);
        summary["kernel_ms"] = summaryJson(s.kernelMs);
        summary["d2h_ms"] = summaryJson(s.d2hMs);
        summary["h2d_gbps"] = s.h2dGBps;
        summary["d2h_gbps"] = s.d2hGBps;
        summary["kernel_effective_gbps"] = s.kernelGBps;
    }
    json runs = json::array();
    for (const RunResult& r : report.runs)
        runs.push_back(runJson(r, bytes));
    json j = { { "format", kFormatName }, { "format_version", kFormatVersion }, { "device", deviceJson(report) },
        { "config", configJson(report.config) }, { "summary", std::move(summary) }, { "runs", std::move(runs) } };
    if (report.peak) {
        const double bound = serialBoundMs(report.config.bytes(), *report.peak);
        j["calibration"] = { { "h2d_gbps", report.peak->h2dGBps }, { "d2h_gbps", report.peak->d2hGBps },
            { "bytes", report.peak->bytes }, { "cached", report.peak->fromCache } };
        j["summary"]["serial_bound_ms"] = bound;
        j["summary"]["gpu_time_over_serial_bound"] = bound > 0.0 ? s.gpuMs.median / bound : 0.0;
    }
    if (report.outcome)
        j["outcome"] = { { "measured_runs", report.outcome->measuredRuns }, { "stop_reason", report.outcome->reason },
            { "noise_percent", report.outcome->noisePercent } };
    return j;
}

void writeJson(std::ostream& out, const Report& report)
{
    out << toJson(report).dump(2) << '\n';
}

Result<Report> readJson(std::istream& in)
{
    const json j = json::parse(in, nullptr, false);
    if (j.is_discarded())
        return makeError(ErrorKind::Io, "the file is not valid JSON");
    if (!j.is_object() || j.value("format", "") != kFormatName)
        return makeError(ErrorKind::Io, "the file is JSON but not an AsyncScope report");
    try {
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
        r.config.device = c.at("device");
        r.config.elements = c.at("elements");
        r.config.value = c.at("value");
        r.config.threadsPerBlock = c.at("threads_per_block");
        r.config.runs = c.at("runs");
        r.config.warmupRuns = c.at("warmup_runs");
        r.config.hostMemory = c.at("host_memory");
        r.config.waitMode = c.at("wait");
        r.config.checkMode = c.value("check", CheckMode::Serial);  // reports from before overlapped checking
        r.config.checkThreads = c.value("check_threads", 0);
        r.config.stageEvents = c.at("stage_events");
        r.config.profilerRange = c.value("profiler_range", false);
        r.config.stopRule = c.value("stop_rule", StopRule::Fixed);
        r.config.targetNoisePercent = c.value("target_noise_percent", r.config.targetNoisePercent);
        r.config.minRuns = c.value("min_runs", r.config.minRuns);
        r.config.minGpuMs = c.value("min_gpu_ms", r.config.minGpuMs);
        r.config.timeoutS = c.value("timeout_s", r.config.timeoutS);

        for (const json& run : j.at("runs")) {
            RunResult x;
            x.index = run.at("run");
            x.warmup = run.at("warmup");
            x.gpuMs = run.at("gpu_time_ms");
            x.cpuSubmitMs = run.at("cpu_submit_time_ms");
            x.pollIterations = run.at("poll_iterations");
            x.waitMs = run.value("wait_ms", 0.0);
            x.waitCpuMs = run.value("wait_cpu_ms", 0.0);
            x.expectedValue = run.value("expected_value", 0);
            x.verified = run.at("verified");
            x.firstWrongIndex = run.value("first_wrong_index", std::int64_t(-1));
            x.firstWrongValue = run.value("first_wrong_value", 0);
            x.stagesTimed = run.contains("h2d_ms");
            if (x.stagesTimed) {
                x.h2dMs = run.at("h2d_ms");
                x.kernelMs = run.at("kernel_ms");
                x.d2hMs = run.at("d2h_ms");
            }
            r.runs.push_back(x);
        }
        if (j.contains("calibration")) {
            const json& c = j.at("calibration");
            r.peak = CopyPeak { c.at("h2d_gbps"), c.at("d2h_gbps"), c.at("bytes"), c.value("cached", false) };
        }
        if (j.contains("outcome")) {
            const json& o = j.at("outcome");
            r.outcome = SeriesOutcome { o.at("measured_runs"), o.at("stop_reason"), o.value("noise_percent", 0.0) };
        }
        return r;
    } catch (const json::exception& e) {
        return makeError(ErrorKind::Io, std::string("the report is incomplete: ") + e.what());
    } catch (const std::exception& e) {
        return makeError(ErrorKind::Io, std::string("the report has a malformed field: ") + e.what());
    }
}

}  // namespace asyncscope

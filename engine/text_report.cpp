#include "engine/text_report.hpp"

#include "engine/cuda_error.hpp"
#include "engine/size_parse.hpp"

#include <cstdarg>
#include <cstdio>

namespace asyncscope {

namespace {

std::string printf_(const char* format, ...) __attribute__((format(printf, 1, 2)));
std::string printf_(const char* format, ...)
{
    char buffer[512];
    va_list args;
    va_start(args, format);
    std::vsnprintf(buffer, sizeof buffer, format, args);
    va_end(args);
    return buffer;
}

std::string summaryRow(const char* name, const Summary& s, const char* unit)
{
    return printf_("  %-22s median %10.4f  min %10.4f  max %10.4f  mean %10.4f  noise %6.2f %%  p95 %10.4f %s\n", name,
        s.median, s.min, s.max, s.mean, s.noisePercent, s.p95, unit);
}

}  // namespace

std::string formatDeviceText(const DeviceInfo& device, int driverVersion, int runtimeVersion)
{
    return printf_("device %d: %s, sm %s, %d SMs, %s, %d copy engines, PCI %s, driver CUDA %s, runtime %s\n",
        device.index, device.name.c_str(), device.computeCapability().c_str(), device.multiprocessors,
        formatBytes(device.totalMemoryBytes).c_str(), device.asyncEngineCount, device.pciBusId.c_str(),
        formatCudaVersion(driverVersion).c_str(), formatCudaVersion(runtimeVersion).c_str());
}

std::string formatConfigText(const PipelineConfig& c)
{
    std::string stop = c.stopRule == StopRule::Fixed
        ? std::to_string(c.runs) + " runs"
        : printf_("until noise <= %.2f %% (at least %d runs, %.0f ms GPU time; timeout %.0f s)", c.targetNoisePercent,
              c.minRuns, c.minGpuMs, c.timeoutS);
    const std::string check = std::string(toString(c.checkMode)) + " check" +
        (c.checkThreads > 0 ? " on " + std::to_string(c.checkThreads) + " threads" : std::string());
    return printf_("n = %zu ints (%s), value %d, %d threads/block, %s host memory, %s wait, %s, %d warm-up, %s\n",
        c.elements, formatBytes(c.bytes()).c_str(), c.value, c.threadsPerBlock, toString(c.hostMemory),
        toString(c.waitMode), check.c_str(), c.warmupRuns, stop.c_str());
}

std::string formatRunText(const RunResult& run)
{
    std::string text = printf_("run %d%s:\n", run.index, run.warmup ? " (warm-up)" : "");
    text += printf_("time spent executing by the GPU: %.2f\n", run.gpuMs);
    text += printf_("time spent by CPU in CUDA calls: %.2f\n", run.cpuSubmitMs);
    text += printf_("CPU executed %lu iterations while waiting for GPU to finish\n",
        static_cast<unsigned long>(run.pollIterations));
    if (run.stagesTimed)
        text += printf_("stages (ms): H2D %.3f, kernel %.3f, D2H %.3f\n", run.h2dMs, run.kernelMs, run.d2hMs);
    if (!run.verified)
        text += printf_("WRONG: element %lld is %d, expected %d\n", static_cast<long long>(run.firstWrongIndex),
            run.firstWrongValue, run.expectedValue);
    return text;
}

std::string formatSummaryText(const Report& report)
{
    const SeriesSummary s = summarizeRuns(report.runs, report.config.bytes());
    std::string text = printf_("summary: %zu measured runs, %zu warm-up, %zu of %zu verified", s.measuredRuns,
        s.warmupRuns, s.verifiedRuns, report.runs.size());
    if (report.outcome)
        text += printf_(", stopped on %s", toString(report.outcome->reason));
    text += "\n";
    if (s.measuredRuns == 0)
        return text;
    text += summaryRow("GPU time", s.gpuMs, "ms");
    text += summaryRow("CPU submit time", s.cpuSubmitMs, "ms");
    text += summaryRow("poll iterations", s.pollIterations, "");
    text += summaryRow("CPU time while waiting", s.waitCpuMs, "ms");
    if (s.stagesTimed) {
        text += summaryRow("H2D", s.h2dMs, "ms");
        text += summaryRow("kernel", s.kernelMs, "ms");
        text += summaryRow("D2H", s.d2hMs, "ms");
        text += printf_("  bandwidth (decimal GB/s, medians): H2D %.1f, D2H %.1f, kernel effective %.1f\n",
            s.h2dGBps, s.d2hGBps, s.kernelGBps);
    }
    if (report.peak) {
        const double bound = serialBoundMs(report.config.bytes(), *report.peak);
        text += printf_("  host peak (pinned copies of %s, %s): H2D %.1f GB/s, D2H %.1f GB/s\n",
            formatBytes(report.peak->bytes).c_str(), report.peak->fromCache ? "cached" : "measured now",
            report.peak->h2dGBps, report.peak->d2hGBps);
        text += printf_("  serial PCIe bound for %s: %.4f ms; median GPU time is %.3f x the bound\n",
            formatBytes(report.config.bytes()).c_str(), bound, bound > 0.0 ? s.gpuMs.median / bound : 0.0);
    }
    return text;
}

}  // namespace asyncscope

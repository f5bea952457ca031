#include "engine/statistics.hpp"

#include <algorithm>
#include <cmath>
#include <numeric>

namespace asyncscope {

Summary summarize(std::vector<double> values)
{
    Summary s;
    s.count = values.size();
    if (values.empty())
        return s;
    std::sort(values.begin(), values.end());
    const std::size_t n = values.size();
    s.min = values.front();
    s.max = values.back();
    s.mean = std::accumulate(values.begin(), values.end(), 0.0) / static_cast<double>(n);
    s.median = n % 2 == 1 ? values[n / 2] : (values[n / 2 - 1] + values[n / 2]) / 2.0;
    if (n > 1) {
        double squares = 0.0;
        for (const double v : values)
            squares += (v - s.mean) * (v - s.mean);
        s.stddev = std::sqrt(squares / static_cast<double>(n - 1));
    }
    s.noisePercent = s.mean != 0.0 ? 100.0 * s.stddev / std::fabs(s.mean) : 0.0;
    const auto rank = static_cast<std::size_t>(std::ceil(0.95 * static_cast<double>(n)));
    s.p95 = values[std::max<std::size_t>(rank, 1) - 1];
    return s;
}

double gigabytesPerSecond(double bytes, double ms)
{
    return ms > 0.0 ? bytes / (ms * 1e-3) / 1e9 : 0.0;
}

SeriesSummary summarizeRuns(const std::vector<RunResult>& runs, std::size_t bytesPerCopy)
{
    SeriesSummary s;
    std::vector<double> gpu, cpu, polls, waitCpu, h2d, kernel, d2h;
    s.stagesTimed = !runs.empty();
    for (const RunResult& run : runs) {
        s.verifiedRuns += run.verified ? 1 : 0;
        if (run.warmup) {
            ++s.warmupRuns;
            continue;
        }
        gpu.push_back(run.gpuMs);
        cpu.push_back(run.cpuSubmitMs);
        polls.push_back(static_cast<double>(run.pollIterations));
        waitCpu.push_back(run.waitCpuMs);
        s.stagesTimed = s.stagesTimed && run.stagesTimed;
        h2d.push_back(run.h2dMs);
        kernel.push_back(run.kernelMs);
        d2h.push_back(run.d2hMs);
    }
    s.measuredRuns = gpu.size();
    s.stagesTimed = s.stagesTimed && s.measuredRuns > 0;
    s.gpuMs = summarize(std::move(gpu));
    s.cpuSubmitMs = summarize(std::move(cpu));
    s.pollIterations = summarize(std::move(polls));
    s.waitCpuMs = summarize(std::move(waitCpu));
    if (s.stagesTimed) {
        s.h2dMs = summarize(std::move(h2d));
        s.kernelMs = summarize(std::move(kernel));
        s.d2hMs = summarize(std::move(d2h));
        const auto bytes = static_cast<double>(bytesPerCopy);
        s.h2dGBps = gigabytesPerSecond(bytes, s.h2dMs.median);
        s.d2hGBps = gigabytesPerSecond(bytes, s.d2hMs.median);
        s.kernelGBps = gigabytesPerSecond(2.0 * bytes, s.kernelMs.median);
    }
    return s;
}

}  // namespace asyncscope

// Statistics over the measured (non-warm-up) runs of a series.
#pragma once

#include "engine/run_result.hpp"

#include <cstddef>
#include <vector>

namespace asyncscope {

struct Summary {
    std::size_t count = 0;
    double min = 0.0;
    double max = 0.0;
    double mean = 0.0;
    double median = 0.0;
    double stddev = 0.0;        // sample standard deviation (n - 1)
    double noisePercent = 0.0;  // stddev / mean, in percent: nvbench's "Noise"
    double p95 = 0.0;           // nearest-rank 95th percentile
};

Summary summarize(std::vector<double> values);

// Decimal gigabytes per second (1 GB = 1e9 bytes) for `bytes` moved in `ms`; 0 when ms is not positive.
double gigabytesPerSecond(double bytes, double ms);

struct SeriesSummary {
    std::size_t measuredRuns = 0;
    std::size_t warmupRuns = 0;
    std::size_t verifiedRuns = 0;  // of all runs, warm-up included
    Summary gpuMs;
    Summary cpuSubmitMs;
    Summary pollIterations;
    Summary waitCpuMs;
    bool stagesTimed = false;
    Summary h2dMs;
    Summary kernelMs;
    Summary d2hMs;
    double h2dGBps = 0.0;     // from the median stage times
    double d2hGBps = 0.0;
    double kernelGBps = 0.0;  // effective: bytes read plus bytes written
};

SeriesSummary summarizeRuns(const std::vector<RunResult>& runs, std::size_t bytesPerCopy);

}  // namespace asyncscope

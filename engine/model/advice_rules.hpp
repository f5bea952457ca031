// The advice's rules, by family: over the workload (engine/model/advice_workload.cpp: transfer-bound, overlap
// headroom, latency-bound, pageable copies, submit-bound, check-bound) and over the measurement
// (advice_measurement.cpp: too short to time, interference, link degraded, clocks, noisy). judgeSeries
// (advice.cpp) gathers a series' facts once and applies every rule in turn.
#pragma once

#include "engine/model/advice.hpp"

#include <cstddef>
#include <optional>
#include <string>
#include <vector>

namespace asyncscope::advice_rules {

// Figures as the findings write them: "0.512 ms", "12.5 µs", "24.3 GB/s", "87 %", "1.18 ×".
std::string ms(double value);
std::string us(double valueMs);
std::string gbps(double value);
std::string percent(double fraction);
std::string times(double ratio);

// What the rules read from a series, gathered once.
struct Facts {
    const Report& report;
    const SeriesSummary& summary;
    const PipelineConfig& config;
    double gpuMs = 0.0;
    double noisePercent = 0.0;
    std::optional<double> submitMs;
    std::vector<std::size_t> measured;  // store positions of measured runs
};

// Rules over the workload.
void transferBound(const Facts& f, Advice& advice);
void overlapHeadroom(const Facts& f, Advice& advice);
void pageableCopies(const Facts& f, Advice& advice);
void submitBound(const Facts& f, const AdviceContext& context, Advice& advice);
void checkBound(const Facts& f, Advice& advice);
// A recorded program's iterations (advice_program.cpp): copies and kernels in sequence that chunks over streams
// would overlap, many small copies, launch-bound iterations.
void programWork(const Facts& f, Advice& advice);

// Rules over the measurement.
void tooShort(const Facts& f, Advice& advice);
void interference(const Facts& f, Advice& advice);
void linkDegraded(const Facts& f, Advice& advice);
void clocks(const Facts& f, Advice& advice);
void noisy(const Facts& f, Advice& advice);

}  // namespace asyncscope::advice_rules

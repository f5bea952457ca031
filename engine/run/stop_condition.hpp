// What a series hands on as it runs (RunSink, SeriesReady) and when it is done (StopCondition): the rules of a series
// without CUDA. The CUDA series itself is engine/cuda/series_runner.
#pragma once

#include "engine/model/config.hpp"
#include "engine/model/error.hpp"
#include "engine/model/outcome.hpp"
#include "engine/model/run_result.hpp"

#include <atomic>
#include <functional>
#include <optional>
#include <vector>

namespace asyncscope {

// Called once per run, checked, in run order, warm-up runs included, on the thread that runs the series. With
// overlapped checking a run arrives during the step after it, or when the series ends.
using RunSink = std::function<void(const RunResult&)>;

// Called once on the thread that runs the series, when it is ready to run (buffers allocated, graphs built) and
// before its first run: a runner of several devices at once lines their series up there.
using SeriesReady = std::function<void()>;

// Decides, after each measured run, whether a series is done. Separate from CUDA so it can be tested alone.
class StopCondition {
public:
    static constexpr int kSettleWindow = 64;
    static constexpr double kSettleSpread = 0.05;

    explicit StopCondition(const PipelineConfig& config);
    // Adds one measured GPU time.
    void add(double gpuMs);
    // `elapsedS` is the wall time since the first measured run began.
    std::optional<StopReason> reached(double elapsedS) const;
    double noisePercent() const;
    int count() const { return m_count; }

private:
    bool enoughSamples() const;
    bool settled() const;

    PipelineConfig m_config;
    std::vector<double> m_recentNoise;  // ring of the last kSettleWindow noise values, once enough samples are in
    int m_count = 0;
    double m_sum = 0.0;     // Welford's running mean and squared deviations
    double m_mean = 0.0;
    double m_squares = 0.0;
};

}  // namespace asyncscope

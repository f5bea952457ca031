#include "engine/run/series_runner.hpp"

#include "engine/cuda/pipeline.hpp"

#include <algorithm>
#include <chrono>
#include <cmath>

namespace asyncscope {

StopCondition::StopCondition(const PipelineConfig& config)
    : m_config(config)
{
}

void StopCondition::add(double gpuMs)
{
    ++m_count;
    m_sum += gpuMs;
    const double delta = gpuMs - m_mean;
    m_mean += delta / m_count;
    m_squares += delta * (gpuMs - m_mean);
    if (m_config.stopRule == StopRule::Noise && enoughSamples()) {
        if (m_recentNoise.size() == kSettleWindow)
            m_recentNoise.erase(m_recentNoise.begin());
        m_recentNoise.push_back(noisePercent());
    }
}

bool StopCondition::enoughSamples() const
{
    return m_count >= m_config.minRuns && m_sum >= m_config.minGpuMs;
}

bool StopCondition::settled() const
{
    if (m_recentNoise.size() < kSettleWindow)
        return false;
    const auto [low, high] = std::minmax_element(m_recentNoise.begin(), m_recentNoise.end());
    return *high - *low <= kSettleSpread * *high;
}

double StopCondition::noisePercent() const
{
    if (m_count < 2 || m_mean == 0.0)
        return 0.0;
    return 100.0 * std::sqrt(m_squares / (m_count - 1)) / std::fabs(m_mean);
}

std::optional<StopReason> StopCondition::reached(double elapsedS) const
{
    if (m_config.stopRule == StopRule::Fixed)
        return m_count >= m_config.runs ? std::optional(StopReason::RunCount) : std::nullopt;
    if (enoughSamples() && noisePercent() <= m_config.targetNoisePercent)
        return StopReason::NoiseReached;
    if (settled())
        return StopReason::NoiseSettled;
    if (elapsedS >= m_config.timeoutS)
        return StopReason::Timeout;
    return std::nullopt;
}

Result<SeriesOutcome> runSeries(const PipelineConfig& config, const std::atomic<bool>& cancel, const RunSink& sink,
    const SeriesReady& ready)
{
    auto opened = PipelineSession::open(config);
    if (!opened)
        return opened.error();
    PipelineSession& session = **opened;
    if (ready)
        ready();

    // Every way out delivers the run whose check may still be running, so no timed run is lost.
    auto finish = [&](auto outcome) -> Result<SeriesOutcome> {
        if (auto last = session.flush())
            sink(*last);
        return outcome;
    };
    // Runs one step and delivers the run it finished checking; returns the run it timed.
    auto step = [&](int index, bool warmup) -> Result<RunResult> {
        if (cancel.load())
            return makeError(ErrorKind::Cancelled, "cancelled before run " + std::to_string(index));
        auto done = session.step(index, warmup, &cancel);
        if (!done)
            return done.error();
        if (done->checked)
            sink(*done->checked);
        return done->timed;
    };

    int index = 0;
    for (; index < config.warmupRuns; ++index) {
        if (auto timed = step(index, true); !timed)
            return finish(timed.error());
    }
    StopCondition stop(config);
    const auto begin = std::chrono::steady_clock::now();
    for (;; ++index) {
        auto timed = step(index, false);
        if (!timed)
            return finish(timed.error());
        stop.add(timed->gpuMs);
        const double elapsedS = std::chrono::duration<double>(std::chrono::steady_clock::now() - begin).count();
        if (auto reason = stop.reached(elapsedS))
            return finish(SeriesOutcome { stop.count(), *reason, stop.noisePercent(), session.traceNote() });
    }
}

}  // namespace asyncscope

#include "engine/run/stop_condition.hpp"

#include <algorithm>
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

}  // namespace asyncscope

#include "engine/model/config.hpp"

#include "engine/model/size_parse.hpp"

#include <limits>

namespace asyncscope {

Status validate(const PipelineConfig& config)
{
    if (config.device < 0)
        return makeError(ErrorKind::Usage, "device index " + std::to_string(config.device) + " is negative",
            "Choose a device from the list.");
    if (config.elements == 0)
        return makeError(ErrorKind::Usage, "size must be at least one element");
    if (config.elements > std::numeric_limits<std::size_t>::max() / sizeof(int))
        return makeError(ErrorKind::Usage, "size of " + std::to_string(config.elements) + " elements overflows");
    if (config.threadsPerBlock < 1 || config.threadsPerBlock > kMaxThreadsPerBlock)
        return makeError(ErrorKind::Usage,
            "threads per block must be between 1 and " + std::to_string(kMaxThreadsPerBlock) + ", not " +
                std::to_string(config.threadsPerBlock));
    if (config.runs < 1)
        return makeError(ErrorKind::Usage, "runs must be at least 1, not " + std::to_string(config.runs));
    if (config.checkThreads < 0 || config.checkThreads > kMaxCheckThreads)
        return makeError(ErrorKind::Usage,
            "check threads must be between 0 (chosen from the hardware) and " + std::to_string(kMaxCheckThreads) +
                ", not " + std::to_string(config.checkThreads));
    if (config.warmupRuns < 0)
        return makeError(ErrorKind::Usage, "warm-up runs cannot be negative (" + std::to_string(config.warmupRuns) + ")");
    if (config.stopRule == StopRule::Noise) {
        if (!(config.targetNoisePercent > 0.0))
            return makeError(ErrorKind::Usage, "the noise target must be above 0 %");
        if (config.minRuns < 2)
            return makeError(ErrorKind::Usage, "stopping on noise needs at least 2 runs, not " +
                    std::to_string(config.minRuns));
        if (!(config.timeoutS > 0.0))
            return makeError(ErrorKind::Usage, "the timeout must be above 0 s");
    }
    return std::nullopt;
}

Status checkFitsDevice(const PipelineConfig& config, std::size_t availableBytes, const std::string& deviceName,
    const char* how)
{
    if (config.bytes() <= availableBytes)
        return std::nullopt;
    return makeError(ErrorKind::TooLarge,
        "size " + formatBytes(config.bytes()) + " does not fit: " + deviceName + " has " + formatBytes(availableBytes) +
            " " + how,
        "Choose a smaller size.");
}

Status checkFitsHost(const PipelineConfig& config, std::size_t availableBytes)
{
    const std::size_t buffers = 2;
    if (config.bytes() <= availableBytes / buffers)
        return std::nullopt;
    return makeError(ErrorKind::TooLarge,
        "size " + formatBytes(config.bytes()) + " does not fit in host memory: runs take turns between two host "
            "buffers, " + formatBytes(buffers * config.bytes()) + " together, and this host has " +
            formatBytes(availableBytes) + " available",
        "Choose a smaller size.");
}

}  // namespace asyncscope

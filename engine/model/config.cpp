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
    if (config.chunks < 1 || config.chunks > kMaxChunks)
        return makeError(ErrorKind::Usage,
            "chunks must be between 1 and " + std::to_string(kMaxChunks) + ", not " + std::to_string(config.chunks));
    if (static_cast<std::size_t>(config.chunks) > config.elements)
        return makeError(ErrorKind::Usage,
            std::to_string(config.chunks) + " chunks need at least " + std::to_string(config.chunks) +
                " elements, and the size is " + std::to_string(config.elements),
            "Choose fewer chunks or a larger size.");
    if (config.streams < 1 || config.streams > config.chunks)
        return makeError(ErrorKind::Usage,
            "streams must be between 1 and the chunk count (" + std::to_string(config.chunks) + "), not " +
                std::to_string(config.streams),
            "Each stream takes at least one chunk.");
    if (config.runs < 1)
        return makeError(ErrorKind::Usage, "runs must be at least 1, not " + std::to_string(config.runs));
    if (config.blocks < 1 || config.blocks > kMaxBlocks)
        return makeError(ErrorKind::Usage,
            "blocks must be between 1 and " + std::to_string(kMaxBlocks) + ", not " + std::to_string(config.blocks));
    if (config.blocks > 1 && config.stopRule != StopRule::Fixed)
        return makeError(ErrorKind::Usage, "a series of blocks needs a fixed run count",
            "Give --runs N with --blocks, or --runs auto beside --baseline.");
    if (config.blocks > config.runs)
        return makeError(ErrorKind::Usage,
            std::to_string(config.blocks) + " blocks need at least as many runs, not " + std::to_string(config.runs));
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

bool hasCopies(const PipelineConfig& c)
{
    if (c.hostMemory == HostMemory::Mapped)
        return false;
    return c.hostMemory != HostMemory::Managed || c.managedMigration == ManagedMigration::Prefetch;
}

bool copiesArePrefetches(const PipelineConfig& c)
{
    return c.hostMemory == HostMemory::Managed && c.managedMigration == ManagedMigration::Prefetch;
}

Status checkCombination(const PipelineConfig& c)
{
    const std::string memory = std::string(nameOf(c.hostMemory)) + " host memory";
    if (c.copy == CopyMechanism::Sm && (c.hostMemory == HostMemory::Mapped || c.hostMemory == HostMemory::Managed))
        return makeError(ErrorKind::Unsupported,
            "SM copies need copies to make, and " + memory +
                (c.hostMemory == HostMemory::Mapped ? " is never copied (the kernel works on it in place)"
                                                    : " moves by migration"),
            "Choose copy engines, or pageable, pinned, write-combined or registered memory.");
    if (c.submission == Submission::Batch) {
        if (c.copy == CopyMechanism::Sm)
            return makeError(ErrorKind::Unsupported,
                "batch submission hands copies to the copy engines, and SM copies are kernels",
                "Choose stream or graph submission for SM copies.");
        if (c.hostMemory == HostMemory::Mapped || c.hostMemory == HostMemory::Managed)
            return makeError(ErrorKind::Unsupported,
                "batch submission batches cudaMemcpyAsync copies, and " + memory + " has none",
                "Choose stream or graph submission for mapped and managed memory.");
    }
    return std::nullopt;
}

std::vector<ChunkRange> chunkRanges(std::size_t n, int k)
{
    std::vector<ChunkRange> ranges;
    if (k < 1 || n < static_cast<std::size_t>(k))
        return ranges;
    const auto parts = static_cast<std::size_t>(k);
    ranges.reserve(parts);
    constexpr std::size_t align = 256 / sizeof(int);
    const std::size_t even = (n + parts - 1) / parts;
    const std::size_t aligned = (even + align - 1) / align * align;
    if (aligned * (parts - 1) < n) {
        for (std::size_t i = 0; i < parts; ++i)
            ranges.push_back({ i * aligned, i + 1 < parts ? aligned : n - aligned * (parts - 1) });
        return ranges;
    }
    const std::size_t base = n / parts, extra = n % parts;  // the first `extra` chunks take one element more
    std::size_t first = 0;
    for (std::size_t i = 0; i < parts; ++i) {
        const std::size_t count = base + (i < extra ? 1 : 0);
        ranges.push_back({ first, count });
        first += count;
    }
    return ranges;
}

std::string shapeText(const PipelineConfig& c)
{
    if (c.chunks == 1 && c.submission == Submission::Stream)
        return {};
    std::string text = "K = " + std::to_string(c.chunks) + ", S = " + std::to_string(c.streams);
    if (c.chunks > 1)
        text += c.order == IssueOrder::ByChunk ? ", by chunk" : ", by stage";
    return text + ", " + nameOf(c.submission);
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

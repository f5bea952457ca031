// What one measurement series runs: the pipeline's parameters and how it is repeated.
#pragma once

#include "engine/model/error.hpp"
#include "engine/model/names.hpp"

#include <cstddef>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace asyncscope {

enum class HostMemory { Pinned, Pageable };
enum class WaitMode { Spin, Blocking };
// When each run's elements are checked, on helper threads; runs take turns between two host buffers either way.
// Overlapped: while the GPU runs the next run, so a series takes little more wall time than GPU time. Serial: after
// the run, before the next one is submitted, as asyncAPI does.
enum class CheckMode { Overlapped, Serial };

// How a chunked pipeline's operations are handed to the streams. ByChunk: each chunk's H2D, kernel and D2H, then the
// next chunk's. ByStage: every chunk's H2D, then every kernel, then every D2H.
enum class IssueOrder { ByChunk, ByStage };
// Stream: one runtime call per operation on every run. Graph: the whole run captured once into a CUDA Graph,
// instantiated and uploaded, then launched with one call per run.
enum class Submission { Stream, Graph };

// Where a run's timeline comes from. Events: the CUDA events that time the run (GPU) and the host clock (CPU),
// aligned where submission begins. Cupti: CUPTI's activity records as well, GPU operations and runtime calls on one
// clock; where CUPTI cannot load or is held by another tool, the series runs with events and says why.
enum class TraceSource { Events, Cupti };

// Fixed: exactly `runs` measured runs. Noise: keep running until the GPU time's relative standard deviation
// is at or below the target, at least `minRuns` runs and `minGpuMs` of GPU time in, or until `timeoutS`.
enum class StopRule { Fixed, Noise };

template <>
struct EnumNames<HostMemory> {
    static constexpr std::array entries { std::pair { HostMemory::Pinned, "pinned" },
        std::pair { HostMemory::Pageable, "pageable" } };
};
template <>
struct EnumNames<WaitMode> {
    static constexpr std::array entries { std::pair { WaitMode::Spin, "spin" },
        std::pair { WaitMode::Blocking, "blocking" } };
};
template <>
struct EnumNames<CheckMode> {
    static constexpr std::array entries { std::pair { CheckMode::Overlapped, "overlapped" },
        std::pair { CheckMode::Serial, "serial" } };
};
template <>
struct EnumNames<IssueOrder> {
    static constexpr std::array entries { std::pair { IssueOrder::ByChunk, "chunk" },
        std::pair { IssueOrder::ByStage, "stage" } };
};
template <>
struct EnumNames<Submission> {
    static constexpr std::array entries { std::pair { Submission::Stream, "stream" },
        std::pair { Submission::Graph, "graph" } };
};
template <>
struct EnumNames<TraceSource> {
    static constexpr std::array entries { std::pair { TraceSource::Events, "events" },
        std::pair { TraceSource::Cupti, "cupti" } };
};
template <>
struct EnumNames<StopRule> {
    static constexpr std::array entries { std::pair { StopRule::Fixed, "fixed" },
        std::pair { StopRule::Noise, "noise" } };
};

struct PipelineConfig {
    int device = 0;
    std::size_t elements = std::size_t(16) * 1024 * 1024;  // 64 MiB of int
    int value = 26;
    int threadsPerBlock = 512;
    // The workload's shape: the buffer in `chunks` parts spread round-robin over `streams` streams (1 and 1: the
    // classic one-stream pipeline), issued in `order`, submitted as stream calls or as a CUDA Graph.
    int chunks = 1;
    int streams = 1;
    IssueOrder order = IssueOrder::ByChunk;
    Submission submission = Submission::Stream;
    int runs = 1;
    int warmupRuns = 1;
    HostMemory hostMemory = HostMemory::Pinned;
    WaitMode waitMode = WaitMode::Spin;
    CheckMode checkMode = CheckMode::Overlapped;
    int checkThreads = 0;  // threads that check a run's elements; 0 picks from the hardware
    bool stageEvents = true;     // events between H2D, kernel and D2H give per-stage times
    bool profilerRange = false;  // wrap each submit in cudaProfilerStart/Stop for Nsight
    TraceSource traceSource = TraceSource::Events;

    StopRule stopRule = StopRule::Fixed;
    double targetNoisePercent = 0.5;
    int minRuns = 10;
    double minGpuMs = 100.0;
    double timeoutS = 15.0;

    std::size_t bytes() const { return elements * sizeof(int); }
};

constexpr int kMaxThreadsPerBlock = 1024;
constexpr int kMaxCheckThreads = 64;
constexpr int kMaxChunks = 4096;

// Where chunk i of a buffer of n elements split into k chunks begins and how many elements it holds. Chunks hold
// whole 256-byte multiples where they can, and the last may be smaller; where that would leave a chunk empty, the
// sizes differ by one element at most instead. Needs 1 <= k <= n.
struct ChunkRange {
    std::size_t first = 0;
    std::size_t count = 0;
};
std::vector<ChunkRange> chunkRanges(std::size_t n, int k);

// "K = 16, S = 4, by chunk, graph": the workload's shape in words, empty for the classic pipeline.
std::string shapeText(const PipelineConfig& config);

// Checks what needs no device: counts, threads per block, overflow of the byte size.
Status validate(const PipelineConfig& config);

// Checks that the device buffer fits in `availableBytes` of the device's memory; `how` says which figure that is
// ("free", "in all"). A buffer that does not fit is ErrorKind::TooLarge.
Status checkFitsDevice(const PipelineConfig& config, std::size_t availableBytes, const std::string& deviceName,
    const char* how = "free");

// Checks that the two host buffers that runs take turns between fit in `availableBytes` of the host's memory.
Status checkFitsHost(const PipelineConfig& config, std::size_t availableBytes);

}  // namespace asyncscope

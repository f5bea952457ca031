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

// The pipeline's host buffer. Pinned: cudaMallocHost. Pageable: plain memory, staged through the driver's own pinned
// buffers. WriteCombined: cudaHostAlloc with cudaHostAllocWriteCombined (fast for the device to read, slow for the
// CPU). Registered: plain memory pinned in place with cudaHostRegister (the registration is timed, per series).
// Mapped: pinned and mapped into the device's address space, and never copied: the kernel reads and writes the host
// memory itself over the bus (zero-copy). Managed: cudaMallocManaged, the pages migrating between host and device
// (ManagedMigration says how).
enum class HostMemory { Pinned, Pageable, WriteCombined, Registered, Mapped, Managed };
// How the copies move the bytes. CopyEngine: cudaMemcpyAsync (or a batch of them), the DMA copy engines. Sm: a copy
// kernel whose threads read and write the host buffer through its mapped device pointer.
enum class CopyMechanism { CopyEngine, Sm };
// How managed memory reaches the device and comes back. Prefetch: cudaMemPrefetchAsync to the device and back to the
// host stand where the copies are. OnDemand: no copies: the kernel's page faults migrate the pages to the device, and
// the host check's faults bring them back (outside the GPU time).
enum class ManagedMigration { Prefetch, OnDemand };
// cudaMemAdvise given to the managed buffer once, before the first run.
enum class ManagedAdvice { None, PreferDevice, PreferHost, ReadMostly };
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
// Batch: each stream's copies one way handed over in one cudaMemcpyBatchAsync call (copies in stream order), its
// kernels between them as stream calls; every stream's work then goes by stage.
enum class Submission { Stream, Graph, Batch };

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
        std::pair { HostMemory::Pageable, "pageable" }, std::pair { HostMemory::WriteCombined, "write-combined" },
        std::pair { HostMemory::Registered, "registered" }, std::pair { HostMemory::Mapped, "mapped" },
        std::pair { HostMemory::Managed, "managed" } };
};
template <>
struct EnumNames<CopyMechanism> {
    static constexpr std::array entries { std::pair { CopyMechanism::CopyEngine, "ce" },
        std::pair { CopyMechanism::Sm, "sm" } };
};
template <>
struct EnumNames<ManagedMigration> {
    static constexpr std::array entries { std::pair { ManagedMigration::Prefetch, "prefetch" },
        std::pair { ManagedMigration::OnDemand, "on-demand" } };
};
template <>
struct EnumNames<ManagedAdvice> {
    static constexpr std::array entries { std::pair { ManagedAdvice::None, "none" },
        std::pair { ManagedAdvice::PreferDevice, "prefer-device" },
        std::pair { ManagedAdvice::PreferHost, "prefer-host" }, std::pair { ManagedAdvice::ReadMostly, "read-mostly" } };
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
        std::pair { Submission::Graph, "graph" }, std::pair { Submission::Batch, "batch" } };
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
    // The series measured as `blocks` blocks of about runs / blocks measured runs each: the pipeline's resources
    // (buffers, streams, events, graphs) are freed and made again before each block, and each block has its own
    // warm-up runs. A comparison then sees the variation between blocks, not only between runs.
    int blocks = 1;
    HostMemory hostMemory = HostMemory::Pinned;
    CopyMechanism copy = CopyMechanism::CopyEngine;  // for the kinds that copy: pageable, pinned, write-combined, registered
    ManagedMigration managedMigration = ManagedMigration::Prefetch;  // for managed memory
    ManagedAdvice managedAdvice = ManagedAdvice::None;               // for managed memory
    bool preferOverlap = false;  // batch submission: cudaMemcpyFlagPreferOverlapWithCompute on every copy
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
constexpr int kMaxBlocks = 1000;

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

// Whether the run copies at all: mapped memory and managed memory migrating on demand have no copies (the kernel
// works on the host buffer itself), and their runs have no H2D or D2H spans.
bool hasCopies(const PipelineConfig& config);
// Whether the copies are cudaMemPrefetchAsync migrations of managed memory rather than copies.
bool copiesArePrefetches(const PipelineConfig& config);

// Checks what needs no device: counts, threads per block, overflow of the byte size.
Status validate(const PipelineConfig& config);

// Checks that the host memory, copy mechanism and submission go together, whatever the device: SM copies and batch
// submission need copies to make, and a batch hands its copies to the copy engines. A combination that cannot run is
// ErrorKind::Unsupported, with the reason (a comparison shows it as "not run" and runs the rest).
Status checkCombination(const PipelineConfig& config);

// Checks that the device buffer fits in `availableBytes` of the device's memory; `how` says which figure that is
// ("free", "in all"). A buffer that does not fit is ErrorKind::TooLarge.
Status checkFitsDevice(const PipelineConfig& config, std::size_t availableBytes, const std::string& deviceName,
    const char* how = "free");

// Checks that the two host buffers that runs take turns between fit in `availableBytes` of the host's memory.
Status checkFitsHost(const PipelineConfig& config, std::size_t availableBytes);

}  // namespace asyncscope

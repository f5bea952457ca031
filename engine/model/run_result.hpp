// What one run of the pipeline measured: its timed operations as spans on one time axis, and the figures that are
// not spans (the events' total, poll iterations, the check's verdict).
#pragma once

#include "engine/model/names.hpp"

#include <cstdint>
#include <vector>

namespace asyncscope {

// GPU operations (copies, kernels) are timed by CUDA events or, traced, by CUPTI; CPU ones by the host's steady clock.
// Api: one CUDA runtime call on the CPU, as CUPTI traced it (Span::call says which). MigrateH2D and MigrateD2H:
// managed memory's pages migrating to the device or back to the host, as CUPTI's unified-memory counters saw them
// (traced only; `bytes` is what migrated). They are no copies of the pipeline's: no stage, no chunk of their own.
enum class SpanKind { H2D, Kernel, D2H, Submit, Wait, Check, Api, MigrateH2D, MigrateD2H };

template <>
struct EnumNames<SpanKind> {
    static constexpr std::array entries { std::pair { SpanKind::H2D, "h2d" }, std::pair { SpanKind::Kernel, "kernel" },
        std::pair { SpanKind::D2H, "d2h" }, std::pair { SpanKind::Submit, "submit" },
        std::pair { SpanKind::Wait, "wait" }, std::pair { SpanKind::Check, "check" },
        std::pair { SpanKind::Api, "api" }, std::pair { SpanKind::MigrateH2D, "migrate-h2d" },
        std::pair { SpanKind::MigrateD2H, "migrate-d2h" } };
};

// The CUDA runtime calls a run makes, for spans of kind Api.
enum class ApiCall : std::uint8_t {
    None,
    MemcpyAsync,
    LaunchKernel,
    EventRecord,
    StreamWaitEvent,
    GraphLaunch,
    EventQuery,
    EventSynchronize,
    MemcpyBatchAsync,
    MemPrefetchAsync,
    Other
};

template <>
struct EnumNames<ApiCall> {
    static constexpr std::array entries { std::pair { ApiCall::None, "none" },
        std::pair { ApiCall::MemcpyAsync, "cudaMemcpyAsync" }, std::pair { ApiCall::LaunchKernel, "cudaLaunchKernel" },
        std::pair { ApiCall::EventRecord, "cudaEventRecord" },
        std::pair { ApiCall::StreamWaitEvent, "cudaStreamWaitEvent" },
        std::pair { ApiCall::GraphLaunch, "cudaGraphLaunch" }, std::pair { ApiCall::EventQuery, "cudaEventQuery" },
        std::pair { ApiCall::EventSynchronize, "cudaEventSynchronize" },
        std::pair { ApiCall::MemcpyBatchAsync, "cudaMemcpyBatchAsync" },
        std::pair { ApiCall::MemPrefetchAsync, "cudaMemPrefetchAsync" }, std::pair { ApiCall::Other, "other" } };
};

constexpr bool isMigration(SpanKind kind)
{
    return kind == SpanKind::MigrateH2D || kind == SpanKind::MigrateD2H;
}

constexpr bool onGpu(SpanKind kind)
{
    return kind == SpanKind::H2D || kind == SpanKind::Kernel || kind == SpanKind::D2H || isMigration(kind);
}

// One timed operation. Times are ms from the run's start: the start event for GPU spans timed by events, the host
// clock reading taken as submission began for CPU spans, and for traced spans (RunResult::traced) the CUPTI clock
// reading taken at that same moment. `stream` is the CUDA stream's number within the run (CPU spans: the host
// thread's, 0 for the thread that submits and waits, 1 for the check threads); `bytes` what the operation moved
// (a kernel: read plus written); `call` the runtime call of an Api span; `name`, in a recorded program's runs, 1 + the
// place in its ProgramInfo::names of a kernel's name or of an Api span's call's (0: none).
struct Span {
    SpanKind kind = SpanKind::H2D;
    int device = 0;
    int stream = 0;
    int chunk = 0;
    std::uint64_t bytes = 0;
    double beginMs = 0.0;
    double endMs = 0.0;
    ApiCall call = ApiCall::None;
    std::uint32_t name = 0;

    double ms() const { return endMs - beginMs; }
};

struct RunResult {
    int index = 0;                // 0-based, counting warm-up runs
    // The block the run belongs to, 0-based: a series measured as blocks (--blocks) re-creates the pipeline's
    // resources between them, and runs of one block share what differs from one block (or process) to the next.
    int block = 0;
    bool warmup = false;          // warm-up runs are kept and shown but left out of statistics
    double startMs = 0.0;         // when submission began, host clock, ms from the series' first run's (0: unknown)
    // When submission began on this process's steady clock, in ns since its epoch: lines up the runs of devices that
    // ran at once. 0 when unknown; not saved (a file's runs have only startMs).
    std::int64_t hostClockNs = 0;
    double gpuMs = 0.0;           // start event to stop event: also timed when there are no events between stages
    std::uint64_t pollIterations = 0;  // cudaEventQuery(stop) == cudaErrorNotReady count (spin wait)
    double waitCpuMs = 0.0;       // CPU time the waiting thread used while waiting
    int expectedValue = 0;        // what every element should come back as: its value before the run + the value
    bool verified = false;        // every element came back equal to expectedValue
    std::int64_t firstWrongIndex = -1;  // -1 when verified
    int firstWrongValue = 0;
    std::vector<Span> spans;
    // With CUPTI as the trace source: the run as CUPTI saw it, GPU operations and the runtime calls that submitted
    // them on one clock. Empty otherwise. Statistics use `spans`; the timeline and the trace prefer these.
    std::vector<Span> traced;

    bool has(SpanKind kind) const;
    double totalMs(SpanKind kind) const;              // summed over the run's spans of this kind; 0 when none
    std::uint64_t totalBytes(SpanKind kind) const;
    bool stagesTimed() const { return has(SpanKind::H2D); }
    double cpuSubmitMs() const { return totalMs(SpanKind::Submit); }
    double waitMs() const { return totalMs(SpanKind::Wait); }
    // Whether any copy to or from the device ran while one of the run's kernels did.
    bool copiesOverlapKernels() const;
};

// The spans of a run on one stream of one device with no chunks, laid end to end from each kind's duration: what
// the pipeline records, and how a saved file that holds only durations (CSV, JSON before spans) reads back. A
// duration below zero leaves its span out (the pipeline ran with no events between stages).
struct SerialDurations {
    std::uint64_t bytes = 0;  // per copy
    double h2dMs = -1.0, kernelMs = -1.0, d2hMs = -1.0;
    double submitMs = -1.0, waitMs = -1.0;
};
std::vector<Span> serialSpans(int device, const SerialDurations& durations);

// Copies one way run one at a time on a device (one copy engine per direction, and the PCIe link's bandwidth that
// way shared): a copy whose span begins where the operation before it on its stream ended also holds its wait for
// the copies ahead of it. Moves each H2D and D2H span's begin to no earlier than the end of the copy the same way on
// the same device that ended before it. Spans of other kinds are left as they are.
void queueCopiesByDirection(std::vector<Span>& spans);

}  // namespace asyncscope

// What a PipelineSession holds: its buffers, streams, events, graphs and prepared batches, and the state of its runs.
// Shared by the session's parts: the runs and their issue code (pipeline.cpp), its opening (pipeline_open.cpp), and
// the work prepared ahead of the runs, graphs and batches (pipeline_prepare.cpp).
#pragma once

#include "engine/cuda/pipeline.hpp"

#include "engine/cuda/cuda_error.hpp"
#include "engine/cuda/cuda_resources.hpp"
#include "engine/cuda/cupti_trace.hpp"
#include "engine/cuda/host_buffer.hpp"
#include "engine/cuda/memcpy_batch.hpp"
#include "engine/model/batch_order.hpp"
#include "engine/model/event_spans.hpp"
#include "engine/model/operation_order.hpp"
#include "engine/run/host_check.hpp"

#include <chrono>
#include <cstddef>
#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace asyncscope {

struct PipelineSession::Resources {
    using Clock = std::chrono::steady_clock;

    PipelineConfig config;
    // Two host buffers taking turns, in either check mode. Overlapped, one is checked while the GPU uses the other.
    // Serial, the turns keep the next host-to-device copy away from the buffer just checked, whose lines are still in
    // the checking cores' caches (copying from it right away was 20 % slower on an H200 host): both modes time the
    // copies from the same state of the CPU caches.
    std::vector<HostBuffer> hosts;
    // What the copies fill and empty; none where the kernel works on the host buffer in place (hasDeviceBuffer).
    DeviceInts device;
    bool copies = true;           // hasCopies(config): without copies each chunk's only operation is its kernel
    double registerMs = 0.0;      // registered memory: cudaHostRegister of both host buffers together
    bool unregistered = false;    // unregisterHost() has run: the buffers are plain memory, the runs are over
    std::vector<ChunkRange> chunks;
    std::vector<Stream> streams;  // chunk c runs on streams[c % S]; the run starts and ends on streams[0]
    Event start, stop;            // timing: the run's first and last moment on the GPU
    Event fork;                   // no timing: the other streams wait for the run's start through it
    std::vector<Event> joins;     // no timing: streams[0] waits for each other stream's last operation
    std::vector<Event> opEnds;    // timing, with stage events: after operation 3c + stage (H2D, kernel, D2H)
    // Graph submission: the run captured once per host buffer, instantiated and uploaded, launched with one call.
    std::vector<GraphExec> graphs;
    bool capturing = false;       // enqueue() is being captured into a graph rather than run
    // Each host buffer holds one value in every element: zeros at first, then what its last run brought back,
    // which its next run sends again and expects back incremented. A buffer that comes back wrong is zeroed again.
    std::vector<int> held;
    std::size_t next = 0;              // the host buffer the next run uses
    std::optional<RunResult> pending;  // timed, its buffer (the one `next` is not) being checked by `checker`
    Clock::time_point pendingStart {};  // the pending run's start on the host clock: its spans' zero
    Clock::time_point checkBegin {};    // when the pending run's check began
    std::optional<Clock::time_point> firstStart;  // the session's first run's start: RunResult::startMs counts from it
    std::unique_ptr<HostChecker> checker;  // destroyed before the buffers its threads may still touch
    std::unique_ptr<CuptiTrace> cupti;     // with CUPTI as the trace source, where it started
    std::string traceNote;                 // why CUPTI was asked for and did not start

    int* host(std::size_t i) const { return hosts[i].host(); }
    const HostBuffer& bufferOf(const int* host) const
    {
        return hosts[hosts.size() > 1 && hosts[1].host() == host ? 1 : 0];
    }
    // Where the kernel works on a run from host buffer `host`: the device buffer, or the host buffer itself through
    // the pointer the device reaches it by.
    int* workspace(const int* host) const { return device ? device.get() : bufferOf(host).device(); }
    // The stage event of an operation: 3 per chunk with copies, the kernel's alone without.
    std::size_t operationIndex(int chunk, int stage) const
    {
        return static_cast<std::size_t>(copies ? kStages * chunk + stage : chunk);
    }

    cudaStream_t mainStream() const { return streams.front().get(); }

    ~Resources()
    {
        // Nothing may be freed while the GPU or a checker thread still uses it.
        for (const Stream& s : streams)
            static_cast<void>(cudaStreamSynchronize(s.get()));
        checker.reset();
    }

    // Records a stage event; inside a capture as an external event node, so the graph's launches still time.
    cudaError_t record(const Event& event, cudaStream_t stream) const
    {
        return capturing ? cudaEventRecordWithFlags(event.get(), stream, cudaEventRecordExternal)
                         : cudaEventRecord(event.get(), stream);
    }

    // On one stream the last operation's end is the stop event itself, as in asyncAPI: no event of its own.
    bool endsAtStop(int chunk, int stage) const
    {
        return streams.size() == 1 && static_cast<std::size_t>(chunk) + 1 == chunks.size() &&
            stage == (copies ? 2 : 1);
    }

    // A graph that cannot be captured or instantiated from host memory other than pinned is a limit of this system
    // for that kind (copies from pageable memory or prefetches of managed memory may not be captured): Unsupported,
    // so a comparison shows the variant as not run and goes on. With pinned memory it stays the error it is.
    Error graphRefused(Error error) const
    {
        if (config.hostMemory == HostMemory::Pinned)
            return error;
        error.kind = ErrorKind::Unsupported;
        error.advice = std::string("Graphs of ") + nameOf(config.hostMemory) +
            " host memory cannot be made on this system: choose stream submission, or pinned memory for graphs.";
        return error;
    }

    Status enqueueCopy(int stage, int chunk, int* host, cudaStream_t stream) const;
    Status enqueue(int* host) const;
    Status enqueueOperations(int* host) const;
    Status capture(std::size_t buffer, Graph& graph);
    Status buildGraphs();

    // Batch submission: the run's steps (batchOrder) and, for each host buffer, every step's copies prepared at open
    // (a kernel's step holds none), so a run only hands them over.
    struct PreparedBatches {
        const int* host = nullptr;
        std::vector<MemcpyBatch> steps;
    };
    std::vector<BatchStep> batchSteps;
    std::vector<PreparedBatches> batches;

    Status enqueueBatchSteps(int* host) const;
    Status prepareBatches();

    // The events step() reads back: one per operation (3 per chunk) or, batched, one per batch and kernel.
    std::size_t timedOperations() const
    {
        return config.submission == Submission::Batch && !opEnds.empty() ? batchSteps.size() : opEnds.size();
    }
    bool timedEndsAtStop(std::size_t op) const
    {
        if (config.submission == Submission::Batch)
            return streams.size() == 1 && op + 1 == batchSteps.size();
        if (!copies)
            return endsAtStop(static_cast<int>(op), 1);
        return endsAtStop(static_cast<int>(op / kStages), static_cast<int>(op % kStages));
    }
};

}  // namespace asyncscope

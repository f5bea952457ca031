#include "engine/cuda/pipeline.hpp"

#include "engine/cuda/pipeline_resources.hpp"

#include "engine/cuda/increment_kernel.hpp"
#include "engine/cuda/sm_copy_kernel.hpp"
#include "engine/model/operation_order.hpp"
#include "engine/run/profiler_range.hpp"

#include <cuda_profiler_api.h>
#include <nvtx3/nvToolsExt.h>

#include <algorithm>
#include <chrono>
#include <ctime>
#include <optional>

namespace asyncscope {

namespace {

using Clock = std::chrono::steady_clock;
static_assert(Clock::is_steady, "CPU submit times need a monotonic clock");

double millisecondsBetween(Clock::time_point from, Clock::time_point to)
{
    return std::chrono::duration<double, std::milli>(to - from).count();
}

double threadCpuMilliseconds()
{
    timespec ts {};
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
    return static_cast<double>(ts.tv_sec) * 1e3 + static_cast<double>(ts.tv_nsec) * 1e-6;
}

Result<float> elapsed(const Event& from, const Event& to)
{
    float ms = 0.0f;
    ASYNCSCOPE_CUDA_TRY(cudaEventElapsedTime(&ms, from.get(), to.get()));
    return ms;
}

// Each run's timed part as an NVTX range "AsyncScope run": Nsight Systems and `asyncscope-cli record` see the runs
// as they are timed (the poisoning memset before it is not a run's). Costs nothing where no tool listens.
class RunRange {
public:
    RunRange() : m_id(nvtxRangeStartA("AsyncScope run")) { }
    ~RunRange() { nvtxRangeEnd(m_id); }
    RunRange(const RunRange&) = delete;
    RunRange& operator=(const RunRange&) = delete;

private:
    nvtxRangeId_t m_id;
};

Status startProfiler()
{
    ASYNCSCOPE_CUDA_TRY(cudaProfilerStart());
    return std::nullopt;
}

Status stopProfiler()
{
    ASYNCSCOPE_CUDA_TRY(cudaProfilerStop());
    return std::nullopt;
}

}  // namespace

// Stage 0 (H2D) or 2 (D2H) of chunk `chunk` between host buffer `host` and the device, as the configuration moves
// it: the copy engines (cudaMemcpyAsync), an SM copy kernel through the host buffer's device pointer, or managed
// memory's prefetch to the device and back to the host (the kernel then works on the managed buffer in place).
Status PipelineSession::Resources::enqueueCopy(int stage, int chunk, int* host, cudaStream_t stream) const
{
    const ChunkRange range = chunks[static_cast<std::size_t>(chunk)];
    const std::size_t bytes = range.count * sizeof(int);
    const bool toDevice = stage == 0;
    if (copiesArePrefetches(config)) {
        const cudaMemLocation where = toDevice ? cudaMemLocation { cudaMemLocationTypeDevice, config.device }
                                               : cudaMemLocation { cudaMemLocationTypeHost, 0 };
        if (const cudaError_t status = cudaMemPrefetchAsync(host + range.first, bytes, where, 0, stream);
            status != cudaSuccess)
            return cudaFailure("cudaMemPrefetchAsync", status);
        return std::nullopt;
    }
    int* const onDevice = device.get() + range.first;
    if (config.copy == CopyMechanism::Sm) {
        int* const mapped = bufferOf(host).device() + range.first;
        int* const dst = toDevice ? onDevice : mapped;
        const int* const src = toDevice ? mapped : onDevice;
        if (const cudaError_t status = launchSmCopy(dst, src, range.count, config.threadsPerBlock, stream);
            status != cudaSuccess)
            return cudaFailure("launchSmCopy", status);
        return std::nullopt;
    }
    int* const onHost = host + range.first;
    const cudaError_t status = toDevice ? cudaMemcpyAsync(onDevice, onHost, bytes, cudaMemcpyHostToDevice, stream)
                                        : cudaMemcpyAsync(onHost, onDevice, bytes, cudaMemcpyDeviceToHost, stream);
    if (status != cudaSuccess)
        return cudaFailure("cudaMemcpyAsync", status);
    return std::nullopt;
}

// One run's GPU work from host buffer `host`: the start event, the other streams forked from the first, the run's
// operations (enqueueOperations, or enqueueBatchSteps for batch submission), the other streams joined back into the
// first, the stop event. Captured into a graph it leaves out the start and stop events, which step() records around
// the launch.
Status PipelineSession::Resources::enqueue(int* host) const
{
    const cudaStream_t first = mainStream();
    if (!capturing)
        ASYNCSCOPE_CUDA_TRY(cudaEventRecord(start.get(), first));
    if (streams.size() > 1) {
        ASYNCSCOPE_CUDA_TRY(cudaEventRecord(fork.get(), first));
        for (std::size_t s = 1; s < streams.size(); ++s)
            ASYNCSCOPE_CUDA_TRY(cudaStreamWaitEvent(streams[s].get(), fork.get(), 0));
    }
    if (auto failed = config.submission == Submission::Batch ? enqueueBatchSteps(host) : enqueueOperations(host))
        return failed;
    for (std::size_t s = 1; s < streams.size(); ++s) {
        ASYNCSCOPE_CUDA_TRY(cudaEventRecord(joins[s - 1].get(), streams[s].get()));
        ASYNCSCOPE_CUDA_TRY(cudaStreamWaitEvent(first, joins[s - 1].get(), 0));
    }
    if (!capturing)
        ASYNCSCOPE_CUDA_TRY(cudaEventRecord(stop.get(), first));
    return std::nullopt;
}

// Every chunk's H2D, kernel and D2H on its stream, each followed by its event with stage events (the kernel alone
// for the kinds without copies).
Status PipelineSession::Resources::enqueueOperations(int* host) const
{
    Status failed;
    int* const work = workspace(host);
    forEachOperation(config.chunks, config.order, [&](int chunk, int stage) {
        const bool copy = stage != 1;
        if (failed || (copy && !copies))
            return;
        const ChunkRange range = chunks[static_cast<std::size_t>(chunk)];
        const cudaStream_t stream = streams[static_cast<std::size_t>(chunk) % streams.size()].get();
        if (copy) {
            failed = enqueueCopy(stage, chunk, host, stream);
        } else if (const cudaError_t status =
                       launchIncrement(work + range.first, config.value, range.count, config.threadsPerBlock, stream);
                   status != cudaSuccess) {
            failed = cudaFailure("launchIncrement", status);
        }
        if (!failed && !opEnds.empty() && !endsAtStop(chunk, stage)) {
            if (const cudaError_t status = record(opEnds[operationIndex(chunk, stage)], stream); status != cudaSuccess)
                failed = cudaFailure("cudaEventRecord", status);
        }
    });
    return failed;
}

// The run's steps in batches (batchOrder): each stream's H2D copies in one cudaMemcpyBatchAsync call, its kernels,
// its D2H copies in one call, each step followed by its event with stage events. The copies' arrays were prepared
// at open.
Status PipelineSession::Resources::enqueueBatchSteps(int* host) const
{
    const PreparedBatches* prepared = nullptr;
    for (const PreparedBatches& b : batches) {
        if (b.host == host)
            prepared = &b;
    }
    if (!prepared)
        return makeError(ErrorKind::Cuda, "no copies were prepared for this host buffer at open");
    for (std::size_t i = 0; i < batchSteps.size(); ++i) {
        const BatchStep& step = batchSteps[i];
        const cudaStream_t stream = streams[static_cast<std::size_t>(step.stream)].get();
        if (step.isCopy()) {
            if (auto failed = prepared->steps[i].submit(stream))
                return failed;
        } else {
            const ChunkRange range = chunks[static_cast<std::size_t>(step.chunks.front())];
            const cudaError_t launched =
                launchIncrement(device.get() + range.first, config.value, range.count, config.threadsPerBlock, stream);
            if (launched != cudaSuccess)
                return cudaFailure("launchIncrement", launched);
        }
        if (!opEnds.empty() && !timedEndsAtStop(i))
            ASYNCSCOPE_CUDA_TRY(record(opEnds[i], stream));
    }
    return std::nullopt;
}

Result<PipelineSession::Step> PipelineSession::step(int index, bool warmup, const std::atomic<bool>* cancel)
{
    const PipelineConfig& c = m->config;
    const std::size_t bytes = c.bytes();
    const std::size_t buffer = m->next;
    int* host = m->host(buffer);
    cudaStream_t stream = m->mainStream();

    if (m->unregistered)
        return makeError(ErrorKind::Usage, "the session's host buffers were unregistered: its runs are over");
    ASYNCSCOPE_CUDA_TRY(cudaSetDevice(c.device));

    // Outside the timed region: the device buffer is poisoned so an element the copies miss can never pass. The host
    // buffer needs no rewrite: it holds a known value in every element. (Kinds without a device buffer are worked on
    // in place: what the kernel misses keeps its old value and fails the check.)
    const int expected = incremented(m->held[buffer], c.value);
    if (m->device) {
        ASYNCSCOPE_CUDA_TRY(cudaMemsetAsync(m->device.get(), 0xFF, bytes, stream));
        ASYNCSCOPE_CUDA_TRY(cudaStreamSynchronize(stream));
    }
    // Stopped on every way out of this step, an error's included; the normal ways out stop it and check how.
    auto profiler = ProfilerRange::open(c.profilerRange, startProfiler, stopProfiler);
    if (!profiler)
        return profiler.error();

    RunResult result;
    result.index = index;
    result.warmup = warmup;
    std::optional<RunRange> range(std::in_place);

    // A graph's CPU submit time is its launch alone: the start and stop events go just outside it. (Event nodes in
    // the graph would cost the launch several microseconds each, and stream calls time their own events as asyncAPI
    // does.)
    if (c.submission == Submission::Graph)
        ASYNCSCOPE_CUDA_TRY(cudaEventRecord(m->start.get(), stream));
    const std::uint64_t tracedFrom = m->cupti ? m->cupti->now() : 0;
    const auto submitBegin = Clock::now();
    if (c.submission == Submission::Graph) {
        ASYNCSCOPE_CUDA_TRY(cudaGraphLaunch(m->graphs[buffer].get(), stream));
    } else if (auto failed = m->enqueue(host)) {
        return *failed;
    }
    const auto submitEnd = Clock::now();
    if (!m->firstStart)
        m->firstStart = submitBegin;
    result.startMs = millisecondsBetween(*m->firstStart, submitBegin);
    result.hostClockNs = std::chrono::duration_cast<std::chrono::nanoseconds>(submitBegin.time_since_epoch()).count();
    if (c.submission == Submission::Graph)
        ASYNCSCOPE_CUDA_TRY(cudaEventRecord(m->stop.get(), stream));

    const double cpuBefore = threadCpuMilliseconds();
    bool cancelled = false;
    if (c.waitMode == WaitMode::Spin) {
        for (;;) {
            const cudaError_t state = cudaEventQuery(m->stop.get());
            if (state == cudaSuccess)
                break;
            if (state != cudaErrorNotReady)
                return cudaFailure("cudaEventQuery", state);
            ++result.pollIterations;
            if (cancel && cancel->load(std::memory_order_relaxed)) {
                cancelled = true;
                break;
            }
        }
    } else {
        ASYNCSCOPE_CUDA_TRY(cudaEventSynchronize(m->stop.get()));
    }
    const auto waitEnd = Clock::now();
    const std::uint64_t tracedTo = m->cupti ? m->cupti->now() : 0;
    result.waitCpuMs = threadCpuMilliseconds() - cpuBefore;
    range.reset();

    if (cancelled) {
        ASYNCSCOPE_CUDA_TRY(cudaStreamSynchronize(stream));  // the last stream: every other joins it before stop
        restart(buffer);  // the run finished unchecked: its buffer no longer holds a known value
        if (auto failed = profiler->close())
            return *failed;
        return makeError(ErrorKind::Cancelled, "cancelled during run " + std::to_string(index));
    }
    if (auto failed = profiler->close())
        return *failed;

    auto total = elapsed(m->start, m->stop);
    if (!total)
        return total.error();
    result.gpuMs = *total;
    EventTimes times;
    times.device = c.device;
    times.streams = c.streams;
    times.order = c.order;
    times.chunks = m->chunks;
    times.copies = m->copies;
    times.submission = c.submission;
    times.operationEndMs.reserve(m->timedOperations());
    for (std::size_t op = 0; op < m->timedOperations(); ++op) {
        auto end = m->timedEndsAtStop(op) ? total : elapsed(m->start, m->opEnds[op]);
        if (!end)
            return end.error();
        times.operationEndMs.push_back(*end);
    }
    times.submitEndMs = millisecondsBetween(submitBegin, submitEnd);
    times.waitEndMs = millisecondsBetween(submitBegin, waitEnd);
    auto spans = eventSpans(times);
    if (!spans)
        return spans.error();
    result.spans = std::move(*spans);

    if (m->cupti)
        result.traced = m->cupti->take(tracedFrom, tracedTo, m->chunks, c);

    result.expectedValue = expected;
    Step done { result, flush() };
    m->checkBegin = Clock::now();
    m->checker->start(host, c.elements, expected);
    m->pending = result;
    m->pendingStart = submitBegin;
    m->next = 1 - buffer;
    if (c.checkMode == CheckMode::Serial)
        done.checked = flush();
    return done;
}

std::optional<RunResult> PipelineSession::flush()
{
    if (!m->pending)
        return std::nullopt;
    RunResult run = *m->pending;
    m->pending.reset();
    const std::size_t buffer = 1 - m->next;
    const CheckResult found = m->checker->finish();
    run.spans.push_back({ SpanKind::Check, m->config.device, 0, 0, m->config.bytes(),
        millisecondsBetween(m->pendingStart, m->checkBegin), millisecondsBetween(m->pendingStart, found.endedAt) });
    run.firstWrongIndex = found.firstWrongIndex;
    run.firstWrongValue = found.firstWrongValue;
    run.verified = found.firstWrongIndex < 0;
    if (run.verified)
        m->held[buffer] = run.expectedValue;
    else
        restart(buffer);
    return run;
}

void PipelineSession::restart(std::size_t buffer)
{
    std::fill_n(m->host(buffer), m->config.elements, 0);
    m->held[buffer] = 0;
}

Result<RunResult> PipelineSession::run(int index, bool warmup, const std::atomic<bool>* cancel)
{
    auto done = step(index, warmup, cancel);
    if (!done)
        return done.error();
    if (m->config.checkMode == CheckMode::Serial)
        return *done->checked;
    return *flush();  // overlapped: `checked` held a run still pending from an earlier step(), if any
}

}  // namespace asyncscope

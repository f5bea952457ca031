#include "engine/cuda/pipeline.hpp"

#include "engine/cuda/cuda_error.hpp"
#include "engine/cuda/cuda_resources.hpp"
#include "engine/cuda/host_check.hpp"
#include "engine/cuda/host_memory.hpp"
#include "engine/cuda/increment_kernel.hpp"
#include "engine/model/size_parse.hpp"

#include <cuda_profiler_api.h>

#include <algorithm>
#include <chrono>
#include <cstring>
#include <ctime>

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

Result<Event> makeEvent(unsigned flags)
{
    cudaEvent_t event = nullptr;
    ASYNCSCOPE_CUDA_TRY(cudaEventCreateWithFlags(&event, flags));
    return Event(event);
}

Result<float> elapsed(const Event& from, const Event& to)
{
    float ms = 0.0f;
    ASYNCSCOPE_CUDA_TRY(cudaEventElapsedTime(&ms, from.get(), to.get()));
    return ms;
}

}  // namespace

struct PipelineSession::Resources {
    PipelineConfig config;
    // Two host buffers taking turns, in either check mode. Overlapped, one is checked while the GPU uses the other.
    // Serial, the turns keep the next host-to-device copy away from the buffer just checked, whose lines are still in
    // the checking cores' caches (copying from it right away was 20 % slower on an H200 host): both modes time the
    // copies from the same state of the CPU caches.
    std::vector<PinnedInts> pinned;
    std::vector<PageableInts> pageable;
    DeviceInts device;
    Stream stream;
    Event start, afterH2D, afterKernel, stop;
    // Each host buffer holds one value in every element: zeros at first, then what its last run brought back,
    // which its next run sends again and expects back incremented. A buffer that comes back wrong is zeroed again.
    std::vector<int> held;
    std::size_t next = 0;              // the host buffer the next run uses
    std::optional<RunResult> pending;  // timed, its buffer (the one `next` is not) being checked by `checker`
    Clock::time_point pendingStart {};  // the pending run's start on the host clock: its spans' zero
    Clock::time_point checkBegin {};    // when the pending run's check began
    std::unique_ptr<HostChecker> checker;  // destroyed before the buffers its threads may still touch

    int* host(std::size_t i) const { return pinned.empty() ? pageable[i].get() : pinned[i].get(); }

    ~Resources()
    {
        // Nothing may be freed while the GPU or a checker thread still uses it.
        if (stream)
            static_cast<void>(cudaStreamSynchronize(stream.get()));
        checker.reset();
    }
};

PipelineSession::PipelineSession(std::unique_ptr<Resources> resources)
    : m(std::move(resources))
{
}

PipelineSession::~PipelineSession() = default;

const PipelineConfig& PipelineSession::config() const
{
    return m->config;
}

Result<std::unique_ptr<PipelineSession>> PipelineSession::open(const PipelineConfig& config, MemoryCheck memoryCheck)
{
    if (auto invalid = validate(config))
        return *invalid;

    int deviceCount = 0;
    ASYNCSCOPE_CUDA_TRY(cudaGetDeviceCount(&deviceCount));
    if (config.device >= deviceCount)
        return makeError(ErrorKind::Usage,
            "there is no CUDA device " + std::to_string(config.device) + "; this machine has " +
                std::to_string(deviceCount),
            "Choose a device from the list.");
    ASYNCSCOPE_CUDA_TRY(cudaSetDevice(config.device));

    if (memoryCheck == MemoryCheck::Enforce) {
        std::size_t freeBytes = 0;
        std::size_t totalBytes = 0;
        ASYNCSCOPE_CUDA_TRY(cudaMemGetInfo(&freeBytes, &totalBytes));
        cudaDeviceProp prop {};
        ASYNCSCOPE_CUDA_TRY(cudaGetDeviceProperties(&prop, config.device));
        if (auto tooBig = checkFitsDevice(config, freeBytes, prop.name))
            return *tooBig;
        if (auto tooBig = checkFitsHost(config, availableHostMemory()))
            return *tooBig;
    }

    auto r = std::make_unique<Resources>();
    r->config = config;
    const std::size_t bytes = config.bytes();

    void* device = nullptr;
    ASYNCSCOPE_CUDA_TRY(cudaMalloc(&device, bytes));
    r->device.reset(static_cast<int*>(device));

    for (std::size_t i = 0; i < 2; ++i) {
        void* host = nullptr;
        if (config.hostMemory == HostMemory::Pinned) {
            if (const cudaError_t status = cudaMallocHost(&host, bytes); status != cudaSuccess) {
                Error failure = cudaFailure("cudaMallocHost", status);  // also clears the runtime's last error
                if (i == 0)
                    return failure;
                return makeError(ErrorKind::OutOfMemory,
                    "could not pin a second host buffer of " + formatBytes(bytes) + " (runs take turns between two)",
                    "Choose a smaller size.");
            }
            r->pinned.emplace_back(static_cast<int*>(host));
        } else {
            constexpr std::size_t page = 4096;
            host = std::aligned_alloc(page, (bytes + page - 1) / page * page);
            if (!host)
                return makeError(ErrorKind::OutOfMemory,
                    "could not allocate " + formatBytes(bytes) + " of pageable host memory",
                    "Choose a smaller size.");
            r->pageable.emplace_back(static_cast<int*>(host));
        }
        std::memset(host, 0, bytes);
        r->held.push_back(0);
    }
    r->checker = std::make_unique<HostChecker>(static_cast<std::size_t>(config.checkThreads));

    cudaStream_t stream = nullptr;
    ASYNCSCOPE_CUDA_TRY(cudaStreamCreateWithFlags(&stream, cudaStreamNonBlocking));
    r->stream.reset(stream);

    const unsigned stopFlags = config.waitMode == WaitMode::Blocking ? cudaEventBlockingSync : cudaEventDefault;
    for (auto [slot, flags] : { std::pair { &r->start, unsigned(cudaEventDefault) },
             std::pair { &r->afterH2D, unsigned(cudaEventDefault) },
             std::pair { &r->afterKernel, unsigned(cudaEventDefault) }, std::pair { &r->stop, stopFlags } }) {
        auto event = makeEvent(flags);
        if (!event)
            return event.error();
        *slot = std::move(*event);
    }
    return std::unique_ptr<PipelineSession>(new PipelineSession(std::move(r)));
}

Result<PipelineSession::Step> PipelineSession::step(int index, bool warmup, const std::atomic<bool>* cancel)
{
    const PipelineConfig& c = m->config;
    const std::size_t bytes = c.bytes();
    const std::size_t buffer = m->next;
    int* host = m->host(buffer);
    cudaStream_t stream = m->stream.get();

    ASYNCSCOPE_CUDA_TRY(cudaSetDevice(c.device));

    // Outside the timed region: the device buffer is poisoned so an element the copies miss can never pass. The host
    // buffer needs no rewrite: it holds a known value in every element.
    const int expected = incremented(m->held[buffer], c.value);
    ASYNCSCOPE_CUDA_TRY(cudaMemsetAsync(m->device.get(), 0xFF, bytes, stream));
    ASYNCSCOPE_CUDA_TRY(cudaStreamSynchronize(stream));
    if (c.profilerRange)
        ASYNCSCOPE_CUDA_TRY(cudaProfilerStart());

    RunResult result;
    result.index = index;
    result.warmup = warmup;

    const auto submitBegin = Clock::now();
    ASYNCSCOPE_CUDA_TRY(cudaEventRecord(m->start.get(), stream));
    ASYNCSCOPE_CUDA_TRY(cudaMemcpyAsync(m->device.get(), host, bytes, cudaMemcpyHostToDevice, stream));
    if (c.stageEvents)
        ASYNCSCOPE_CUDA_TRY(cudaEventRecord(m->afterH2D.get(), stream));
    ASYNCSCOPE_CUDA_TRY(launchIncrement(m->device.get(), c.value, c.elements, c.threadsPerBlock, stream));
    if (c.stageEvents)
        ASYNCSCOPE_CUDA_TRY(cudaEventRecord(m->afterKernel.get(), stream));
    ASYNCSCOPE_CUDA_TRY(cudaMemcpyAsync(host, m->device.get(), bytes, cudaMemcpyDeviceToHost, stream));
    ASYNCSCOPE_CUDA_TRY(cudaEventRecord(m->stop.get(), stream));
    const auto submitEnd = Clock::now();

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
    result.waitCpuMs = threadCpuMilliseconds() - cpuBefore;

    if (cancelled) {
        ASYNCSCOPE_CUDA_TRY(cudaStreamSynchronize(stream));
        restart(buffer);  // the run finished unchecked: its buffer no longer holds a known value
        if (c.profilerRange)
            ASYNCSCOPE_CUDA_TRY(cudaProfilerStop());
        return makeError(ErrorKind::Cancelled, "cancelled during run " + std::to_string(index));
    }
    if (c.profilerRange)
        ASYNCSCOPE_CUDA_TRY(cudaProfilerStop());

    auto total = elapsed(m->start, m->stop);
    if (!total)
        return total.error();
    result.gpuMs = *total;
    result.spans.reserve(6);
    if (c.stageEvents) {
        auto h2dEnd = elapsed(m->start, m->afterH2D);
        auto kernelEnd = elapsed(m->start, m->afterKernel);
        for (const auto* at : { &h2dEnd, &kernelEnd }) {
            if (!*at)
                return at->error();
        }
        const int device = c.device;
        result.spans.push_back({ SpanKind::H2D, device, 0, 0, bytes, 0.0, *h2dEnd });
        result.spans.push_back({ SpanKind::Kernel, device, 0, 0, 2 * bytes, *h2dEnd, *kernelEnd });
        result.spans.push_back({ SpanKind::D2H, device, 0, 0, bytes, *kernelEnd, *total });
    }
    const double submitMs = millisecondsBetween(submitBegin, submitEnd);
    result.spans.push_back({ SpanKind::Submit, c.device, 0, 0, 0, 0.0, submitMs });
    result.spans.push_back({ SpanKind::Wait, c.device, 0, 0, 0, submitMs, millisecondsBetween(submitBegin, waitEnd) });

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

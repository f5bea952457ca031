#include "engine/pipeline.hpp"

#include "engine/cuda_error.hpp"
#include "engine/cuda_resources.hpp"
#include "engine/host_check.hpp"
#include "engine/increment_kernel.hpp"

#include <cuda_profiler_api.h>

#include <chrono>
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
    PinnedInts pinned;
    PageableInts pageable;
    DeviceInts device;
    Stream stream;
    Event start, afterH2D, afterKernel, stop;

    int* host() const { return pinned ? pinned.get() : pageable.get(); }

    ~Resources()
    {
        // Nothing may be freed while the GPU still uses it.
        if (stream)
            static_cast<void>(cudaStreamSynchronize(stream.get()));
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
    }

    auto r = std::make_unique<Resources>();
    r->config = config;
    const std::size_t bytes = config.bytes();

    void* device = nullptr;
    ASYNCSCOPE_CUDA_TRY(cudaMalloc(&device, bytes));
    r->device.reset(static_cast<int*>(device));

    if (config.hostMemory == HostMemory::Pinned) {
        void* host = nullptr;
        ASYNCSCOPE_CUDA_TRY(cudaMallocHost(&host, bytes));
        r->pinned.reset(static_cast<int*>(host));
    } else {
        constexpr std::size_t page = 4096;
        void* host = std::aligned_alloc(page, (bytes + page - 1) / page * page);
        if (!host)
            return makeError(ErrorKind::OutOfMemory, "could not allocate " + std::to_string(bytes) +
                    " bytes of pageable host memory", "Choose a smaller size.");
        r->pageable.reset(static_cast<int*>(host));
    }

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

Result<RunResult> PipelineSession::run(int index, bool warmup, const std::atomic<bool>* cancel)
{
    const PipelineConfig& c = m->config;
    const std::size_t bytes = c.bytes();
    int* host = m->host();
    cudaStream_t stream = m->stream.get();

    ASYNCSCOPE_CUDA_TRY(cudaSetDevice(c.device));

    // Outside the timed region: host zeroed, device poisoned so an untouched element can never pass.
    clearHost(host, c.elements);
    ASYNCSCOPE_CUDA_TRY(cudaMemsetAsync(m->device.get(), 0xFF, bytes, stream));
    ASYNCSCOPE_CUDA_TRY(cudaStreamSynchronize(stream));
    if (c.profilerRange)
        ASYNCSCOPE_CUDA_TRY(cudaProfilerStart());

    RunResult result;
    result.index = index;
    result.warmup = warmup;
    result.stagesTimed = c.stageEvents;

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
    result.cpuSubmitMs = millisecondsBetween(submitBegin, submitEnd);

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
    result.waitMs = millisecondsBetween(submitEnd, Clock::now());
    result.waitCpuMs = threadCpuMilliseconds() - cpuBefore;

    if (cancelled) {
        ASYNCSCOPE_CUDA_TRY(cudaStreamSynchronize(stream));
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
    if (c.stageEvents) {
        auto h2d = elapsed(m->start, m->afterH2D);
        auto kernel = elapsed(m->afterH2D, m->afterKernel);
        auto d2h = elapsed(m->afterKernel, m->stop);
        for (const auto* stage : { &h2d, &kernel, &d2h }) {
            if (!*stage)
                return stage->error();
        }
        result.h2dMs = *h2d;
        result.kernelMs = *kernel;
        result.d2hMs = *d2h;
    }

    result.firstWrongIndex = findFirstMismatch(host, c.elements, c.value);
    result.verified = result.firstWrongIndex < 0;
    if (!result.verified)
        result.firstWrongValue = host[result.firstWrongIndex];
    return result;
}

}  // namespace asyncscope

#include "engine/cuda/copy_calibration.hpp"

#include "engine/cuda/cuda_error.hpp"
#include "engine/cuda/cuda_resources.hpp"
#include "engine/cuda/host_buffer.hpp"
#include "engine/cuda/increment_kernel.hpp"
#include "engine/cuda/sm_copy_kernel.hpp"
#include "engine/model/statistics.hpp"

#include <algorithm>
#include <chrono>
#include <filesystem>
#include <functional>
#include <vector>

namespace asyncscope {

namespace {

// One move of a calibration, enqueued on a stream; `api` names the call in an error.
struct Step {
    const char* api = "";
    std::function<cudaError_t(cudaStream_t)> enqueue;
};

// What a path's calibration times: `inbound` moves the first pair of buffers' bytes to the device, `outbound` the
// second pair's back to the host; `pairedInbound` and `pairedOutbound` the same when both run at once (SM copies
// take half the device each there); `reset`, where there is one, puts both where those moves start from.
struct Moves {
    Step inbound;
    Step outbound;
    Step pairedInbound;
    Step pairedOutbound;
    std::vector<Step> reset;
};

struct Clock {
    Event start;
    Event stop;
    Event joined;  // the second stream's end, which the first waits for
    cudaStream_t first = nullptr;
    cudaStream_t second = nullptr;
    int repeats = 0;
};

Status enqueue(const Step& step, cudaStream_t stream)
{
    if (const cudaError_t status = step.enqueue(stream); status != cudaSuccess)
        return cudaFailure(step.api, status);
    return std::nullopt;
}

// The best time in ms of `repeats` moves (after one warm-up): `one` alone on the first stream, or, where `beside` is
// given, with it on the second stream at the same time, from a start both streams wait for to a stop after both.
Result<float> bestMs(const Moves& moves, const Step& one, const Step* beside, const Clock& clock)
{
    float best = 0.0f;
    for (int i = 0; i <= clock.repeats; ++i) {  // i == 0 is the warm-up
        for (const Step& step : moves.reset) {
            if (auto failed = enqueue(step, clock.first))
                return *failed;
        }
        ASYNCSCOPE_CUDA_TRY(cudaEventRecord(clock.start.get(), clock.first));
        if (beside)
            ASYNCSCOPE_CUDA_TRY(cudaStreamWaitEvent(clock.second, clock.start.get(), 0));
        if (auto failed = enqueue(one, clock.first))
            return *failed;
        if (beside) {
            if (auto failed = enqueue(*beside, clock.second))
                return *failed;
            ASYNCSCOPE_CUDA_TRY(cudaEventRecord(clock.joined.get(), clock.second));
            ASYNCSCOPE_CUDA_TRY(cudaStreamWaitEvent(clock.first, clock.joined.get(), 0));
        }
        ASYNCSCOPE_CUDA_TRY(cudaEventRecord(clock.stop.get(), clock.first));
        ASYNCSCOPE_CUDA_TRY(cudaEventSynchronize(clock.stop.get()));
        float ms = 0.0f;
        ASYNCSCOPE_CUDA_TRY(cudaEventElapsedTime(&ms, clock.start.get(), clock.stop.get()));
        if (i > 0 && (best == 0.0f || ms < best))
            best = ms;
    }
    return best;
}

// The configuration whose host buffers a path moves, as the pipeline would allocate and check them.
PipelineConfig bufferConfig(int device, CopyPath path)
{
    PipelineConfig c;
    c.device = device;
    switch (path) {
    case CopyPath::Pinned: c.hostMemory = HostMemory::Pinned; break;
    case CopyPath::Pageable: c.hostMemory = HostMemory::Pageable; break;
    case CopyPath::WriteCombined: c.hostMemory = HostMemory::WriteCombined; break;
    case CopyPath::Registered: c.hostMemory = HostMemory::Registered; break;
    case CopyPath::Sm: c.hostMemory = HostMemory::Mapped; break;
    case CopyPath::ManagedPrefetch:
        c.hostMemory = HostMemory::Managed;
        c.managedMigration = ManagedMigration::Prefetch;
        break;
    }
    return c;
}

cudaError_t prefetch(const int* p, std::size_t bytes, bool toHost, int device, cudaStream_t stream)
{
#if CUDART_VERSION >= 13000
    const cudaMemLocation where =
        toHost ? cudaMemLocation { cudaMemLocationTypeHost, 0 } : cudaMemLocation { cudaMemLocationTypeDevice, device };
    return cudaMemPrefetchAsync(p, bytes, where, 0, stream);
#else
    return cudaMemPrefetchAsync(p, bytes, toHost ? cudaCpuDeviceId : device, stream);
#endif
}

// The operations' fixed costs are timed over this many bytes, kCostBatch operations back to back.
constexpr std::size_t kCostBytes = std::size_t(64) << 10;
constexpr int kCostBatch = 64;

struct BatchTime {
    double gpuUs = 0.0;   // GPU time of one operation: the batch's, best of the repeats, over the count
    double callUs = 0.0;  // CPU time of one enqueue call: the least of the repeats' means
};

// `count` enqueues of `step` back to back on the first stream, between two events, after `reset`: one warm-up, then
// the clock's repeats.
Result<BatchTime> batchTime(const std::vector<Step>& reset, const Step& step, int count, const Clock& clock)
{
    BatchTime best;
    for (int i = 0; i <= clock.repeats; ++i) {  // i == 0 is the warm-up
        for (const Step& r : reset) {
            if (auto failed = enqueue(r, clock.first))
                return *failed;
        }
        ASYNCSCOPE_CUDA_TRY(cudaEventRecord(clock.start.get(), clock.first));
        const auto began = std::chrono::steady_clock::now();
        for (int j = 0; j < count; ++j) {
            if (auto failed = enqueue(step, clock.first))
                return *failed;
        }
        const std::chrono::duration<double, std::micro> calls = std::chrono::steady_clock::now() - began;
        ASYNCSCOPE_CUDA_TRY(cudaEventRecord(clock.stop.get(), clock.first));
        ASYNCSCOPE_CUDA_TRY(cudaEventSynchronize(clock.stop.get()));
        float ms = 0.0f;
        ASYNCSCOPE_CUDA_TRY(cudaEventElapsedTime(&ms, clock.start.get(), clock.stop.get()));
        const double gpuUs = 1e3 * static_cast<double>(ms) / count, callUs = calls.count() / count;
        if (i == 1 || (i > 1 && gpuUs < best.gpuUs))
            best.gpuUs = gpuUs;
        if (i == 1 || (i > 1 && callUs < best.callUs))
            best.callUs = callUs;
    }
    return best;
}

}  // namespace

Result<CopyPeak> measureCopyPeak(int device, CopyPath path, std::size_t bytes, int repeats)
{
    ASYNCSCOPE_CUDA_TRY(cudaSetDevice(device));
    const PipelineConfig config = bufferConfig(device, path);
    auto access = queryHostAccess(device);
    if (!access)
        return access.error();
    if (auto unsupported = checkHostAccess(config, *access))
        return *unsupported;

    // Two buffers on each side: one for each direction of the bidirectional measurement.
    std::vector<HostBuffer> host;
    std::vector<DeviceInts> onDevice;
    for (int i = 0; i < 2; ++i) {
        auto buffer = HostBuffer::allocate(config, bytes);  // zeroed: never timed on untouched pages
        if (!buffer)
            return buffer.error();
        host.push_back(std::move(*buffer));
        if (path != CopyPath::ManagedPrefetch) {
            void* p = nullptr;
            ASYNCSCOPE_CUDA_TRY(cudaMalloc(&p, bytes));
            onDevice.emplace_back(static_cast<int*>(p));
        }
    }
    Clock clock;
    clock.repeats = repeats;
    std::vector<Stream> streams;
    for (int i = 0; i < 2; ++i) {
        cudaStream_t s = nullptr;
        ASYNCSCOPE_CUDA_TRY(cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking));
        streams.emplace_back(s);
    }
    clock.first = streams[0].get();
    clock.second = streams[1].get();
    cudaEvent_t e = nullptr;
    ASYNCSCOPE_CUDA_TRY(cudaEventCreate(&e));
    clock.start.reset(e);
    ASYNCSCOPE_CUDA_TRY(cudaEventCreate(&e));
    clock.stop.reset(e);
    ASYNCSCOPE_CUDA_TRY(cudaEventCreateWithFlags(&e, cudaEventDisableTiming));
    clock.joined.reset(e);

    int sms = 0, threadsPerSm = 0;
    if (path == CopyPath::Sm) {
        ASYNCSCOPE_CUDA_TRY(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, device));
        ASYNCSCOPE_CUDA_TRY(cudaDeviceGetAttribute(&threadsPerSm, cudaDevAttrMaxThreadsPerMultiProcessor, device));
    }
    const int threads = config.threadsPerBlock;
    int* in = host[0].host();
    int* out = host[1].host();
    // The path's moves over the first `count` bytes of the buffers.
    const auto movesOver = [&](std::size_t count) {
        Moves moves;
        switch (path) {
        case CopyPath::Pinned:
        case CopyPath::Pageable:
        case CopyPath::WriteCombined:
        case CopyPath::Registered: {
            int* toDevice = onDevice[0].get();
            const int* fromDevice = onDevice[1].get();
            moves.inbound = { "cudaMemcpyAsync (to the device)", [=](cudaStream_t s) {
                                 return cudaMemcpyAsync(toDevice, in, count, cudaMemcpyHostToDevice, s);
                             } };
            moves.outbound = { "cudaMemcpyAsync (to the host)", [=](cudaStream_t s) {
                                  return cudaMemcpyAsync(out, fromDevice, count, cudaMemcpyDeviceToHost, s);
                              } };
            break;
        }
        case CopyPath::Sm: {
            const std::size_t n = count / sizeof(int);
            int* toDevice = onDevice[0].get();
            const int* fromDevice = onDevice[1].get();
            const int* mappedIn = host[0].device();
            int* mappedOut = host[1].device();
            // Side by side, each copy gets half of the blocks the device holds at once, so that neither waits for
            // the other's blocks to drain.
            const std::size_t half =
                std::max<std::size_t>(1, std::size_t(sms) * std::size_t(threadsPerSm / threads) / 2);
            auto inboundWith = [=](std::size_t blocks) {
                return [=](cudaStream_t s) { return launchSmCopy(toDevice, mappedIn, n, threads, s, blocks); };
            };
            auto outboundWith = [=](std::size_t blocks) {
                return [=](cudaStream_t s) { return launchSmCopy(mappedOut, fromDevice, n, threads, s, blocks); };
            };
            moves.inbound = { "launchSmCopy (to the device)", inboundWith(0) };
            moves.outbound = { "launchSmCopy (to the host)", outboundWith(0) };
            moves.pairedInbound = { "launchSmCopy (to the device, beside a copy to the host)", inboundWith(half) };
            moves.pairedOutbound = { "launchSmCopy (to the host, beside a copy to the device)", outboundWith(half) };
            break;
        }
        case CopyPath::ManagedPrefetch:
            moves.inbound = { "cudaMemPrefetchAsync (to the device)",
                [=](cudaStream_t s) { return prefetch(in, count, false, device, s); } };
            moves.outbound = { "cudaMemPrefetchAsync (to the host)",
                [=](cudaStream_t s) { return prefetch(out, count, true, device, s); } };
            moves.reset = { { "cudaMemPrefetchAsync (back to the host)",
                                [=](cudaStream_t s) { return prefetch(in, count, true, device, s); } },
                { "cudaMemPrefetchAsync (back to the device)",
                    [=](cudaStream_t s) { return prefetch(out, count, false, device, s); } } };
            break;
        }
        if (!moves.pairedInbound.enqueue) {
            moves.pairedInbound = moves.inbound;
            moves.pairedOutbound = moves.outbound;
        }
        return moves;
    };

    const Moves moves = movesOver(bytes);
    const double b = static_cast<double>(bytes);
    CopyPeak peak;
    peak.bytes = bytes;
    peak.path = path;
    auto h2d = bestMs(moves, moves.inbound, nullptr, clock);
    if (!h2d)
        return h2d.error();
    auto d2h = bestMs(moves, moves.outbound, nullptr, clock);
    if (!d2h)
        return d2h.error();
    auto both = bestMs(moves, moves.pairedInbound, &moves.pairedOutbound, clock);
    if (!both)
        return both.error();
    peak.h2dGBps = gigabytesPerSecond(b, *h2d);
    peak.d2hGBps = gigabytesPerSecond(b, *d2h);
    peak.bidirectionalGBps = gigabytesPerSecond(2.0 * b, *both);

    // The operations' fixed costs: small moves back to back, and the kernel at two sizes.
    const std::size_t small = std::min(kCostBytes, bytes);
    const Moves few = movesOver(small);
    auto inbound = batchTime(few.reset, few.inbound, kCostBatch, clock);
    if (!inbound)
        return inbound.error();
    auto outbound = batchTime(few.reset, few.outbound, kCostBatch, clock);
    if (!outbound)
        return outbound.error();
    const double smallB = static_cast<double>(small);
    const double inUs = inbound->gpuUs - smallB / (peak.h2dGBps * 1e3);
    const double outUs = outbound->gpuUs - smallB / (peak.d2hGBps * 1e3);
    peak.costs.copyUs = std::max(0.0, 0.5 * (inUs + outUs));
    double callUs = 0.5 * (inbound->callUs + outbound->callUs);
    if (path != CopyPath::ManagedPrefetch) {
        int* data = onDevice[0].get();
        const Step smallKernel { "the kernel's launch", [=](cudaStream_t s) {
                                    return launchIncrement(data, 1, small / sizeof(int), threads, s);
                                } };
        const Step wholeKernel { "the kernel's launch", [=](cudaStream_t s) {
                                    return launchIncrement(data, 1, bytes / sizeof(int), threads, s);
                                } };
        auto launches = batchTime({}, smallKernel, kCostBatch, clock);
        if (!launches)
            return launches.error();
        auto one = batchTime({}, wholeKernel, 1, clock);
        if (!one)
            return one.error();
        // A launch over s bytes takes launchUs + s / rate: two sizes give both.
        if (one->gpuUs > launches->gpuUs && bytes > small) {
            const double bytesPerUs = (b - smallB) / (one->gpuUs - launches->gpuUs);
            peak.costs.kernelGBps = bytesPerUs / 1e3;
            peak.costs.launchUs = std::max(0.0, launches->gpuUs - smallB / bytesPerUs);
        }
        callUs = (callUs + launches->callUs) / 2.0;
        // A chunk as the pipeline runs one: its copy in, its kernel and its copy out on one stream, each waiting for
        // the one before, chunk after chunk.
        const Step chain { "a chunk's copy in, kernel and copy out", [=](cudaStream_t s) {
                              cudaError_t status = few.inbound.enqueue(s);
                              if (status == cudaSuccess)
                                  status = launchIncrement(data, 1, small / sizeof(int), threads, s);
                              return status == cudaSuccess ? few.outbound.enqueue(s) : status;
                          } };
        auto chunks = batchTime(few.reset, chain, kCostBatch, clock);
        if (!chunks)
            return chunks.error();
        if (peak.costs.kernelGBps > 0.0) {
            const double workUs = smallB / (peak.h2dGBps * 1e3) + smallB / (peak.d2hGBps * 1e3) +
                smallB / (peak.costs.kernelGBps * 1e3);
            peak.costs.chainUs = std::max(0.0, chunks->gpuUs - workUs);
        }
    }
    peak.costs.callUs = callUs;
    return peak;
}

Result<CopyPeak> cachedCopyPeak(const DeviceInfo& device, const std::string& cacheDir, CopyPath path)
{
    const std::string file =
        cacheDir.empty() ? std::string() : (std::filesystem::path(cacheDir) / kCopyPeakCacheFile).string();
    CopyPeakCache cache;
    if (!file.empty()) {
        // A cache that cannot be read only costs a measurement: it is then written anew.
        if (auto read = readCopyPeakCache(file)) {
            cache = std::move(*read);
            // An entry an earlier version wrote has no operation costs, or no chain cost: the path is measured again.
            if (const CachedCopyPeak* found = cache.find(device.uuid, path);
                found && found->peak.costs.measured() &&
                (found->peak.costs.chainUs > 0.0 || path == CopyPath::ManagedPrefetch))
                return found->peak;
        }
    }
    auto measured = measureCopyPeak(device.index, path);
    if (!measured || file.empty())
        return measured;
    cache.entries[{ device.uuid, path }] = { device.name, device.pciBusId, *measured };
    static_cast<void>(writeCopyPeakCache(file, cache));  // an unwritable cache only means measuring again next time
    return measured;
}

}  // namespace asyncscope

#include "engine/cuda/copy_calibration.hpp"

#include "engine/cuda/cuda_error.hpp"
#include "engine/cuda/cuda_resources.hpp"
#include "engine/cuda/host_buffer.hpp"
#include "engine/cuda/sm_copy_kernel.hpp"
#include "engine/model/statistics.hpp"

#include <algorithm>
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

    Moves moves;
    int* in = host[0].host();
    int* out = host[1].host();
    switch (path) {
    case CopyPath::Pinned:
    case CopyPath::Pageable:
    case CopyPath::WriteCombined:
    case CopyPath::Registered: {
        int* toDevice = onDevice[0].get();
        const int* fromDevice = onDevice[1].get();
        moves.inbound = { "cudaMemcpyAsync (to the device)", [=](cudaStream_t s) {
                             return cudaMemcpyAsync(toDevice, in, bytes, cudaMemcpyHostToDevice, s);
                         } };
        moves.outbound = { "cudaMemcpyAsync (to the host)", [=](cudaStream_t s) {
                              return cudaMemcpyAsync(out, fromDevice, bytes, cudaMemcpyDeviceToHost, s);
                          } };
        break;
    }
    case CopyPath::Sm: {
        const std::size_t n = bytes / sizeof(int);
        const int threads = config.threadsPerBlock;
        int* toDevice = onDevice[0].get();
        const int* fromDevice = onDevice[1].get();
        const int* mappedIn = host[0].device();
        int* mappedOut = host[1].device();
        // Side by side, each copy gets half of the blocks the device holds at once, so that neither waits for the
        // other's blocks to drain.
        int sms = 0, threadsPerSm = 0;
        ASYNCSCOPE_CUDA_TRY(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, device));
        ASYNCSCOPE_CUDA_TRY(cudaDeviceGetAttribute(&threadsPerSm, cudaDevAttrMaxThreadsPerMultiProcessor, device));
        const std::size_t half = std::max<std::size_t>(1, std::size_t(sms) * std::size_t(threadsPerSm / threads) / 2);
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
            [=](cudaStream_t s) { return prefetch(in, bytes, false, device, s); } };
        moves.outbound = { "cudaMemPrefetchAsync (to the host)",
            [=](cudaStream_t s) { return prefetch(out, bytes, true, device, s); } };
        moves.reset = { { "cudaMemPrefetchAsync (back to the host)",
                            [=](cudaStream_t s) { return prefetch(in, bytes, true, device, s); } },
            { "cudaMemPrefetchAsync (back to the device)",
                [=](cudaStream_t s) { return prefetch(out, bytes, false, device, s); } } };
        break;
    }

    if (!moves.pairedInbound.enqueue) {
        moves.pairedInbound = moves.inbound;
        moves.pairedOutbound = moves.outbound;
    }

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
            if (const CachedCopyPeak* found = cache.find(device.uuid, path))
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

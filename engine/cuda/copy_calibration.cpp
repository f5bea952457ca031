#include "engine/cuda/copy_calibration.hpp"

#include "engine/cuda/cuda_error.hpp"
#include "engine/cuda/cuda_resources.hpp"
#include "engine/model/statistics.hpp"

#include <algorithm>
#include <filesystem>
#include <vector>

namespace asyncscope {

namespace {

Result<double> bestCopyGBps(void* to, const void* from, std::size_t bytes, cudaMemcpyKind kind, cudaStream_t stream,
    const Event& start, const Event& stop, int repeats)
{
    float best = 0.0f;
    for (int i = 0; i <= repeats; ++i) {  // i == 0 is the warm-up
        ASYNCSCOPE_CUDA_TRY(cudaEventRecord(start.get(), stream));
        ASYNCSCOPE_CUDA_TRY(cudaMemcpyAsync(to, from, bytes, kind, stream));
        ASYNCSCOPE_CUDA_TRY(cudaEventRecord(stop.get(), stream));
        ASYNCSCOPE_CUDA_TRY(cudaEventSynchronize(stop.get()));
        float ms = 0.0f;
        ASYNCSCOPE_CUDA_TRY(cudaEventElapsedTime(&ms, start.get(), stop.get()));
        if (i > 0 && (best == 0.0f || ms < best))
            best = ms;
    }
    return gigabytesPerSecond(static_cast<double>(bytes), best);
}

// Both directions at once: an H2D copy on one stream beside a D2H copy of other buffers on another, timed from a
// start both streams wait for to a stop after both; both copies' bytes over that time.
Result<double> bestBidirectionalGBps(int* deviceIn, const int* hostIn, int* hostOut, const int* deviceOut,
    std::size_t bytes, cudaStream_t first, cudaStream_t second, const Event& start, const Event& stop, int repeats)
{
    cudaEvent_t e = nullptr;
    ASYNCSCOPE_CUDA_TRY(cudaEventCreateWithFlags(&e, cudaEventDisableTiming));
    Event joined(e);
    float best = 0.0f;
    for (int i = 0; i <= repeats; ++i) {  // i == 0 is the warm-up
        ASYNCSCOPE_CUDA_TRY(cudaEventRecord(start.get(), first));
        ASYNCSCOPE_CUDA_TRY(cudaStreamWaitEvent(second, start.get(), 0));
        ASYNCSCOPE_CUDA_TRY(cudaMemcpyAsync(deviceIn, hostIn, bytes, cudaMemcpyHostToDevice, first));
        ASYNCSCOPE_CUDA_TRY(cudaMemcpyAsync(hostOut, deviceOut, bytes, cudaMemcpyDeviceToHost, second));
        ASYNCSCOPE_CUDA_TRY(cudaEventRecord(joined.get(), second));
        ASYNCSCOPE_CUDA_TRY(cudaStreamWaitEvent(first, joined.get(), 0));
        ASYNCSCOPE_CUDA_TRY(cudaEventRecord(stop.get(), first));
        ASYNCSCOPE_CUDA_TRY(cudaEventSynchronize(stop.get()));
        float ms = 0.0f;
        ASYNCSCOPE_CUDA_TRY(cudaEventElapsedTime(&ms, start.get(), stop.get()));
        if (i > 0 && (best == 0.0f || ms < best))
            best = ms;
    }
    return gigabytesPerSecond(2.0 * static_cast<double>(bytes), best);
}

}  // namespace

Result<CopyPeak> measureCopyPeak(int device, std::size_t bytes, int repeats)
{
    ASYNCSCOPE_CUDA_TRY(cudaSetDevice(device));
    // Two buffers on each side: one for each direction of the bidirectional measurement.
    std::vector<PinnedInts> host;
    std::vector<DeviceInts> onDevice;
    for (int i = 0; i < 2; ++i) {
        void* p = nullptr;
        ASYNCSCOPE_CUDA_TRY(cudaMallocHost(&p, bytes));
        host.emplace_back(static_cast<int*>(p));
        std::fill_n(host.back().get(), bytes / sizeof(int), 1);  // never time on untouched pages
        ASYNCSCOPE_CUDA_TRY(cudaMalloc(&p, bytes));
        onDevice.emplace_back(static_cast<int*>(p));
    }
    std::vector<Stream> streams;
    for (int i = 0; i < 2; ++i) {
        cudaStream_t s = nullptr;
        ASYNCSCOPE_CUDA_TRY(cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking));
        streams.emplace_back(s);
    }
    cudaStream_t s = streams[0].get();
    cudaEvent_t e1 = nullptr, e2 = nullptr;
    ASYNCSCOPE_CUDA_TRY(cudaEventCreate(&e1));
    Event start(e1);
    ASYNCSCOPE_CUDA_TRY(cudaEventCreate(&e2));
    Event stop(e2);

    CopyPeak peak;
    peak.bytes = bytes;
    auto h2d = bestCopyGBps(onDevice[0].get(), host[0].get(), bytes, cudaMemcpyHostToDevice, s, start, stop, repeats);
    if (!h2d)
        return h2d.error();
    auto d2h = bestCopyGBps(host[0].get(), onDevice[0].get(), bytes, cudaMemcpyDeviceToHost, s, start, stop, repeats);
    if (!d2h)
        return d2h.error();
    auto both = bestBidirectionalGBps(onDevice[0].get(), host[0].get(), host[1].get(), onDevice[1].get(), bytes, s,
        streams[1].get(), start, stop, repeats);
    if (!both)
        return both.error();
    peak.bidirectionalGBps = *both;
    peak.h2dGBps = *h2d;
    peak.d2hGBps = *d2h;
    return peak;
}

Result<CopyPeak> cachedCopyPeak(const DeviceInfo& device, const std::string& cacheDir)
{
    const std::string file =
        cacheDir.empty() ? std::string() : (std::filesystem::path(cacheDir) / kCopyPeakCacheFile).string();
    CopyPeakCache cache;
    if (!file.empty()) {
        // A cache that cannot be read only costs a measurement: it is then written anew.
        if (auto read = readCopyPeakCache(file)) {
            cache = std::move(*read);
            if (const auto found = cache.entries.find(device.uuid); found != cache.entries.end())
                return found->second.peak;
        }
    }
    auto measured = measureCopyPeak(device.index);
    if (!measured || file.empty())
        return measured;
    cache.entries[device.uuid] = { device.name, device.pciBusId, *measured };
    static_cast<void>(writeCopyPeakCache(file, cache));  // an unwritable cache only means measuring again next time
    return measured;
}

}  // namespace asyncscope

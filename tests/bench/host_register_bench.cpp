// Benchmark (not a test): what registering host memory costs, alone and inside a series. Prints, from one process on
// one GPU:
//   1. cudaHostRegister and cudaHostUnregister of a plain, zeroed buffer of the size (64 MiB by default) timed alone,
//      repeated, once on one buffer registered again and again and once on a new buffer each time (as a series
//      registers): the median of each and its rate (GB/s registered);
//   2. series of registered host memory run through runSeries (the way the CLI and the window run them), each
//      registering its two host buffers when it opens and unregistering them when it ends: the median of the
//      series' registration and unregistration rates, every element of every run checked;
//   3. the ratio of the series' rates to both rates alone (1.0: the series reports what the call costs by itself).
// Usage: asyncscope_bench_host_register [size, e.g. 64MiB] [repeats alone] [series] [runs per series]
#include "engine/cuda/device_discovery.hpp"
#include "engine/cuda/host_buffer.hpp"
#include "engine/cuda/series_runner.hpp"
#include "engine/model/size_parse.hpp"
#include "engine/model/statistics.hpp"

#include <cuda_runtime_api.h>

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <memory>
#include <string>
#include <vector>

using namespace asyncscope;

namespace {

using Clock = std::chrono::steady_clock;

double msSince(Clock::time_point begin)
{
    return std::chrono::duration<double, std::milli>(Clock::now() - begin).count();
}

struct Free {
    void operator()(void* p) const noexcept { std::free(p); }
};

struct Rates {
    double registerMs = 0.0, unregisterMs = 0.0;  // medians
    double registerGBs = 0.0, unregisterGBs = 0.0;
};

// cudaHostRegister / cudaHostUnregister of one buffer, `repeats` times after one untimed pair (the first call in a
// process pays for setting up the driver's registration paths). `fresh`: a new buffer for every pair, allocated and
// zeroed as a series' host buffer is; otherwise the same buffer registered again and again.
Result<Rates> timeAlone(std::size_t bytes, int repeats, bool fresh)
{
    constexpr std::size_t page = 4096;
    const auto allocate = [&] {
        std::unique_ptr<void, Free> buffer(std::aligned_alloc(page, (bytes + page - 1) / page * page));
        if (buffer)
            std::memset(buffer.get(), 0, bytes);  // as a HostBuffer is: its pages touched before registering
        return buffer;
    };
    std::unique_ptr<void, Free> buffer = allocate();
    std::vector<double> reg, unreg;
    for (int i = 0; i <= repeats; ++i) {
        if (fresh && i > 0)
            buffer = allocate();
        if (!buffer)
            return makeError(ErrorKind::OutOfMemory, "could not allocate " + formatBytes(bytes) + " of host memory");
        auto begin = Clock::now();
        if (const cudaError_t status = cudaHostRegister(buffer.get(), bytes, cudaHostRegisterDefault);
            status != cudaSuccess)
            return makeError(ErrorKind::Cuda, std::string("cudaHostRegister failed: ") + cudaGetErrorString(status));
        const double registerMs = msSince(begin);
        begin = Clock::now();
        if (const cudaError_t status = cudaHostUnregister(buffer.get()); status != cudaSuccess)
            return makeError(ErrorKind::Cuda, std::string("cudaHostUnregister failed: ") + cudaGetErrorString(status));
        const double unregisterMs = msSince(begin);
        if (i > 0) {
            reg.push_back(registerMs);
            unreg.push_back(unregisterMs);
        }
    }
    Rates r;
    r.registerMs = summarize(reg).median;
    r.unregisterMs = summarize(unreg).median;
    r.registerGBs = gigabytesPerSecond(static_cast<double>(bytes), r.registerMs);
    r.unregisterGBs = gigabytesPerSecond(static_cast<double>(bytes), r.unregisterMs);
    return r;
}

}  // namespace

int main(int argc, char** argv)
{
    auto elements = parseElementCount(argc > 1 ? argv[1] : "64MiB");
    const int repeats = argc > 2 ? std::atoi(argv[2]) : 20;
    const int seriesCount = argc > 3 ? std::atoi(argv[3]) : 5;
    const int runs = argc > 4 ? std::atoi(argv[4]) : 20;
    if (!elements || repeats < 1 || seriesCount < 1 || runs < 1) {
        std::fprintf(stderr, "usage: asyncscope_bench_host_register [size, e.g. 64MiB] [repeats alone >= 1] "
                             "[series >= 1] [runs per series >= 1]%s%s\n",
            elements ? "" : ": ", elements ? "" : elements.error().message().c_str());
        return 2;
    }
    auto platform = discoverPlatform();
    if (!platform) {
        std::fprintf(stderr, "no GPU: %s\n", platform.error().message().c_str());
        return 1;
    }
    const int device = *chooseDefaultDevice(platform->devices);
    if (cudaSetDevice(device) != cudaSuccess || cudaFree(nullptr) != cudaSuccess) {
        std::fprintf(stderr, "could not use device %d\n", device);
        return 1;
    }
    auto access = queryHostAccess(device);
    if (!access || !access->hostRegisterSupported) {
        std::fprintf(stderr, "device %d does not support cudaHostRegister\n", device);
        return 1;
    }
    const std::size_t bytes = *elements * sizeof(int);
    std::printf("device %d, %s per buffer, %d repeats alone, %d series of %d runs\n", device,
        formatBytes(bytes).c_str(), repeats, seriesCount, runs);

    auto again = timeAlone(bytes, repeats, false);
    auto alone = again ? timeAlone(bytes, repeats, true) : again;
    if (!alone) {
        std::fprintf(stderr, "%s\n", alone.error().message().c_str());
        return 1;
    }
    std::printf("alone, one buffer again and again: cudaHostRegister %.3f ms (%.2f GB/s), cudaHostUnregister %.3f ms "
                "(%.2f GB/s)\n",
        again->registerMs, again->registerGBs, again->unregisterMs, again->unregisterGBs);
    std::printf("alone, a new buffer each time:     cudaHostRegister %.3f ms (%.2f GB/s), cudaHostUnregister %.3f ms "
                "(%.2f GB/s)\n",
        alone->registerMs, alone->registerGBs, alone->unregisterMs, alone->unregisterGBs);

    PipelineConfig config;
    config.device = device;
    config.elements = *elements;
    config.hostMemory = HostMemory::Registered;
    config.runs = runs;
    std::vector<double> registerGBs, unregisterGBs;
    int wrong = 0;
    for (int s = 0; s < seriesCount; ++s) {
        std::atomic<bool> cancel { false };
        auto outcome = runSeries(config, cancel, [&](const RunResult& r) { wrong += r.verified ? 0 : 1; });
        if (!outcome) {
            std::fprintf(stderr, "series %d: %s\n", s, outcome.error().message().c_str());
            return 1;
        }
        if (!outcome->hostRegisterMs || !outcome->hostUnregisterMs) {
            std::fprintf(stderr, "series %d reported no registration\n", s);
            return 1;
        }
        const auto registered = static_cast<double>(outcome->hostRegisteredBytes);
        registerGBs.push_back(gigabytesPerSecond(registered, *outcome->hostRegisterMs));
        unregisterGBs.push_back(gigabytesPerSecond(registered, *outcome->hostUnregisterMs));
        std::printf("series %d: %s registered in %.3f ms, unregistered in %.3f ms\n", s,
            formatBytes(outcome->hostRegisteredBytes).c_str(), *outcome->hostRegisterMs, *outcome->hostUnregisterMs);
    }
    const double seriesRegister = summarize(registerGBs).median;
    const double seriesUnregister = summarize(unregisterGBs).median;
    std::printf("series: register %.2f GB/s, unregister %.2f GB/s (medians)\n", seriesRegister, seriesUnregister);
    std::printf("series / alone with new buffers: register %.3f, unregister %.3f\n",
        seriesRegister / alone->registerGBs, seriesUnregister / alone->unregisterGBs);
    std::printf("series / alone with one buffer:  register %.3f, unregister %.3f\n",
        seriesRegister / again->registerGBs, seriesUnregister / again->unregisterGBs);
    std::printf("wrong runs: %d\n", wrong);
    return wrong == 0 ? 0 : 1;
}

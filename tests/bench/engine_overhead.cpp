// Benchmark (not a test): what the engine costs on top of the GPU work, and how close the default pipeline comes
// to the PCIe bound. Prints two ratios from one run on one GPU:
//   1. wall time of 1000 default runs / sum of their GPU times, with the wall time split into the measured region
//      (submit + wait) and the host work outside it (re-initialising and checking 64 MiB every run);
//   2. median default GPU time / serial PCIe bound (this host's pinned H2D and D2H peaks, measured now).
// Usage: asyncscope_bench_overhead [runs]
#include "engine/copy_calibration.hpp"
#include "engine/device_discovery.hpp"
#include "engine/pipeline.hpp"
#include "engine/statistics.hpp"

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <vector>

using namespace asyncscope;

int main(int argc, char* argv[])
{
    const int runs = argc > 1 ? std::atoi(argv[1]) : 1000;
    if (runs < 1) {
        std::fprintf(stderr, "usage: %s [runs >= 1]\n", argv[0]);
        return 2;
    }
    auto platform = discoverPlatform();
    if (!platform) {
        std::fprintf(stderr, "no GPU: %s\n", platform.error().message().c_str());
        return 1;
    }
    PipelineConfig config;  // the default: 64 MiB, pinned, spin wait, stage events on
    config.device = chooseDefaultDevice(platform->devices).value_or(0);
    auto session = PipelineSession::open(config);
    if (!session) {
        std::fprintf(stderr, "%s\n", session.error().message().c_str());
        return 1;
    }
    for (int i = 0; i < 5; ++i) {  // warm-up: context, lazy loading, first-touch of the buffers
        if (auto r = (*session)->run(i, true); !r) {
            std::fprintf(stderr, "%s\n", r.error().message().c_str());
            return 1;
        }
    }

    std::vector<double> gpu;
    double gpuSum = 0.0, regionSum = 0.0;
    int wrong = 0;
    const auto begin = std::chrono::steady_clock::now();
    for (int i = 0; i < runs; ++i) {
        auto r = (*session)->run(i, false);
        if (!r) {
            std::fprintf(stderr, "%s\n", r.error().message().c_str());
            return 1;
        }
        gpu.push_back(r->gpuMs);
        gpuSum += r->gpuMs;
        regionSum += r->cpuSubmitMs + r->waitMs;
        wrong += r->verified ? 0 : 1;
    }
    const double wallMs = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - begin).count();
    session->reset();

    auto peak = measureCopyPeak(config.device);
    if (!peak) {
        std::fprintf(stderr, "%s\n", peak.error().message().c_str());
        return 1;
    }
    const Summary s = summarize(gpu);
    const double bound = serialBoundMs(config.bytes(), *peak);

    std::printf("device: %s\n", platform->devices[std::size_t(config.device)].name.c_str());
    std::printf("runs: %d of 64 MiB, %d with a wrong element\n", runs, wrong);
    std::printf("sum of GPU times:              %10.1f ms (median %.4f ms, noise %.2f %%)\n", gpuSum, s.median,
        s.noisePercent);
    std::printf("wall time of the runs:         %10.1f ms\n", wallMs);
    std::printf("  measured region (submit + wait): %10.1f ms\n", regionSum);
    std::printf("  host work outside it (re-initialise, verify 64 MiB): %10.1f ms\n", wallMs - regionSum);
    std::printf("host peak (pinned, %zu MiB copies): H2D %.1f GB/s, D2H %.1f GB/s; serial PCIe bound %.4f ms\n",
        peak->bytes >> 20, peak->h2dGBps, peak->d2hGBps, bound);
    std::printf("ratio 1, wall / GPU time:                  %.3f\n", wallMs / gpuSum);
    std::printf("ratio 1b, measured region / GPU time:      %.3f\n", regionSum / gpuSum);
    std::printf("ratio 2, median GPU time / serial bound:   %.3f\n", s.median / bound);
    return wrong == 0 ? 0 : 1;
}

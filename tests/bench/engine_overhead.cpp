// Benchmark (not a test): what the engine costs on top of the GPU work, and how close the default pipeline comes
// to the PCIe bound. Prints, from one run on one GPU:
//   1. wall time of 1000 default runs / sum of their GPU times, for each check mode: overlapped (the default: run i's
//      64 MiB are checked while the GPU runs run i+1) and serial (checked after the run, before the next is
//      submitted), with the wall time split into the measured region (submit + wait) and the rest;
//   2. median default GPU time / serial PCIe bound (this host's pinned H2D and D2H peaks, measured now);
// then the overlapped check on 1, 2, 4 and 8 threads, to show how the CPU's reading of host memory while the GPU
// copies changes the copies (median and noise of the GPU and H2D times) and how much of the check stays hidden.
// Usage: asyncscope_bench_overhead [runs]
#include "engine/cuda/copy_calibration.hpp"
#include "engine/cuda/device_discovery.hpp"
#include "engine/cuda/pipeline.hpp"
#include "engine/model/statistics.hpp"

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <optional>
#include <vector>

using namespace asyncscope;

namespace {

struct Measured {
    std::vector<double> gpu, h2d;
    double gpuSum = 0.0, regionSum = 0.0, wallMs = 0.0;
    int checked = 0, wrong = 0;
    double pollSum = 0.0;
};

// `runs` measured steps of one session after 5 warm-up runs; every run's check is counted, the last one's too.
Result<Measured> measure(PipelineConfig config, int runs)
{
    auto session = PipelineSession::open(config);
    if (!session)
        return session.error();
    for (int i = 0; i < 5; ++i) {  // warm-up: context, lazy loading, first touch of the buffers
        if (auto r = (*session)->run(i, true); !r)
            return r.error();
    }
    Measured m;
    auto count = [&m](const std::optional<RunResult>& r) {
        if (r) {
            ++m.checked;
            m.wrong += r->verified ? 0 : 1;
        }
    };
    const auto begin = std::chrono::steady_clock::now();
    for (int i = 0; i < runs; ++i) {
        auto step = (*session)->step(i, false);
        if (!step)
            return step.error();
        m.gpu.push_back(step->timed.gpuMs);
        m.h2d.push_back(step->timed.totalMs(SpanKind::H2D));
        m.gpuSum += step->timed.gpuMs;
        m.regionSum += step->timed.cpuSubmitMs() + step->timed.waitMs();
        m.pollSum += static_cast<double>(step->timed.pollIterations);
        count(step->checked);
    }
    count((*session)->flush());
    m.wallMs = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - begin).count();
    return m;
}

}  // namespace

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
    PipelineConfig config;  // the default: 64 MiB, pinned, spin wait, stage events on, overlapped check
    config.device = chooseDefaultDevice(platform->devices).value_or(0);
    std::printf("device: %s\n", platform->devices[std::size_t(config.device)].name.c_str());

    double overlappedRatio = 0.0, medianGpu = 0.0;
    bool allRight = true;
    for (const CheckMode mode : { CheckMode::Overlapped, CheckMode::Serial }) {
        config.checkMode = mode;
        auto m = measure(config, runs);
        if (!m) {
            std::fprintf(stderr, "%s\n", m.error().message().c_str());
            return 1;
        }
        const Summary s = summarize(m->gpu);
        const double ratio = m->wallMs / m->gpuSum;
        if (mode == CheckMode::Overlapped) {
            overlappedRatio = ratio;
            medianGpu = s.median;
        }
        allRight = allRight && m->wrong == 0 && m->checked == runs;
        std::printf("\ncheck %s: %d runs of 64 MiB, %d checked, %d with a wrong element\n", nameOf(mode), runs,
            m->checked, m->wrong);
        std::printf("  sum of GPU times:         %10.1f ms (median %.4f ms, noise %.2f %%)\n", m->gpuSum, s.median,
            s.noisePercent);
        std::printf("  wall time of the runs:    %10.1f ms\n", m->wallMs);
        std::printf("    measured region (submit + wait): %10.1f ms\n", m->regionSum);
        std::printf("    the rest (device re-init, host check not hidden): %10.1f ms, %.3f ms per run\n",
            m->wallMs - m->regionSum, (m->wallMs - m->regionSum) / runs);
        std::printf("  mean poll iterations per run: %.0f\n", m->pollSum / runs);
        std::printf("  wall / GPU time: %.3f; measured region / GPU time: %.3f\n", ratio, m->regionSum / m->gpuSum);
    }

    config.checkMode = CheckMode::Overlapped;
    std::printf("\noverlapped check by thread count (%d runs each)\n", runs);
    std::printf("  threads  wall/GPU  GPU median ms  GPU noise %%  H2D median ms  H2D noise %%\n");
    for (const int threads : { 1, 2, 4, 8 }) {
        config.checkThreads = threads;
        auto m = measure(config, runs);
        if (!m) {
            std::fprintf(stderr, "%s\n", m.error().message().c_str());
            return 1;
        }
        allRight = allRight && m->wrong == 0 && m->checked == runs;
        const Summary gpu = summarize(m->gpu);
        const Summary h2d = summarize(m->h2d);
        std::printf("  %7d  %8.3f  %13.4f  %11.2f  %13.4f  %11.2f\n", threads, m->wallMs / m->gpuSum, gpu.median,
            gpu.noisePercent, h2d.median, h2d.noisePercent);
    }
    config.checkThreads = 0;

    auto peak = measureCopyPeak(config.device, CopyPath::Pinned);
    if (!peak) {
        std::fprintf(stderr, "%s\n", peak.error().message().c_str());
        return 1;
    }
    const double bound = serialBoundMs(config.bytes(), *peak);
    std::printf("\nhost peak (pinned, %zu MiB copies): H2D %.1f GB/s, D2H %.1f GB/s; serial PCIe bound %.4f ms\n",
        peak->bytes >> 20, peak->h2dGBps, peak->d2hGBps, bound);
    std::printf("ratio 1, wall of %d default runs / their GPU time:  %.3f\n", runs, overlappedRatio);
    std::printf("ratio 2, median default GPU time / serial bound:  %.3f\n", medianGpu / bound);
    return allRight ? 0 : 1;
}

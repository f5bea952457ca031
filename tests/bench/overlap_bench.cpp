// Benchmark (not a test): what chunks, streams and CUDA Graphs buy on this GPU. Prints, from one run on one GPU:
//   1. this host's pinned copy peaks, one way and both ways at once, measured now;
//   2. for a buffer (64 MiB by default) in K = 1 … 64 chunks over S = 1, 2, 4 streams, both issue orders: the median
//      GPU time, the speed-up over K = 1 measured in this same run, the copy throughput (both directions' bytes over
//      the GPU time) against the bidirectional peak, each with stage events (the default) and without them (an event
//      after every operation costs the overlapped pipeline GPU time), and the overlap model's bound beside them;
//   3. the CPU submit time of stream calls against a CUDA Graph launch at K = 1, 16 and 64, with and without stage
//      events (in a graph each is an event node the launch pays for);
// and every element of every run checked.
// Usage: asyncscope_bench_overlap [runs per shape] [elements]
#include "engine/cuda/copy_calibration.hpp"
#include "engine/cuda/device_discovery.hpp"
#include "engine/cuda/pipeline.hpp"
#include "engine/model/overlap_model.hpp"
#include "engine/model/size_parse.hpp"
#include "engine/model/statistics.hpp"

#include <cstdio>
#include <cstdlib>
#include <string>
#include <vector>

using namespace asyncscope;

namespace {

struct Medians {
    double gpuMs = 0.0, submitMs = 0.0, kernelMs = 0.0;
    int runs = 0, wrong = 0;
};

Result<Medians> measure(const PipelineConfig& config, int runs)
{
    auto session = PipelineSession::open(config);
    if (!session)
        return session.error();
    std::vector<double> gpu, submit, kernel;
    Medians m;
    for (int i = 0; i < runs + 3; ++i) {  // three warm-up runs: first launches, first touch of the buffers
        auto run = (*session)->run(i, i < 3);
        if (!run)
            return run.error();
        ++m.runs;
        m.wrong += run->verified ? 0 : 1;
        if (run->warmup)
            continue;
        gpu.push_back(run->gpuMs);
        submit.push_back(run->cpuSubmitMs());
        kernel.push_back(run->totalMs(SpanKind::Kernel));
    }
    m.gpuMs = summarize(gpu).median;
    m.submitMs = summarize(submit).median;
    m.kernelMs = summarize(kernel).median;
    return m;
}

}  // namespace

int main(int argc, char** argv)
{
    const int runs = argc > 1 ? std::atoi(argv[1]) : 100;
    const std::size_t elements = argc > 2 ? std::strtoull(argv[2], nullptr, 10) : std::size_t(16) << 20;
    if (runs < 1 || elements < 64) {
        std::fprintf(stderr, "usage: asyncscope_bench_overlap [runs per shape >= 1] [elements >= 64]\n");
        return 2;
    }
    auto platform = discoverPlatform();
    if (!platform) {
        std::fprintf(stderr, "no GPU: %s\n", platform.error().message().c_str());
        return 1;
    }
    const int device = *chooseDefaultDevice(platform->devices);
    auto peak = measureCopyPeak(device, CopyPath::Pinned);
    if (!peak) {
        std::fprintf(stderr, "calibration failed: %s\n", peak.error().message().c_str());
        return 1;
    }
    PipelineConfig base;
    base.device = device;
    base.elements = elements;
    const double bytes = static_cast<double>(base.bytes());
    std::printf("%s, %s per run, %d runs per shape\n", platform->devices[std::size_t(device)].name.c_str(),
        formatBytes(base.bytes()).c_str(), runs);
    std::printf("pinned copy peaks: H2D %.1f GB/s, D2H %.1f GB/s, both directions at once %.1f GB/s\n\n",
        peak->h2dGBps, peak->d2hGBps, peak->bidirectionalGBps);

    int failures = 0, wrong = 0, checked = 0;
    auto run = [&](const PipelineConfig& c) -> Medians {
        auto m = measure(c, runs);
        if (!m) {
            std::printf("K=%d S=%d %s %s: %s\n", c.chunks, c.streams, nameOf(c.order), nameOf(c.submission),
                m.error().message().c_str());
            ++failures;
            return {};
        }
        wrong += m->wrong;
        checked += m->runs;
        return *m;
    };

    PipelineConfig quiet = base;
    quiet.stageEvents = false;
    const Medians classic = run(base), classicQuiet = run(quiet);
    std::printf("%-24s %32s %32s\n", "", "----- with stage events -----", "---- without stage events ----");
    std::printf("%-4s %-3s %-6s %10s %8s %8s %8s %10s %8s %8s %8s %11s\n", "K", "S", "order", "GPU (ms)", "speed-up",
        "GB/s", "of peak", "GPU (ms)", "speed-up", "GB/s", "of peak", "model (ms)");
    for (IssueOrder order : { IssueOrder::ByChunk, IssueOrder::ByStage }) {
        for (int k = 1; k <= 64; k *= 2) {
            for (int s = 1; s <= std::min(k, 4); s *= 2) {
                if (k == 1 && order == IssueOrder::ByStage)
                    continue;
                PipelineConfig c = base;
                c.chunks = k;
                c.streams = s;
                c.order = order;
                PipelineConfig q = c;
                q.stageEvents = false;
                const Medians m = k == 1 ? classic : run(c);
                const Medians mq = k == 1 ? classicQuiet : run(q);
                if (m.gpuMs <= 0.0 || mq.gpuMs <= 0.0)
                    continue;
                const double model = overlapBoundMs(base.bytes(), k, s, *peak, classic.kernelMs);
                const double gbps = gigabytesPerSecond(2.0 * bytes, m.gpuMs);
                const double gbpsQuiet = gigabytesPerSecond(2.0 * bytes, mq.gpuMs);
                std::printf("%-4d %-3d %-6s %10.4f %7.2fx %8.1f %7.1f%% %10.4f %7.2fx %8.1f %7.1f%% %11.4f\n", k, s,
                    nameOf(order), m.gpuMs, classic.gpuMs / m.gpuMs, gbps, 100.0 * gbps / peak->bidirectionalGBps,
                    mq.gpuMs, classicQuiet.gpuMs / mq.gpuMs, gbpsQuiet, 100.0 * gbpsQuiet / peak->bidirectionalGBps,
                    model);
            }
        }
    }

    std::printf("\nCPU submit time, median (ms)\n%-12s %-13s %10s %10s %13s %18s\n", "shape", "stage events", "stream",
        "graph", "graph/stream", "GPU ms stream/graph");
    for (auto [k, s] : { std::pair { 1, 1 }, std::pair { 16, 4 }, std::pair { 64, 4 } }) {
        for (bool events : { true, false }) {
            PipelineConfig c = base;
            c.chunks = k;
            c.streams = s;
            c.stageEvents = events;
            const Medians stream = run(c);
            c.submission = Submission::Graph;
            const Medians graph = run(c);
            if (stream.submitMs <= 0.0 || graph.submitMs <= 0.0)
                continue;
            std::printf("K=%-3d S=%-4d %-13s %10.4f %10.4f %13.3f %9.3f / %.3f\n", k, s, events ? "on" : "off",
                stream.submitMs, graph.submitMs, graph.submitMs / stream.submitMs, stream.gpuMs, graph.gpuMs);
        }
    }
    std::printf("\n%d runs checked, %d with a wrong element, %d shapes failed\n", checked, wrong, failures);
    return failures == 0 && wrong == 0 ? 0 : 1;
}

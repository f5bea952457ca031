// Benchmark (not a test): how close the overlap model comes to what each shape measures on this GPU. From one run on
// one GPU it prints:
//   1. the pinned path's calibration, measured now: the copy peaks one way and both ways at once, and the operations'
//      costs (a copy's and a launch's fixed GPU time, the kernel's rate, a call's CPU time);
//   2. for each size (4 MiB, 64 MiB and 1 GiB by default), K = 1, 4, 8, 16, 32, 64 chunks over S = 1 … 8 streams,
//      submitted as stream calls and as a CUDA Graph, without stage events: the model's prediction (modelledMs, the
//      kernel from the calibration), the measured median GPU time and their ratio;
//   3. per size and submission: the shapes within 3 % of the model, and the worst ratio either way.
// Every element of every run is checked.
// Usage: asyncscope_bench_model_table [runs per shape] [size …]    (sizes such as 4MiB 64MiB 1GiB)
#include "engine/cuda/copy_calibration.hpp"
#include "engine/cuda/device_discovery.hpp"
#include "engine/cuda/pipeline.hpp"
#include "engine/model/overlap_model.hpp"
#include "engine/model/size_parse.hpp"
#include "engine/model/statistics.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <vector>

using namespace asyncscope;

namespace {

struct Measured {
    double gpuMs = 0.0;
    int runs = 0, wrong = 0;
};

Result<Measured> measure(const PipelineConfig& config, int runs)
{
    auto session = PipelineSession::open(config);
    if (!session)
        return session.error();
    std::vector<double> gpu;
    Measured m;
    for (int i = 0; i < runs + 3; ++i) {  // three warm-up runs: first launches, first touch, graph instantiation
        auto run = (*session)->run(i, i < 3);
        if (!run)
            return run.error();
        ++m.runs;
        m.wrong += run->verified ? 0 : 1;
        if (!run->warmup)
            gpu.push_back(run->gpuMs);
    }
    m.gpuMs = summarize(gpu).median;
    return m;
}

}  // namespace

int main(int argc, char** argv)
{
    const int runs = argc > 1 ? std::atoi(argv[1]) : 30;
    std::vector<std::size_t> sizes;
    for (int i = 2; i < argc; ++i) {
        const auto elements = parseElementCount(argv[i]);
        if (!elements) {
            std::fprintf(stderr, "%s\n", elements.error().message().c_str());
            return 2;
        }
        sizes.push_back(*elements * sizeof(int));
    }
    if (sizes.empty())
        sizes = { std::size_t(4) << 20, std::size_t(64) << 20, std::size_t(1) << 30 };
    if (runs < 1) {
        std::fprintf(stderr, "usage: asyncscope_bench_model_table [runs per shape >= 1] [size …]\n");
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
    const OperationCosts& costs = peak->costs;
    std::printf("%s, %d runs per shape, no stage events\n", platform->devices[std::size_t(device)].name.c_str(), runs);
    std::printf("pinned copy peaks: H2D %.1f GB/s, D2H %.1f GB/s, both directions at once %.1f GB/s\n",
        peak->h2dGBps, peak->d2hGBps, peak->bidirectionalGBps);
    std::printf("operation costs: copy %.2f us, launch %.2f us, kernel %.0f GB/s, call %.2f us (CPU), a chunk's three "
                "one after another %.2f us\n\n",
        costs.copyUs, costs.launchUs, costs.kernelGBps, costs.callUs, costs.chainUs);

    int failures = 0, wrong = 0, checked = 0;
    struct Tally {
        int shapes = 0, within = 0;
        double lowest = 0.0, highest = 0.0;
    };
    std::vector<std::string> tallies;
    std::printf("%-10s %-7s %-4s %-3s %12s %12s %8s\n", "size", "submit", "K", "S", "model (ms)", "measured", "ratio");
    for (const std::size_t bytes : sizes) {
        for (const Submission submission : { Submission::Stream, Submission::Graph }) {
            Tally t;
            for (int k : { 1, 4, 8, 16, 32, 64 }) {
                for (int s : { 1, 2, 3, 4, 6, 8 }) {
                    if (s > k || (k == 1 && s > 1))
                        continue;
                    PipelineConfig c;
                    c.device = device;
                    c.elements = bytes / sizeof(int);
                    c.chunks = k;
                    c.streams = s;
                    c.submission = submission;
                    c.stageEvents = false;
                    const auto m = measure(c, runs);
                    if (!m) {
                        std::printf("%s K=%d S=%d %s: %s\n", formatBytes(bytes).c_str(), k, s, nameOf(submission),
                            m.error().message().c_str());
                        ++failures;
                        continue;
                    }
                    wrong += m->wrong;
                    checked += m->runs;
                    const double model = modelledMs(c.bytes(), k, s, submission, *peak, 0.0);
                    const double ratio = m->gpuMs / model;
                    std::printf("%-10s %-7s %-4d %-3d %12.4f %12.4f %8.3f\n", formatBytes(bytes).c_str(),
                        nameOf(submission), k, s, model, m->gpuMs, ratio);
                    ++t.shapes;
                    t.within += std::abs(ratio - 1.0) <= 0.03 ? 1 : 0;
                    t.lowest = t.shapes == 1 ? ratio : std::min(t.lowest, ratio);
                    t.highest = t.shapes == 1 ? ratio : std::max(t.highest, ratio);
                }
            }
            char line[160];
            std::snprintf(line, sizeof line, "%-10s %-7s %3d of %3d shapes within 3 %% of the model; measured / model "
                "from %.3f to %.3f", formatBytes(bytes).c_str(), nameOf(submission), t.within, t.shapes, t.lowest,
                t.highest);
            tallies.emplace_back(line);
        }
    }
    std::printf("\n");
    for (const std::string& line : tallies)
        std::printf("%s\n", line.c_str());
    std::printf("\n%d runs checked, %d with a wrong element, %d shapes failed\n", checked, wrong, failures);
    return failures == 0 && wrong == 0 ? 0 : 1;
}

// Benchmark (not a test): what batch submission buys over stream calls on this GPU. In one process on one GPU, for a
// buffer (64 MiB by default) in K = 16, 64 and 256 chunks over S = 4 streams, both issue orders, without stage events
// (the submission alone: no event after each operation), it prints the median CPU submit time and the median GPU
// time of stream calls (a cudaMemcpyAsync per copy) and of batch submission (one cudaMemcpyBatchAsync per stream and
// direction), with and without the prefer-overlap hint, and the ratios batch / stream. Every element of every run is
// checked. The lab's goal at K = 64, S = 4: batch CPU submit <= 0.3 x stream calls', batch GPU time <= theirs; the
// last lines say whether this GPU meets it, and what bounds it from below: at K = 64 over S = 4, the CPU time of the
// pipeline's 64 kernel launches alone (a kernel per chunk, whatever submits the copies), and the copies alone, 2 x 64
// cudaMemcpyAsync calls against 2 x 4 cudaMemcpyBatchAsync calls, on pinned buffers.
// Usage: asyncscope_bench_batch_submit [runs per variant] [elements]
#include "engine/cuda/device_discovery.hpp"
#include "engine/cuda/increment_kernel.hpp"
#include "engine/cuda/memcpy_batch.hpp"
#include "engine/cuda/pipeline.hpp"
#include "engine/model/size_parse.hpp"
#include "engine/model/statistics.hpp"

#include <cuda_runtime_api.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <functional>
#include <memory>
#include <string>
#include <vector>

using namespace asyncscope;

namespace {

constexpr int kWarmupRuns = 3;  // first launches, first touch of the buffers
constexpr double kSubmitGoal = 0.3;
constexpr double kGpuGoal = 1.0;

struct Medians {
    double gpuMs = 0.0, submitMs = 0.0;
    int runs = 0, wrong = 0;
};

Result<Medians> measure(const PipelineConfig& config, int runs)
{
    auto session = PipelineSession::open(config);
    if (!session)
        return session.error();
    std::vector<double> gpu, submit;
    Medians m;
    for (int i = 0; i < runs + kWarmupRuns; ++i) {
        auto run = (*session)->run(i, i < kWarmupRuns);
        if (!run)
            return run.error();
        ++m.runs;
        m.wrong += run->verified ? 0 : 1;
        if (run->warmup)
            continue;
        gpu.push_back(run->gpuMs);
        submit.push_back(run->cpuSubmitMs());
    }
    m.gpuMs = summarize(gpu).median;
    m.submitMs = summarize(submit).median;
    return m;
}

#define BENCH_CUDA(call)                                                                                           \
    do {                                                                                                           \
        if (const cudaError_t status = (call); status != cudaSuccess)                                              \
            return makeError(ErrorKind::Cuda, std::string(#call) + ": " + cudaGetErrorString(status));            \
    } while (false)

// The floors at one shape: the CPU time to enqueue the K kernel launches alone, and the K H2D and K D2H copies alone
// as stream calls and as one batch per stream and direction (medians over `runs`, each after the GPU went idle).
struct Floors {
    double kernelsMs = 0.0, streamCopiesMs = 0.0, batchCopiesMs = 0.0;
};

Result<Floors> measureFloors(const PipelineConfig& c, int runs)
{
    BENCH_CUDA(cudaSetDevice(c.device));
    const std::size_t bytes = c.bytes();
    void* deviceMemory = nullptr;
    void* hostMemory = nullptr;
    BENCH_CUDA(cudaMalloc(&deviceMemory, bytes));
    std::unique_ptr<void, decltype(&cudaFree)> ownDevice(deviceMemory, &cudaFree);
    BENCH_CUDA(cudaMallocHost(&hostMemory, bytes));
    std::unique_ptr<void, decltype(&cudaFreeHost)> ownHost(hostMemory, &cudaFreeHost);
    int* device = static_cast<int*>(deviceMemory);
    int* host = static_cast<int*>(hostMemory);
    std::vector<cudaStream_t> streams(static_cast<std::size_t>(c.streams));
    for (cudaStream_t& s : streams)
        BENCH_CUDA(cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking));
    struct Destroy {
        std::vector<cudaStream_t>& s;
        ~Destroy()
        {
            for (cudaStream_t stream : s)
                static_cast<void>(cudaStreamDestroy(stream));
        }
    } destroy { streams };
    const auto k = static_cast<std::size_t>(c.chunks);
    const std::size_t chunk = (c.elements + k - 1) / k;
    auto chunkOf = [&](std::size_t i) { return std::pair { i * chunk, std::min(chunk, c.elements - i * chunk) }; };
    auto streamOf = [&](std::size_t i) { return streams[i % streams.size()]; };
    std::vector<MemcpyBatch> toDevice(streams.size()), toHost(streams.size());
    for (std::size_t i = 0; i < k; ++i) {
        const auto [first, count] = chunkOf(i);
        toDevice[i % streams.size()].add(device + first, host + first, count * sizeof(int));
        toHost[i % streams.size()].add(host + first, device + first, count * sizeof(int));
    }
    // Median CPU time of `enqueue` over the runs (three untimed first), the GPU idle before each.
    auto timed = [&](const std::function<Status()>& enqueue) -> Result<double> {
        std::vector<double> ms;
        for (int r = 0; r < runs + 3; ++r) {
            BENCH_CUDA(cudaDeviceSynchronize());
            const auto begin = std::chrono::steady_clock::now();
            if (auto failed = enqueue())
                return *failed;
            const auto end = std::chrono::steady_clock::now();
            if (r >= 3)
                ms.push_back(std::chrono::duration<double, std::milli>(end - begin).count());
        }
        BENCH_CUDA(cudaDeviceSynchronize());
        return summarize(ms).median;
    };
    Floors f;
    auto kernels = timed([&]() -> Status {
        for (std::size_t i = 0; i < k; ++i) {
            const auto [first, count] = chunkOf(i);
            BENCH_CUDA(launchIncrement(device + first, 1, count, c.threadsPerBlock, streamOf(i)));
        }
        return std::nullopt;
    });
    auto streamCopies = timed([&]() -> Status {
        for (std::size_t i = 0; i < k; ++i) {
            const auto [first, count] = chunkOf(i);
            BENCH_CUDA(cudaMemcpyAsync(device + first, host + first, count * sizeof(int), cudaMemcpyHostToDevice,
                streamOf(i)));
        }
        for (std::size_t i = 0; i < k; ++i) {
            const auto [first, count] = chunkOf(i);
            BENCH_CUDA(cudaMemcpyAsync(host + first, device + first, count * sizeof(int), cudaMemcpyDeviceToHost,
                streamOf(i)));
        }
        return std::nullopt;
    });
    auto batchCopies = timed([&]() -> Status {
        for (auto* batches : { &toDevice, &toHost }) {
            for (std::size_t s = 0; s < streams.size(); ++s) {
                if (auto failed = (*batches)[s].submit(streams[s]))
                    return failed;
            }
        }
        return std::nullopt;
    });
    for (auto* r : { &kernels, &streamCopies, &batchCopies }) {
        if (!*r)
            return r->error();
    }
    f.kernelsMs = *kernels;
    f.streamCopiesMs = *streamCopies;
    f.batchCopiesMs = *batchCopies;
    return f;
}

}  // namespace

int main(int argc, char** argv)
{
    const int runs = argc > 1 ? std::atoi(argv[1]) : 100;
    const std::size_t elements = argc > 2 ? std::strtoull(argv[2], nullptr, 10) : std::size_t(16) << 20;
    if (runs < 1 || elements < 256) {
        std::fprintf(stderr, "usage: asyncscope_bench_batch_submit [runs per variant >= 1] [elements >= 256]\n");
        return 2;
    }
    auto platform = discoverPlatform();
    if (!platform) {
        std::fprintf(stderr, "no GPU: %s\n", platform.error().message().c_str());
        return 1;
    }
    PipelineConfig base;
    base.device = *chooseDefaultDevice(platform->devices);
    base.elements = elements;
    base.stageEvents = false;
    base.streams = 4;
    std::printf("%s, %s per run, %d runs per variant (after %d warm-up), no stage events\n\n",
        platform->devices[std::size_t(base.device)].name.c_str(), formatBytes(base.bytes()).c_str(), runs,
        kWarmupRuns);

    int failures = 0, wrong = 0, checked = 0;
    auto run = [&](const PipelineConfig& c) -> Medians {
        auto m = measure(c, runs);
        if (!m) {
            std::printf("K=%d S=%d %s %s%s: %s\n", c.chunks, c.streams, nameOf(c.order), nameOf(c.submission),
                c.preferOverlap ? " prefer-overlap" : "", m.error().message().c_str());
            ++failures;
            return {};
        }
        wrong += m->wrong;
        checked += m->runs;
        return *m;
    };

    std::printf("%-12s %-6s %-15s %12s %12s %9s %12s %12s %9s\n", "shape", "order", "batch", "stream CPU",
        "batch CPU", "CPU b/s", "stream GPU", "batch GPU", "GPU b/s");
    std::printf("%-12s %-6s %-15s %12s %12s %9s %12s %12s %9s\n", "", "", "", "submit (ms)", "submit (ms)", "",
        "(ms)", "(ms)", "");
    struct Goal {
        double submitRatio = 0.0, gpuRatio = 0.0, streamSubmitMs = 0.0;
        bool measured = false;
    } goal;
    for (int k : { 16, 64, 256 }) {
        for (IssueOrder order : { IssueOrder::ByChunk, IssueOrder::ByStage }) {
            PipelineConfig c = base;
            c.chunks = k;
            c.order = order;
            if (static_cast<std::size_t>(k) > c.elements)
                continue;
            const Medians stream = run(c);
            for (bool overlap : { false, true }) {
                PipelineConfig b = c;
                b.submission = Submission::Batch;
                b.preferOverlap = overlap;
                const Medians batch = run(b);
                if (stream.submitMs <= 0.0 || batch.submitMs <= 0.0 || stream.gpuMs <= 0.0 || batch.gpuMs <= 0.0)
                    continue;
                const double submitRatio = batch.submitMs / stream.submitMs;
                const double gpuRatio = batch.gpuMs / stream.gpuMs;
                const std::string shape = "K=" + std::to_string(k) + " S=" + std::to_string(c.streams);
                std::printf("%-12s %-6s %-15s %12.4f %12.4f %9.3f %12.4f %12.4f %9.3f\n", shape.c_str(),
                    nameOf(order), overlap ? "prefer-overlap" : "plain", stream.submitMs, batch.submitMs,
                    submitRatio, stream.gpuMs, batch.gpuMs, gpuRatio);
                // The goal's figure: K = 64 in chunk order without the hint, the submit comparison's defaults.
                if (k == 64 && order == IssueOrder::ByChunk && !overlap)
                    goal = { submitRatio, gpuRatio, stream.submitMs, true };
            }
        }
    }

    int missed = 0;
    if (goal.measured) {
        const bool submitMet = goal.submitRatio <= kSubmitGoal;
        const bool gpuMet = goal.gpuRatio <= kGpuGoal;
        missed = (submitMet ? 0 : 1) + (gpuMet ? 0 : 1);
        std::printf("\nK=64 S=4, by chunk: batch CPU submit / stream calls = %.3f (goal <= %.2f): %s\n",
            goal.submitRatio, kSubmitGoal, submitMet ? "met" : "NOT met");
        std::printf("K=64 S=4, by chunk: batch GPU time / stream calls = %.3f (goal <= %.2f): %s\n", goal.gpuRatio,
            kGpuGoal, gpuMet ? "met" : "NOT met");
    }
    // What bounds the ratio from below at the goal's shape.
    PipelineConfig floorShape = base;
    floorShape.chunks = 64;
    if (goal.measured && floorShape.elements >= 64) {
        if (auto floors = measureFloors(floorShape, runs); !floors) {
            std::printf("\nfloors at K=64 S=4: %s\n", floors.error().message().c_str());
            ++failures;
        } else {
            std::printf("\nAt K=64 S=4 the CPU submit time of the parts alone (medians):\n");
            std::printf("  64 kernel launches                      %.4f ms = %.3f x the pipeline's stream calls\n",
                floors->kernelsMs, floors->kernelsMs / goal.streamSubmitMs);
            std::printf("  2 x 64 cudaMemcpyAsync                  %.4f ms\n", floors->streamCopiesMs);
            std::printf("  2 x 4 cudaMemcpyBatchAsync (16 copies)  %.4f ms = %.3f x the copies' stream calls\n",
                floors->batchCopiesMs, floors->batchCopiesMs / floors->streamCopiesMs);
            std::printf("  floor of a batch run, kernels + batches %.4f ms = %.3f x the pipeline's stream calls\n",
                floors->kernelsMs + floors->batchCopiesMs,
                (floors->kernelsMs + floors->batchCopiesMs) / goal.streamSubmitMs);
        }
    }
    std::printf("\n%d runs checked, %d with a wrong element, %d variants failed, %d goals missed\n", checked, wrong,
        failures, missed);
    return failures == 0 && wrong == 0 ? 0 : 1;
}

// The pipeline on a real GPU. Every test skips, printing the engine's reason, when no GPU answers.
#include "gpu_fixture.hpp"

#include "engine/cuda/cuda_backend.hpp"
#include "engine/host/host_memory.hpp"
#include "engine/cuda/increment_kernel.hpp"
#include "engine/cuda/pipeline.hpp"

#include <cuda_runtime_api.h>
#include <gtest/gtest.h>

#include <algorithm>
#include <limits>
#include <map>
#include <thread>
#include <vector>

using namespace asyncscope;

namespace {

class Gpu : public asyncscope::testing::GpuFixture {
protected:
    PipelineConfig configFor(std::size_t elements) const
    {
        PipelineConfig c;
        c.device = device;
        c.elements = elements;
        return c;
    }

    std::size_t freeDeviceMemory() const
    {
        std::size_t freeBytes = 0, total = 0;
        EXPECT_EQ(cudaSetDevice(device), cudaSuccess);
        EXPECT_EQ(cudaMemGetInfo(&freeBytes, &total), cudaSuccess);
        return freeBytes;
    }
};

void expectVerifiedRuns(const PipelineConfig& config, int runs)
{
    auto session = PipelineSession::open(config);
    ASSERT_TRUE(session.ok()) << session.error().message();
    for (int i = 0; i < runs; ++i) {
        auto result = (*session)->run(i, false);
        ASSERT_TRUE(result.ok()) << result.error().message();
        EXPECT_TRUE(result->verified) << "n=" << config.elements << " run " << i << ": element "
                                      << result->firstWrongIndex << " is " << result->firstWrongValue;
        EXPECT_GT(result->gpuMs, 0.0);
        EXPECT_GT(result->cpuSubmitMs(), 0.0);
    }
}

}  // namespace

class GpuSizes : public Gpu, public ::testing::WithParamInterface<std::size_t> { };

TEST_P(GpuSizes, EveryElementIsRight)
{
    expectVerifiedRuns(configFor(GetParam()), 2);
}

INSTANTIATE_TEST_SUITE_P(AwkwardSizes, GpuSizes,
    ::testing::Values(std::size_t(1), std::size_t(511), std::size_t(513), std::size_t(16) << 20,
        (std::size_t(1) << 29) + 3 /* 2 GiB + 12 bytes */));

struct Mode {
    HostMemory memory;
    WaitMode wait;
    CheckMode check;
};

std::string nameOf(const Mode& mode)
{
    return std::string(nameOf(mode.memory)) + "_" + nameOf(mode.wait) + "_" + nameOf(mode.check);
}

void PrintTo(const Mode& mode, std::ostream* out)
{
    *out << nameOf(mode);
}

class GpuModes : public Gpu, public ::testing::WithParamInterface<Mode> { };

// A series delivers every run once, checked, in order. Runs take turns between two host buffers, and each carries its
// values forward: its k-th run (from 1) sends (k-1) x value and must bring back k x value.
TEST_P(GpuModes, DeliversEveryRunCheckedInOrder)
{
    PipelineConfig config = configFor((std::size_t(4) << 20) + 7);
    config.hostMemory = GetParam().memory;
    config.waitMode = GetParam().wait;
    config.checkMode = GetParam().check;
    config.value = -3;
    config.warmupRuns = 2;
    config.runs = 8;
    std::atomic<bool> cancel { false };
    std::vector<RunResult> results;
    const auto outcome = runSeries(config, cancel, [&](const RunResult& r) { results.push_back(r); });
    ASSERT_TRUE(outcome.ok()) << outcome.error().message();
    EXPECT_EQ(outcome->measuredRuns, 8);
    ASSERT_EQ(results.size(), 10u);
    for (std::size_t i = 0; i < results.size(); ++i) {
        const RunResult& r = results[i];
        EXPECT_EQ(r.index, static_cast<int>(i));
        EXPECT_EQ(r.warmup, i < 2);
        EXPECT_TRUE(r.verified) << "run " << i << ": element " << r.firstWrongIndex << " is " << r.firstWrongValue;
        const int runsOnBuffer = int(i) / 2 + 1;  // runs take turns between two host buffers
        EXPECT_EQ(r.expectedValue, runsOnBuffer * config.value) << "run " << i;
        EXPECT_GT(r.gpuMs, 0.0);
        if (config.waitMode == WaitMode::Blocking) {
            EXPECT_EQ(r.pollIterations, 0u);
        }
    }
}

INSTANTIATE_TEST_SUITE_P(HostMemoryWaitAndCheck, GpuModes,
    ::testing::Values(Mode { HostMemory::Pinned, WaitMode::Spin, CheckMode::Overlapped },
        Mode { HostMemory::Pinned, WaitMode::Blocking, CheckMode::Overlapped },
        Mode { HostMemory::Pageable, WaitMode::Spin, CheckMode::Overlapped },
        Mode { HostMemory::Pageable, WaitMode::Blocking, CheckMode::Overlapped },
        Mode { HostMemory::Pinned, WaitMode::Spin, CheckMode::Serial },
        Mode { HostMemory::Pageable, WaitMode::Blocking, CheckMode::Serial }),
    [](const auto& info) { return nameOf(info.param); });

// Values wrap at 32 bits on the GPU and in the host's expectation alike. With overlapped checking, runs 0, 2, 4 use
// one host buffer and 1, 3, 5 the other; each step hands back the run before it, checked.
TEST_F(Gpu, CarriedValuesWrapAround)
{
    PipelineConfig config = configFor(1000003);
    config.value = std::numeric_limits<int>::max();
    auto session = PipelineSession::open(config);
    ASSERT_TRUE(session.ok()) << session.error().message();
    for (int i = 0; i < 6; ++i) {
        auto r = (*session)->step(i, false);
        ASSERT_TRUE(r.ok()) << r.error().message();
        int expected = 0;
        for (int k = 0; k <= i / 2; ++k)
            expected = incremented(expected, config.value);
        EXPECT_EQ(r->timed.expectedValue, expected) << "run " << i;
        EXPECT_EQ(r->checked.has_value(), i > 0);
        if (r->checked) {
            EXPECT_EQ(r->checked->index, i - 1);
            EXPECT_TRUE(r->checked->verified) << "run " << i - 1 << ": element " << r->checked->firstWrongIndex
                                              << " is " << r->checked->firstWrongValue;
        }
    }
    const auto last = (*session)->flush();
    ASSERT_TRUE(last.has_value());
    EXPECT_EQ(last->index, 5);
    EXPECT_TRUE(last->verified);
    EXPECT_FALSE((*session)->flush().has_value());
}

TEST_F(Gpu, StageSpansTileTheTotalAndCpuSpansFollowEachOther)
{
    PipelineConfig config = configFor(std::size_t(16) << 20);
    auto session = PipelineSession::open(config);
    ASSERT_TRUE(session.ok()) << session.error().message();
    for (int i = 0; i < 10; ++i) {
        auto r = (*session)->run(i, false);
        ASSERT_TRUE(r.ok()) << r.error().message();
        ASSERT_TRUE(r->stagesTimed());
        ASSERT_EQ(r->spans.size(), 6u);  // H2D, kernel, D2H, submit, wait, check
        const Span& h2d = r->spans[0];
        const Span& kernel = r->spans[1];
        const Span& d2h = r->spans[2];
        EXPECT_EQ(h2d.kind, SpanKind::H2D);
        EXPECT_EQ(kernel.kind, SpanKind::Kernel);
        EXPECT_EQ(d2h.kind, SpanKind::D2H);
        // One stream: each stage begins where the one before ended, and the last ends at the stop event.
        EXPECT_DOUBLE_EQ(h2d.beginMs, 0.0);
        EXPECT_DOUBLE_EQ(kernel.beginMs, h2d.endMs);
        EXPECT_DOUBLE_EQ(d2h.beginMs, kernel.endMs);
        EXPECT_NEAR(d2h.endMs, r->gpuMs, 1e-6);
        const double sum = h2d.ms() + kernel.ms() + d2h.ms();
        EXPECT_NEAR(sum, r->gpuMs, 0.02 * r->gpuMs) << "H2D " << h2d.ms() << " kernel " << kernel.ms() << " D2H "
                                                    << d2h.ms() << " total " << r->gpuMs;
        EXPECT_GT(h2d.ms(), 0.0);
        EXPECT_GT(kernel.ms(), 0.0);
        EXPECT_GT(d2h.ms(), 0.0);
        EXPECT_EQ(h2d.bytes, config.bytes());
        EXPECT_EQ(kernel.bytes, 2 * config.bytes());
        const Span& submit = r->spans[3];
        const Span& wait = r->spans[4];
        const Span& check = r->spans[5];
        EXPECT_EQ(submit.kind, SpanKind::Submit);
        EXPECT_DOUBLE_EQ(wait.beginMs, submit.endMs);
        EXPECT_EQ(check.kind, SpanKind::Check);
        EXPECT_GE(check.beginMs, wait.endMs);
        EXPECT_GT(check.endMs, check.beginMs);
    }
}

TEST_F(Gpu, ThousandRunsLeaveDeviceMemoryUnchanged)
{
    const PipelineConfig config = configFor(std::size_t(1) << 20);
    {
        auto first = PipelineSession::open(config);  // the context exists before the baseline is read
        ASSERT_TRUE(first.ok()) << first.error().message();
    }
    const std::size_t before = freeDeviceMemory();
    {
        auto session = PipelineSession::open(config);
        ASSERT_TRUE(session.ok()) << session.error().message();
        for (int i = 0; i < 1000; ++i) {
            auto r = (*session)->run(i, false);
            ASSERT_TRUE(r.ok()) << r.error().message();
            ASSERT_TRUE(r->verified) << "run " << i;
        }
    }
    for (int i = 0; i < 20; ++i) {
        auto session = PipelineSession::open(config);
        ASSERT_TRUE(session.ok());
    }
    EXPECT_EQ(freeDeviceMemory(), before);
}

TEST_F(Gpu, TooLargeIsAClearErrorAndTheNextSessionWorks)
{
    const std::size_t total = platform.devices[device].totalMemoryBytes;
    PipelineConfig huge = configFor(total / sizeof(int) + (std::size_t(1) << 20));

    const auto checked = PipelineSession::open(huge);
    ASSERT_FALSE(checked.ok());
    EXPECT_EQ(checked.error().kind, ErrorKind::TooLarge);
    EXPECT_NE(checked.error().message().find("does not fit"), std::string::npos) << checked.error().message();

    const auto allocated = PipelineSession::open(huge, MemoryCheck::Skip);  // let cudaMalloc itself refuse
    ASSERT_FALSE(allocated.ok());
    EXPECT_EQ(allocated.error().kind, ErrorKind::OutOfMemory) << allocated.error().message();
    EXPECT_EQ(allocated.error().api, "cudaMalloc");

    expectVerifiedRuns(configFor(std::size_t(16) << 20), 1);
}

TEST_F(Gpu, TooLargeForTheHostIsAClearErrorBeforeAnyAllocation)
{
    const std::size_t host = availableHostMemory();
    const std::size_t bytes = host / 2 + (std::size_t(1) << 30);  // two such buffers exceed what the host has
    if (bytes > freeDeviceMemory())
        GTEST_SKIP() << "the device has less memory than half the host's; the device check answers first";
    const auto session = PipelineSession::open(configFor(bytes / sizeof(int)));
    ASSERT_FALSE(session.ok());
    EXPECT_EQ(session.error().kind, ErrorKind::TooLarge);
    EXPECT_NE(session.error().message().find("does not fit in host memory"), std::string::npos)
        << session.error().message();
}

TEST_F(Gpu, InvalidDeviceIsAClearError)
{
    PipelineConfig config = configFor(1024);
    config.device = static_cast<int>(platform.devices.size()) + 5;
    const auto session = PipelineSession::open(config);
    ASSERT_FALSE(session.ok());
    EXPECT_EQ(session.error().kind, ErrorKind::Usage);
    EXPECT_NE(session.error().message().find("no CUDA device"), std::string::npos);
    EXPECT_FALSE(findDevice(platform, config.device).ok());
}

TEST_F(Gpu, CancelStopsALongSeries)
{
    PipelineConfig config = configFor(std::size_t(16) << 20);
    config.runs = 100000;
    std::atomic<bool> cancel { false };
    std::vector<RunResult> delivered;
    std::thread canceller([&] {
        std::this_thread::sleep_for(std::chrono::milliseconds(300));
        cancel.store(true);
    });
    const auto outcome = runSeries(config, cancel, [&](const RunResult& r) { delivered.push_back(r); });
    canceller.join();
    ASSERT_FALSE(outcome.ok());
    EXPECT_EQ(outcome.error().kind, ErrorKind::Cancelled);
    EXPECT_GT(delivered.size(), 1u);
    EXPECT_LT(delivered.size(), 100000u);
    for (std::size_t i = 0; i < delivered.size(); ++i) {  // the run being checked when the cancel came is kept
        EXPECT_EQ(delivered[i].index, static_cast<int>(i));
        EXPECT_TRUE(delivered[i].verified) << "run " << i;
    }
}

// --profile-range: cudaProfilerStart/Stop around every run, stopped on every way out of a step (a cancelled run's
// included), leaves the runs as they were: each verifies, and a run after a cancelled one works.
TEST_F(Gpu, AProfilerRangeAroundEachRunLeavesTheRunsAsTheyWere)
{
    PipelineConfig config = configFor(std::size_t(16) << 20);
    config.profilerRange = true;
    auto session = PipelineSession::open(config);
    ASSERT_TRUE(session.ok()) << session.error().message();
    for (int i = 0; i < 3; ++i) {
        auto run = (*session)->run(i, i == 0);
        ASSERT_TRUE(run.ok()) << run.error().message();
        EXPECT_TRUE(run->verified) << "run " << i;
    }
    const std::atomic<bool> cancelled { true };  // set before the run: the first poll that finds it busy stops it
    auto stopped = (*session)->run(3, false, &cancelled);
    if (!stopped.ok()) {
        EXPECT_EQ(stopped.error().kind, ErrorKind::Cancelled) << stopped.error().message();
    }
    auto after = (*session)->run(4, false);
    ASSERT_TRUE(after.ok()) << after.error().message();
    EXPECT_TRUE(after->verified);
}

TEST_F(Gpu, NoiseRuleStops)
{
    PipelineConfig config = configFor(std::size_t(16) << 20);
    config.stopRule = StopRule::Noise;
    config.targetNoisePercent = 5.0;
    config.minRuns = 10;
    config.minGpuMs = 10.0;
    config.timeoutS = 10.0;
    std::atomic<bool> cancel { false };
    const auto outcome = runSeries(config, cancel, [](const RunResult&) { });
    ASSERT_TRUE(outcome.ok()) << outcome.error().message();
    EXPECT_GE(outcome->measuredRuns, 10);
    EXPECT_NE(outcome->reason, StopReason::RunCount);
}

// The workload's shapes: chunks over streams, both issue orders, both submissions. Wherever K <= n every element of
// every run comes back right; wherever K > n opening the session is the clear usage error.
struct Shape {
    std::size_t elements;
    int chunks;
    IssueOrder order;
    Submission submission;
};

void PrintTo(const Shape& s, std::ostream* out)
{
    *out << "n" << s.elements << "_K" << s.chunks << "_" << nameOf(s.order) << "_" << nameOf(s.submission);
}

class GpuShapes : public Gpu, public ::testing::WithParamInterface<Shape> { };

TEST_P(GpuShapes, EveryElementRightWhereChunksFitAndAClearErrorWhereNot)
{
    const Shape shape = GetParam();
    PipelineConfig config = configFor(shape.elements);
    config.chunks = shape.chunks;
    config.streams = std::min(shape.chunks, 4);
    config.order = shape.order;
    config.submission = shape.submission;
    if (static_cast<std::size_t>(shape.chunks) > shape.elements) {
        auto session = PipelineSession::open(config);
        ASSERT_FALSE(session.ok());
        EXPECT_EQ(session.error().kind, ErrorKind::Usage);
        EXPECT_NE(session.error().message().find("chunks need at least"), std::string::npos)
            << session.error().message();
        return;
    }
    if (config.bytes() * 2 > availableHostMemory() / 2 || config.bytes() > freeDeviceMemory() / 2)
        GTEST_SKIP() << "not enough memory for " << config.bytes() << " bytes";
    auto session = PipelineSession::open(config);
    ASSERT_TRUE(session.ok()) << session.error().message();
    for (int i = 0; i < 3; ++i) {  // both host buffers, and one of them a second time
        auto result = (*session)->run(i, false);
        ASSERT_TRUE(result.ok()) << result.error().message();
        EXPECT_TRUE(result->verified) << "run " << i << ": element " << result->firstWrongIndex << " is "
                                      << result->firstWrongValue << ", expected " << result->expectedValue;
        EXPECT_GT(result->gpuMs, 0.0);
        // One span per operation, each within the run, summing to the buffer's bytes per copy direction.
        std::size_t h2d = 0, kernels = 0;
        std::uint64_t h2dBytes = 0;
        for (const Span& s : result->spans) {
            if (!onGpu(s.kind))
                continue;
            EXPECT_GE(s.beginMs, 0.0);
            EXPECT_LE(s.beginMs, s.endMs);
            EXPECT_LE(s.endMs, result->gpuMs + 1e-3);
            EXPECT_LT(s.stream, config.streams);
            EXPECT_EQ(s.stream, s.chunk % config.streams);
            h2d += s.kind == SpanKind::H2D ? 1 : 0;
            kernels += s.kind == SpanKind::Kernel ? 1 : 0;
            h2dBytes += s.kind == SpanKind::H2D ? s.bytes : 0;
        }
        EXPECT_EQ(h2d, static_cast<std::size_t>(shape.chunks));
        EXPECT_EQ(kernels, static_cast<std::size_t>(shape.chunks));
        EXPECT_EQ(h2dBytes, config.bytes());
    }
}

std::vector<Shape> allShapes()
{
    std::vector<Shape> shapes;
    for (std::size_t n : { std::size_t(1), std::size_t(513), (std::size_t(1) << 29) + 3 }) {
        for (int k : { 1, 3, 16, 64 }) {
            for (IssueOrder order : { IssueOrder::ByChunk, IssueOrder::ByStage }) {
                for (Submission submission : { Submission::Stream, Submission::Graph })
                    shapes.push_back({ n, k, order, submission });
            }
        }
    }
    return shapes;
}

INSTANTIATE_TEST_SUITE_P(ChunksOrdersSubmissions, GpuShapes, ::testing::ValuesIn(allShapes()),
    [](const auto& info) {
        const Shape& s = info.param;
        return "n" + std::to_string(s.elements) + "_K" + std::to_string(s.chunks) + "_" + nameOf(s.order) + "_" +
            nameOf(s.submission);
    });

// A graph is captured once; a new value updates it (or instantiates it again) and the next runs add the new value.
TEST_F(Gpu, AGraphFollowsAChangeOfValue)
{
    PipelineConfig config = configFor((std::size_t(1) << 20) + 5);
    config.chunks = 8;
    config.streams = 2;
    config.submission = Submission::Graph;
    config.checkMode = CheckMode::Serial;
    auto session = PipelineSession::open(config);
    ASSERT_TRUE(session.ok()) << session.error().message();
    auto first = (*session)->run(0, false);
    ASSERT_TRUE(first.ok()) << first.error().message();
    EXPECT_TRUE(first->verified);
    EXPECT_EQ(first->expectedValue, 26);
    auto change = (*session)->setValue(1000);
    ASSERT_TRUE(change.ok()) << change.error().message();
    EXPECT_NE(*change, PipelineSession::ValueChange::NoGraph);
    std::printf("graph after a change of value: %s\n",
        *change == PipelineSession::ValueChange::Updated ? "updated in place" : "instantiated again");
    for (int i = 1; i <= 2; ++i) {  // the other host buffer (held 0), then the first again (held 26)
        auto run = (*session)->run(i, false);
        ASSERT_TRUE(run.ok()) << run.error().message();
        EXPECT_TRUE(run->verified) << "run " << i << ": element " << run->firstWrongIndex << " is "
                                   << run->firstWrongValue << ", expected " << run->expectedValue;
        EXPECT_EQ(run->expectedValue, i == 1 ? 1000 : 1026);
    }
}

// Pageable host memory in a graph either works or is refused as unsupported with a message that says what to do;
// never a crash.
TEST_F(Gpu, AGraphFromPageableMemoryRunsOrSaysWhy)
{
    PipelineConfig config = configFor(std::size_t(1) << 20);
    config.chunks = 4;
    config.streams = 2;
    config.hostMemory = HostMemory::Pageable;
    config.submission = Submission::Graph;
    auto session = PipelineSession::open(config);
    if (!session.ok()) {
        std::printf("pageable graph refused: %s\n", session.error().message().c_str());
        EXPECT_NE(session.error().message().find("CUDA Graph"), std::string::npos) << session.error().message();
        EXPECT_EQ(session.error().kind, ErrorKind::Unsupported) << session.error().message();  // "not run" in a plan
        return;
    }
    auto run = (*session)->run(0, false);
    ASSERT_TRUE(run.ok()) << run.error().message();
    EXPECT_TRUE(run->verified);
    std::printf("pageable graph ran: %.3f ms\n", run->gpuMs);
}

// Several streams overlap: at 64 MiB in 16 chunks over 4 streams the GPU time is below the one-chunk time. A
// behaviour, not a figure: the ratio itself is the benchmark's claim.
TEST_F(Gpu, ChunksOverSeveralStreamsOverlap)
{
    constexpr int kTimedRuns = 20;  // after one warm-up run
    // The median of the timed runs' GPU times into `median`; fails the test first when a run or the session failed,
    // so a short series never reads past its end.
    auto timeMedian = [&](PipelineConfig config, double& median) {
        auto session = PipelineSession::open(config);
        ASSERT_TRUE(session.ok()) << session.error().message();
        std::vector<double> times;
        for (int i = 0; i <= kTimedRuns; ++i) {
            auto run = (*session)->run(i, i == 0);
            EXPECT_TRUE(run.ok() && run->verified) << (run.ok() ? "run not verified" : run.error().message());
            if (run.ok() && i > 0)
                times.push_back(run->gpuMs);
        }
        ASSERT_EQ(times.size(), static_cast<std::size_t>(kTimedRuns)) << "runs that succeeded";
        const auto middle = times.begin() + kTimedRuns / 2;
        std::nth_element(times.begin(), middle, times.end());
        median = *middle;
    };
    PipelineConfig classic = configFor(std::size_t(16) << 20);
    PipelineConfig chunked = classic;
    chunked.chunks = 16;
    chunked.streams = 4;
    double one = 0.0, sixteen = 0.0;
    timeMedian(classic, one);
    ASSERT_FALSE(HasFatalFailure());
    timeMedian(chunked, sixteen);
    ASSERT_FALSE(HasFatalFailure());
    std::printf("64 MiB median GPU time: K=1 %.3f ms, K=16 S=4 %.3f ms (%.2fx)\n", one, sixteen, one / sixteen);
    EXPECT_LT(sixteen, one);
}

// CUPTI as the trace source: every copy and kernel of every run traced, matched to its chunk and stream, on the clock
// the runtime calls share. Where CUPTI cannot start here (not installed, or a profiler such as compute-sanitizer holds
// it) the session says why and the runs carry event spans only.
namespace {

struct TracedShape {
    int chunks;
    int streams;
    Submission submission;
};

class GpuTraced : public Gpu, public ::testing::WithParamInterface<TracedShape> { };

TEST_P(GpuTraced, CuptiTracesEveryOperationOrSaysWhy)
{
    PipelineConfig config = configFor(std::size_t(16) << 20);
    config.chunks = GetParam().chunks;
    config.streams = GetParam().streams;
    config.submission = GetParam().submission;
    config.traceSource = TraceSource::Cupti;
    auto session = PipelineSession::open(config);
    ASSERT_TRUE(session.ok()) << session.error().message();
    if (!(*session)->traceNote().empty()) {
        for (int i = 0; i < 2; ++i) {
            auto run = (*session)->run(i, false);
            ASSERT_TRUE(run.ok() && run->verified);
            EXPECT_TRUE(run->traced.empty());
            EXPECT_TRUE(run->stagesTimed());
        }
        GTEST_SKIP() << "CUPTI not used: " << (*session)->traceNote();
    }
    const auto k = static_cast<std::size_t>(config.chunks);
    for (int i = 0; i < 4; ++i) {
        auto run = (*session)->run(i, i == 0);
        ASSERT_TRUE(run.ok()) << run.error().message();
        EXPECT_TRUE(run->verified);
        std::map<SpanKind, std::vector<const Span*>> gpu;
        std::map<ApiCall, int> calls;
        for (const Span& s : run->traced) {
            if (s.kind == SpanKind::Api)
                ++calls[s.call];
            else
                gpu[s.kind].push_back(&s);
        }
        for (SpanKind kind : { SpanKind::H2D, SpanKind::Kernel, SpanKind::D2H }) {
            ASSERT_EQ(gpu[kind].size(), k) << nameOf(kind) << " in run " << i;
            std::vector<bool> seen(k, false);
            for (const Span* s : gpu[kind]) {
                ASSERT_LT(static_cast<std::size_t>(s->chunk), k);
                seen[static_cast<std::size_t>(s->chunk)] = true;
                EXPECT_EQ(s->stream, s->chunk % config.streams);
                EXPECT_GE(s->beginMs, 0.0) << "a GPU operation before submission began";
                EXPECT_GT(s->ms(), 0.0);
                // The event span of the same operation also holds any wait for its engine: never much shorter.
                for (const Span& timed : run->spans) {
                    if (timed.kind == kind && timed.chunk == s->chunk) {
                        EXPECT_GE(timed.ms() + 0.005, s->ms()) << nameOf(kind) << " chunk " << s->chunk;
                    }
                }
            }
            EXPECT_EQ(std::count(seen.begin(), seen.end(), true), static_cast<long>(k));
        }
        // What the event spans take as given (queueCopiesByDirection): copies one way run one at a time.
        for (SpanKind kind : { SpanKind::H2D, SpanKind::D2H }) {
            std::vector<const Span*> copies = gpu[kind];
            std::sort(copies.begin(), copies.end(), [](const Span* a, const Span* b) { return a->beginMs < b->beginMs; });
            for (std::size_t c = 1; c < copies.size(); ++c) {
                EXPECT_LE(copies[c - 1]->endMs, copies[c]->beginMs + 0.001)
                    << nameOf(kind) << " copies of chunks " << copies[c - 1]->chunk << " and " << copies[c]->chunk
                    << " overlap";
            }
        }
        if (config.submission == Submission::Graph) {
            EXPECT_EQ(calls[ApiCall::GraphLaunch], 1);
            EXPECT_EQ(calls[ApiCall::MemcpyAsync], 0);
        } else {
            EXPECT_EQ(calls[ApiCall::MemcpyAsync], static_cast<int>(2 * k));
            EXPECT_EQ(calls[ApiCall::LaunchKernel], static_cast<int>(k));
        }
        EXPECT_EQ(calls[ApiCall::EventQuery], 0) << "polls are the wait span's, not calls of their own";
    }
}

INSTANTIATE_TEST_SUITE_P(ClassicAndChunked, GpuTraced,
    ::testing::Values(TracedShape { 1, 1, Submission::Stream }, TracedShape { 16, 4, Submission::Stream },
        TracedShape { 16, 4, Submission::Graph }),
    [](const ::testing::TestParamInfo<TracedShape>& info) {
        return "K" + std::to_string(info.param.chunks) + "_S" + std::to_string(info.param.streams) + "_" +
            std::string(nameOf(info.param.submission));
    });

}  // namespace

// Batch submission on a real GPU: each stream's copies one way in one cudaMemcpyBatchAsync call, at one chunk, at an
// awkward shape (n = 1000003 in K = 7 chunks over S = 3 streams) and at K = 64 over S = 4, both issue orders, the
// prefer-overlap hint on and off, from pinned, pageable and registered host memory. Every element of every run is
// checked, and the runs carry their GPU time, CPU submit time and one span per batch. Every test skips, printing the
// engine's reason, when no GPU answers.
#include "gpu_fixture.hpp"

#include "engine/cuda/cuda_backend.hpp"
#include "engine/cuda/pipeline.hpp"
#include "engine/host/host_memory.hpp"

#include <cuda_runtime_api.h>
#include <gtest/gtest.h>

#include <algorithm>
#include <string>
#include <vector>

using namespace asyncscope;

namespace {

struct BatchCase {
    std::size_t elements;
    int chunks;
    int streams;
    IssueOrder order;
    bool preferOverlap;
    HostMemory memory;
};

std::string caseName(const BatchCase& c)
{
    return "n" + std::to_string(c.elements) + "_K" + std::to_string(c.chunks) + "_S" + std::to_string(c.streams) +
        "_" + nameOf(c.order) + (c.preferOverlap ? "_overlap_" : "_") + [&] {
            std::string memory = nameOf(c.memory);
            std::replace(memory.begin(), memory.end(), '-', '_');
            return memory;
        }();
}

void PrintTo(const BatchCase& c, std::ostream* out)
{
    *out << caseName(c);
}

class BatchGpu : public asyncscope::testing::GpuFixture {
protected:
    PipelineConfig batchConfig(std::size_t elements, int chunks, int streams) const
    {
        PipelineConfig c;
        c.device = device;
        c.elements = elements;
        c.chunks = chunks;
        c.streams = streams;
        c.submission = Submission::Batch;
        return c;
    }
};

class BatchShapes : public BatchGpu, public ::testing::WithParamInterface<BatchCase> { };

}  // namespace

TEST_P(BatchShapes, EveryElementRightWithTimesAndOneSpanPerBatch)
{
    const BatchCase b = GetParam();
    PipelineConfig config = batchConfig(b.elements, b.chunks, b.streams);
    config.order = b.order;
    config.preferOverlap = b.preferOverlap;
    config.hostMemory = b.memory;
    auto session = PipelineSession::open(config);
    if (!session.ok() && session.error().kind == ErrorKind::Unsupported)
        GTEST_SKIP() << "batch submission not run: " << session.error().message();
    ASSERT_TRUE(session.ok()) << session.error().message();
    for (int i = 0; i < 3; ++i) {  // both host buffers, and one of them a second time
        auto run = (*session)->run(i, false);
        ASSERT_TRUE(run.ok()) << run.error().message();
        EXPECT_TRUE(run->verified) << "run " << i << ": element " << run->firstWrongIndex << " is "
                                   << run->firstWrongValue << ", expected " << run->expectedValue;
        EXPECT_GT(run->gpuMs, 0.0);
        EXPECT_GT(run->cpuSubmitMs(), 0.0);
        // One span per batch (min(K, S) each way, every byte once) and one per kernel, within the run.
        std::size_t h2d = 0, d2h = 0, kernels = 0;
        std::uint64_t h2dBytes = 0, d2hBytes = 0;
        for (const Span& s : run->spans) {
            if (!onGpu(s.kind))
                continue;
            EXPECT_GE(s.beginMs, 0.0);
            EXPECT_LE(s.beginMs, s.endMs);
            EXPECT_LE(s.endMs, run->gpuMs + 1e-3);
            EXPECT_EQ(s.stream, s.chunk % config.streams);
            h2d += s.kind == SpanKind::H2D ? 1 : 0;
            d2h += s.kind == SpanKind::D2H ? 1 : 0;
            kernels += s.kind == SpanKind::Kernel ? 1 : 0;
            h2dBytes += s.kind == SpanKind::H2D ? s.bytes : 0;
            d2hBytes += s.kind == SpanKind::D2H ? s.bytes : 0;
        }
        const auto batches = static_cast<std::size_t>(std::min(b.chunks, b.streams));
        EXPECT_EQ(h2d, batches);
        EXPECT_EQ(d2h, batches);
        EXPECT_EQ(kernels, static_cast<std::size_t>(b.chunks));
        EXPECT_EQ(h2dBytes, config.bytes());
        EXPECT_EQ(d2hBytes, config.bytes());
    }
}

namespace {

std::vector<BatchCase> batchCases()
{
    struct Shape {
        std::size_t n;
        int k, s;
    };
    const Shape shapes[] = { { (std::size_t(1) << 20) + 3, 1, 1 }, { 1000003, 7, 3 }, { std::size_t(16) << 20, 64, 4 } };
    std::vector<BatchCase> cases;
    for (const Shape& shape : shapes) {
        for (IssueOrder order : { IssueOrder::ByChunk, IssueOrder::ByStage }) {
            for (bool overlap : { false, true }) {
                for (HostMemory memory : { HostMemory::Pinned, HostMemory::Pageable, HostMemory::Registered })
                    cases.push_back({ shape.n, shape.k, shape.s, order, overlap, memory });
            }
        }
    }
    return cases;
}

}  // namespace

INSTANTIATE_TEST_SUITE_P(ShapesOrdersHintsMemories, BatchShapes, ::testing::ValuesIn(batchCases()),
    [](const auto& info) { return caseName(info.param); });

// Without stage events a batched run has only its host spans, and still every element right.
TEST_F(BatchGpu, WithoutStageEventsEveryElementIsStillRight)
{
    PipelineConfig config = batchConfig(std::size_t(16) << 20, 64, 4);
    config.stageEvents = false;
    auto session = PipelineSession::open(config);
    ASSERT_TRUE(session.ok()) << session.error().message();
    for (int i = 0; i < 3; ++i) {
        auto run = (*session)->run(i, false);
        ASSERT_TRUE(run.ok()) << run.error().message();
        EXPECT_TRUE(run->verified) << "run " << i << ": element " << run->firstWrongIndex;
        EXPECT_GT(run->gpuMs, 0.0);
        EXPECT_GT(run->cpuSubmitMs(), 0.0);
        EXPECT_FALSE(run->has(SpanKind::H2D));
        EXPECT_FALSE(run->has(SpanKind::Kernel));
    }
}

// The kernels between the batches take a new value from the next run on, as stream calls do.
TEST_F(BatchGpu, FollowsAChangeOfValue)
{
    PipelineConfig config = batchConfig((std::size_t(1) << 20) + 5, 8, 2);
    config.checkMode = CheckMode::Serial;
    auto session = PipelineSession::open(config);
    ASSERT_TRUE(session.ok()) << session.error().message();
    auto first = (*session)->run(0, false);
    ASSERT_TRUE(first.ok()) << first.error().message();
    EXPECT_TRUE(first->verified);
    auto change = (*session)->setValue(1000);
    ASSERT_TRUE(change.ok()) << change.error().message();
    EXPECT_EQ(*change, PipelineSession::ValueChange::NoGraph);
    for (int i = 1; i <= 2; ++i) {  // the other host buffer (held 0), then the first again (held 26)
        auto run = (*session)->run(i, false);
        ASSERT_TRUE(run.ok()) << run.error().message();
        EXPECT_TRUE(run->verified) << "run " << i << ": element " << run->firstWrongIndex;
        EXPECT_EQ(run->expectedValue, i == 1 ? 1000 : 1026);
    }
}

// A batch hands its copies to the copy engines: memory without copies is refused at open, as Unsupported.
TEST_F(BatchGpu, MemoryWithoutCopiesIsUnsupported)
{
    for (HostMemory memory : { HostMemory::Mapped, HostMemory::Managed }) {
        PipelineConfig config = batchConfig(1024, 1, 1);
        config.hostMemory = memory;
        auto session = PipelineSession::open(config);
        ASSERT_FALSE(session.ok()) << nameOf(memory);
        EXPECT_EQ(session.error().kind, ErrorKind::Unsupported) << session.error().message();
    }
}

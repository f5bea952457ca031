// CUPTI's trace of every kind of host memory, copy mechanism and submission on a real GPU: the SM copy kernels as
// their chunks' copies, a batch call's copies as its stream's chunks, managed memory's page migrations as spans of
// their own, runs without copies with their kernels alone. Skips, saying why, without a GPU, where CUPTI cannot
// start, and where a combination cannot run on this device.
#include "gpu_fixture.hpp"

#include "engine/cuda/cuda_backend.hpp"
#include "engine/cuda/cupti_trace.hpp"
#include "engine/cuda/pipeline.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <cstdio>
#include <map>
#include <string>
#include <vector>

using namespace asyncscope;

namespace {

struct TracedMemory {
    const char* name;
    HostMemory memory;
    CopyMechanism copy;
    ManagedMigration migration;
    Submission submission;
    IssueOrder order;
};

using GpuTracedMemory = asyncscope::testing::GpuParamFixture<TracedMemory>;

TEST_P(GpuTracedMemory, EveryOperationIsItsChunksAndMigrationsHaveTheirOwnSpans)
{
    const TracedMemory& shape = GetParam();
    PipelineConfig config;
    config.device = device;
    config.elements = (std::size_t(4) << 20) + 5;
    config.chunks = 8;
    config.streams = 2;
    config.order = shape.order;
    config.submission = shape.submission;
    config.hostMemory = shape.memory;
    config.copy = shape.copy;
    config.managedMigration = shape.migration;
    config.traceSource = TraceSource::Cupti;
    auto session = PipelineSession::open(config);
    if (!session.ok() && session.error().kind == ErrorKind::Unsupported)
        GTEST_SKIP() << "not run here: " << session.error().message();
    ASSERT_TRUE(session.ok()) << session.error().message();
    if (!(*session)->traceNote().empty())
        GTEST_SKIP() << "CUPTI not used: " << (*session)->traceNote();
    auto trace = CuptiTrace::start(config.device);
    ASSERT_TRUE(trace.ok()) << trace.error().message();
    const std::string migrationNote = (*trace)->migrationNote();
    if (!migrationNote.empty())
        std::printf("%s\n", migrationNote.c_str());

    const auto k = static_cast<std::size_t>(config.chunks);
    for (int i = 0; i < 3; ++i) {
        auto run = (*session)->run(i, i == 0);
        ASSERT_TRUE(run.ok()) << run.error().message();
        EXPECT_TRUE(run->verified) << "run " << i << ": element " << run->firstWrongIndex;
        std::map<SpanKind, std::vector<Span>> gpu;
        std::map<ApiCall, int> calls;
        for (const Span& s : run->traced) {
            if (s.kind == SpanKind::Api)
                ++calls[s.call];
            else
                gpu[s.kind].push_back(s);
        }
        // A kernel per chunk (SM copies are no kernels of their own: they are the copies), on the chunk's stream.
        ASSERT_EQ(gpu[SpanKind::Kernel].size(), k) << "run " << i;
        std::vector<int> seen(k, 0);
        for (const Span& s : gpu[SpanKind::Kernel]) {
            ASSERT_LT(static_cast<std::size_t>(s.chunk), k);
            ++seen[static_cast<std::size_t>(s.chunk)];
            EXPECT_EQ(s.stream, s.chunk % config.streams);
        }
        EXPECT_EQ(std::count(seen.begin(), seen.end(), 1), static_cast<long>(k));
        for (SpanKind kind : { SpanKind::H2D, SpanKind::D2H }) {
            std::uint64_t bytes = 0;
            for (const Span& s : gpu[kind]) {
                EXPECT_LT(static_cast<std::size_t>(s.chunk), k);
                EXPECT_EQ(s.stream, s.chunk % config.streams);
                EXPECT_GE(s.beginMs, 0.0);
                bytes += s.bytes;
            }
            if (!hasCopies(config)) {
                EXPECT_TRUE(gpu[kind].empty()) << nameOf(kind) << ": a run without copies has none";
            } else if (!copiesArePrefetches(config)) {
                // Every chunk's copy: one span each, or (batch) fewer where the driver merged copies.
                EXPECT_EQ(bytes, config.bytes()) << nameOf(kind) << " in run " << i;
                if (config.submission != Submission::Batch) {
                    EXPECT_EQ(gpu[kind].size(), k) << nameOf(kind) << " in run " << i;
                }
            }
        }
        for (SpanKind kind : { SpanKind::MigrateH2D, SpanKind::MigrateD2H }) {
            for (const Span& s : gpu[kind]) {
                EXPECT_GT(s.bytes, 0u);
                EXPECT_GE(s.beginMs, 0.0);
                EXPECT_GE(s.ms(), 0.0);
            }
        }
        if (config.hostMemory != HostMemory::Managed) {
            EXPECT_TRUE(gpu[SpanKind::MigrateH2D].empty() && gpu[SpanKind::MigrateD2H].empty());
        } else if (migrationNote.empty() && config.managedMigration == ManagedMigration::OnDemand) {
            EXPECT_FALSE(gpu[SpanKind::MigrateH2D].empty()) << "the kernel's faults migrated no page, run " << i;
        } else if (migrationNote.empty()) {
            // A prefetch to the device: a page migration, or a copy record, or both.
            EXPECT_FALSE(gpu[SpanKind::MigrateH2D].empty() && gpu[SpanKind::H2D].empty()) << "run " << i;
        }
        if (config.submission == Submission::Batch) {
            EXPECT_EQ(calls[ApiCall::MemcpyBatchAsync], 2 * config.streams);
            EXPECT_EQ(calls[ApiCall::MemcpyAsync], 0);
        }
        if (copiesArePrefetches(config) && config.submission == Submission::Stream) {
            EXPECT_GT(calls[ApiCall::MemPrefetchAsync], 0);
        }
        if (config.copy == CopyMechanism::Sm && config.submission == Submission::Stream) {
            EXPECT_EQ(calls[ApiCall::LaunchKernel], static_cast<int>(3 * k));
            EXPECT_EQ(calls[ApiCall::MemcpyAsync], 0);
        }
    }
}

INSTANTIATE_TEST_SUITE_P(KindsAndSubmissions, GpuTracedMemory,
    ::testing::Values(
        TracedMemory { "pinned_ce", HostMemory::Pinned, CopyMechanism::CopyEngine, ManagedMigration::Prefetch,
            Submission::Stream, IssueOrder::ByChunk },
        TracedMemory { "pinned_sm_by_chunk", HostMemory::Pinned, CopyMechanism::Sm, ManagedMigration::Prefetch,
            Submission::Stream, IssueOrder::ByChunk },
        TracedMemory { "pinned_sm_by_stage", HostMemory::Pinned, CopyMechanism::Sm, ManagedMigration::Prefetch,
            Submission::Stream, IssueOrder::ByStage },
        TracedMemory { "pinned_sm_graph", HostMemory::Pinned, CopyMechanism::Sm, ManagedMigration::Prefetch,
            Submission::Graph, IssueOrder::ByChunk },
        TracedMemory { "registered_sm", HostMemory::Registered, CopyMechanism::Sm, ManagedMigration::Prefetch,
            Submission::Stream, IssueOrder::ByChunk },
        TracedMemory { "pinned_batch", HostMemory::Pinned, CopyMechanism::CopyEngine, ManagedMigration::Prefetch,
            Submission::Batch, IssueOrder::ByChunk },
        TracedMemory { "pageable_batch", HostMemory::Pageable, CopyMechanism::CopyEngine, ManagedMigration::Prefetch,
            Submission::Batch, IssueOrder::ByChunk },
        TracedMemory { "mapped", HostMemory::Mapped, CopyMechanism::CopyEngine, ManagedMigration::Prefetch,
            Submission::Stream, IssueOrder::ByChunk },
        TracedMemory { "managed_prefetch", HostMemory::Managed, CopyMechanism::CopyEngine, ManagedMigration::Prefetch,
            Submission::Stream, IssueOrder::ByChunk },
        TracedMemory { "managed_on_demand", HostMemory::Managed, CopyMechanism::CopyEngine,
            ManagedMigration::OnDemand, Submission::Stream, IssueOrder::ByChunk }),
    [](const ::testing::TestParamInfo<TracedMemory>& info) { return std::string(info.param.name); });

}  // namespace

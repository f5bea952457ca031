// The real CUDA session refuses a combination of host memory, copy mechanism and submission that can never run as
// unsupported, with the reason, before it touches any device: so here, without a driver, as on a GPU machine.
// Combinations that can run reach the device (and, without a driver, fail as every session does there).
#include "engine/cuda/cuda_backend.hpp"
#include "engine/cuda/pipeline.hpp"

#include <cuda_runtime_api.h>
#include <gtest/gtest.h>

using namespace asyncscope;

namespace {

std::vector<PipelineConfig> everyCombination()
{
    std::vector<PipelineConfig> configs;
    for (HostMemory memory : { HostMemory::Pinned, HostMemory::Pageable, HostMemory::WriteCombined,
             HostMemory::Registered, HostMemory::Mapped, HostMemory::Managed }) {
        for (CopyMechanism copy : { CopyMechanism::CopyEngine, CopyMechanism::Sm }) {
            for (ManagedMigration migration : { ManagedMigration::Prefetch, ManagedMigration::OnDemand }) {
                for (Submission submission : { Submission::Stream, Submission::Graph, Submission::Batch }) {
                    PipelineConfig c;
                    c.elements = 1000003;
                    c.chunks = 7;
                    c.streams = 3;
                    c.hostMemory = memory;
                    c.copy = copy;
                    c.managedMigration = migration;
                    c.submission = submission;
                    configs.push_back(c);
                }
            }
        }
    }
    return configs;
}

std::string describe(const PipelineConfig& c)
{
    return std::string(nameOf(c.hostMemory)) + " " + nameOf(c.copy) + " " + nameOf(c.managedMigration) + " " +
        nameOf(c.submission);
}

bool noDriver()
{
    int driver = 0;
    return cudaDriverGetVersion(&driver) != cudaSuccess || driver == 0;
}

}  // namespace

TEST(SessionRefusals, WhatCanNeverRunIsUnsupportedBeforeAnyDevice)
{
    int refused = 0;
    for (const PipelineConfig& c : everyCombination()) {
        const Status never = checkCombination(c);
        if (!never)
            continue;
        ++refused;
        const auto session = PipelineSession::open(c);
        ASSERT_FALSE(session.ok()) << describe(c);
        EXPECT_EQ(session.error().kind, ErrorKind::Unsupported) << describe(c) << ": " << session.error().message();
        EXPECT_EQ(session.error().detail, never->detail) << describe(c);
        EXPECT_FALSE(session.error().advice.empty()) << describe(c);

        CudaBackend backend;
        std::atomic<bool> cancel { false };
        int delivered = 0;
        const auto outcome = backend.run(c, cancel, [&](const RunResult&) { ++delivered; });
        ASSERT_FALSE(outcome.ok()) << describe(c);
        EXPECT_EQ(outcome.error().kind, ErrorKind::Unsupported) << describe(c);
        EXPECT_EQ(delivered, 0);
    }
    EXPECT_GT(refused, 0);
}

TEST(SessionRefusals, WhatCanRunReachesTheDevice)
{
    if (!noDriver())
        GTEST_SKIP() << "a CUDA driver is installed here; the GPU tests run these combinations";
    int allowed = 0;
    for (const PipelineConfig& c : everyCombination()) {
        if (checkCombination(c))
            continue;
        ++allowed;
        const auto session = PipelineSession::open(c);
        ASSERT_FALSE(session.ok()) << describe(c);
        EXPECT_EQ(session.error().kind, ErrorKind::NoDriver) << describe(c) << ": " << session.error().message();
    }
    EXPECT_GT(allowed, 0);
}

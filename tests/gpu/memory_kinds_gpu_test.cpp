// Every kind of host memory on a real GPU: each kind × copy mechanism × submission that checkCombination allows, at an
// awkward size in the classic shape and in 7 chunks over 3 streams, brings every element back right; runs without
// copies have no copy spans; registered memory reports its registration. A variant is refused (as unsupported, with
// its reason) only where the device's own attributes say it cannot work, or where stream capture cannot take managed
// memory's prefetches: then it is skipped with the reason printed. Any other refusal fails, as on the H200, where
// every kind runs. Every test skips, printing the engine's reason, when no GPU answers.
#include "gpu_fixture.hpp"

#include "engine/cuda/cuda_backend.hpp"
#include "engine/cuda/pipeline.hpp"

#include <cuda_runtime_api.h>
#include <gtest/gtest.h>

#include <cstdio>
#include <string>
#include <vector>

using namespace asyncscope;

namespace {

// Why the device's own attributes say `c` cannot run on it, or empty where they say it can: then a refusal is a
// failure. Read here rather than through the engine's check, so that a check refusing more than the device rules out
// fails instead of skipping. An attribute that cannot be read fails the test and excuses nothing.
std::string whyTheDeviceCannot(const PipelineConfig& c)
{
    const auto lacks = [&c](cudaDeviceAttr attribute, const char* name) {
        int value = 0;
        const cudaError_t status = cudaDeviceGetAttribute(&value, attribute, c.device);
        EXPECT_EQ(status, cudaSuccess) << name << ": " << cudaGetErrorString(status);
        return status == cudaSuccess && value == 0;
    };
    if (c.hostMemory == HostMemory::Managed) {
        if (lacks(cudaDevAttrManagedMemory, "cudaDevAttrManagedMemory"))
            return "cudaDevAttrManagedMemory is 0: the device has no managed memory";
        if (lacks(cudaDevAttrConcurrentManagedAccess, "cudaDevAttrConcurrentManagedAccess"))
            return "cudaDevAttrConcurrentManagedAccess is 0: managed pages cannot migrate while the CPU uses them";
    }
    if (c.hostMemory == HostMemory::Registered &&
        lacks(cudaDevAttrHostRegisterSupported, "cudaDevAttrHostRegisterSupported"))
        return "cudaDevAttrHostRegisterSupported is 0: the device cannot register host memory";
    // An SM copy reads the host buffer through a device pointer: plain memory's own (pageable memory access), or the
    // mapped pointer of pinned, write-combined and registered memory; mapped memory is that pointer.
    const bool smCopies = hasCopies(c) && c.copy == CopyMechanism::Sm && c.hostMemory != HostMemory::Managed;
    if (smCopies && c.hostMemory == HostMemory::Pageable) {
        if (lacks(cudaDevAttrPageableMemoryAccess, "cudaDevAttrPageableMemoryAccess"))
            return "cudaDevAttrPageableMemoryAccess is 0: an SM copy cannot read pageable memory";
    } else if ((smCopies || c.hostMemory == HostMemory::Mapped) &&
        lacks(cudaDevAttrCanMapHostMemory, "cudaDevAttrCanMapHostMemory")) {
        return "cudaDevAttrCanMapHostMemory is 0: host memory cannot be mapped into the device's address space";
    }
    return {};
}

// Why a refusal of `c` is expected here, or empty where it must run: the device's attributes, or CUDA's stream
// capture, which does not take managed memory's prefetches (cudaMemPrefetchAsync) on the H200 either (the README lists
// them as not run there), so a graph of them is refused as unsupported with the graph's reason. A system that captures
// them runs the variant, checked as any other.
std::string whyNotRunHere(const PipelineConfig& c, const Error& refusal)
{
    if (std::string device = whyTheDeviceCannot(c); !device.empty())
        return device;
    if (c.submission == Submission::Graph && copiesArePrefetches(c) &&
        refusal.detail.find("CUDA Graph") != std::string::npos)  // not captured, or not instantiated
        return "stream capture does not take managed memory's prefetches";
    return {};
}

// Checks a refusal of `c`: unsupported, with its reason and what to choose instead, and expected on this device.
// The reason it is expected, to skip with; empty (after a failure) where the device should have run it.
std::string checkRefusal(const std::string& name, const PipelineConfig& c, const Error& refusal)
{
    EXPECT_EQ(refusal.kind, ErrorKind::Unsupported) << name << ": " << refusal.message();
    EXPECT_FALSE(refusal.detail.empty()) << name;
    EXPECT_FALSE(refusal.advice.empty()) << name;
    std::string why = whyNotRunHere(c, refusal);
    if (why.empty())
        ADD_FAILURE() << name << " was refused, though this device's attributes say it can run: "
                      << refusal.message();
    else
        std::printf("%s not run (%s): %s\n", name.c_str(), why.c_str(), refusal.message().c_str());
    return why;
}

class MemoryGpu : public asyncscope::testing::GpuFixture {
protected:
    PipelineConfig configFor(HostMemory memory, std::size_t elements = 1000003) const
    {
        PipelineConfig c;
        c.device = device;
        c.elements = elements;
        c.hostMemory = memory;
        return c;
    }
};

struct Variant {
    HostMemory memory;
    CopyMechanism copy;
    ManagedMigration migration;
    Submission submission;
    int chunks;
    int streams;
};

std::string nameOf(const Variant& v)
{
    std::string name = std::string(nameOf(v.memory)) + "_" + nameOf(v.copy);
    if (v.memory == HostMemory::Managed)
        name += v.migration == ManagedMigration::Prefetch ? "_prefetch" : "_ondemand";
    name += std::string("_") + nameOf(v.submission) + "_K" + std::to_string(v.chunks) + "_S" +
        std::to_string(v.streams);
    for (char& ch : name) {
        if (ch == '-')
            ch = '_';
    }
    return name;
}

void PrintTo(const Variant& v, std::ostream* out)
{
    *out << nameOf(v);
}

PipelineConfig apply(PipelineConfig c, const Variant& v)
{
    c.hostMemory = v.memory;
    c.copy = v.copy;
    c.managedMigration = v.migration;
    c.submission = v.submission;
    c.chunks = v.chunks;
    c.streams = v.streams;
    return c;
}

std::vector<Variant> allVariants()
{
    std::vector<Variant> variants;
    for (HostMemory memory : { HostMemory::Pinned, HostMemory::Pageable, HostMemory::WriteCombined,
             HostMemory::Registered, HostMemory::Mapped, HostMemory::Managed }) {
        for (CopyMechanism copy : { CopyMechanism::CopyEngine, CopyMechanism::Sm }) {
            for (ManagedMigration migration : { ManagedMigration::Prefetch, ManagedMigration::OnDemand }) {
                if (memory != HostMemory::Managed && migration != ManagedMigration::Prefetch)
                    continue;  // the migration is managed memory's alone
                for (Submission submission : { Submission::Stream, Submission::Graph }) {
                    for (auto [chunks, streams] : { std::pair { 1, 1 }, std::pair { 7, 3 } }) {
                        const Variant v { memory, copy, migration, submission, chunks, streams };
                        if (!checkCombination(apply(PipelineConfig {}, v)))
                            variants.push_back(v);
                    }
                }
            }
        }
    }
    return variants;
}

// A graph the system refuses to capture (managed memory's prefetches, 7 chunks over 3 streams, where capture does not
// take them) leaves nothing behind on the thread: the next session's first run, in one chunk, runs and checks.
TEST_F(MemoryGpu, ARefusedCaptureLeavesTheThreadClean)
{
    PipelineConfig refused = configFor(HostMemory::Managed);
    refused.submission = Submission::Graph;
    refused.chunks = 7;
    refused.streams = 3;
    auto failed = PipelineSession::open(refused);
    if (failed.ok())
        GTEST_SKIP() << "this system captures managed memory's prefetches into graphs";
    EXPECT_EQ(failed.error().kind, ErrorKind::Unsupported) << failed.error().message();
    for (HostMemory memory : { HostMemory::Managed, HostMemory::Pinned }) {
        PipelineConfig next = configFor(memory);
        next.managedMigration = ManagedMigration::OnDemand;
        auto session = PipelineSession::open(next);
        ASSERT_TRUE(session.ok()) << session.error().message();
        auto run = (*session)->run(0, false);
        ASSERT_TRUE(run.ok()) << nameOf(memory) << ": " << run.error().message();
        EXPECT_TRUE(run->verified);
    }
}

class MemoryVariants : public MemoryGpu, public ::testing::WithParamInterface<Variant> { };

// Every variant runs, unless the device's attributes (or stream capture, for managed memory's prefetches in a graph)
// say it cannot: then it is refused as unsupported, with a reason and what to choose instead, and skipped.
TEST_P(MemoryVariants, EveryElementRightOrAClearReason)
{
    const Variant v = GetParam();
    PipelineConfig config = apply(configFor(v.memory), v);
    config.checkMode = CheckMode::Serial;
    auto session = PipelineSession::open(config);
    if (!session.ok()) {
        if (const std::string why = checkRefusal(nameOf(v), config, session.error()); !why.empty())
            GTEST_SKIP() << nameOf(v) << " cannot run here: " << why;
        return;
    }
    const bool copies = hasCopies(config);
    const auto k = static_cast<std::size_t>(config.chunks);
    for (int i = 0; i < 3; ++i) {  // both host buffers, and the first a second time
        auto run = (*session)->run(i, false);
        ASSERT_TRUE(run.ok()) << run.error().message();
        EXPECT_TRUE(run->verified) << "run " << i << ": element " << run->firstWrongIndex << " is "
                                   << run->firstWrongValue << ", expected " << run->expectedValue;
        EXPECT_GT(run->gpuMs, 0.0);
        std::size_t h2d = 0, d2h = 0, kernels = 0;
        for (const Span& s : run->spans) {
            h2d += s.kind == SpanKind::H2D ? 1 : 0;
            d2h += s.kind == SpanKind::D2H ? 1 : 0;
            kernels += s.kind == SpanKind::Kernel ? 1 : 0;
            if (onGpu(s.kind)) {
                EXPECT_EQ(s.stream, s.chunk % config.streams);
                EXPECT_LE(s.endMs, run->gpuMs + 1e-3);
            }
        }
        EXPECT_EQ(kernels, k);
        EXPECT_EQ(h2d, copies ? k : 0u);  // SM copies and prefetches are spans of the copy they stand for
        EXPECT_EQ(d2h, copies ? k : 0u);
    }
    if (config.submission == Submission::Graph) {  // captured again with the new value
        auto change = (*session)->setValue(1000);
        ASSERT_TRUE(change.ok()) << change.error().message();
        auto run = (*session)->run(3, false);
        ASSERT_TRUE(run.ok()) << run.error().message();
        EXPECT_TRUE(run->verified) << "after a change of value: element " << run->firstWrongIndex << " is "
                                   << run->firstWrongValue << ", expected " << run->expectedValue;
    }
}

INSTANTIATE_TEST_SUITE_P(KindsMechanismsSubmissions, MemoryVariants, ::testing::ValuesIn(allVariants()),
    [](const auto& info) { return nameOf(info.param); });

// What checkCombination refuses never reaches the device: Unsupported, whatever the device.
TEST_F(MemoryGpu, CombinationsThatCanNeverRunAreUnsupported)
{
    PipelineConfig mappedSm = configFor(HostMemory::Mapped);
    mappedSm.copy = CopyMechanism::Sm;
    PipelineConfig managedBatch = configFor(HostMemory::Managed);
    managedBatch.submission = Submission::Batch;
    for (const PipelineConfig& c : { mappedSm, managedBatch }) {
        auto session = PipelineSession::open(c);
        ASSERT_FALSE(session.ok());
        EXPECT_EQ(session.error().kind, ErrorKind::Unsupported) << session.error().message();
    }
}

// A series of every kind: registered memory reports its registration and unregistration, timed, and the bytes; the
// other kinds report none.
TEST_F(MemoryGpu, RegisteredMemoryReportsItsRegistrationAndOthersNone)
{
    for (HostMemory memory : { HostMemory::Pinned, HostMemory::Pageable, HostMemory::WriteCombined,
             HostMemory::Registered, HostMemory::Mapped, HostMemory::Managed }) {
        PipelineConfig config = configFor(memory, std::size_t(4) << 20);
        config.runs = 3;
        std::atomic<bool> cancel { false };
        int delivered = 0;
        int verified = 0;
        const auto outcome = runSeries(config, cancel, [&](const RunResult& r) {
            ++delivered;
            verified += r.verified ? 1 : 0;
        });
        if (!outcome.ok()) {
            checkRefusal(nameOf(memory), config, outcome.error());  // skipped where the device cannot run it
            continue;
        }
        EXPECT_EQ(delivered, config.warmupRuns + config.runs) << nameOf(memory);
        EXPECT_EQ(verified, delivered) << nameOf(memory);
        if (memory == HostMemory::Registered) {
            ASSERT_TRUE(outcome->hostRegisterMs.has_value());
            ASSERT_TRUE(outcome->hostUnregisterMs.has_value());
            EXPECT_GT(*outcome->hostRegisterMs, 0.0);
            EXPECT_GT(*outcome->hostUnregisterMs, 0.0);
            EXPECT_EQ(outcome->hostRegisteredBytes, 2 * config.bytes());
            std::printf("registered 2 x %zu bytes: register %.3f ms, unregister %.3f ms\n", config.bytes(),
                *outcome->hostRegisterMs, *outcome->hostUnregisterMs);
        } else {
            EXPECT_FALSE(outcome->hostRegisterMs.has_value()) << nameOf(memory);
            EXPECT_FALSE(outcome->hostUnregisterMs.has_value()) << nameOf(memory);
            EXPECT_EQ(outcome->hostRegisteredBytes, 0u) << nameOf(memory);
        }
    }
}

// A session's registration, read directly: both buffers' together, and after unregistering no more runs.
TEST_F(MemoryGpu, AnUnregisteredSessionRunsNoMore)
{
    PipelineConfig config = configFor(HostMemory::Registered, std::size_t(1) << 20);
    auto session = PipelineSession::open(config);
    if (!session.ok()) {
        if (const std::string why = checkRefusal(nameOf(config.hostMemory), config, session.error()); !why.empty())
            GTEST_SKIP() << "registered memory cannot be used here: " << why;
        return;
    }
    ASSERT_TRUE((*session)->hostRegisterMs().has_value());
    EXPECT_GT(*(*session)->hostRegisterMs(), 0.0);
    EXPECT_EQ((*session)->hostRegisteredBytes(), 2 * config.bytes());
    auto run = (*session)->run(0, false);
    ASSERT_TRUE(run.ok()) << run.error().message();
    EXPECT_TRUE(run->verified);
    auto unregistered = (*session)->unregisterHost();
    ASSERT_TRUE(unregistered.ok()) << unregistered.error().message();
    EXPECT_GT(*unregistered, 0.0);
    auto again = (*session)->unregisterHost();
    ASSERT_TRUE(again.ok());
    EXPECT_EQ(*again, 0.0);  // nothing left to unregister
    auto after = (*session)->run(1, false);
    ASSERT_FALSE(after.ok());
    EXPECT_EQ(after.error().kind, ErrorKind::Usage);
}

// Mapped memory and managed memory migrating on demand: the kernel works on the host buffer in place, so a run's GPU
// spans are its kernels alone, and they take the whole run.
TEST_F(MemoryGpu, RunsWithoutCopiesHaveKernelSpansOnly)
{
    PipelineConfig mapped = configFor(HostMemory::Mapped);
    PipelineConfig onDemand = configFor(HostMemory::Managed);
    onDemand.managedMigration = ManagedMigration::OnDemand;
    for (const PipelineConfig& c : { mapped, onDemand }) {
        auto session = PipelineSession::open(c);
        if (!session.ok()) {
            checkRefusal(nameOf(c.hostMemory), c, session.error());  // skipped where the device cannot run it
            continue;
        }
        for (int i = 0; i < 2; ++i) {
            auto run = (*session)->run(i, false);
            ASSERT_TRUE(run.ok()) << run.error().message();
            EXPECT_TRUE(run->verified);
            ASSERT_EQ(run->spans.size(), 4u);  // kernel, submit, wait, check
            EXPECT_EQ(run->spans[0].kind, SpanKind::Kernel);
            EXPECT_DOUBLE_EQ(run->spans[0].beginMs, 0.0);
            EXPECT_NEAR(run->spans[0].endMs, run->gpuMs, 1e-6);  // on one stream the kernel ends at the stop event
            EXPECT_EQ(run->totalMs(SpanKind::H2D), 0.0);
            EXPECT_EQ(run->totalMs(SpanKind::D2H), 0.0);
        }
    }
}

// Managed memory with each advice, both migrations: every element right.
TEST_F(MemoryGpu, ManagedMemoryWithEveryAdvice)
{
    for (ManagedAdvice advice : { ManagedAdvice::None, ManagedAdvice::PreferDevice, ManagedAdvice::PreferHost,
             ManagedAdvice::ReadMostly }) {
        for (ManagedMigration migration : { ManagedMigration::Prefetch, ManagedMigration::OnDemand }) {
            PipelineConfig config = configFor(HostMemory::Managed);
            config.managedAdvice = advice;
            config.managedMigration = migration;
            config.chunks = 7;
            config.streams = 3;
            auto session = PipelineSession::open(config);
            if (!session.ok()) {
                checkRefusal(std::string(nameOf(advice)) + " " + nameOf(migration), config, session.error());
                continue;
            }
            for (int i = 0; i < 3; ++i) {
                auto run = (*session)->run(i, false);
                ASSERT_TRUE(run.ok()) << run.error().message();
                EXPECT_TRUE(run->verified) << nameOf(advice) << " " << nameOf(migration) << " run " << i
                                           << ": element " << run->firstWrongIndex << " is " << run->firstWrongValue;
            }
        }
    }
}

}  // namespace

// The real CUDA runtime on a machine without a driver: every entry point must answer with a clean error.
#include "engine/cuda/cuda_backend.hpp"
#include "engine/cuda/cuda_error.hpp"
#include "engine/cuda/cupti_trace.hpp"
#include "engine/cuda/pipeline.hpp"

#include <cuda_runtime_api.h>
#include <gtest/gtest.h>

#include <fstream>

using namespace asyncscope;

class NoDriver : public ::testing::Test {
protected:
    void SetUp() override
    {
        int driver = 0;
        if (cudaDriverGetVersion(&driver) == cudaSuccess && driver != 0)
            GTEST_SKIP() << "a CUDA driver is installed here (" << driver << "); the no-driver path needs a machine without";
    }
};

TEST_F(NoDriver, DiscoveryReportsNoDriverWithAdvice)
{
    const auto platform = discoverPlatform();
    ASSERT_FALSE(platform.ok());
    EXPECT_EQ(platform.error().kind, ErrorKind::NoDriver);
    EXPECT_EQ(platform.error().code, 35);
    EXPECT_EQ(platform.error().codeName, "cudaErrorInsufficientDriver");
    EXPECT_NE(platform.error().message().find("No NVIDIA driver was found"), std::string::npos);
}

TEST_F(NoDriver, SessionOpenFailsCleanly)
{
    const auto session = PipelineSession::open(PipelineConfig {});
    ASSERT_FALSE(session.ok());
    EXPECT_EQ(session.error().kind, ErrorKind::NoDriver);
}

TEST_F(NoDriver, SeriesDeliversNoRunsAndAnError)
{
    CudaBackend backend;
    std::atomic<bool> cancel { false };
    int delivered = 0;
    const auto outcome = backend.run(PipelineConfig {}, cancel, [&](const RunResult&) { ++delivered; });
    ASSERT_FALSE(outcome.ok());
    EXPECT_EQ(outcome.error().kind, ErrorKind::NoDriver);
    EXPECT_EQ(delivered, 0);
}

TEST_F(NoDriver, InvalidConfigIsRejectedBeforeAnyCudaCall)
{
    PipelineConfig config;
    config.runs = 0;
    const auto session = PipelineSession::open(config);
    ASSERT_FALSE(session.ok());
    EXPECT_EQ(session.error().kind, ErrorKind::Usage);
}

TEST_F(NoDriver, CalibrationFailsCleanlyAndWritesNoCache)
{
    const std::string dir = ::testing::TempDir() + "/asyncscope-no-driver-cache";
    DeviceInfo device;
    device.uuid = "GPU-not-cached";
    for (const auto& [path, name] : EnumNames<CopyPath>::entries) {
        const auto peak = cachedCopyPeak(device, dir, path);
        ASSERT_FALSE(peak.ok()) << name;
        EXPECT_EQ(peak.error().kind, ErrorKind::NoDriver) << name << ": " << peak.error().message();
    }
    EXPECT_FALSE(std::ifstream(dir + "/copy-peaks.json").good());
}

// CUPTI is optional: whether or not its library loads, a session that asks for it runs on events and says why.
TEST_F(NoDriver, CuptiThatCannotStartSaysWhy)
{
    const auto trace = CuptiTrace::start(0);
    ASSERT_FALSE(trace.ok()) << "CUPTI started without a driver";
    EXPECT_NE(trace.error().message().find("CUPTI"), std::string::npos) << trace.error().message();
}

TEST(CuptiLibrary, AMissingLibrarySaysWhereItLooked)
{
    ::setenv("ASYNCSCOPE_CUPTI", "/nonexistent/libcupti.so.13", 1);
    const auto trace = CuptiTrace::start(0);
    ::unsetenv("ASYNCSCOPE_CUPTI");
    ASSERT_FALSE(trace.ok());
    EXPECT_NE(trace.error().message().find("libcupti.so.13 was not found (looked for /nonexistent/libcupti.so.13)"),
        std::string::npos)
        << trace.error().message();
    EXPECT_NE(trace.error().advice.find("ASYNCSCOPE_CUPTI"), std::string::npos);
}

TEST(ErrorMapping, RealRuntimeNamesTheError)
{
    const Error e = cudaFailure("cudaMalloc", cudaErrorMemoryAllocation);
    EXPECT_EQ(e.codeName, "cudaErrorMemoryAllocation");
    EXPECT_EQ(e.code, 2);
    EXPECT_FALSE(e.detail.empty());
}

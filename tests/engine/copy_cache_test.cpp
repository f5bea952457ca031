// cachedCopyPeak, the CUDA layer's use of the cache file: a usable entry is taken without measuring, any other
// only costs a measurement (which fails cleanly where no driver answers). The file itself: copy_peak_cache_test.
#include "engine/cuda/copy_calibration.hpp"

#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>

using namespace asyncscope;

TEST(CopyCache, ACachedPeakIsUsedWithoutMeasuring)
{
    const std::filesystem::path dir = std::filesystem::path(::testing::TempDir()) / "asyncscope-cache-test";
    std::filesystem::create_directories(dir);
    std::ofstream(dir / "copy-peaks.json")
        << R"({"GPU-cached": {"h2d_gbps": 54.9, "d2h_gbps": 55.1, "bidirectional_gbps": 99.7, "bytes": 268435456,
              "costs": {"copy_us": 1.5, "launch_us": 2.25, "kernel_gbps": 2900, "call_us": 1.75, "chain_us": 9.5}}})";
    DeviceInfo device;
    device.index = 0;
    device.uuid = "GPU-cached";
    // No GPU is needed: the figure comes from the cache (on a machine without a driver a measurement would fail).
    const auto peak = cachedCopyPeak(device, dir.string(), CopyPath::Pinned);
    ASSERT_TRUE(peak.ok()) << peak.error().message();
    EXPECT_TRUE(peak->fromCache);
    EXPECT_DOUBLE_EQ(peak->h2dGBps, 54.9);
    EXPECT_DOUBLE_EQ(peak->d2hGBps, 55.1);
    EXPECT_DOUBLE_EQ(peak->bidirectionalGBps, 99.7);
    EXPECT_EQ(peak->bytes, std::size_t(256) << 20);
    EXPECT_DOUBLE_EQ(peak->costs.copyUs, 1.5);
    EXPECT_DOUBLE_EQ(peak->costs.launchUs, 2.25);
    EXPECT_DOUBLE_EQ(peak->costs.kernelGBps, 2900.0);
    EXPECT_DOUBLE_EQ(peak->costs.callUs, 1.75);
    EXPECT_DOUBLE_EQ(peak->costs.chainUs, 9.5);
}

TEST(CopyCache, AnEntryOfAnotherShapeOnlyCostsANewMeasurement)
{
    const std::filesystem::path dir = std::filesystem::path(::testing::TempDir()) / "asyncscope-cache-shapes";
    std::filesystem::create_directories(dir);
    std::ofstream(dir / "copy-peaks.json") << R"({"GPU-number": 5, "GPU-list": [1, 2], "GPU-text": {"h2d_gbps": "fast"},
        "GPU-one-way-only": {"h2d_gbps": 54.9, "d2h_gbps": 55.1, "bytes": 268435456},
        "GPU-no-costs": {"h2d_gbps": 54.9, "d2h_gbps": 55.1, "bidirectional_gbps": 99.7, "bytes": 268435456},
        "GPU-no-chain": {"h2d_gbps": 54.9, "d2h_gbps": 55.1, "bidirectional_gbps": 99.7, "bytes": 268435456,
            "costs": {"copy_us": 1.5, "call_us": 1.75}},
        "GPU-good": {"h2d_gbps": 54.9, "d2h_gbps": 55.1, "bidirectional_gbps": 99.7, "bytes": 268435456,
            "costs": {"copy_us": 1.5, "call_us": 1.75, "chain_us": 9.5}}})";
    for (const char* uuid :
        { "GPU-number", "GPU-list", "GPU-text", "GPU-one-way-only", "GPU-no-costs", "GPU-no-chain" }) {
        DeviceInfo device;
        device.uuid = uuid;
        // Valid JSON, but not the entry the reader wants: it must neither throw nor be taken as a figure. Without a
        // driver the new measurement fails cleanly; with one it measures.
        Result<CopyPeak> peak = makeError(ErrorKind::Cuda, "not called");
        EXPECT_NO_THROW(peak = cachedCopyPeak(device, dir.string(), CopyPath::Pinned)) << uuid;
        if (peak.ok())
            EXPECT_FALSE(peak->fromCache) << uuid;
        else
            EXPECT_NE(peak.error().kind, ErrorKind::Cuda) << uuid << ": " << peak.error().message();
    }
    DeviceInfo good;
    good.uuid = "GPU-good";
    const auto peak = cachedCopyPeak(good, dir.string(), CopyPath::Pinned);
    ASSERT_TRUE(peak.ok()) << peak.error().message();
    EXPECT_TRUE(peak->fromCache);
}

// Every copy path's calibration on a real GPU: a positive rate each way and both ways at once, or
// ErrorKind::Unsupported with the reason where the device cannot take the path; and the cache giving every path back.
// Skips, printing the engine's reason, when no GPU answers.
#include "gpu_fixture.hpp"

#include "engine/cuda/copy_calibration.hpp"
#include "engine/model/record_rules.hpp"

#include <gtest/gtest.h>

#include <cstdio>
#include <filesystem>

using namespace asyncscope;

namespace {

using CopyPathGpu = asyncscope::testing::GpuParamFixture<CopyPath>;

std::string nameOfParam(const ::testing::TestParamInfo<CopyPath>& info)
{
    std::string name = nameOf(info.param);
    for (char& c : name) {
        if (c == '-')
            c = '_';
    }
    return name;
}

}  // namespace

TEST_P(CopyPathGpu, CalibratesWithPositiveRatesOrSaysWhyNot)
{
    const std::size_t bytes = std::size_t(64) << 20;
    const auto peak = measureCopyPeak(device, GetParam(), bytes, 3);
    if (!peak) {
        ASSERT_EQ(peak.error().kind, ErrorKind::Unsupported) << peak.error().message();
        EXPECT_FALSE(peak.error().detail.empty());
        GTEST_SKIP() << nameOf(GetParam()) << " unsupported here: " << peak.error().message();
    }
    EXPECT_EQ(peak->path, GetParam());
    EXPECT_EQ(peak->bytes, bytes);
    EXPECT_FALSE(peak->fromCache);
    EXPECT_GT(peak->h2dGBps, 0.0);
    EXPECT_GT(peak->d2hGBps, 0.0);
    EXPECT_GT(peak->bidirectionalGBps, 0.0);
    // What the cache would keep must read back: no rate beyond what a host link can have.
    EXPECT_FALSE(checkCopyGBps("h2d_gbps", peak->h2dGBps));
    EXPECT_FALSE(checkCopyGBps("d2h_gbps", peak->d2hGBps));
    EXPECT_FALSE(checkCopyGBps("bidirectional_gbps", peak->bidirectionalGBps));
    std::printf("%s: H2D %.1f GB/s, D2H %.1f GB/s, both at once %.1f GB/s\n", nameOf(GetParam()), peak->h2dGBps,
        peak->d2hGBps, peak->bidirectionalGBps);
}

TEST_P(CopyPathGpu, TheCacheGivesThePathBack)
{
    const auto dir = std::filesystem::path(::testing::TempDir()) /
        ("asyncscope-gpu-peaks-" + std::string(nameOf(GetParam())));
    std::filesystem::remove_all(dir);
    const auto found = findDevice(platform, device);
    ASSERT_TRUE(found.ok()) << found.error().message();
    const DeviceInfo& info = *found;
    const auto measured = cachedCopyPeak(info, dir.string(), GetParam());
    if (!measured) {
        ASSERT_EQ(measured.error().kind, ErrorKind::Unsupported) << measured.error().message();
        EXPECT_FALSE(std::filesystem::exists(dir / kCopyPeakCacheFile));  // nothing cached for it
        GTEST_SKIP() << nameOf(GetParam()) << " unsupported here: " << measured.error().message();
    }
    EXPECT_FALSE(measured->fromCache);
    const auto cached = cachedCopyPeak(info, dir.string(), GetParam());
    ASSERT_TRUE(cached.ok()) << cached.error().message();
    EXPECT_TRUE(cached->fromCache);
    EXPECT_EQ(cached->path, GetParam());
    EXPECT_DOUBLE_EQ(cached->h2dGBps, measured->h2dGBps);
    EXPECT_DOUBLE_EQ(cached->d2hGBps, measured->d2hGBps);
    EXPECT_DOUBLE_EQ(cached->bidirectionalGBps, measured->bidirectionalGBps);
    const auto file = readCopyPeakCache((dir / kCopyPeakCacheFile).string());
    ASSERT_TRUE(file.ok()) << file.error().message();
    EXPECT_TRUE(file->skipped.empty());
    EXPECT_NE(file->find(info.uuid, GetParam()), nullptr);
}

using CopyPathsGpu = asyncscope::testing::GpuFixture;

TEST_F(CopyPathsGpu, EveryPathSharesOneCacheFile)
{
    const auto found = findDevice(platform, device);
    ASSERT_TRUE(found.ok()) << found.error().message();
    const DeviceInfo& info = *found;
    const auto dir = std::filesystem::path(::testing::TempDir()) / "asyncscope-gpu-peaks-all";
    std::filesystem::remove_all(dir);
    std::size_t supported = 0;
    for (const auto& [path, name] : EnumNames<CopyPath>::entries) {
        const auto peak = cachedCopyPeak(info, dir.string(), path);
        if (peak)
            ++supported;
        else
            EXPECT_EQ(peak.error().kind, ErrorKind::Unsupported) << name << ": " << peak.error().message();
    }
    EXPECT_GE(supported, 1u);  // pinned copies, at least
    const auto file = readCopyPeakCache((dir / kCopyPeakCacheFile).string());
    ASSERT_TRUE(file.ok()) << file.error().message();
    EXPECT_EQ(file->entries.size(), supported);
    for (const auto& [path, name] : EnumNames<CopyPath>::entries) {
        if (const CachedCopyPeak* entry = file->find(info.uuid, path)) {
            EXPECT_EQ(entry->peak.path, path) << name;
            const auto again = cachedCopyPeak(info, dir.string(), path);
            ASSERT_TRUE(again.ok()) << name;
            EXPECT_TRUE(again->fromCache) << name;
        }
    }
}

INSTANTIATE_TEST_SUITE_P(EveryPath, CopyPathGpu,
    ::testing::Values(CopyPath::Pinned, CopyPath::Pageable, CopyPath::WriteCombined, CopyPath::Registered,
        CopyPath::Sm, CopyPath::ManagedPrefetch),
    nameOfParam);

#include "engine/model/config.hpp"

#include <gtest/gtest.h>

#include <functional>

using namespace asyncscope;

TEST(Config, DefaultsAreTheSamplesAndValid)
{
    const PipelineConfig config;
    EXPECT_EQ(config.elements, 16u * 1024 * 1024);
    EXPECT_EQ(config.value, 26);
    EXPECT_EQ(config.threadsPerBlock, 512);
    EXPECT_EQ(config.bytes(), 64u << 20);
    EXPECT_FALSE(validate(config).has_value());
}

TEST(Config, BytesDoNotOverflowAbove2GiB)
{
    PipelineConfig config;
    config.elements = (std::size_t(1) << 29) + 3;  // 2 GiB + 12 bytes: the sample's int nbytes overflows here
    EXPECT_EQ(config.bytes(), (std::size_t(1) << 31) + 12);
    EXPECT_FALSE(validate(config).has_value());
}

struct InvalidCase {
    const char* name;
    std::function<void(PipelineConfig&)> change;
    const char* mentions;
};

class ConfigInvalid : public ::testing::TestWithParam<InvalidCase> { };

TEST_P(ConfigInvalid, IsAUsageErrorThatSaysWhy)
{
    PipelineConfig config;
    GetParam().change(config);
    const Status status = validate(config);
    ASSERT_TRUE(status.has_value()) << GetParam().name;
    EXPECT_EQ(status->kind, ErrorKind::Usage);
    EXPECT_NE(status->message().find(GetParam().mentions), std::string::npos) << status->message();
}

INSTANTIATE_TEST_SUITE_P(Cases, ConfigInvalid,
    ::testing::Values(InvalidCase { "zero elements", [](PipelineConfig& c) { c.elements = 0; }, "at least one" },
        InvalidCase { "zero runs", [](PipelineConfig& c) { c.runs = 0; }, "runs must be at least 1" },
        InvalidCase { "negative warm-up", [](PipelineConfig& c) { c.warmupRuns = -1; }, "warm-up" },
        InvalidCase { "no threads", [](PipelineConfig& c) { c.threadsPerBlock = 0; }, "threads per block" },
        InvalidCase { "too many threads", [](PipelineConfig& c) { c.threadsPerBlock = 2048; }, "1024" },
        InvalidCase { "negative device", [](PipelineConfig& c) { c.device = -1; }, "negative" },
        InvalidCase { "overflowing size", [](PipelineConfig& c) { c.elements = ~std::size_t(0); }, "overflows" },
        InvalidCase { "noise target zero",
            [](PipelineConfig& c) {
                c.stopRule = StopRule::Noise;
                c.targetNoisePercent = 0.0;
            },
            "noise target" },
        InvalidCase { "noise with one run",
            [](PipelineConfig& c) {
                c.stopRule = StopRule::Noise;
                c.minRuns = 1;
            },
            "at least 2 runs" }),
    [](const auto& info) {
        std::string name = info.param.name;
        for (char& ch : name)
            ch = std::isalnum(static_cast<unsigned char>(ch)) ? ch : '_';
        return name;
    });

TEST(Config, FitsDeviceComparesBytesWithFreeMemory)
{
    PipelineConfig config;
    EXPECT_FALSE(checkFitsDevice(config, config.bytes(), "GPU").has_value());
    const Status tooBig = checkFitsDevice(config, config.bytes() - 1, "Test GPU");
    ASSERT_TRUE(tooBig.has_value());
    EXPECT_EQ(tooBig->kind, ErrorKind::TooLarge);
    EXPECT_NE(tooBig->message().find("Test GPU"), std::string::npos);
    EXPECT_NE(tooBig->message().find("64.0 MiB"), std::string::npos);
}

TEST(Config, ParsesAndNamesChoices)
{
    EXPECT_EQ(parseName<HostMemory>("pinned"), HostMemory::Pinned);
    EXPECT_EQ(parseName<HostMemory>("pageable"), HostMemory::Pageable);
    EXPECT_FALSE(parseName<HostMemory>("Pinned").has_value());
    EXPECT_EQ(parseName<WaitMode>("spin"), WaitMode::Spin);
    EXPECT_EQ(parseName<WaitMode>("blocking"), WaitMode::Blocking);
    EXPECT_FALSE(parseName<WaitMode>("sleep").has_value());
    EXPECT_STREQ(nameOf(HostMemory::Pageable), "pageable");
    EXPECT_STREQ(nameOf(WaitMode::Blocking), "blocking");
    EXPECT_EQ(parseName<CheckMode>("overlapped"), CheckMode::Overlapped);
    EXPECT_EQ(parseName<CheckMode>("serial"), CheckMode::Serial);
    EXPECT_FALSE(parseName<CheckMode>("never").has_value());
    EXPECT_STREQ(nameOf(CheckMode::Serial), "serial");
    EXPECT_EQ(PipelineConfig {}.checkMode, CheckMode::Overlapped);
}

#include "engine/model/size_parse.hpp"

#include <gtest/gtest.h>

using namespace asyncscope;

struct SizeCase {
    const char* text;
    std::size_t elements;
};

class SizeParseValid : public ::testing::TestWithParam<SizeCase> { };

TEST_P(SizeParseValid, ParsesToElements)
{
    const auto parsed = parseElementCount(GetParam().text);
    ASSERT_TRUE(parsed.ok()) << GetParam().text << ": " << parsed.error().message();
    EXPECT_EQ(*parsed, GetParam().elements);
}

INSTANTIATE_TEST_SUITE_P(Sizes, SizeParseValid,
    ::testing::Values(SizeCase { "16777216", 16777216 }, SizeCase { "1", 1 }, SizeCase { "513", 513 },
        SizeCase { "64MiB", 16777216 }, SizeCase { "4KiB", 1024 }, SizeCase { "1GiB", 268435456 },
        SizeCase { "3GiB", std::size_t(3) << 28 }, SizeCase { "8B", 2 }, SizeCase { "2GB", 500000000 },
        SizeCase { "4 KB", 1000 }, SizeCase { " 12 ", 12 }, SizeCase { "+7", 7 },
        SizeCase { "1 TiB", std::size_t(1) << 38 }, SizeCase { "2TB", std::size_t(500) * 1000 * 1000 * 1000 }));

class SizeParseInvalid : public ::testing::TestWithParam<const char*> { };

TEST_P(SizeParseInvalid, IsAUsageErrorNamingTheText)
{
    const auto parsed = parseElementCount(GetParam());
    ASSERT_FALSE(parsed.ok()) << GetParam();
    EXPECT_EQ(parsed.error().kind, ErrorKind::Usage);
    EXPECT_NE(parsed.error().message().find("invalid size"), std::string::npos);
    EXPECT_FALSE(parsed.error().advice.empty());
}

INSTANTIATE_TEST_SUITE_P(Sizes, SizeParseInvalid,
    ::testing::Values("0", "-5", "abc", "", "  ", "64XB", "6B", "0MiB", "12.5MiB", "99999999999999999999999",
        "18446744073709551615GiB", "5 elephants"));

TEST(SizeParse, AnUnknownUnitIsNamedWithTheUnitsThereAre)
{
    const auto parsed = parseElementCount("64XB");
    ASSERT_FALSE(parsed.ok());
    EXPECT_NE(parsed.error().detail.find("unknown unit 'XB' (the units are B, KB, MB, GB, TB, KiB, MiB, GiB, TiB)"),
        std::string::npos)
        << parsed.error().detail;
}

TEST(SizeParse, ByteSizeMustBeWholeElements)
{
    const auto parsed = parseElementCount("6B");
    ASSERT_FALSE(parsed.ok());
    EXPECT_NE(parsed.error().detail.find("4-byte"), std::string::npos);
}

TEST(FormatBytes, PicksBinaryUnits)
{
    EXPECT_EQ(formatBytes(512), "512 B");
    EXPECT_EQ(formatBytes(64u << 20), "64.0 MiB");
    EXPECT_EQ(formatBytes(std::size_t(3) << 30), "3.0 GiB");
    EXPECT_EQ(formatBytes(1536), "1.5 KiB");
}

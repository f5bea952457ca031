// Numbers and lists as words: fixed decimals at any magnitude, signed percentages, lists joined.
#include "engine/model/number_text.hpp"

#include <gtest/gtest.h>

#include <limits>

namespace asyncscope {
namespace {

TEST(NumberText, FixedDecimalsRoundAsPrintfDoes)
{
    EXPECT_EQ(fixedText(2.50214, 3), "2.502");
    EXPECT_EQ(fixedText(-0.125, 1), "-0.1");
    EXPECT_EQ(fixedText(7.0, 0), "7");
}

TEST(NumberText, AValueOfAnyMagnitudeIsWrittenWhole)
{
    // A file may hold 1e300 ms: every digit is written, none cut at a buffer's end.
    const std::string huge = fixedText(1e300, 3);
    EXPECT_EQ(huge.size(), std::size_t(301 + 4));
    EXPECT_EQ(huge.substr(0, 4), "1000");
    EXPECT_EQ(huge.substr(huge.size() - 4), ".000");
    EXPECT_EQ(fixedText(-std::numeric_limits<double>::max(), 2).size(), std::size_t(1 + 309 + 3));
}

TEST(NumberText, PercentagesCarryTheirSign)
{
    EXPECT_EQ(signedPercentText(1.2449), "+1.24 %");
    EXPECT_EQ(signedPercentText(-0.3), "-0.30 %");
    EXPECT_EQ(signedPercentText(0.0, 1), "+0.0 %");
}

TEST(NumberText, ListsAreJoinedWithTheirSeparator)
{
    EXPECT_EQ(joinedText({}), "");
    EXPECT_EQ(joinedText({ "gpu_time_ms" }), "gpu_time_ms");
    EXPECT_EQ(joinedText({ "a", "b", "c" }), "a, b, c");
    EXPECT_EQ(joinedText({ "a", "b" }, "; "), "a; b");
}

}  // namespace
}  // namespace asyncscope

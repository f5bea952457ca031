// Text from files made safe to show: UTF-8 repaired, control characters escaped, long texts and lists cut with
// their counts.
#include "engine/model/display_text.hpp"
#include "engine/model/record_rules.hpp"

#include <gtest/gtest.h>

namespace asyncscope {
namespace {

TEST(DisplayText, BytesThatAreNotUtf8BecomeTheReplacementCharacter)
{
    EXPECT_EQ(validUtf8("plain"), "plain");
    EXPECT_EQ(validUtf8("é€😀"), "é€😀");
    EXPECT_EQ(validUtf8("a\xff" "b"), "a\xEF\xBF\xBD" "b");
    EXPECT_EQ(validUtf8("\xc3"), "\xEF\xBF\xBD");                          // cut short
    EXPECT_EQ(validUtf8("\xed\xa0\x80"), "\xEF\xBF\xBD\xEF\xBF\xBD\xEF\xBF\xBD");  // a surrogate
    EXPECT_EQ(validUtf8("\xc0\xaf"), "\xEF\xBF\xBD\xEF\xBF\xBD");          // overlong
    EXPECT_EQ(validUtf8("\x1b[2J"), "\x1b[2J");                            // controls are kept: JSON escapes them
    EXPECT_TRUE(isValidUtf8(validUtf8("\xf5\x80\xfe\xff")));
    EXPECT_FALSE(isValidUtf8("\xf4\x90\x80\x80"));  // beyond U+10FFFF
}

TEST(DisplayText, ControlCharactersAreShownEscaped)
{
    EXPECT_EQ(displayText("H200"), "H200");
    EXPECT_EQ(displayText("\x1b]0;pwned\x07\x1b[2J"), "\\x1b]0;pwned\\x07\\x1b[2J");
    EXPECT_EQ(displayText("a\nb\tc\rd\x7f"), "a\\nb\\tc\\rd\\x7f");
    EXPECT_EQ(displayText("\xc2\x9b" "2J \xc2\x85 \xc2\xa0"), "\\x9b2J \\x85 \xc2\xa0");  // C1, but not U+00A0
    EXPECT_EQ(displayText("bad\xff"), "bad\xEF\xBF\xBD");
    EXPECT_EQ(displayText(std::string("nul\0", 4)), "nul\\x00");
    EXPECT_EQ(displayText(displayText("\x1b")), "\\x1b");  // showing a shown text changes nothing
}

TEST(DisplayText, LongTextsAreCutWithTheirCount)
{
    EXPECT_EQ(cutText(std::string(200, 'x')), std::string(200, 'x'));
    EXPECT_EQ(cutText(std::string(100189, 'x')), std::string(200, 'x') + "… (100 189 characters)");
    EXPECT_EQ(cutText("ééé", 2), "éé… (3 characters)");  // characters, never half of one
    EXPECT_EQ(cutText("\x1b\x1b\x1b", 2), "\\x1b\\x1b… (3 characters)");
    EXPECT_EQ(cutText("\xff\xff\xff", 1), "\xEF\xBF\xBD… (3 characters)");
}

TEST(DisplayText, LongListsAreCutWithTheCountOfTheRest)
{
    std::vector<std::string> items;
    for (int i = 0; i < 1000; ++i)
        items.push_back(std::to_string(i));
    EXPECT_EQ(cutList(items), "0, 1, 2, 3, 4, 5, 6, 7, 8, 9, … and 990 more");
    EXPECT_EQ(cutList({ "a", "b" }), "a, b");
    EXPECT_EQ(cutList({ "a", "b", "c" }, 0), "… and 3 more");
    EXPECT_EQ(countText(0), "0");
    EXPECT_EQ(countText(999), "999");
    EXPECT_EQ(countText(1000), "1 000");
    EXPECT_EQ(countText(100189), "100 189");
    EXPECT_EQ(countText(1234567), "1 234 567");
}

TEST(DisplayText, MessagesQuoteC1ControlsEscaped)
{
    EXPECT_EQ(quotedValue("\xc2\x9b" "2J"), "\\x9b2J");
    EXPECT_EQ(quotedValue("\x1b]0;x\x07"), "\\x1b]0;x\\x07");
}

}  // namespace
}  // namespace asyncscope

#include "engine/io/man_options.hpp"

#include <gtest/gtest.h>

using namespace asyncscope;

TEST(ManOptions, AnOptionIsATaggedParagraph)
{
    const std::string roff = roffOptionList({
        { { "-s", "--size" }, "SIZE", "Elements or bytes with a unit", "16777216" },
        { { "--no-stages" }, "", "No events between stages.", "" },
    });
    EXPECT_EQ(roff,
        ".TP\n\\fB\\-s\\fR, \\fB\\-\\-size\\fR \\fISIZE\\fR\nElements or bytes with a unit. Default: \\fB16777216\\fR.\n"
        ".TP\n\\fB\\-\\-no\\-stages\\fR\nNo events between stages.\n");
}

TEST(ManOptions, TextIsTakenLiterally)
{
    // A backslash, a leading dot or quote and a newline could each start a roff request or escape.
    const std::string roff = roffOptionList({
        { { "--x" }, "", ".so /etc/passwd", "" },
        { { "--y" }, "", "'br\n.sh evil\\fB", "" },
        { { "--z" }, "", "Settings \xE2\x80\xBA Theme \xE2\x80\xA6 5 \xC2\xB5s, 2 \xC3\x97 faster", "" },
    });
    EXPECT_NE(roff.find("\n\\&.so /etc/passwd.\n"), std::string::npos) << roff;
    EXPECT_NE(roff.find("\n\\&'br .sh evil\\efB.\n"), std::string::npos) << roff;
    EXPECT_NE(roff.find("Settings \\(-> Theme ... 5 \\(mcs, 2 \\(mu faster."), std::string::npos) << roff;
    EXPECT_EQ(roff.find("\n.sh"), std::string::npos) << roff;
}

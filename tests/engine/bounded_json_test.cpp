// The bounded parse: what it builds, keeps as text and reads past. What is read past or kept as text is skipped
// before nlohmann's lexer sees it; the outcome must be the one a full parse gives: the same tree, the kept text as the
// file has it, and every text that is not JSON, or nests too deep, refused with its line and column.
#include "engine/io/bounded_json.hpp"
#include "engine/model/record_rules.hpp"

#include <gtest/gtest.h>

#include <string>

namespace asyncscope {
namespace {

const std::vector<std::string> kReports = { "devices", "[]", "report" };
const TreeLimits kOwnKeys { { "host", "devices" }, 0, { "summary" } };

const std::string kRecord = R"({
  "host": "node7",
  "summary": {"gpu_time_ms": {"median": 2.5, "p95": [1, 2, {"x": "y"}]}},
  "devices": [
    {"index": 0, "report": {"format": "asyncscope-report",
       "runs": [
         {"run": 0}
       ]}},
    {"index": 1, "report": "not an object"}
  ],
  "advice": [[[]]]
}
)";

TEST(BoundedJson, WhatIsReadPastOrKeptAsTextIsNotBuiltAndKeptAsTheFileHasIt)
{
    const BoundedJson parsed = parseBounded(kRecord, kReports, kOwnKeys);
    ASSERT_TRUE(parsed.syntaxError.empty()) << parsed.syntaxError;
    ASSERT_FALSE(parsed.tooDeep);
    const auto& value = parsed.value;
    EXPECT_EQ(value.at("host"), "node7");
    EXPECT_FALSE(value.contains("summary"));
    EXPECT_FALSE(value.contains("advice"));
    EXPECT_EQ(parsed.passed, std::vector<std::string> { "summary" });
    ASSERT_EQ(value.at("devices").size(), 2u);
    EXPECT_EQ(value.at("devices")[0].at("index"), 0);
    const auto kept = keptText(kRecord, value.at("devices")[0].at("report"));
    ASSERT_TRUE(kept);
    EXPECT_EQ(*kept, R"({"format": "asyncscope-report",
       "runs": [
         {"run": 0}
       ]})");
    EXPECT_EQ(value.at("devices")[1].at("report"), "not an object");  // only an object is kept as text
}

TEST(BoundedJson, TextThatIsNotJsonIsRefusedWhereItIsEvenInsideWhatIsReadPast)
{
    std::string inSummary = kRecord;
    inSummary.replace(inSummary.find("\"median\": 2.5"), 13, "\"median\" 2.5");
    const BoundedJson a = parseBounded(inSummary, kReports, kOwnKeys);
    EXPECT_EQ(a.syntaxError.rfind("line 3, column ", 0), 0u) << a.syntaxError;

    std::string inReport = kRecord;
    inReport.replace(inReport.find("{\"run\": 0}"), 10, "{\"run\" 0}");
    const BoundedJson b = parseBounded(inReport, kReports, kOwnKeys);
    EXPECT_EQ(b.syntaxError.rfind("line 7, column ", 0), 0u) << b.syntaxError;

    std::string badUtf8 = kRecord;
    badUtf8.replace(badUtf8.find("\"y\""), 3, "\"\xff\"");
    EXPECT_FALSE(parseBounded(badUtf8, kReports, kOwnKeys).syntaxError.empty());
}

TEST(BoundedJson, NestingIsBoundedInsideWhatIsReadPastToo)
{
    const auto nested = [](int levels) {
        return "{\"host\": \"h\", \"advice\": " + std::string(std::size_t(levels - 1), '[') +
            std::string(std::size_t(levels - 1), ']') + "}";
    };
    EXPECT_FALSE(parseBounded(nested(kMaxNestingDepth), kReports, kOwnKeys).tooDeep);
    const BoundedJson deep = parseBounded(nested(kMaxNestingDepth + 1), kReports, kOwnKeys);
    ASSERT_TRUE(deep.tooDeep);
    EXPECT_EQ(deep.tooDeep->field.rfind("advice", 0), 0u) << deep.tooDeep->field;
}

}  // namespace
}  // namespace asyncscope

// Comparisons read back (readComparisonFile): what writeComparisonJson writes, in any layout, and the comparisons
// recorded on an H200 (tests/data/h200) give back their kind, the variants planned, each variant's label, runs and
// why it did not run; hostile comparisons are refused naming the line of the file and the field, a variant's own
// problems with the variant named.
#include "engine/io/json/json_report.hpp"
#include "engine/io/report_file.hpp"
#include "engine/io/result_file.hpp"
#include "engine/run/plan_advice.hpp"

#include "classic_runs.hpp"

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>

using namespace asyncscope;
namespace fs = std::filesystem;

namespace {

const fs::path kData = ASYNCSCOPE_TEST_DATA;

PlanReport threeSizes()
{
    PlanReport plan;
    plan.comparison = Comparison::Size;
    plan.planned = 4;
    for (const char* label : { "4.0 KiB", "64 MiB" }) {
        VariantResult v;
        v.label = label;
        v.report = asyncscope::testing::classicReport(label[0] == '4' ? 5 : 7);
        plan.variants.push_back(v);
    }
    VariantResult huge;
    huge.label = "1.0 TiB";
    huge.report.config = plan.variants[0].report.config;
    huge.report.device = plan.variants[0].report.device;
    huge.notRun = makeError(ErrorKind::TooLarge, "does not fit the device's 140 GiB");
    plan.variants.push_back(huge);
    return plan;
}

std::string written(const PlanReport& plan)
{
    std::ostringstream out;
    writeComparisonJson(out, plan, assessPlan(plan));
    return out.str();
}

Result<PlanReport> read(const std::string& text)
{
    std::istringstream in(text);
    return readComparisonJson(in);
}

// What a read of `text` says went wrong; empty when it read.
std::string problemOf(const std::string& text)
{
    const auto plan = read(text);
    if (plan)
        return {};
    EXPECT_EQ(plan.error().kind, ErrorKind::Io) << plan.error().message();
    return plan.error().detail;
}

// The line (from 1) of `text` where `needle` first is.
std::size_t lineOf(const std::string& text, const std::string& needle)
{
    const std::size_t at = text.find(needle);
    EXPECT_NE(at, std::string::npos) << needle;
    return 1 + std::size_t(std::count(text.begin(), text.begin() + std::ptrdiff_t(at), '\n'));
}

}  // namespace

TEST(ComparisonReader, WhatIsWrittenReadsBackInAnyLayout)
{
    const PlanReport plan = threeSizes();
    const std::string text = written(plan);
    const nlohmann::json doc = nlohmann::json::parse(text);
    for (const std::string& layout : { text, doc.dump(), doc.dump(4) }) {
        const auto back = read(layout);
        ASSERT_TRUE(back) << back.error().message();
        EXPECT_EQ(back->comparison, Comparison::Size);
        EXPECT_EQ(back->planned, 4u);
        ASSERT_EQ(back->variants.size(), 3u);
        for (std::size_t i = 0; i < 3; ++i) {
            const VariantResult& v = back->variants[i];
            EXPECT_EQ(v.label, plan.variants[i].label);
            ASSERT_EQ(v.report.runs.size(), plan.variants[i].report.runs.size());
            for (std::size_t r = 0; r < v.report.runs.size(); ++r) {
                EXPECT_EQ(v.report.runs.gpuMs(r), plan.variants[i].report.runs.gpuMs(r));
                EXPECT_EQ(v.report.runs.warmup(r), plan.variants[i].report.runs.warmup(r));
            }
            EXPECT_EQ(v.report.device.name, "NVIDIA H200");
        }
        EXPECT_FALSE(back->variants[0].notRun);
        ASSERT_TRUE(back->variants[2].notRun);
        EXPECT_NE(back->variants[2].notRun->message().find("does not fit the device's 140 GiB"), std::string::npos);
        EXPECT_EQ(back->notRunText(), plan.notRunText());
    }
}

TEST(ComparisonReader, TheH200ComparisonsRead)
{
    for (const auto& [file, kind] : { std::pair { "h200-compare-size.json", Comparison::Size },
             std::pair { "h200-compare-wait.json", Comparison::Wait } }) {
        const std::string path = (kData / "h200" / file).string();
        EXPECT_TRUE(isComparisonFile(path)) << file;
        const auto plan = readComparisonFile(path);
        ASSERT_TRUE(plan) << plan.error().message();
        EXPECT_EQ(plan->comparison, kind);
        EXPECT_GE(plan->planned, plan->variants.size());
        ASSERT_GE(plan->ranCount(), 2u) << file;
        for (const VariantResult& v : plan->variants) {
            EXPECT_FALSE(v.label.empty());
            if (v.ran()) {
                EXPECT_GT(v.report.runs.size(), 0u) << v.label;
            }
            EXPECT_EQ(v.report.device.name, "NVIDIA H200");
        }
    }
    EXPECT_FALSE(isComparisonFile((kData / "h200" / "h200-series.json").string()));
    EXPECT_FALSE(isComparisonFile((kData / "h200" / "h200-series.csv").string()));
    EXPECT_FALSE(isComparisonFile((kData / "h200" / "no-such-file.json").string()));
}

TEST(ComparisonReader, HostileComparisonsAreRefusedNamingTheLineAndTheField)
{
    const std::string text = written(threeSizes());
    const auto replaced = [&text](const std::string& from, const std::string& to) {
        std::string changed = text;
        const std::size_t at = changed.find(from);
        EXPECT_NE(at, std::string::npos) << from;
        return changed.replace(at, from.size(), to);
    };
    const auto expectProblem = [](const std::string& input, const std::string& expected) {
        const std::string problem = problemOf(input);
        EXPECT_NE(problem.find(expected), std::string::npos) << "expected '" << expected << "' in: " << problem;
    };
    expectProblem(replaced("\"asyncscope-comparison\"", "\"asyncscope-report\""), "line 2: format is");
    expectProblem(replaced("\"format_version\": 4", "\"format_version\": 9"), "line 3: format_version is 9");
    expectProblem(replaced("\"comparison\": \"size\"", "\"comparison\": \"speed\""), "comparison is \"speed\"");
    expectProblem(replaced("\"planned\": 4", "\"planned\": 2"), "planned is 2; accepted: a whole number of variants, "
                                                             "no fewer than the 3 given");
    expectProblem(replaced("\"planned\": 4", "\"planned\": -1"), "planned is -1");
    expectProblem(replaced("\"variant\": \"64 MiB\"", "\"variant\": 64"), "variant 2's \"variant\" is 64");
    expectProblem(replaced("\"variant\": \"64 MiB\"", "\"label\": \"64 MiB\""), "variant 2.variant is missing");
    expectProblem(replaced("\"variants\": [", "\"variants\": [7, "), "variant 1 is 7; accepted: a report object");
    expectProblem(text.substr(0, text.size() / 2), "the file ends early");
    expectProblem("[1, 2]", "a list, not a comparison");
    expectProblem("\"asyncscope-comparison\"", "not a comparison");
    std::string withNul = text;
    withNul[text.find("64 MiB")] = '\0';
    expectProblem(withNul, "NUL byte");
    std::string twice = text;
    twice.insert(twice.rfind('}'), ", \"variants\": []");
    expectProblem(twice, "\"variants\" is given twice");
    // A variant's own problem: the variant named, and the line of the file.
    const std::string bad = replaced("\"gpu_time_ms\":2", "\"gpu_time_ms\":-2");
    const std::string problem = problemOf(bad);
    EXPECT_NE(problem.find("variant 1 (\"4.0 KiB\")"), std::string::npos) << problem;
    EXPECT_NE(problem.find("line " + std::to_string(lineOf(bad, "\"gpu_time_ms\":-2"))), std::string::npos) << problem;
    EXPECT_NE(problem.find("gpu_time_ms"), std::string::npos) << problem;
}

TEST(ComparisonReader, TheFileReaderNamesTheFile)
{
    const fs::path dir = fs::temp_directory_path() / "asyncscope-comparison-reader-test";
    fs::create_directories(dir);
    const fs::path path = dir / "sizes.json";
    {
        std::ofstream out(path, std::ios::binary);
        out << written(threeSizes()).substr(0, 300);
    }
    const auto plan = readComparisonFile(path.string());
    ASSERT_FALSE(plan);
    EXPECT_EQ(plan.error().detail.rfind(path.string() + ": the file ends early", 0), 0u) << plan.error().detail;
    fs::remove_all(dir);
}

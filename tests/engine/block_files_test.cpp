// A series' blocks in its files: JSON format 4's run lines and CSV write each run's block and read it back; a block
// out of range or lower than the run's before it is refused, naming the file, the line and the field; files from
// before blocks read as one block.
#include "engine/io/csv/csv_report.hpp"
#include "engine/io/json/json_report.hpp"
#include "engine/io/result_file.hpp"
#include "engine/model/baseline.hpp"
#include "engine/model/advice.hpp"

#include "temp_dir.hpp"

#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <sstream>

namespace asyncscope {
namespace {

namespace fs = std::filesystem;

// Two blocks of three runs, each block with a warm-up first.
Report twoBlocks()
{
    Report r;
    r.host = "gpu-node";
    r.device.name = "NVIDIA H200";
    r.config.runs = 6;
    r.config.blocks = 2;
    int index = 0;
    for (int block = 0; block < 2; ++block) {
        for (int i = 0; i < 4; ++i) {
            RunResult run;
            run.index = index++;
            run.block = block;
            run.warmup = i == 0;
            run.verified = true;
            run.expectedValue = 26;
            run.gpuMs = 2.5 + 0.01 * double(index);
            run.startMs = 3.0 * double(index);
            run.spans = serialSpans(0, { r.config.bytes(), 1.2, 0.05, 1.2, 0.02, 2.4 });
            r.runs.push_back(run);
        }
    }
    return r;
}

std::string jsonOf(const Report& r)
{
    std::ostringstream out;
    writeJson(out, r, assessSeries(r));
    return out.str();
}

std::string csvOf(const Report& r)
{
    std::ostringstream out;
    writeCsv(out, r);
    return out.str();
}

// The text with the first `from` after `after` replaced by `to`.
std::string replacedAfter(std::string text, const std::string& after, const std::string& from, const std::string& to)
{
    const std::size_t at = text.find(from, text.find(after));
    EXPECT_NE(at, std::string::npos) << from;
    return at == std::string::npos ? text : text.replace(at, from.size(), to);
}

std::string readProblem(const std::string& text, const std::string& name)
{
    const testing::TempDir dir("block-files");
    const std::string path = dir.file(name);
    std::ofstream(path, std::ios::binary) << text;
    const Result<Report> read = readSeriesFile(path);
    return read ? std::string() : read.error().detail;
}

TEST(BlockFiles, JsonRunLinesCarryTheBlockWhereItIsNotZero)
{
    const Report r = twoBlocks();
    const std::string text = jsonOf(r);
    std::istringstream in(text);
    const Result<Report> read = readJson(in);
    ASSERT_TRUE(read) << read.error().message();
    ASSERT_EQ(read->runs.size(), r.runs.size());
    for (std::size_t i = 0; i < r.runs.size(); ++i)
        EXPECT_EQ(read->runs.block(i), r.runs.block(i)) << "run " << i;
    EXPECT_EQ(blocksOf(*read), 2u);
    // Block 0's lines are as before blocks; block 1's say it.
    EXPECT_EQ(text.find("\"block\":0"), std::string::npos);
    EXPECT_NE(text.find(",\"block\":1}"), std::string::npos);
}

TEST(BlockFiles, CsvHasABlockColumn)
{
    const Report r = twoBlocks();
    std::istringstream in(csvOf(r));
    const Result<Report> read = readCsv(in);
    ASSERT_TRUE(read) << read.error().message();
    ASSERT_EQ(read->runs.size(), r.runs.size());
    for (std::size_t i = 0; i < r.runs.size(); ++i)
        EXPECT_EQ(read->runs.block(i), r.runs.block(i)) << "run " << i;
}

TEST(BlockFiles, ABlockLowerThanTheRunsBeforeIsRefusedNamingFileLineAndField)
{
    const std::string json = replacedAfter(jsonOf(twoBlocks()), "\"run\":7", ",\"block\":1}", ",\"block\":0}");
    const std::string problem = readProblem(json, "blocks_out_of_order.json");
    EXPECT_NE(problem.find("blocks_out_of_order.json"), std::string::npos) << problem;
    EXPECT_NE(problem.find("line 9"), std::string::npos) << problem;
    EXPECT_NE(problem.find("block is 0; accepted: 1 or more"), std::string::npos) << problem;

    std::string csv = csvOf(twoBlocks());
    const std::size_t last = csv.rfind(",1\n");
    ASSERT_NE(last, std::string::npos);
    csv.replace(last, 3, ",0\n");
    const std::string csvProblem = readProblem(csv, "blocks_out_of_order.csv");
    EXPECT_NE(csvProblem.find("blocks_out_of_order.csv"), std::string::npos) << csvProblem;
    EXPECT_NE(csvProblem.find("line 9"), std::string::npos) << csvProblem;
    EXPECT_NE(csvProblem.find("block is 0"), std::string::npos) << csvProblem;
}

TEST(BlockFiles, ABlockOutOfRangeIsRefused)
{
    for (const std::string bad : { "-1", "1000", "4294967296", "1.5", "\"1\"" }) {
        const std::string json = replacedAfter(jsonOf(twoBlocks()), "\"run\":7", ",\"block\":1}", ",\"block\":" + bad +
            "}");
        const std::string problem = readProblem(json, "block_out_of_range.json");
        EXPECT_NE(problem.find("block_out_of_range.json"), std::string::npos) << bad << ": " << problem;
        EXPECT_NE(problem.find("block"), std::string::npos) << bad << ": " << problem;
        EXPECT_NE(problem.find("line 9"), std::string::npos) << bad << ": " << problem;
    }
    std::string csv = csvOf(twoBlocks());
    const std::size_t last = csv.rfind(",1\n");
    ASSERT_NE(last, std::string::npos);
    csv.replace(last, 3, ",5000\n");
    const std::string problem = readProblem(csv, "block_out_of_range.csv");
    EXPECT_NE(problem.find("block is 5000; accepted: a block from 0 to 999"), std::string::npos) << problem;
}

TEST(BlockFiles, FilesFromBeforeBlocksAreOneBlock)
{
    for (const char* name : { "report_v4_machine.json", "report_v3_every_field.json", "report_v1.json",
             "report_machine.csv" }) {
        const Result<Report> read = readSeriesFile((fs::path(ASYNCSCOPE_TEST_DATA) / name).string());
        ASSERT_TRUE(read) << name << ": " << read.error().message();
        EXPECT_EQ(blocksOf(*read), 1u) << name;
    }
}

}  // namespace
}  // namespace asyncscope

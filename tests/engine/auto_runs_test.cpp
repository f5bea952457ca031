// asyncscope-cli's --blocks and --runs auto against the fake backend: the options as they are taken and refused,
// and a series measured block after block until its comparison with the baseline is decided.
#include "cli/cli_app.hpp"
#include "engine/io/json/json_report.hpp"
#include "engine/model/advice.hpp"
#include "engine/model/baseline.hpp"

#include "fake_backend.hpp"

#include "temp_dir.hpp"

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include <filesystem>
#include <fstream>
#include <sstream>
#include <unistd.h>

namespace asyncscope {
namespace {


// A baseline as the fake backend's best device measures the default pipeline: `blocks` blocks of `runs` runs, every
// other block `spread` slower and the others as much faster.
Report fakeBaseline(int blocks, int runs, double spread = 0.0)
{
    Report r;
    r.host = "gpu-node";
    r.device.name = "Fake Big GPU";
    r.driverVersion = 13000;
    r.runtimeVersion = 13000;
    r.config.runs = blocks * runs;
    int index = 0;
    for (int b = 0; b < blocks; ++b) {
        for (int i = 0; i < runs; ++i) {
            RunResult run;
            run.index = index++;
            run.block = b;
            run.verified = true;
            run.gpuMs = (2.5 + 0.01 * (i % 7)) * (1.0 + (b % 2 == 0 ? spread : -spread));
            r.runs.push_back(run);
        }
    }
    return r;
}

class AutoRuns : public ::testing::Test {
protected:
    std::string write(const std::string& name, const Report& report)
    {
        const std::string path = m_dir.file(name);
        std::ofstream out(path);
        writeJson(out, report, assessSeries(report));
        return path;
    }

    struct Outcome {
        int code = -1;
        std::string out;
        std::string err;
    };
    Outcome run(std::vector<const char*> args)
    {
        args.insert(args.begin(), "asyncscope-cli");
        auto options = parseCommandLine(static_cast<int>(args.size()), args.data());
        Outcome o;
        if (!options) {
            std::ostringstream err;
            o.code = reportFailure(options.error(), err);
            o.err = err.str();
            return o;
        }
        std::atomic<bool> cancel { false };
        std::ostringstream out, err;
        o.code = runCli(*options, m_backend, cancel, out, err);
        o.out = out.str();
        o.err = err.str();
        return o;
    }

    testing::TempDir m_dir { "auto-runs" };
    testing::FakeBackend m_backend;
};

TEST_F(AutoRuns, BlocksAreTakenAndBoundedByTheRuns)
{
    const auto parse = [](std::vector<const char*> args) {
        args.insert(args.begin(), "asyncscope-cli");
        return parseCommandLine(static_cast<int>(args.size()), args.data());
    };
    auto taken = parse({ "--runs", "100", "--blocks", "5" });
    ASSERT_TRUE(taken) << taken.error().message();
    EXPECT_EQ(taken->config.blocks, 5);
    EXPECT_EQ(taken->config.runs, 100);
    EXPECT_FALSE(taken->autoRuns);

    auto tooMany = parse({ "--runs", "3", "--blocks", "5" });
    ASSERT_FALSE(tooMany);
    EXPECT_NE(tooMany.error().detail.find("5 blocks need at least as many runs"), std::string::npos);
    EXPECT_FALSE(parse({ "--blocks", "0" }));
    EXPECT_FALSE(parse({ "--blocks", "1001", "--runs", "2000" }));
    EXPECT_FALSE(parse({ "--blocks", "2", "--runs", "10", "--stop", "noise" }));
    EXPECT_FALSE(parse({ "--runs", "many" }));
    auto noBaseline = parse({ "--runs", "auto" });
    ASSERT_FALSE(noBaseline);
    EXPECT_NE(noBaseline.error().detail.find("--runs auto"), std::string::npos);
}

TEST_F(AutoRuns, MeasuresBlocksUntilTheVerdictIsDecided)
{
    const std::string a = write("a.json", fakeBaseline(2, 20));
    const std::string kept = m_dir.file("kept.json");
    const int before = m_backend.seriesStarted;
    // The fake's times take few distinct values, so its medians move in steps of 0.4 %: 2 % is what counts here.
    Outcome o = run({ "--baseline", a.c_str(), "--runs", "auto", "--blocks", "6", "--min-difference", "2", "--save",
        kept.c_str(), "--format", "json" });
    ASSERT_EQ(o.code, 0) << o.err;
    // Decided at the second block: the fake measures what the baseline holds.
    EXPECT_NE(o.err.find("block 2: GPU time"), std::string::npos) << o.err;
    EXPECT_NE(o.err.find(": decided"), std::string::npos) << o.err;
    EXPECT_EQ(m_backend.seriesStarted - before, 2) << o.err;
    const nlohmann::json comparison = nlohmann::json::parse(o.out);
    const auto& gpu = comparison.at("quantities").at(0);
    ASSERT_EQ(gpu.at("key"), "gpu_time_ms");
    EXPECT_EQ(gpu.at("current_blocks"), 2);
    EXPECT_EQ(gpu.at("baseline_blocks"), 2);
    EXPECT_EQ(gpu.at("current_runs"), 40) << "each block as many runs as a block of the baseline";
    EXPECT_TRUE(gpu.contains("need"));
    EXPECT_FALSE(comparison.at("method").at("single_block").get<bool>());

    std::ifstream in(kept);
    const Result<Report> saved = readJson(in);
    ASSERT_TRUE(saved) << saved.error().message();
    EXPECT_EQ(blocksOf(*saved), 2u);
}

TEST_F(AutoRuns, StopsAtTheMostBlocksWhenUndecided)
{
    // A baseline whose blocks lie 6 % apart: its interval is too wide to say anything within 3 blocks.
    const std::string a = write("a.json", fakeBaseline(2, 20, 0.03));
    Outcome o = run({ "--baseline", a.c_str(), "--runs", "auto", "--blocks", "3" });
    EXPECT_NE(o.err.find("not decided after 3 blocks"), std::string::npos) << o.err;
    EXPECT_NE(o.out.find("to tell 0.50 % from noise"), std::string::npos) << o.out;
}

TEST_F(AutoRuns, OneBlockComparisonSaysWhatItsIntervalLeavesOut)
{
    const std::string a = write("a.json", fakeBaseline(1, 40));
    Outcome o = run({ "--baseline", a.c_str(), a.c_str() });
    ASSERT_EQ(o.code, 0) << o.err;
    EXPECT_NE(o.out.find("note: a series of one block"), std::string::npos) << o.out;
    EXPECT_NE(o.out.find("p: Mann-Whitney U"), std::string::npos) << o.out;
    const std::string b = write("b.json", fakeBaseline(4, 10));
    Outcome blocks = run({ "--baseline", b.c_str(), b.c_str() });
    ASSERT_EQ(blocks.code, 0) << blocks.err;
    EXPECT_EQ(blocks.out.find("note: a series of one block"), std::string::npos) << blocks.out;
    EXPECT_NE(blocks.out.find("hierarchical bootstrap"), std::string::npos) << blocks.out;
}

}  // namespace
}  // namespace asyncscope

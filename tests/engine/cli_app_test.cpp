// asyncscope-cli's work after parsing, driven with the fake backend and string streams.
#include "cli/cli_app.hpp"

#include "fake_backend.hpp"

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include <algorithm>
#include <chrono>
#include <filesystem>
#include <fstream>
#include <functional>
#include <future>
#include <set>
#include <sstream>
#include <streambuf>

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

using namespace asyncscope;
using asyncscope::testing::FakeBackend;

namespace {

struct CliRun {
    int code = -1;
    std::string out;
    std::string err;
};

CliRun runWith(FakeBackend& backend, std::vector<const char*> args, std::ostream* out = nullptr)
{
    args.insert(args.begin(), "asyncscope-cli");
    auto options = parseCommandLine(static_cast<int>(args.size()), args.data());
    EXPECT_TRUE(options.ok()) << options.error().message();
    std::atomic<bool> cancel { false };
    std::ostringstream text, err;
    CliRun run;
    run.code = runCli(*options, backend, cancel, out ? *out : text, err);
    run.out = text.str();
    run.err = err.str();
    return run;
}

// A stream whose every write fails, as a full disk makes a file.
class FullDisk : public std::streambuf {
protected:
    int_type overflow(int_type) override { return traits_type::eof(); }
    std::streamsize xsputn(const char*, std::streamsize) override { return 0; }
};

}  // namespace

TEST(CliApp, WrongElementMessageGivesTheRunsExpectedValue)
{
    FakeBackend backend;
    backend.wrongRun = 3;  // the fake's run 3 expects value * 2 = 52, not the configured 26
    const CliRun run = runWith(backend, { "--runs", "4", "--warmup", "0" });
    EXPECT_EQ(run.code, kExitFailure);
    EXPECT_NE(run.err.find("run 3 returned a wrong element: index 513 is -1, expected 52"), std::string::npos)
        << run.err;
}

TEST(CliApp, ComparisonChecksItsOutputStream)
{
    FakeBackend backend;
    FullDisk full;
    std::ostream out(&full);
    const CliRun run = runWith(backend, { "--compare", "wait", "--runs", "2" }, &out);
    EXPECT_EQ(run.code, kExitFailure);
    EXPECT_NE(run.err.find("writing the report failed"), std::string::npos) << run.err;
}

TEST(CliApp, SeriesChecksItsOutputStream)
{
    FakeBackend backend;
    FullDisk full;
    std::ostream out(&full);
    const CliRun run = runWith(backend, { "--runs", "2", "--format", "csv" }, &out);
    EXPECT_EQ(run.code, kExitFailure);
    EXPECT_NE(run.err.find("writing the report failed"), std::string::npos) << run.err;
}

TEST(CliApp, AComparisonWhereNothingFitsSaysWhyAndDoesNotCrash)
{
    FakeBackend backend;  // 80 GiB devices, 100 GiB of host memory: two 80 GiB host buffers do not fit
    const CliRun run = runWith(backend, { "--size", "80GiB", "--compare", "host-memory" });
    EXPECT_EQ(run.code, kExitUsage);
    EXPECT_NE(run.err.find("does not fit in host memory"), std::string::npos) << run.err;
    EXPECT_NE(run.err.find("100.0 GiB available"), std::string::npos) << run.err;
    EXPECT_EQ(backend.seriesStarted.load(), 0);
}

TEST(CliApp, VariantsThatDoNotFitAreReportedAndTheOthersRun)
{
    FakeBackend backend;
    backend.hostBytes = std::size_t(64) << 20;  // room for two 32 MiB buffers, not two 64 MiB ones
    const CliRun run = runWith(backend, { "--compare", "size", "--sweep-min", "16MiB", "--sweep-max", "128MiB",
                                            "--runs", "2", "--format", "csv" });
    EXPECT_EQ(run.code, kExitOk) << run.err;
    EXPECT_EQ(backend.seriesStarted.load(), 2);  // 16 and 32 MiB
    EXPECT_NE(run.err.find("ran 2 of 4 variants"), std::string::npos) << run.err;
    // Every variant has its row; those that did not run say why.
    std::istringstream csv(run.out);
    std::string line;
    std::vector<std::string> rows;
    while (std::getline(csv, line))
        rows.push_back(line);
    ASSERT_EQ(rows.size(), 5u) << run.out;
    EXPECT_NE(rows[0].find("GPU time (ms)"), std::string::npos) << rows[0];
    EXPECT_NE(rows[0].find(",Not Run"), std::string::npos) << rows[0];
    EXPECT_NE(rows[3].find("does not fit in host memory"), std::string::npos) << rows[3];
    EXPECT_EQ(rows[1].rfind("16.0 MiB,16777216,", 0), 0u) << rows[1];
}

TEST(CliApp, ATooLargeSeriesIsAUsageError)
{
    FakeBackend backend;
    const CliRun run = runWith(backend, { "--size", "200GiB" });
    EXPECT_EQ(run.code, kExitUsage);
    EXPECT_NE(run.err.find("does not fit: Fake Big GPU has 80.0 GiB in all"), std::string::npos) << run.err;
}

TEST(CliApp, TheMemoryComparisonRunsEveryKindAndSaysWhichCannotRun)
{
    FakeBackend backend;
    const CliRun run = runWith(backend, { "--compare", "memory", "--runs", "2", "--warmup", "0", "--format", "csv" });
    EXPECT_EQ(run.code, kExitOk) << run.err;
    std::istringstream csv(run.out);
    std::vector<std::string> rows;
    for (std::string line; std::getline(csv, line);)
        rows.push_back(line);
    ASSERT_EQ(rows.size(), 9u) << run.out;  // the header and eight kinds
    for (const char* label : { "pageable,", "pinned,", "write-combined,", "registered,", "\"pinned, SM copies\",",
             "mapped,", "\"managed, prefetch\",", "\"managed, on-demand\"," }) {
        EXPECT_TRUE(std::any_of(rows.begin() + 1, rows.end(),
            [&](const std::string& row) { return row.rfind(label, 0) == 0; }))
            << label << "\n" << run.out;
    }

    // With batch submission SM copies, mapped and managed memory have no copies to batch: not run, with the reason.
    FakeBackend batch;
    const CliRun batched = runWith(batch, { "--compare", "memory", "--submit", "batch", "--runs", "2" });
    EXPECT_EQ(batched.code, kExitOk) << batched.err;
    EXPECT_NE(batched.err.find("ran 4 of 8 variants"), std::string::npos) << batched.err;
    EXPECT_NE(batched.out.find("not run: batch submission batches cudaMemcpyAsync copies"), std::string::npos)
        << batched.out;
}

TEST(CliApp, SeriesPrintsTheSamplesLinesAndASummary)
{
    FakeBackend backend;
    const CliRun run = runWith(backend, { "--runs", "3" });
    EXPECT_EQ(run.code, kExitOk) << run.err;
    EXPECT_EQ(run.out.rfind("device 1: Fake Big GPU", 0), 0u) << run.out;  // the fastest is the default
    EXPECT_NE(run.out.find("time spent by CPU in CUDA calls: 0.05"), std::string::npos) << run.out;
    EXPECT_NE(run.out.find("summary: 3 measured runs, 1 warm-up, 4 of 4 verified"), std::string::npos) << run.out;
}

namespace {

// The trace file's X events by name, and the names of its processes and tracks.
struct TraceFile {
    bool parsed = false;
    std::multiset<std::string> events;
    std::set<std::string> processes, tracks;
};

TraceFile readTrace(const std::string& path)
{
    std::ifstream in(path);
    const nlohmann::json trace = nlohmann::json::parse(in, nullptr, false);
    TraceFile file;
    if (trace.is_discarded() || !trace.contains("traceEvents"))
        return file;
    file.parsed = true;
    for (const auto& e : trace.at("traceEvents")) {
        if (e.at("ph") == "X")
            file.events.insert(e.at("name").get<std::string>());
        else if (e.at("name") == "process_name")
            file.processes.insert(e.at("args").at("name").get<std::string>());
        else if (e.at("name") == "thread_name")
            file.tracks.insert(e.at("args").at("name").get<std::string>());
    }
    return file;
}

std::string tracePath(const char* name)
{
    const auto path = std::filesystem::path(::testing::TempDir()) / name;
    std::filesystem::remove(path);
    return path.string();
}

}  // namespace

TEST(CliApp, TraceWritesTheSeriesBesideItsReport)
{
    FakeBackend backend;
    const std::string path = tracePath("asyncscope-cli-series-trace.json");
    const CliRun run = runWith(backend,
        { "--runs", "3", "--chunks", "4", "--streams", "2", "--format", "json", "--trace", path.c_str() });
    EXPECT_EQ(run.code, kExitOk) << run.err;
    EXPECT_EQ(run.out.rfind("{\"format\":\"asyncscope-report\"", 0), 0u) << run.out;  // the report as asked

    const TraceFile trace = readTrace(path);
    ASSERT_TRUE(trace.parsed);
    EXPECT_EQ(trace.processes, std::set<std::string> { "GPU 1: Fake Big GPU" });
    EXPECT_EQ(trace.tracks, (std::set<std::string> { "Runs", "CPU · submit & wait", "Stream 0", "Stream 1" }));
    // 4 runs (one warm-up), each: 4 chunks x H2D, kernel, D2H, a submit, a wait, the run itself.
    EXPECT_EQ(trace.events.size(), 4u * 15u);
    EXPECT_EQ(trace.events.count("H2D"), 16u);
    EXPECT_EQ(trace.events.count("wait (poll)"), 4u);
    EXPECT_EQ(trace.events.count("run 3"), 1u);
}

TEST(CliApp, TraceWritesAComparisonAsAProcessPerVariant)
{
    FakeBackend backend;
    const std::string path = tracePath("asyncscope-cli-comparison-trace.json");
    const CliRun run = runWith(backend, { "--compare", "wait", "--runs", "2", "--trace", path.c_str() });
    EXPECT_EQ(run.code, kExitOk) << run.err;
    EXPECT_NE(run.out.find("spin"), std::string::npos) << run.out;
    const TraceFile trace = readTrace(path);
    ASSERT_TRUE(trace.parsed);
    EXPECT_EQ(trace.processes,
        (std::set<std::string> { "spin · GPU 1: Fake Big GPU", "blocking · GPU 1: Fake Big GPU" }));
    EXPECT_EQ(trace.events.count("wait (poll)"), 3u);
    EXPECT_EQ(trace.events.count("wait (blocking sync)"), 3u);
}

TEST(CliApp, AnUnwritableTracePathIsAUsageErrorBeforeAnythingRuns)
{
    FakeBackend backend;
    const CliRun run = runWith(backend, { "--runs", "2", "--trace", "/nonexistent/dir/t.json" });
    EXPECT_EQ(run.code, kExitUsage);
    EXPECT_NE(run.err.find("asyncscope-cli: error: cannot write the trace to '/nonexistent/dir/t.json'"),
        std::string::npos)
        << run.err;
    EXPECT_EQ(backend.seriesStarted.load(), 0);
    EXPECT_FALSE(std::filesystem::exists("/nonexistent/dir/t.json"));
}

TEST(CliApp, ASeriesThatCannotStartLeavesNoTrace)
{
    FakeBackend backend;
    const std::string path = tracePath("asyncscope-cli-no-trace.json");
    const CliRun run = runWith(backend, { "--size", "60GiB", "--trace", path.c_str() });  // two host buffers: no room
    EXPECT_EQ(run.code, kExitUsage) << run.err;
    EXPECT_FALSE(std::filesystem::exists(path));
}

TEST(CliApp, HelpNamesTheTraceOption)
{
    const char* args[] = { "asyncscope-cli", "--help" };
    const auto options = parseCommandLine(2, args);
    ASSERT_TRUE(options.ok());
    ASSERT_TRUE(options->helpText);
    EXPECT_NE(options->helpText->find("--trace"), std::string::npos);
    EXPECT_NE(options->helpText->find("Perfetto"), std::string::npos);
}

namespace {

// Runs `work` on a thread of its own; when it has not finished after a while (a FIFO's open blocking), `unblock`
// lets it go, and the test fails instead of hanging.
template <class Work>
auto withinSeconds(int seconds, Work work, const std::function<void()>& unblock)
{
    auto done = std::async(std::launch::async, work);
    if (done.wait_for(std::chrono::seconds(seconds)) == std::future_status::timeout) {
        ADD_FAILURE() << "blocked for " << seconds << " s";
        unblock();
    }
    return done.get();
}

std::string tempPath(const std::string& name)
{
    const auto dir = std::filesystem::path(::testing::TempDir()) / "asyncscope-cli-app-output";
    std::filesystem::create_directories(dir);
    const auto path = dir / name;
    std::filesystem::remove_all(path);
    return path.string();
}

}  // namespace

TEST(CliApp, AFifoAsOutputIsRefusedWithoutBlocking)
{
    const std::string fifo = tempPath("out.fifo");
    ASSERT_EQ(::mkfifo(fifo.c_str(), 0600), 0);
    FakeBackend backend;
    int reader = -1;  // opened only where the write blocked; kept open until it ends, so that it is not cut off
    const CliRun run = withinSeconds(
        10, [&] { return runWith(backend, { "--runs", "2", "--output", fifo.c_str() }); },
        [&] { reader = ::open(fifo.c_str(), O_RDONLY | O_NONBLOCK); });
    if (reader >= 0)
        ::close(reader);
    EXPECT_EQ(run.code, kExitFailure);
    EXPECT_NE(run.err.find("out.fifo is not a regular file (a FIFO)"), std::string::npos) << run.err;
    EXPECT_EQ(backend.seriesStarted.load(), 0);
    std::filesystem::remove(fifo);
}

TEST(CliApp, AnOutputTheSystemRefusesSaysWhatTheSystemSaid)
{
    if (!std::filesystem::exists("/proc/version"))
        GTEST_SKIP() << "no /proc/version here";
    FakeBackend backend;
    const CliRun run = runWith(backend, { "--runs", "2", "--output", "/proc/version" });
    EXPECT_EQ(run.code, kExitFailure);
    EXPECT_NE(run.err.find("/proc/version"), std::string::npos) << run.err;
    // The file is written beside its name and renamed: /proc refuses the new file (ENOENT as root).
    const bool systemWords = run.err.find("Input/output error") != std::string::npos ||
        run.err.find("Permission denied") != std::string::npos ||
        run.err.find("No such file or directory") != std::string::npos;
    EXPECT_TRUE(systemWords) << run.err;
    EXPECT_EQ(run.err.find("Check free disk space"), std::string::npos) << run.err;
}

TEST(CliApp, TryAdviceRunsTheSuggestedShapeAndReportsBothAsAnOverlapComparison)
{
    FakeBackend backend;
    const CliRun run = runWith(backend, { "--runs", "20", "--try-advice", "--format", "json" });
    ASSERT_EQ(run.code, 0) << run.err;
    const auto doc = nlohmann::json::parse(run.out);
    EXPECT_EQ(doc.at("comparison"), "overlap") << run.out.substr(0, 400);
    const auto& variants = doc.at("variants");
    ASSERT_EQ(variants.size(), 2u);
    EXPECT_EQ(variants[0].at("variant"), "now K=1");
    EXPECT_EQ(variants[1].at("variant").get<std::string>().rfind("advised K=", 0), 0u) << variants[1].at("variant");
    EXPECT_GT(variants[1].at("config").at("chunks").get<int>(), 1);
    // The prediction beside what the shape achieved.
    EXPECT_NE(run.err.find("--try-advice: advised K="), std::string::npos) << run.err;
    EXPECT_NE(run.err.find(": predicted "), std::string::npos) << run.err;
    EXPECT_NE(run.err.find("x the prediction"), std::string::npos) << run.err;
}

TEST(CliApp, TryAdviceGoesWithOneSeriesOnly)
{
    for (const char* other : { "--compare", "--baseline" }) {
        const char* value = std::string(other) == "--compare" ? "overlap" : "a.json";
        const char* args[] = { "asyncscope-cli", "--try-advice", other, value };
        const auto options = parseCommandLine(4, args);
        ASSERT_FALSE(options.ok()) << other;
        EXPECT_NE(options.error().message().find("--try-advice"), std::string::npos) << options.error().message();
    }
}

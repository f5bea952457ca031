// A program recorded on a real GPU through CUPTI injection (engine/record): the built-in pipeline run as any other
// program, whose own report and its recorded runs must agree, and public CUDA samples whose printed event times must
// each be found among the recorded runs. The samples are built from their public sources by
// tests/gpu/build_samples.sh into a folder named by ASYNCSCOPE_SAMPLES; without it those tests are skipped, saying so.
#include "gpu_fixture.hpp"
#include "temp_dir.hpp"

#include "engine/io/report_file.hpp"
#include "engine/model/statistics.hpp"
#include "engine/record/iterations.hpp"
#include "engine/record/program_recorder.hpp"
#include "engine/record/recording.hpp"

#include <unistd.h>

#include <cmath>
#include <filesystem>
#include <fstream>
#include <regex>
#include <sstream>

namespace asyncscope {
namespace {

namespace fs = std::filesystem;
using testing::TempDir;

// asyncscope-cli and the injection library: beside this test binary (a folder holding both) or in the build's cli/.
fs::path besideOrInCli(const std::string& name)
{
    const fs::path here = fs::read_symlink("/proc/self/exe").parent_path();
    for (const fs::path& candidate : { here / name, here.parent_path() / "cli" / name })
        if (fs::exists(candidate))
            return candidate;
    return {};
}

struct Recorded {
    RecordOutcome outcome;
    RecordedRuns runs;
    std::string output;  // what the program printed
};

// Runs `command` (its output kept in a file) under the recorder and splits what it recorded by `rule`.
Recorded recordOrFail(TempDir& dir, const std::vector<std::string>& command, const std::string& rule = "auto")
{
    const fs::path injection = besideOrInCli("libasyncscope-inject.so");
    EXPECT_FALSE(injection.empty()) << "libasyncscope-inject.so is neither beside the test nor in ../cli";
    auto cupti = findCuptiLibrary();
    EXPECT_TRUE(cupti.ok()) << (cupti ? "" : cupti.error().message());
    if (injection.empty() || !cupti)
        return {};
    RecordRequest request;
    // The shell replaces itself with the program (exec): the program is what the recorder waits for.
    std::string line = "exec";
    for (const std::string& word : command)
        line += " '" + word + "'";
    line += " > '" + dir.file("output.txt") + "' 2>&1";
    request.command = { "/bin/sh", "-c", line };
    request.injectionLibrary = injection.string();
    request.cuptiLibrary = *cupti;
    request.recordingPath = dir.file("app.record");
    static const std::atomic<bool> never { false };
    auto outcome = recordProgram(request, never);
    EXPECT_TRUE(outcome.ok()) << (outcome ? "" : outcome.error().message());
    if (!outcome)
        return {};
    Recorded r;
    r.outcome = *outcome;
    std::ifstream printed(dir.file("output.txt"));
    r.output.assign(std::istreambuf_iterator<char>(printed), {});
    EXPECT_TRUE(outcome->connected) << "the program never connected; it printed:\n" << r.output;
    auto recording = readRecordingFile(request.recordingPath);
    EXPECT_TRUE(recording.ok()) << (recording ? "" : recording.error().message());
    if (!recording)
        return r;
    r.runs = splitIterations(*recording, *parseIterationRule(rule));
    return r;
}

fs::path sample(const std::string& name)
{
    const char* folder = std::getenv("ASYNCSCOPE_SAMPLES");
    if (!folder || !*folder)
        return {};
    return fs::path(folder) / name;
}

// A printed time found among the recorded runs: the run whose GPU time is nearest, within 1 % or the printed
// figure's own rounding (half its last digit), whichever is wider.
void expectARunNear(const RecordedRuns& runs, double printedMs, int decimals, double multiplier, const std::string& what)
{
    const double expected = printedMs * multiplier;
    const double tolerance = std::max(0.01 * expected, 0.5 * std::pow(10.0, -decimals) * multiplier);
    double nearest = -1.0;
    for (const RunResult& r : runs.runs)
        if (nearest < 0 || std::abs(r.gpuMs - expected) < std::abs(nearest - expected))
            nearest = r.gpuMs;
    EXPECT_NEAR(nearest, expected, tolerance) << what << ": printed " << printedMs << " ms (× " << multiplier
                                              << "), nearest recorded run " << nearest << " ms";
    std::printf("  %-44s printed %10.4f ms   recorded %10.4f ms   ratio %.4f\n", what.c_str(), expected, nearest,
        nearest / expected);
}

// Every "LABEL<separator>NUMBER" line the sample printed, matched against the runs.
int expectPrintedTimes(const Recorded& r, const std::string& pattern, double multiplier)
{
    const std::regex line(pattern);
    int found = 0;
    std::istringstream output(r.output);
    for (std::string text; std::getline(output, text);) {
        std::smatch m;
        if (!std::regex_search(text, m, line))
            continue;
        const std::string number = m[2].str();
        const std::size_t point = number.find('.');
        const int decimals = point == std::string::npos ? 0 : int(number.size() - point - 1);
        expectARunNear(r.runs, std::stod(number), decimals, multiplier, m[1].str());
        ++found;
    }
    return found;
}

class RecordGpu : public testing::GpuFixture { };

TEST_F(RecordGpu, TheBuiltInPipelineRecordedAgreesWithItsOwnRunsWithinOnePercent)
{
    TempDir dir("record-gpu");
    const fs::path cli = besideOrInCli("asyncscope-cli");
    ASSERT_FALSE(cli.empty());
    const std::string own = dir.file("own.json");
    // Each run's timed part is an NVTX range of its own ("AsyncScope run"): the recorder's default finds it.
    const Recorded r = recordOrFail(dir,
        { cli.string(), "--device", std::to_string(device), "--runs", "300", "--format", "json", "--output", own });
    ASSERT_EQ(r.outcome.exitCode, 0) << r.output;
    auto report = readReportFile(own);
    ASSERT_TRUE(report.ok()) << report.error().message();
    std::vector<double> ownGpu, recordedGpu;
    for (const RunResult& run : report->runs)
        if (!run.warmup)
            ownGpu.push_back(run.gpuMs);
    for (const RunResult& run : r.runs.runs)
        recordedGpu.push_back(run.gpuMs);
    ASSERT_EQ(ownGpu.size(), 300u);
    EXPECT_EQ(r.runs.how, "NVTX range 'AsyncScope run'");
    // Every timed run is a recorded iteration (the warm-ups are ranges too).
    ASSERT_GE(recordedGpu.size(), ownGpu.size());
    const double ownMedian = summarize(ownGpu).median, recordedMedian = summarize(recordedGpu).median;
    std::printf("  built-in pipeline, median GPU time: own %.4f ms, recorded %.4f ms, ratio %.4f (%zu recorded runs)\n",
        ownMedian, recordedMedian, recordedMedian / ownMedian, recordedGpu.size());
    EXPECT_NEAR(recordedMedian / ownMedian, 1.0, 0.01);
    std::size_t withSpans = 0;
    for (const RunResult& run : r.runs.runs)
        withSpans += run.spans.size() >= 3 ? 1 : 0;
    EXPECT_GE(withSpans, ownGpu.size()) << "each run's copies and kernel are its spans";
}

TEST_F(RecordGpu, AsyncApiPrintedGpuTimeIsARecordedRun)
{
    const fs::path app = sample("asyncAPI");
    if (app.empty())
        GTEST_SKIP() << "ASYNCSCOPE_SAMPLES names no folder of samples (tests/gpu/build_samples.sh builds one)";
    TempDir dir("record-gpu");
    const Recorded r = recordOrFail(dir, { app.string() });
    ASSERT_EQ(r.outcome.exitCode, 0) << r.output;
    EXPECT_EQ(expectPrintedTimes(r, "(time spent executing by the GPU): ([0-9.]+)", 1.0), 1) << r.output;
    // Its one pipeline, on one stream, waited for by polling.
    bool polled = false;
    for (const RunResult& run : r.runs.runs)
        polled = polled || run.waitMs() > 0.0;
    EXPECT_TRUE(polled);
}

TEST_F(RecordGpu, AsyncOverlapSampleTimesAgreeAndItsStreamedVersionsOverlap)
{
    const fs::path app = sample("async");
    if (app.empty())
        GTEST_SKIP() << "ASYNCSCOPE_SAMPLES names no folder of samples (tests/gpu/build_samples.sh builds one)";
    TempDir dir("record-gpu");
    const Recorded r = recordOrFail(dir, { app.string() });
    ASSERT_EQ(r.outcome.exitCode, 0) << r.output;
    EXPECT_EQ(expectPrintedTimes(r, "(Time for [A-Za-z0-9 ]+ transfer and execute) \\(ms\\): ([0-9.]+)", 1.0), 3)
        << r.output;
    ASSERT_EQ(r.runs.runs.size(), 3u);
    EXPECT_FALSE(r.runs.runs[0].copiesOverlapKernels()) << "the sequential version";
    EXPECT_TRUE(r.runs.runs[1].copiesOverlapKernels()) << "V1";
    EXPECT_TRUE(r.runs.runs[2].copiesOverlapKernels()) << "V2";
}

TEST_F(RecordGpu, SimpleStreamsPrintedTimesAreRecordedRuns)
{
    const fs::path app = sample("simpleStreams");
    if (app.empty())
        GTEST_SKIP() << "ASYNCSCOPE_SAMPLES names no folder of samples (tests/gpu/build_samples.sh builds one)";
    TempDir dir("record-gpu");
    const Recorded r = recordOrFail(dir, { app.string() });
    ASSERT_EQ(r.outcome.exitCode, 0) << r.output;
    // The kernel alone between two events, then a wait: one iteration, timed between the sample's own events.
    EXPECT_EQ(expectPrintedTimes(r, "^(kernel):\\s+([0-9.]+)", 1.0), 1) << r.output;
    // The two loops print their time per repetition (10, or as many as the sample says it set), each loop one
    // iteration ending at one synchronization.
    std::smatch reps;
    double repetitions = 10.0;
    if (std::regex_search(r.output, reps, std::regex("Setting reps to ([0-9]+)")))
        repetitions = std::stod(reps[1].str());
    EXPECT_EQ(expectPrintedTimes(r, "^(non-streamed|[0-9]+ streams):\\s+([0-9.]+)", repetitions), 2) << r.output;
    // The timed copy shares its iteration with the set-up before it (its memset comes before the first wait): the
    // iteration holds it, so it is as long or longer.
    std::smatch copy;
    ASSERT_TRUE(std::regex_search(r.output, copy, std::regex("memcopy:\\s+([0-9.]+)"))) << r.output;
    ASSERT_FALSE(r.runs.runs.empty());
    EXPECT_GE(r.runs.runs.front().gpuMs, 0.99 * std::stod(copy[1].str()));
}

}  // namespace
}  // namespace asyncscope

// A program recorded on a real GPU through CUPTI injection (engine/record): the built-in pipeline run as any other
// program, whose own report and its recorded runs must agree, and public CUDA samples whose printed event times must
// each be found among the recorded runs. The samples are built from their public sources by
// tests/gpu/build_samples.sh into a folder named by ASYNCSCOPE_SAMPLES (tests/gpu/run_gpu_checks.sh builds and names
// it); without it those tests fail, saying so. And the programs of tests/gpu/programs, built beside this binary, each
// a shape real programs take: threads, a fork, ranks a script starts, synchronous copies, the driver API, a graph, a
// crash, a failing exit and a launch-bound loop.
#include "gpu_fixture.hpp"
#include "temp_dir.hpp"

#include "engine/io/report_file.hpp"
#include "engine/model/statistics.hpp"
#include "engine/host/nvml_probe.hpp"
#include "engine/model/advice.hpp"
#include "engine/model/overlap_model.hpp"
#include "engine/cuda/copy_calibration.hpp"
#include "engine/record/iterations.hpp"
#include "engine/record/program_recorder.hpp"
#include "engine/record/program_report.hpp"
#include "engine/record/recording.hpp"
#include "engine/run/plan_advice.hpp"

#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <set>
#include <optional>
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
    std::optional<Recording> recording;
};

// Runs `command` (its output kept in a file) under the recorder, the machine sampled by `machine` where given, and
// splits what it recorded by `rule`.
Recorded recordOrFail(TempDir& dir, const std::vector<std::string>& command, const std::string& rule = "auto",
    ProgramMachine* machine = nullptr)
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
    if (machine)
        machine->start();
    auto outcome = recordProgram(request, never);
    if (machine)
        machine->stop();
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
    r.recording = std::move(*recording);
    return r;
}

fs::path sample(const std::string& name)
{
    const char* folder = std::getenv("ASYNCSCOPE_SAMPLES");
    if (!folder || !*folder)
        return {};
    return fs::path(folder) / name;
}

// A test program of tests/gpu/programs, built beside this test binary.
fs::path testProgram(const std::string& name)
{
    const fs::path path = fs::read_symlink("/proc/self/exe").parent_path() / name;
    EXPECT_TRUE(fs::exists(path)) << path << " is missing: it is built with the GPU tests";
    return path;
}

// Where ASYNCSCOPE_KEEP_RECORDINGS names a folder, the recording is copied there as NAME.record with what the
// program printed as NAME.stdout.txt (the recordings kept under tests/data were made so).
void keepRecording(TempDir& dir, const std::string& name, const std::string& printed)
{
    const char* folder = std::getenv("ASYNCSCOPE_KEEP_RECORDINGS");
    if (!folder || !*folder)
        return;
    std::error_code error;
    fs::create_directories(folder, error);
    fs::copy_file(dir.file("app.record"), fs::path(folder) / (name + ".record"), fs::copy_options::overwrite_existing,
        error);
    std::ofstream(fs::path(folder) / (name + ".stdout.txt")) << printed;
}

std::string notesText(const RecordedRuns& runs)
{
    std::string all;
    for (const std::string& n : runs.notes)
        all += n + "\n";
    return all;
}

// The measured runs (not set-up) of a split.
std::vector<RunResult> measured(const RecordedRuns& runs)
{
    std::vector<RunResult> found;
    for (const RunResult& r : runs.runs)
        if (!r.warmup)
            found.push_back(r);
    return found;
}

// asyncscope-cli record ARGUMENTS -- COMMAND, its output in `printed`; its exit status.
int cliRecord(TempDir& dir, const std::vector<std::string>& arguments, const std::vector<std::string>& command,
    std::string& printed)
{
    const fs::path cli = besideOrInCli("asyncscope-cli");
    EXPECT_FALSE(cli.empty());
    std::string line = "'" + cli.string() + "' record";
    for (const std::string& a : arguments)
        line += " '" + a + "'";
    line += " --";
    for (const std::string& word : command)
        line += " '" + word + "'";
    line += " > '" + dir.file("cli.txt") + "' 2>&1";
    const int status = std::system(line.c_str());
    std::ifstream text(dir.file("cli.txt"));
    printed.assign(std::istreambuf_iterator<char>(text), {});
    return WIFEXITED(status) ? WEXITSTATUS(status) : -1;
}

// How far CUPTI's timestamps of a program's events can be from what cudaEventElapsedTime gives for them: up to 7 µs,
// measured on an H100 (async.cu's streamed versions, simpleStreams' kernel).
constexpr double kEventFloorMs = 0.010;

// A printed time found among the recorded runs: the run whose GPU time is nearest, within 1 % or the printed
// figure's own rounding (half its last digit), whichever is wider.
void expectARunNear(const RecordedRuns& runs, double printedMs, int decimals, double multiplier, const std::string& what,
    double floorMs = 0.0)
{
    const double expected = printedMs * multiplier;
    const double tolerance = std::max({ 0.01 * expected, 0.5 * std::pow(10.0, -decimals) * multiplier, floorMs });
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
int expectPrintedTimes(const Recorded& r, const std::string& pattern, double multiplier, double floorMs = 0.0)
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
        expectARunNear(r.runs, std::stod(number), decimals, multiplier, m[1].str(), floorMs);
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
        FAIL() << "ASYNCSCOPE_SAMPLES names no folder of samples: tests/gpu/run_gpu_checks.sh builds them "
                  "(tests/gpu/build_samples.sh SOURCES FOLDER) and names it";
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
        FAIL() << "ASYNCSCOPE_SAMPLES names no folder of samples: tests/gpu/run_gpu_checks.sh builds them "
                  "(tests/gpu/build_samples.sh SOURCES FOLDER) and names it";
    TempDir dir("record-gpu");
    const Recorded r = recordOrFail(dir, { app.string() });
    ASSERT_EQ(r.outcome.exitCode, 0) << r.output;
    // Four streams at once: CUPTI's timestamps of the events differ from what cudaEventElapsedTime measures between them
    // by up to 7 µs (measured on an H100: V1 0.6345 against 0.6414 ms), 1.1 % of a 0.6 ms version.
    const char* versions = "(Time for [A-Za-z0-9 ]+ transfer and execute) \\(ms\\): ([0-9.]+)";
    EXPECT_EQ(expectPrintedTimes(r, versions, 1.0, kEventFloorMs), 3)
        << r.output;
    ASSERT_EQ(r.runs.runs.size(), 3u);
    EXPECT_FALSE(r.runs.runs[0].copiesOverlapKernels()) << "the sequential version";
    EXPECT_TRUE(r.runs.runs[1].copiesOverlapKernels()) << "V1";
    EXPECT_TRUE(r.runs.runs[2].copiesOverlapKernels()) << "V2";
}

TEST_F(RecordGpu, TheModelFromTheSequentialVersionPredictsTheStreamedOnesWithinFivePercent)
{
    // The overlap sample runs the same work one copy after the other and then streamed in 4 chunks over 4 streams:
    // the model the advice applies to the sequential iteration (4 chunks over 4 streams, both directions through this
    // GPU's bidirectional peak, the calibration's operation costs) must predict the streamed versions' recorded times.
    const fs::path app = sample("async");
    if (app.empty())
        FAIL() << "ASYNCSCOPE_SAMPLES names no folder of samples: tests/gpu/run_gpu_checks.sh builds them "
                  "(tests/gpu/build_samples.sh SOURCES FOLDER) and names it";
    TempDir dir("record-gpu");
    const Recorded r = recordOrFail(dir, { app.string() });
    ASSERT_EQ(r.outcome.exitCode, 0) << r.output;
    ASSERT_EQ(r.runs.runs.size(), 3u);
    const auto peak = measureCopyPeak(0, CopyPath::Pinned, std::size_t(64) << 20, 3);
    ASSERT_TRUE(peak.ok()) << peak.error().message();
    const RunResult& sequential = r.runs.runs[0];
    const double predicted = chunkedMs(iterationStages(sequential, &*peak), advice_limits::kProgramModelChunks,
        advice_limits::kProgramModelChunks, peak->costs);
    std::printf("  sequential %.4f ms (H2D %.4f, kernels %.4f, D2H %.4f); predicted in %d chunks %.4f ms; V1 %.4f ms "
                "(%.3f x), V2 %.4f ms (%.3f x)\n",
        sequential.gpuMs, sequential.totalMs(SpanKind::H2D), sequential.totalMs(SpanKind::Kernel),
        sequential.totalMs(SpanKind::D2H), advice_limits::kProgramModelChunks, predicted, r.runs.runs[1].gpuMs,
        r.runs.runs[1].gpuMs / predicted, r.runs.runs[2].gpuMs, r.runs.runs[2].gpuMs / predicted);
    EXPECT_NEAR(r.runs.runs[1].gpuMs / predicted, 1.0, 0.05) << "V1";
    EXPECT_NEAR(r.runs.runs[2].gpuMs / predicted, 1.0, 0.05) << "V2";
}

TEST_F(RecordGpu, SimpleStreamsPrintedTimesAreRecordedRuns)
{
    const fs::path app = sample("simpleStreams");
    if (app.empty())
        FAIL() << "ASYNCSCOPE_SAMPLES names no folder of samples: tests/gpu/run_gpu_checks.sh builds them "
                  "(tests/gpu/build_samples.sh SOURCES FOLDER) and names it";
    TempDir dir("record-gpu");
    const Recorded r = recordOrFail(dir, { app.string() });
    ASSERT_EQ(r.outcome.exitCode, 0) << r.output;
    // The kernel alone between two events, then a wait: one iteration, timed between the sample's own events.
    EXPECT_EQ(expectPrintedTimes(r, "^(kernel):\\s+([0-9.]+)", 1.0, kEventFloorMs), 1) << r.output;
    // The two loops print their time per repetition (10, or as many as the sample says it set). The non-streamed loop
    // copies each repetition's result back with cudaMemcpy, a wait for the GPU's results: each repetition is an
    // iteration of its own. The streamed loop waits once, for its stop event: the loop is one iteration.
    std::smatch reps;
    double repetitions = 10.0;
    if (std::regex_search(r.output, reps, std::regex("Setting reps to ([0-9]+)")))
        repetitions = std::stod(reps[1].str());
    EXPECT_EQ(expectPrintedTimes(r, "^(non-streamed):\\s+([0-9.]+)", 1.0), 1) << r.output;
    EXPECT_EQ(expectPrintedTimes(r, "^([0-9]+ streams):\\s+([0-9.]+)", repetitions), 1) << r.output;
    // The timed copy shares its iteration with the set-up before it (its memset comes before the first wait): the
    // iteration holds it, so it is as long or longer.
    std::smatch copy;
    ASSERT_TRUE(std::regex_search(r.output, copy, std::regex("memcopy:\\s+([0-9.]+)"))) << r.output;
    ASSERT_FALSE(r.runs.runs.empty());
    EXPECT_GE(r.runs.runs.front().gpuMs, 0.99 * std::stod(copy[1].str()));
}

// The advice on a recorded program, its machine block `machine`'s where given.
Advice adviceOn(const Recorded& r, const std::string& program, ProgramMachine* machine = nullptr)
{
    if (!r.recording)
        return {};
    ProgramInfo info;
    info.command = { program };
    return assessSeries(programReport(*r.recording, r.runs, info, machine)).advice;
}

const Finding* findingOf(const Advice& advice, std::string_view rule)
{
    for (const Finding& f : advice.findings)
        if (f.rule == rule)
            return &f;
    return nullptr;
}

TEST_F(RecordGpu, AKernelOnTheDefaultStreamBesideABlockingStreamIsAdvisedUnlessPerThread)
{
    const fs::path legacy = sample("default_stream"), perThread = sample("default_stream_per_thread");
    if (legacy.empty() || perThread.empty())
        FAIL() << "ASYNCSCOPE_SAMPLES names no folder of samples: tests/gpu/run_gpu_checks.sh builds them "
                  "(tests/gpu/build_samples.sh SOURCES FOLDER) and names it";
    TempDir dir("record-gpu");
    Recorded r = recordOrFail(dir, { legacy.string() });
    ASSERT_EQ(r.outcome.exitCode, 0) << r.output;
    ASSERT_TRUE(r.recording.has_value());
    std::printf("  stream records: %zu; default-stream operations counted: %llu in %llu iterations of %zu\n",
        r.recording->streams.size(), static_cast<unsigned long long>(r.runs.copies.defaultStream.value_or(0)),
        static_cast<unsigned long long>(r.runs.copies.defaultStreamIterations), r.runs.runs.size());
    const Advice advice = adviceOn(r, legacy.string());
    const Finding* f = findingOf(advice, rules::kDefaultStream);
    ASSERT_NE(f, nullptr) << "no default-stream finding";
    std::printf("  %s\n", f->evidence.c_str());
    EXPECT_GE(r.runs.copies.defaultStreamIterations, 19u);  // each iteration's kernel (the first may hold set-up)

    TempDir other("record-gpu");
    r = recordOrFail(other, { perThread.string() });
    ASSERT_EQ(r.outcome.exitCode, 0) << r.output;
    EXPECT_EQ(findingOf(adviceOn(r, perThread.string()), rules::kDefaultStream), nullptr)
        << "a per-thread default stream waits for no other stream";
}

TEST_F(RecordGpu, TheMachineIsSampledOnTheProgramsGpuAroundItsRuns)
{
    const fs::path app = sample("simpleStreams");
    if (app.empty())
        FAIL() << "ASYNCSCOPE_SAMPLES names no folder of samples: tests/gpu/run_gpu_checks.sh builds them "
                  "(tests/gpu/build_samples.sh SOURCES FOLDER) and names it";
    NvmlProbe probe;
    if (!probe.unavailable().empty())
        GTEST_SKIP() << "NVML cannot be read here: " << probe.unavailable();
    ProgramMachine machine(&probe);
    TempDir dir("record-gpu");
    const Recorded r = recordOrFail(dir, { app.string() }, "auto", &machine);
    ASSERT_EQ(r.outcome.exitCode, 0) << r.output;
    ASSERT_TRUE(r.recording.has_value());
    ProgramInfo info;
    info.command = { app.string() };
    const Report report = programReport(*r.recording, r.runs, info, &machine);
    ASSERT_TRUE(report.machine.has_value());
    ASSERT_TRUE(report.machine->read()) << report.machine->unavailable;
    const auto& samples = report.machine->samples;
    ASSERT_GE(samples.size(), 2u);
    const double lastRunEnd = report.runs.startMs(report.runs.size() - 1) + report.runs.gpuMs(report.runs.size() - 1);
    std::printf("  %zu samples from %.1f ms to %.1f ms; runs from 0 to %.1f ms; program PID %s\n", samples.size(),
        samples.front().atMs, samples.back().atMs, lastRunEnd,
        report.machine->selfPid ? std::to_string(*report.machine->selfPid).c_str() : "not told");
    // The first reading is taken before the program starts, the last after it ended: on the runs' clock, around them.
    EXPECT_LT(samples.front().atMs, 0.0);
    EXPECT_GT(samples.back().atMs, lastRunEnd);
    EXPECT_TRUE(report.machine->selfPid.has_value());
}

// ---- programs of the shapes real programs take (tests/gpu/programs), each recorded as any program is

TEST_F(RecordGpu, FourThreadsEachGiveTheirOwnIterationsAndNothingIsLeftOut)
{
    TempDir dir("record-gpu");
    const Recorded r = recordOrFail(dir, { testProgram("record-threads").string(), "4", "25" });
    ASSERT_EQ(r.outcome.exitCode, 0) << r.output;
    keepRecording(dir, "threads", r.output);
    std::printf("  %zu runs on %zu threads, split by %s\n", r.runs.runs.size(), r.runs.threads.size(), r.runs.how.c_str());
    ASSERT_EQ(r.runs.threads.size(), 4u) << notesText(r.runs);
    for (const ProgramThread& t : r.runs.threads)
        EXPECT_GE(t.runs, 25u) << "thread " << t.thread;
    EXPECT_EQ(measured(r.runs).size(), 100u) << notesText(r.runs);
    for (const RunResult& run : measured(r.runs))
        EXPECT_TRUE(run.has(SpanKind::H2D) && run.has(SpanKind::Kernel) && run.has(SpanKind::D2H));
    EXPECT_EQ(notesText(r.runs).find("left out"), std::string::npos) << notesText(r.runs);
    // Four streams at once: CUPTI's timestamps of the events differ from the events' own by up to 7.6 µs (measured
    // on an H100), 1 to 2 % of a 0.3 ms iteration; each iteration is still told apart from every other.
    EXPECT_EQ(expectPrintedTimes(r, "(thread [0-9]+ iteration [0-9]+): ([0-9.]+) ms", 1.0, kEventFloorMs), 100)
        << r.output;
}

TEST_F(RecordGpu, AForkedChildIsASeriesOfItsOwnAndNeverAnotherProcessOnTheGpu)
{
    NvmlProbe probe;
    ProgramMachine machine(&probe);
    TempDir dir("record-gpu");
    const Recorded r = recordOrFail(dir, { testProgram("record-fork").string() }, "auto", &machine);
    ASSERT_EQ(r.outcome.exitCode, 0) << r.output;
    ASSERT_TRUE(r.recording.has_value());
    keepRecording(dir, "fork", r.output);
    const std::vector<std::uint32_t> pids = processesWithWork(*r.recording);
    ASSERT_EQ(pids.size(), 2u) << notesText(r.runs);
    ProgramInfo info;
    info.command = { "record-fork" };
    auto series = programSeries(*r.recording, {}, ProcessChoice {}, info, &machine);
    ASSERT_TRUE(series.ok()) << series.error().message();
    ASSERT_EQ(series->size(), 2u);
    std::set<std::uint32_t> program(pids.begin(), pids.end());
    for (const ProgramSeries& one : *series) {
        EXPECT_EQ(one.report.runs.size() - std::size_t(one.report.config.warmupRuns), 10u) << one.label;
        for (std::size_t i = 0; i < one.report.runs.size(); ++i)
            EXPECT_GE(one.report.runs.startMs(i), 0.0);
        // This test's own process holds a context on the GPU (the tests before it ran CUDA): it may be named, as
        // another process it is; the program's processes never are.
        const Assessment assessed = assessSeries(one.report);
        for (const Finding& f : assessed.advice.findings) {
            if (f.rule != rules::kInterference)
                continue;
            for (const std::uint32_t pid : pids)
                EXPECT_EQ(f.evidence.find("PID " + std::to_string(pid) + " "), std::string::npos)
                    << one.label << ": " << f.evidence;
        }
        if (one.report.machine && one.report.machine->read()) {
            for (const MachineSample& s : one.report.machine->samples) {
                for (const GpuProcess& p : otherProcesses(s, one.report.machine->selfPid).processes) {
                    EXPECT_EQ(program.count(p.pid), 0u) << one.label << " names the program's process " << p.pid;
                }
            }
        }
        std::printf("  %s: %zu runs, first at %.3f ms\n", one.label.c_str(), one.report.runs.size(),
            one.report.runs.startMs(0));
    }
    // The report the CLI writes of them is read back by the CLI's own --merge reader and the comparison reader.
    std::string printed;
    const std::string report = dir.file("fork.json");
    ASSERT_EQ(cliRecord(dir, { "--output", report }, { testProgram("record-fork").string() }, printed), 0) << printed;
    auto comparison = readComparisonFile(report);
    ASSERT_TRUE(comparison.ok()) << comparison.error().message();
    EXPECT_EQ(comparison->comparison, std::optional(Comparison::Processes));
    EXPECT_EQ(comparison->variants.size(), 2u);
}

TEST_F(RecordGpu, RanksAScriptStartsAreSeriesOfTheirOwn)
{
    TempDir dir("record-gpu");
    const Recorded r = recordOrFail(dir, { testProgram("record-ranks.sh").string() });
    ASSERT_EQ(r.outcome.exitCode, 0) << r.output;
    ASSERT_TRUE(r.recording.has_value());
    keepRecording(dir, "ranks", r.output);
    const std::vector<std::uint32_t> pids = processesWithWork(*r.recording);
    ASSERT_EQ(pids.size(), 2u);
    for (std::uint32_t pid : pids) {
        const RecordedRuns one = splitIterations(*r.recording, {}, pid);
        EXPECT_EQ(measured(one).size(), 15u) << "process " << pid << "\n" << notesText(one);
    }
    EXPECT_GE(r.outcome.pids.size(), 2u) << "each rank connected on its own";
    EXPECT_EQ(r.outcome.refusedConnections, 0u);
}

TEST_F(RecordGpu, ALoopOfSynchronousCopiesIsTwentyIterationsAndNotLaunchBound)
{
    TempDir dir("record-gpu");
    const Recorded r = recordOrFail(dir, { testProgram("record-sync-copy").string() });
    ASSERT_EQ(r.outcome.exitCode, 0) << r.output;
    keepRecording(dir, "sync_copy", r.output);
    ASSERT_EQ(measured(r.runs).size(), 20u) << notesText(r.runs);
    for (const RunResult& run : measured(r.runs)) {
        EXPECT_TRUE(run.has(SpanKind::H2D) && run.has(SpanKind::Kernel) && run.has(SpanKind::D2H));
        EXPECT_GT(run.waitMs(), run.cpuSubmitMs()) << "the host waits in its copies: that is no submission";
    }
    const Advice advice = adviceOn(r, "record-sync-copy");
    EXPECT_NE(findingOf(advice, rules::kSynchronousCopies), nullptr);
    EXPECT_EQ(findingOf(advice, rules::kSubmitBound), nullptr) << findingOf(advice, rules::kSubmitBound)->evidence;
}

TEST_F(RecordGpu, DriverApiWorkIsTimedAsItsOwnEventsTimeIt)
{
    TempDir dir("record-gpu");
    const Recorded r = recordOrFail(dir, { testProgram("record-driver-api").string() });
    ASSERT_EQ(r.outcome.exitCode, 0) << r.output;
    keepRecording(dir, "driver_api", r.output);
    ASSERT_EQ(measured(r.runs).size(), 20u) << notesText(r.runs);
    for (const RunResult& run : measured(r.runs))
        EXPECT_TRUE(run.has(SpanKind::H2D) && run.has(SpanKind::Kernel) && run.has(SpanKind::D2H));
    EXPECT_EQ(notesText(r.runs).find("left out"), std::string::npos) << notesText(r.runs);
    EXPECT_EQ(expectPrintedTimes(r, "(iteration [0-9]+): ([0-9.]+) ms", 1.0), 20) << r.output;
}

TEST_F(RecordGpu, AGraphsLaunchesAreItsIterations)
{
    TempDir dir("record-gpu");
    const Recorded r = recordOrFail(dir, { testProgram("record-graph").string() });
    ASSERT_EQ(r.outcome.exitCode, 0) << r.output;
    keepRecording(dir, "graph", r.output);
    EXPECT_GE(measured(r.runs).size(), 20u) << notesText(r.runs);
    std::size_t whole = 0;
    for (const RunResult& run : measured(r.runs))
        whole += run.has(SpanKind::H2D) && run.has(SpanKind::Kernel) && run.has(SpanKind::D2H) ? 1 : 0;
    EXPECT_GE(whole, 20u);
    EXPECT_EQ(expectPrintedTimes(r, "(iteration [0-9]+): ([0-9.]+) ms", 1.0), 20) << r.output;
}

TEST_F(RecordGpu, ACrashKeepsEveryIterationBeforeItAndTheRecorderSaysSo)
{
    TempDir dir("record-gpu");
    const Recorded r = recordOrFail(dir, { testProgram("record-crash").string() });
    EXPECT_EQ(r.outcome.signal, SIGSEGV) << r.output;
    keepRecording(dir, "crash", r.output);
    EXPECT_GE(measured(r.runs).size(), 5u) << notesText(r.runs);
    EXPECT_NE(notesText(r.runs).find("died on signal"), std::string::npos) << notesText(r.runs);
    std::string printed;
    const std::string report = dir.file("crash.json");
    EXPECT_EQ(cliRecord(dir, { "--output", report }, { testProgram("record-crash").string() }, printed),
        4) << printed;
    auto read = readReportFile(report);
    ASSERT_TRUE(read.ok()) << read.error().message() << "\n" << printed;
    EXPECT_GE(read->runs.size(), 5u);
    ASSERT_TRUE(read->program.has_value());
    EXPECT_EQ(read->program->signal, SIGSEGV);
}

TEST_F(RecordGpu, AFailingExitFailsTheRecorderAndNoGatePassesOnIt)
{
    TempDir dir("record-gpu");
    std::string printed;
    const std::string report = dir.file("exit3.json");
    const std::string app = testProgram("record-exit3").string();
    EXPECT_EQ(cliRecord(dir, { "--output", report }, { app }, printed), 4) << printed;
    auto read = readReportFile(report);
    ASSERT_TRUE(read.ok()) << read.error().message();
    ASSERT_TRUE(read->program.has_value());
    EXPECT_EQ(read->program->exitCode, 3);
    EXPECT_EQ(cliRecord(dir, { "--baseline", report, "--max-slowdown", "5", "--allow-different" }, { app }, printed),
        4)
        << printed;
}

TEST_F(RecordGpu, ALaunchBoundLoopIsAdvisedAsLaunchBound)
{
    TempDir dir("record-gpu");
    const Recorded r = recordOrFail(dir, { testProgram("record-launch-bound").string(), "40" });
    ASSERT_EQ(r.outcome.exitCode, 0) << r.output;
    keepRecording(dir, "launch_bound", r.output);
    EXPECT_GE(measured(r.runs).size(), 39u) << notesText(r.runs);
    const Advice advice = adviceOn(r, "record-launch-bound");
    const Finding* f = findingOf(advice, rules::kSubmitBound);
    ASSERT_NE(f, nullptr) << "100 empty kernels an iteration, launched one by one";
    std::printf("  %s\n", f->evidence.c_str());
}

}  // namespace
}  // namespace asyncscope

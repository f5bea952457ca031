// The recorder's test programs (tests/gpu/programs) as they were recorded on an NVIDIA H100 and kept under
// tests/data/recordings (h100-*.record, each beside what the program printed): four threads each with its own
// iterations, a program that forks and one that a script starts twice (each process a series), a loop of
// synchronous copies from pageable memory, the driver API, a CUDA graph, a launch-bound loop and a crash. Each is split as the recorder
// splits it and held to what the program did and printed, and the advice's program rules to what is true of it.
#include "engine/model/advice.hpp"
#include "engine/record/iterations.hpp"
#include "engine/record/program_report.hpp"
#include "engine/record/recording.hpp"

#include <gtest/gtest.h>

#include <fstream>
#include <regex>
#include <sstream>

namespace asyncscope {
namespace {

std::string dataFile(const std::string& name)
{
    return std::string(ASYNCSCOPE_TEST_DATA) + "/recordings/" + name;
}

Recording recordingOf(const std::string& name)
{
    auto recording = readRecordingFile(dataFile("h100-" + name + ".record"));
    EXPECT_TRUE(recording.ok()) << (recording ? "" : recording.error().message());
    return recording ? std::move(*recording) : Recording {};
}

std::string printedBy(const std::string& name)
{
    std::ifstream in(dataFile("h100-" + name + ".stdout.txt"));
    std::ostringstream text;
    text << in.rdbuf();
    return text.str();
}

std::vector<RunResult> measured(const RecordedRuns& split)
{
    std::vector<RunResult> runs;
    for (const RunResult& r : split.runs)
        if (!r.warmup)
            runs.push_back(r);
    return runs;
}

std::string notesOf(const RecordedRuns& split)
{
    std::string all;
    for (const std::string& n : split.notes)
        all += n + "\n";
    return all;
}

bool wholePipeline(const RunResult& run)
{
    return run.has(SpanKind::H2D) && run.has(SpanKind::Kernel) && run.has(SpanKind::D2H);
}

// Each "iteration I: X ms" the program printed, a recorded run within 1 % or its last digit.
int printedFound(const RecordedRuns& split, const std::string& printed, const std::string& pattern)
{
    int found = 0;
    const std::regex line(pattern);
    for (auto it = std::sregex_iterator(printed.begin(), printed.end(), line); it != std::sregex_iterator(); ++it) {
        const double ms = std::stod((*it)[2].str());
        double nearest = -1.0;
        for (const RunResult& r : split.runs)
            if (nearest < 0 || std::abs(r.gpuMs - ms) < std::abs(nearest - ms))
                nearest = r.gpuMs;
        EXPECT_NEAR(nearest, ms, std::max(0.01 * ms, 0.0005)) << (*it)[1].str();
        ++found;
    }
    return found;
}

const Finding* findingOf(const Advice& advice, std::string_view rule)
{
    for (const Finding& f : advice.findings)
        if (f.rule == rule)
            return &f;
    return nullptr;
}

Advice adviceOf(const Recording& recording, const RecordedRuns& split)
{
    ProgramInfo program;
    program.command = { "app" };
    return assessSeries(programReport(recording, split, program)).advice;
}

TEST(RecordedPrograms, FourThreadsGiveTwentyFiveIterationsEach)
{
    const RecordedRuns split = splitIterations(recordingOf("threads"), {});
    ASSERT_EQ(split.threads.size(), 4u) << notesOf(split);
    for (const ProgramThread& t : split.threads)
        EXPECT_EQ(t.runs, 25u);
    EXPECT_EQ(measured(split).size(), 100u);
    for (const RunResult& run : measured(split))
        EXPECT_TRUE(wholePipeline(run));
    EXPECT_EQ(notesOf(split).find("left out"), std::string::npos) << notesOf(split);
}

TEST(RecordedPrograms, AForkedChildAndTwoRanksAreSeriesOfTheirOwn)
{
    for (const char* name : { "fork", "ranks" }) {
        SCOPED_TRACE(name);
        const Recording recording = recordingOf(name);
        ProgramInfo program;
        program.command = { name };
        auto series = programSeries(recording, {}, ProcessChoice {}, program);
        ASSERT_TRUE(series.ok()) << series.error().message();
        ASSERT_EQ(series->size(), 2u);
        const std::size_t each = std::string(name) == "fork" ? 10u : 15u;
        for (const ProgramSeries& one : *series) {
            EXPECT_EQ(one.report.runs.size() - std::size_t(one.report.config.warmupRuns), each) << one.label;
            for (std::size_t i = 0; i < one.report.runs.size(); ++i)
                EXPECT_GE(one.report.runs.startMs(i), 0.0);
        }
        // Every process's runs as one series: still no start below 0.
        const RecordedRuns all = splitIterations(recording, {});
        for (const RunResult& run : all.runs)
            EXPECT_GE(run.startMs, 0.0);
        EXPECT_EQ(measured(all).size(), 2 * each);
    }
}

TEST(RecordedPrograms, ALoopOfSynchronousPageableCopiesIsTwentyIterationsAdvisedAsWhatItIs)
{
    const Recording recording = recordingOf("sync_copy");
    const RecordedRuns split = splitIterations(recording, {});
    ASSERT_EQ(measured(split).size(), 20u) << notesOf(split);
    for (const RunResult& run : measured(split)) {
        EXPECT_TRUE(wholePipeline(run));
        EXPECT_GT(run.waitMs(), 10 * run.cpuSubmitMs()) << "its host time is waiting in its copies";
    }
    const Advice advice = adviceOf(recording, split);
    EXPECT_NE(findingOf(advice, rules::kSynchronousCopies), nullptr);
    EXPECT_NE(findingOf(advice, rules::kPageableCopies), nullptr);
    EXPECT_EQ(findingOf(advice, rules::kSubmitBound), nullptr) << "waiting is no launch cost";
}

TEST(RecordedPrograms, DriverApiIterationsAreTimedAsTheProgramTimedThem)
{
    const RecordedRuns split = splitIterations(recordingOf("driver_api"), {});
    ASSERT_EQ(measured(split).size(), 20u) << notesOf(split);
    for (const RunResult& run : measured(split)) {
        EXPECT_TRUE(wholePipeline(run));
        EXPECT_GT(run.cpuSubmitMs(), 0.0) << "cuMemcpyHtoDAsync, cuLaunchKernel, cuMemcpyDtoHAsync";
        EXPECT_GT(run.waitMs(), 0.0) << "cuStreamSynchronize";
    }
    EXPECT_EQ(printedFound(split, printedBy("driver_api"), "(iteration [0-9]+): ([0-9.]+) ms"), 20);
    EXPECT_EQ(notesOf(split).find("left out"), std::string::npos) << notesOf(split);
}

TEST(RecordedPrograms, AGraphsLaunchesAreItsIterations)
{
    const RecordedRuns split = splitIterations(recordingOf("graph"), {});
    ASSERT_EQ(measured(split).size(), 20u) << notesOf(split);
    for (const RunResult& run : measured(split))
        EXPECT_TRUE(wholePipeline(run));
    EXPECT_EQ(printedFound(split, printedBy("graph"), "(iteration [0-9]+): ([0-9.]+) ms"), 20);
}

TEST(RecordedPrograms, ALaunchBoundLoopIsAdvisedAsLaunchBound)
{
    const Recording recording = recordingOf("launch_bound");
    const RecordedRuns split = splitIterations(recording, {});
    EXPECT_GE(measured(split).size(), 39u) << notesOf(split);
    const Finding* f = findingOf(adviceOf(recording, split), rules::kSubmitBound);
    ASSERT_NE(f, nullptr) << "100 empty kernels an iteration, launched one by one";
    EXPECT_NE(f->evidence.find("100 kernels"), std::string::npos) << f->evidence;
}

TEST(RecordedPrograms, ACrashKeepsTheFiveIterationsBeforeIt)
{
    const Recording recording = recordingOf("crash");
    ASSERT_FALSE(recording.processes.empty());
    EXPECT_EQ(recording.processes.front().signal, 11);
    const RecordedRuns split = splitIterations(recording, {});
    EXPECT_EQ(measured(split).size(), 5u) << notesOf(split);
    EXPECT_EQ(printedFound(split, printedBy("crash"), "(iteration [0-9]+): ([0-9.]+) ms"), 5);
    EXPECT_NE(notesOf(split).find("died on signal 11"), std::string::npos) << notesOf(split);
    ProgramInfo program;
    program.command = { "record-crash" };
    programEndFrom(recording, program);
    EXPECT_TRUE(programFailed(program));
}

}  // namespace
}  // namespace asyncscope

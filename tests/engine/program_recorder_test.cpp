// The recorder (engine/record/program_recorder) running a program and keeping what its processes send, with the
// test fake tests/fakes/fake_recorded_program.cpp in the place of a CUDA program and its injection library: a normal
// exit, a crash, a fork, a program stopped after a duration or by the stop flag, one that never initialises CUDA, and
// programs that cannot be run.
#include "engine/record/iterations.hpp"
#include "engine/record/program_recorder.hpp"
#include "engine/record/recording.hpp"

#include "temp_dir.hpp"

#include <gtest/gtest.h>

#include <sys/stat.h>

#include <algorithm>
#include <chrono>
#include <fstream>
#include <iterator>
#include <thread>

namespace asyncscope {
namespace {

using testing::TempDir;

struct Recorded {
    RecordOutcome outcome;
    Recording recording;
};

Recorded record(TempDir& dir, std::vector<std::string> arguments, std::optional<double> duration = {},
    const std::atomic<bool>* stop = nullptr)
{
    RecordRequest request;
    request.command = { FAKE_RECORDED_PROGRAM };
    request.command.insert(request.command.end(), arguments.begin(), arguments.end());
    request.injectionLibrary = "/nonexistent/libasyncscope-inject.so";  // the fake needs none
    request.cuptiLibrary = "/nonexistent/libcupti.so";
    request.recordingPath = dir.file("app.record");
    request.durationSeconds = duration;
    static const std::atomic<bool> never { false };
    RecordingReader live(request.recordingPath);
    auto outcome = recordProgram(request, stop ? *stop : never, &live);
    EXPECT_TRUE(outcome.ok()) << (outcome ? std::string() : outcome.error().message());
    if (!outcome)
        return {};
    Recorded r { *outcome, {} };
    if (outcome->connected) {
        // Read as it came, the recording is the file kept.
        auto recording = live.finish();
        EXPECT_TRUE(recording.ok()) << (recording ? std::string() : recording.error().message());
        auto kept = readRecordingFile(request.recordingPath);
        EXPECT_TRUE(kept.ok()) << (kept ? std::string() : kept.error().message());
        if (!recording || !kept)
            return r;
        std::ifstream file(request.recordingPath);
        EXPECT_EQ(live.lines(),
            std::size_t(std::count(std::istreambuf_iterator<char>(file), std::istreambuf_iterator<char>(), '\n')));
        EXPECT_EQ(recording->processes.size(), kept->processes.size());
        for (std::size_t i = 0; i < std::min(recording->processes.size(), kept->processes.size()); ++i)
            EXPECT_EQ(recording->processes[i].exited, kept->processes[i].exited);
        EXPECT_EQ(recording->operations.size(), kept->operations.size());
        EXPECT_EQ(recording->calls.size(), kept->calls.size());
        EXPECT_EQ(recording->syncs.size(), kept->syncs.size());
        EXPECT_EQ(recording->marks.size(), kept->marks.size());
        r.recording = std::move(*recording);
    }
    return r;
}

TEST(ProgramRecorder, KeepsEveryLineOfAProgramThatExits)
{
    TempDir dir("recorder");
    const Recorded r = record(dir, { "iterations", "5" });
    EXPECT_EQ(r.outcome.exitCode, 0);
    EXPECT_FALSE(r.outcome.stopped);
    EXPECT_TRUE(r.outcome.connected);
    EXPECT_EQ(r.outcome.program, FAKE_RECORDED_PROGRAM);
    ASSERT_EQ(r.recording.processes.size(), 1u);
    EXPECT_TRUE(r.recording.processes[0].exited);
    EXPECT_EQ(r.recording.operations.size(), 15u);
    const RecordedRuns split = splitIterations(r.recording, {});
    ASSERT_EQ(split.runs.size(), 5u);
    EXPECT_NEAR(split.runs[0].gpuMs, 0.29, 1e-9);  // first copy's start to the last one's end
    EXPECT_TRUE(split.notes.empty()) << split.notes.front();
}

TEST(ProgramRecorder, KeepsWhatACrashedProgramSentAndSaysSo)
{
    TempDir dir("recorder");
    const Recorded r = record(dir, { "crash" });
    EXPECT_EQ(r.outcome.signal, SIGABRT);
    EXPECT_EQ(r.outcome.exitCode, -1);
    ASSERT_EQ(r.recording.processes.size(), 1u);
    EXPECT_FALSE(r.recording.processes[0].exited);
    EXPECT_EQ(r.recording.operations.size(), 6u);  // its half line is not kept: the file reads whole
    const RecordedRuns split = splitIterations(r.recording, {});
    EXPECT_EQ(split.runs.size(), 2u);
    ASSERT_FALSE(split.notes.empty());
    EXPECT_NE(split.notes.back().find("did not exit normally"), std::string::npos) << split.notes.back();
}

TEST(ProgramRecorder, EachProcessOfAForkingProgramIsKept)
{
    TempDir dir("recorder");
    const Recorded r = record(dir, { "fork", "2" });
    EXPECT_EQ(r.outcome.exitCode, 0);
    ASSERT_EQ(r.recording.processes.size(), 2u);
    EXPECT_NE(r.recording.processes[0].pid, r.recording.processes[1].pid);
    EXPECT_TRUE(r.recording.processes[0].exited && r.recording.processes[1].exited);
    EXPECT_EQ(r.recording.operations.size(), 12u);
    EXPECT_EQ(splitIterations(r.recording, {}).runs.size(), 4u);  // each process's own
}

TEST(ProgramRecorder, ADurationOrTheStopFlagStopsTheProgramAndKeepsItsRecording)
{
    TempDir dir("recorder");
    const auto started = std::chrono::steady_clock::now();
    const Recorded timed = record(dir, { "forever" }, 0.3);
    EXPECT_TRUE(timed.outcome.stopped);
    EXPECT_EQ(timed.outcome.signal, SIGINT);
    EXPECT_LT(std::chrono::steady_clock::now() - started, std::chrono::seconds(4));
    EXPECT_GE(splitIterations(timed.recording, {}).runs.size(), 3u);

    std::atomic<bool> stop { false };
    std::thread press([&stop] {
        std::this_thread::sleep_for(std::chrono::milliseconds(200));
        stop = true;
    });
    const Recorded stopped = record(dir, { "forever" }, std::nullopt, &stop);
    press.join();
    EXPECT_TRUE(stopped.outcome.stopped);
    EXPECT_GE(stopped.recording.operations.size(), 3u);
}

TEST(ProgramRecorder, AProgramThatNeverInitialisesCudaSendsNothing)
{
    TempDir dir("recorder");
    const Recorded r = record(dir, { "nocuda" });
    EXPECT_EQ(r.outcome.exitCode, 0);
    EXPECT_FALSE(r.outcome.connected);
    const Recorded failing = record(dir, { "exit", "7" });
    EXPECT_EQ(failing.outcome.exitCode, 7);  // the program's own status, its recording kept
    EXPECT_EQ(splitIterations(failing.recording, {}).runs.size(), 1u);
}

TEST(ProgramRecorder, AProgramThatCannotRunIsRefusedByName)
{
    TempDir dir("recorder");
    {
        std::ofstream(dir.file("script.sh")) << "#!/bin/sh\n";
    }
    const struct {
        std::string program;
        std::string message;
    } cases[] = {
        { dir.file("missing"), "missing' does not exist" },
        { "no-such-program-on-path-xyz", "'no-such-program-on-path-xyz' is not on PATH" },
        { dir.file("script.sh"), "script.sh is not executable" },
        { dir.file("."), "is not a program (not a regular file)" },
        { "", "no program to record" },
    };
    for (const auto& c : cases) {
        RecordRequest request;
        request.command = { c.program };
        request.recordingPath = dir.file("never.record");
        const std::atomic<bool> stop { false };
        const auto outcome = recordProgram(request, stop);
        ASSERT_FALSE(outcome.ok()) << c.program;
        EXPECT_NE(outcome.error().message().find(c.message), std::string::npos) << outcome.error().message();
    }
    EXPECT_FALSE(std::ifstream(dir.file("never.record")).good());  // nothing written for a program never run
}

TEST(ProgramRecorder, WithoutAFileTheRecordingIsReadAsItComes)
{
    RecordRequest request;
    request.command = { FAKE_RECORDED_PROGRAM, "iterations", "5" };
    request.injectionLibrary = "/nonexistent/libasyncscope-inject.so";  // the fake needs none
    request.cuptiLibrary = "/nonexistent/libcupti.so";
    const std::atomic<bool> stop { false };
    RecordingReader live("the record stream");
    const auto outcome = recordProgram(request, stop, &live);
    ASSERT_TRUE(outcome.ok()) << outcome.error().message();
    EXPECT_TRUE(outcome->connected);
    auto recording = live.finish();
    ASSERT_TRUE(recording.ok()) << recording.error().message();
    EXPECT_EQ(recording->operations.size(), 15u);

    const auto nowhere = recordProgram(request, stop);  // neither kept nor read: refused before it runs
    ASSERT_FALSE(nowhere.ok());
    EXPECT_NE(nowhere.error().message().find("neither kept nor read"), std::string::npos)
        << nowhere.error().message();
}

}  // namespace
}  // namespace asyncscope

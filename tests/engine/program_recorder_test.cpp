// The recorder (engine/record/program_recorder) running a program and keeping what its processes send, with the
// test fake tests/fakes/fake_recorded_program.cpp in the place of a CUDA program and its injection library: a normal
// exit, a crash, a fork, a program stopped after a duration or by the stop flag, one that never initialises CUDA,
// programs that cannot be run, connections from processes not the program's, and another tool's injection library.
#include "engine/record/iterations.hpp"
#include "engine/record/program_recorder.hpp"
#include "engine/record/recording.hpp"

#include "temp_dir.hpp"

#include <gtest/gtest.h>

#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/un.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <chrono>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <set>
#include <thread>

namespace asyncscope {
namespace {

using testing::TempDir;

struct Recorded {
    RecordOutcome outcome;
    Recording recording;
};

// Records `command` (the fake, or a script that runs it).
Recorded recordCommand(TempDir& dir, std::vector<std::string> command, std::optional<double> duration = {},
    const std::atomic<bool>* stop = nullptr)
{
    RecordRequest request;
    request.command = std::move(command);
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

Recorded record(TempDir& dir, std::vector<std::string> arguments, std::optional<double> duration = {},
    const std::atomic<bool>* stop = nullptr)
{
    arguments.insert(arguments.begin(), FAKE_RECORDED_PROGRAM);
    return recordCommand(dir, std::move(arguments), duration, stop);
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

TEST(ProgramRecorder, TheProgramsProcessesAreTakenEachListed)
{
    TempDir dir("recorder");
    // The program and the child it forks, each connected: the child's parent is the program.
    const Recorded forked = record(dir, { "fork", "2" });
    EXPECT_EQ(forked.outcome.refusedConnections, 0u);
    ASSERT_EQ(forked.outcome.pids.size(), 2u);
    ASSERT_EQ(forked.recording.processes.size(), 2u);
    std::set<std::uint32_t> recorded;
    for (const RecordedProcess& p : forked.recording.processes)
        recorded.insert(p.pid);
    EXPECT_EQ(recorded, std::set<std::uint32_t>(forked.outcome.pids.begin(), forked.outcome.pids.end()));
    const RecordedProcess& first = forked.recording.processes[0];
    const RecordedProcess& second = forked.recording.processes[1];
    EXPECT_TRUE(first.parent == second.pid || second.parent == first.pid);

    // A script that runs the program as its child (a descendant: its parent is the script), and one that execs it
    // (the program's own pid). Paced, as a CUDA program is: a process gone (and reaped) before its connection is
    // taken can no longer be told to be the program's.
    for (const char* how : { "", "exec " }) {
        const std::string script = dir.file(std::string("run") + (*how ? "-exec" : "") + ".sh");
        {
            std::ofstream(script) << "#!/bin/sh\n" << how << "'" << FAKE_RECORDED_PROGRAM << "' paced 2\n";
        }
        ASSERT_EQ(::chmod(script.c_str(), 0755), 0);
        const Recorded r = recordCommand(dir, { script });
        EXPECT_EQ(r.outcome.exitCode, 0) << how;
        EXPECT_EQ(r.outcome.refusedConnections, 0u) << how;
        ASSERT_EQ(r.outcome.pids.size(), 1u) << how;
        ASSERT_EQ(r.recording.processes.size(), 1u) << how;
        EXPECT_EQ(r.recording.processes[0].pid, r.outcome.pids[0]) << how;
        EXPECT_EQ(r.recording.operations.size(), 6u) << how;
    }
}

// Connects to the socket at the path the fake wrote to `file` as this process (not the program's), sends what an
// injection library would, and waits for the recorder to close the connection (2 s at most); then lets the fake end.
void intrude(const std::string& file)
{
    std::string path;
    for (int waited = 0; waited < 500 && path.empty(); ++waited) {
        std::ifstream(file) >> path;
        if (path.empty())
            std::this_thread::sleep_for(std::chrono::milliseconds(10));
    }
    const int fd = ::socket(AF_UNIX, SOCK_STREAM, 0);
    sockaddr_un address {};
    address.sun_family = AF_UNIX;
    std::strncpy(address.sun_path, path.c_str(), sizeof address.sun_path - 1);
    EXPECT_FALSE(path.empty());
    EXPECT_GE(fd, 0);
    if (fd >= 0 && !path.empty() && ::connect(fd, reinterpret_cast<const sockaddr*>(&address), sizeof address) == 0) {
        const std::string lines = "asyncscope-record 1\nprocess " + std::to_string(::getpid()) + " 1 intruder\napi " +
            std::to_string(::getpid()) + " 1 1 1 2 0 1 cudaFree\n";
        ::send(fd, lines.data(), lines.size(), MSG_NOSIGNAL);
        timeval limit { 2, 0 };
        ::setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &limit, sizeof limit);
        char byte = 0;
        const ssize_t got = ::recv(fd, &byte, 1, 0);  // closed: an end, or a reset where lines were left unread
        EXPECT_TRUE(got == 0 || (got < 0 && errno == ECONNRESET)) << "the recorder kept the connection open";
    }
    if (fd >= 0)
        ::close(fd);
    std::ofstream(file + ".go") << "go\n";
}

TEST(ProgramRecorder, AConnectionFromAProcessNotTheProgramsIsRefusedAndCounted)
{
    TempDir dir("recorder");
    const std::string file = dir.file("socket-path");
    std::thread intruder(intrude, file);
    const Recorded r = record(dir, { "expose", file });
    intruder.join();
    EXPECT_EQ(r.outcome.exitCode, 0);
    EXPECT_EQ(r.outcome.refusedConnections, 1u);
    ASSERT_EQ(r.outcome.pids.size(), 1u);
    ASSERT_EQ(r.recording.processes.size(), 1u);  // the intruder's lines are not read
    EXPECT_EQ(r.recording.processes[0].pid, r.outcome.pids[0]);
    EXPECT_NE(r.recording.processes[0].pid, std::uint32_t(::getpid()));
    EXPECT_TRUE(r.recording.processes[0].exited);
    EXPECT_EQ(r.recording.calls.size(), 4u);
}

TEST(ProgramRecorder, AnotherToolsInjectionLibraryIsRefusedBeforeTheProgramRuns)
{
    TempDir dir("recorder");
    {
        std::ofstream(dir.file("libasyncscope-inject.so")) << "a library\n";
    }
    std::filesystem::create_symlink(dir.file("libasyncscope-inject.so"), dir.file("linked-inject.so"));
    const auto request = [&dir](std::vector<std::pair<std::string, std::string>> environment) {
        RecordRequest r;
        r.command = { FAKE_RECORDED_PROGRAM, "iterations", "2" };
        r.injectionLibrary = dir.file("libasyncscope-inject.so");
        r.cuptiLibrary = "/nonexistent/libcupti.so";
        r.recordingPath = dir.file("app.record");
        r.environment = std::move(environment);
        return r;
    };
    const std::atomic<bool> stop { false };
    const struct {
        const char* name;
        const char* value;
        std::string message;
    } refused[] = {
        { "CUDA_INJECTION64_PATH", "/opt/other/libother-tool.so",
            "CUDA_INJECTION64_PATH is already set to /opt/other/libother-tool.so: another tool injects into CUDA "
            "programs, and a process takes one injection library" },
        { "NVTX_INJECTION64_PATH", "/opt/other/libother-nvtx.so",
            "NVTX_INJECTION64_PATH is already set to /opt/other/libother-nvtx.so: another tool takes the program's "
            "NVTX ranges" },
    };
    for (const auto& c : refused) {
        // In the request's environment, or in the recorder's own.
        for (const bool own : { false, true }) {
            if (own) {
                ASSERT_EQ(::setenv(c.name, c.value, 1), 0);
            }
            const auto outcome = recordProgram(request(own ? std::vector<std::pair<std::string, std::string>> {}
                                                           : std::vector<std::pair<std::string, std::string>> {
                                                               { c.name, c.value } }),
                stop);
            if (own)
                ::unsetenv(c.name);
            ASSERT_FALSE(outcome.ok()) << c.name << (own ? " in the recorder's environment" : "");
            EXPECT_EQ(outcome.error().kind, ErrorKind::Usage);
            EXPECT_NE(outcome.error().message().find(c.message), std::string::npos) << outcome.error().message();
            EXPECT_NE(outcome.error().message().find("Unset it to record with AsyncScope, or run the other tool "
                                                     "without the recorder."),
                std::string::npos)
                << outcome.error().message();
            EXPECT_FALSE(std::filesystem::exists(dir.file("app.record")));  // refused before anything ran
        }
    }
    // The recorder's own libraries, named as they are or through a link, are no other tool's.
    const auto same = recordProgram(request({ { "CUDA_INJECTION64_PATH", dir.file("linked-inject.so") },
                                        { "NVTX_INJECTION64_PATH", "/nonexistent/libcupti.so" } }),
        stop);
    ASSERT_TRUE(same.ok()) << same.error().message();
    EXPECT_EQ(same->exitCode, 0);
    EXPECT_TRUE(same->connected);
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

// A recording's iterations as the general case has them (engine/record/iterations): threads that each wait for
// their own work, a loop of synchronous copies, work issued through the driver API (a runtime call's own driver calls
// folded into it), several processes (each a series, every start time at or after 0), a process that died on a signal,
// CPU submit time that counts launches and enqueues alone, and many NVTX ranges; and `asyncscope-cli record --from`'s
// exit status for a failed program and for a recording it refuses. Record streams are written here line by line as
// the injection library writes them.
#include "cli/cli_app.hpp"
#include "cli/cli_record.hpp"
#include "engine/io/json/json_report.hpp"
#include "engine/record/iterations.hpp"
#include "engine/record/program_report.hpp"
#include "engine/record/record_stream.hpp"
#include "engine/record/recording.hpp"
#include "engine/run/plan_advice.hpp"

#include "temp_dir.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <fstream>
#include <set>
#include <sstream>
#include <string>
#include <vector>

namespace asyncscope {
namespace {

// A record stream of one or more processes and threads.
class Lines {
public:
    Lines() { m_text << record::kMagic << ' ' << record::kInlineNamesVersion << '\n'; }
    Lines& process(std::uint32_t pid, std::uint32_t parent = 1, const char* exe = "/opt/app/bin/app")
    {
        m_text << "process " << pid << ' ' << parent << ' ' << exe << '\n';
        m_text << "device " << pid
               << " 0 9 0 150000000000 132 7 1980000 13000 0123456789abcdef0123456789abcdef NVIDIA H200\n";
        return *this;
    }
    // A call of `pid`'s thread `thread`; returns its correlation id.
    std::uint32_t call(std::uint32_t pid, std::uint32_t thread, std::uint64_t from, std::uint64_t to, const char* name,
        int returned = 0)
    {
        const std::uint32_t id = m_correlation++;
        m_text << "api " << pid << ' ' << thread << ' ' << id << ' ' << from << ' ' << to << ' ' << returned << " 1 "
               << name << '\n';
        return id;
    }
    Lines& copy(std::uint32_t pid, std::uint32_t correlation, std::uint64_t from, std::uint64_t to, int kind,
        std::uint32_t stream = 13, int hostMemory = 2)
    {
        m_text << "copy " << pid << " 0 1 " << stream << ' ' << correlation << ' ' << from << ' ' << to << " 1048576 "
               << kind << ' ' << (kind == 1 ? hostMemory : 3) << ' ' << (kind == 1 ? 3 : hostMemory) << " 0 1\n";
        return *this;
    }
    Lines& kernel(std::uint32_t pid, std::uint32_t correlation, std::uint64_t from, std::uint64_t to,
        std::uint32_t stream = 13)
    {
        m_text << "kernel " << pid << " 0 1 " << stream << ' ' << correlation << ' ' << from << ' ' << to
               << " 0 2048 512 _Z4workPfi\n";
        return *this;
    }
    // One iteration through the runtime on `thread`'s stream: copy in, kernel, copy out (asynchronous), then
    // `wait`; 100 µs long from `t`.
    Lines& iteration(std::uint32_t pid, std::uint32_t thread, std::uint64_t t, std::uint32_t stream,
        const char* wait = "cudaStreamSynchronize_v3020")
    {
        copy(pid, call(pid, thread, t, t + 2'000, "cudaMemcpyAsync_v3020"), t + 3'000, t + 30'000, 1, stream);
        kernel(pid, call(pid, thread, t + 2'500, t + 4'000, "cudaLaunchKernel_v7000"), t + 31'000, t + 60'000, stream);
        copy(pid, call(pid, thread, t + 4'500, t + 6'000, "cudaMemcpyAsync_v3020"), t + 61'000, t + 90'000, 2, stream);
        call(pid, thread, t + 6'500, t + 95'000, wait);
        return *this;
    }
    Lines& line(const std::string& text)
    {
        m_text << text << '\n';
        return *this;
    }
    std::string text() const { return m_text.str(); }

private:
    std::ostringstream m_text;
    std::uint32_t m_correlation = 100;
};

Recording read(const std::string& text)
{
    std::istringstream in(text);
    auto recording = readRecording(in, "app.record");
    EXPECT_TRUE(recording.ok()) << (recording ? std::string() : recording.error().message());
    return recording ? *recording : Recording {};
}

std::string notesOf(const RecordedRuns& split)
{
    std::string all;
    for (const std::string& n : split.notes)
        all += n + "\n";
    return all;
}

TEST(IterationsPerThread, EachThreadsWaitEndsItsOwnIterationsAndNothingIsLeftOut)
{
    // Four threads, each on a stream of its own, 25 iterations each, their calls interleaved in time: a thread's
    // synchronize waits for its own stream, not for the others'.
    Lines lines;
    lines.process(4242);
    for (int i = 0; i < 25; ++i)
        for (std::uint32_t thread = 0; thread < 4; ++thread)
            lines.iteration(4242, 70 + thread, 1'000'000 + std::uint64_t(i) * 200'000 + thread * 20'000, 20 + thread);
    lines.line("exit 4242");
    const RecordedRuns split = splitIterations(read(lines.text()), {});
    EXPECT_EQ(split.runs.size(), 100u) << notesOf(split);
    ASSERT_EQ(split.threads.size(), 4u);
    std::set<std::uint32_t> threads;
    for (const ProgramThread& t : split.threads) {
        EXPECT_EQ(t.pid, 4242u);
        EXPECT_EQ(t.runs, 25u);
        threads.insert(t.thread);
    }
    EXPECT_EQ(threads, (std::set<std::uint32_t> { 70, 71, 72, 73 }));
    for (const RunResult& run : split.runs) {
        EXPECT_TRUE(run.has(SpanKind::H2D) && run.has(SpanKind::Kernel) && run.has(SpanKind::D2H));
        EXPECT_DOUBLE_EQ(run.gpuMs, 0.087);  // its own copies and kernel, none of another thread's
        const int lane = threadPlaceOf(run);
        ASSERT_GE(lane, 0);
        ASSERT_LT(std::size_t(lane), split.threads.size());
        for (const Span& s : run.traced) {
            if (!onGpu(s.kind)) {
                EXPECT_EQ(s.stream, lane) << "a run's calls are its thread's";
            }
        }
    }
    // Runs in the order they began, over the threads.
    for (std::size_t i = 1; i < split.runs.size(); ++i)
        EXPECT_GE(split.runs[i].startMs, split.runs[i - 1].startMs);
    EXPECT_EQ(split.how, "host synchronizations, thread by thread");
    const std::string notes = notesOf(split);
    EXPECT_EQ(notes.find("left out"), std::string::npos) << notes;
    EXPECT_NE(notes.find("thread by thread"), std::string::npos) << notes;
}

TEST(IterationsPerThread, ASynchronousCopyToTheHostEndsAnIteration)
{
    // 20 × cudaMemcpy to the device, a kernel, cudaMemcpy back: no synchronize, yet 20 iterations.
    Lines lines;
    lines.process(4242);
    for (int i = 0; i < 20; ++i) {
        const std::uint64_t t = 1'000'000 + std::uint64_t(i) * 1'000'000;
        lines.copy(4242, lines.call(4242, 7, t, t + 300'000, "cudaMemcpy_v3020"), t + 10'000, t + 290'000, 1, 7, 1);
        lines.kernel(4242, lines.call(4242, 7, t + 301'000, t + 305'000, "cudaLaunchKernel_v7000"), t + 306'000,
            t + 400'000, 7);
        lines.copy(4242, lines.call(4242, 7, t + 306'000, t + 700'000, "cudaMemcpy_v3020"), t + 401'000,
            t + 690'000, 2, 7, 1);
    }
    const RecordedRuns split = splitIterations(read(lines.line("exit 4242").text()), {});
    ASSERT_EQ(split.runs.size(), 20u) << notesOf(split);
    for (const RunResult& run : split.runs) {
        EXPECT_TRUE(run.has(SpanKind::H2D) && run.has(SpanKind::Kernel) && run.has(SpanKind::D2H));
        EXPECT_DOUBLE_EQ(run.cpuSubmitMs(), 0.004) << "the launch alone: a synchronous copy is a wait";
        EXPECT_DOUBLE_EQ(run.waitMs(), 0.3 + 0.394);
    }
    EXPECT_EQ(split.copies.synchronous, 40u);
    EXPECT_EQ(split.copies.pageable, 40u);
}

TEST(IterationsPerThread, SynchronousCopiesOneWayEndIterationsWhereNothingElseDoes)
{
    Lines lines;
    lines.process(4242);
    for (int i = 0; i < 6; ++i) {
        const std::uint64_t t = 1'000'000 + std::uint64_t(i) * 1'000'000;
        lines.copy(4242, lines.call(4242, 7, t, t + 300'000, "cudaMemcpy_v3020"), t + 10'000, t + 290'000, 1, 7);
    }
    const RecordedRuns split = splitIterations(read(lines.text()), {});
    EXPECT_EQ(split.runs.size(), 6u) << notesOf(split);
}

TEST(IterationsPerThread, DriverApiWorkIsTimedAndARuntimeCallsOwnDriverCallsAreFoldedIntoIt)
{
    Lines lines;
    lines.process(4242);
    for (int i = 0; i < 10; ++i) {
        const std::uint64_t t = 1'000'000 + std::uint64_t(i) * 1'000'000;
        lines.copy(4242, lines.call(4242, 7, t, t + 2'000, "cuMemcpyHtoDAsync_v2"), t + 3'000, t + 30'000, 1, 9);
        lines.kernel(4242, lines.call(4242, 7, t + 2'500, t + 4'000, "cuLaunchKernel"), t + 31'000, t + 60'000, 9);
        lines.copy(4242, lines.call(4242, 7, t + 4'500, t + 6'000, "cuMemcpyDtoHAsync_v2"), t + 61'000, t + 90'000, 2,
            9);
        lines.call(4242, 7, t + 6'500, t + 95'000, "cuStreamSynchronize");
    }
    // A runtime launch whose driver call (recorded within it, under a correlation of its own) issued the kernel.
    const std::uint64_t t = 20'000'000;
    const std::uint32_t driver = lines.call(4242, 7, t + 100, t + 3'000, "cuLaunchKernel");  // within the next
    lines.call(4242, 7, t, t + 4'000, "cudaLaunchKernel_v7000");
    lines.kernel(4242, driver, t + 5'000, t + 9'000, 9);  // issued under the driver call's correlation
    lines.call(4242, 7, t + 5'000, t + 10'000, "cudaStreamSynchronize_v3020");
    const Recording recording = read(lines.line("exit 4242").text());
    ASSERT_EQ(recording.calls[40].name, "cuLaunchKernel");
    ASSERT_EQ(recording.calls[40].correlation, 140u);
    const RecordedRuns split = splitIterations(recording, {});
    ASSERT_EQ(split.runs.size(), 11u) << notesOf(split);
    for (std::size_t i = 0; i < 10; ++i) {
        const RunResult& run = split.runs[i];
        EXPECT_TRUE(run.has(SpanKind::H2D) && run.has(SpanKind::Kernel) && run.has(SpanKind::D2H));
        EXPECT_DOUBLE_EQ(run.gpuMs, 0.087);
        EXPECT_DOUBLE_EQ(run.cpuSubmitMs(), 0.005);  // three enqueues of 2, 1.5 and 1.5 µs
        EXPECT_DOUBLE_EQ(run.waitMs(), 0.0885);       // cuStreamSynchronize
    }
    const RunResult& folded = split.runs[10];
    EXPECT_TRUE(folded.has(SpanKind::Kernel)) << "the runtime call's driver call issued it";
    EXPECT_DOUBLE_EQ(folded.cpuSubmitMs(), 0.004) << "the runtime call's time, its driver call's not counted again";
    EXPECT_EQ(std::count_if(folded.traced.begin(), folded.traced.end(),
                  [](const Span& s) { return s.kind == SpanKind::Api; }),
        2)
        << "cudaLaunchKernel and the synchronize: the driver call within the launch is not a call of its own";
    EXPECT_EQ(notesOf(split).find("left out"), std::string::npos) << notesOf(split);
    EXPECT_TRUE(isDriverCall("cuMemcpyHtoDAsync_v2"));
    EXPECT_FALSE(isDriverCall("cudaMemcpyAsync_v3020"));
    EXPECT_EQ(callBaseName("cuMemcpyHtoDAsync_v2"), "cuMemcpyHtoDAsync");
    EXPECT_TRUE(isHostSynchronization("cuCtxSynchronize"));
    EXPECT_TRUE(isSynchronousCopy("cuMemcpyDtoH_v2"));
    EXPECT_FALSE(isSynchronousCopy("cuMemcpyDtoHAsync_v2"));
    EXPECT_TRUE(isEnqueueCall("cuLaunchKernelEx"));
    EXPECT_TRUE(isEnqueueCall("cudaGraphLaunch_v10000"));
    EXPECT_FALSE(isEnqueueCall("cudaMalloc_v3020"));
    EXPECT_FALSE(isEnqueueCall("cuStreamSynchronize"));
}

TEST(IterationsPerThread, AllocationsAndWaitsAreNoSubmitTime)
{
    Lines lines;
    lines.process(4242);
    for (int i = 0; i < 3; ++i) {
        const std::uint64_t t = 1'000'000 + std::uint64_t(i) * 1'000'000;
        lines.call(4242, 7, t, t + 50'000, "cudaMalloc_v3020");  // before the first issuing call: between iterations
        lines.iteration(4242, 7, t + 60'000, 13);
        lines.call(4242, 7, t + 160'000, t + 170'000, "cudaFree_v3020");
    }
    const RecordedRuns split = splitIterations(read(lines.text()), {});
    ASSERT_EQ(split.runs.size(), 3u);
    for (const RunResult& run : split.runs)
        EXPECT_DOUBLE_EQ(run.cpuSubmitMs(), 0.005);  // 2 + 1.5 + 1.5 µs of enqueues
}

TEST(IterationsPerProcess, EachProcessIsASeriesAndEveryStartIsAtOrAfterZero)
{
    // A parent and the child it forked run at once; the child starts its first iteration before the parent's.
    Lines lines;
    lines.process(100).process(101, 100);
    for (int i = 0; i < 10; ++i) {
        lines.iteration(100, 1, 2'000'000 + std::uint64_t(i) * 300'000, 13);
        lines.iteration(101, 1, 1'900'000 + std::uint64_t(i) * 290'000, 13);
    }
    lines.line("exit 101").line("exit 100");
    const Recording recording = read(lines.text());
    EXPECT_EQ(processesWithWork(recording), (std::vector<std::uint32_t> { 100, 101 }));
    const RecordedRuns all = splitIterations(recording, {});
    ASSERT_EQ(all.runs.size(), 20u);
    EXPECT_EQ(all.threads.size(), 2u) << "thread 1 of each process is a lane of its own";
    for (const RunResult& run : all.runs)
        EXPECT_GE(run.startMs, 0.0);
    EXPECT_EQ(all.originPid, 101u);
    for (std::uint32_t pid : { 100u, 101u }) {
        const RecordedRuns one = splitIterations(recording, {}, pid);
        ASSERT_EQ(one.runs.size(), 10u);
        EXPECT_EQ(one.originPid, pid);
        EXPECT_DOUBLE_EQ(one.runs.front().startMs, 0.0);
    }

    ProgramInfo program;
    program.command = { "/opt/app/bin/app" };
    auto series = programSeries(recording, {}, ProcessChoice {}, program);
    ASSERT_TRUE(series.ok()) << series.error().message();
    ASSERT_EQ(series->size(), 2u);
    EXPECT_EQ(series->at(0).label, "process 100 (app)");
    EXPECT_EQ(series->at(1).report.program->pids, (std::vector<std::uint32_t> { 101 }));
    EXPECT_EQ(series->at(1).report.program->processes.size(), 2u);
    auto chosen = programSeries(recording, {}, *parseProcessChoice("101"), program);
    ASSERT_TRUE(chosen.ok());
    ASSERT_EQ(chosen->size(), 1u);
    EXPECT_EQ(chosen->front().report.runs.size(), 10u);
    auto together = programSeries(recording, {}, *parseProcessChoice("all"), program);
    ASSERT_TRUE(together.ok());
    ASSERT_EQ(together->size(), 1u);
    EXPECT_EQ(together->front().report.runs.size(), 20u);
    const auto absent = programSeries(recording, {}, *parseProcessChoice("77"), program);
    ASSERT_FALSE(absent.ok());
    EXPECT_NE(absent.error().message().find("process 100 (app), process 101 (app)"), std::string::npos)
        << absent.error().message();
    EXPECT_FALSE(parseProcessChoice("-3").ok());
    EXPECT_FALSE(parseProcessChoice("every").ok());

    // The series as one comparison of processes, written and read back whole.
    const PlanReport plan = processComparison(std::move(*series));
    std::stringstream file;
    writeComparisonJson(file, plan, assessPlan(plan));
    auto back = readComparisonJson(file);
    ASSERT_TRUE(back.ok()) << back.error().message();
    EXPECT_EQ(back->comparison, std::optional(Comparison::Processes));
    ASSERT_EQ(back->variants.size(), 2u);
    EXPECT_EQ(back->variants[1].label, "process 101 (app)");
    EXPECT_EQ(back->variants[1].report.runs.size(), 10u);
    ASSERT_TRUE(back->variants[1].report.program.has_value());
    EXPECT_EQ(back->variants[1].report.program->threads.size(), 1u);
    EXPECT_EQ(back->variants[1].report.program->threads[0].runs, 10u);
}

TEST(IterationsPerProcess, AProcessThatDiedOnASignalKeepsTheIterationsBeforeAndSaysSo)
{
    Lines lines;
    lines.process(4242);
    for (int i = 0; i < 5; ++i)
        lines.iteration(4242, 7, 1'000'000 + std::uint64_t(i) * 200'000, 13);
    lines.call(4242, 7, 3'000'000, 3'001'000, "cudaMemcpyAsync_v3020");  // the sixth, cut short
    lines.line("signal 4242 11");
    const Recording recording = read(lines.text());
    ASSERT_EQ(recording.processes.size(), 1u);
    EXPECT_EQ(recording.processes[0].signal, 11);
    const RecordedRuns split = splitIterations(recording, {});
    EXPECT_EQ(split.runs.size(), 5u);
    EXPECT_NE(notesOf(split).find("died on signal 11"), std::string::npos) << notesOf(split);
    ProgramInfo program;
    program.command = { "app" };
    programEndFrom(recording, program);
    EXPECT_EQ(program.signal, 11);
    EXPECT_TRUE(programFailed(program));
}

TEST(IterationsByNvtx, AHundredThousandRangesOfTwoNamesAreSplitInOnePass)
{
    // step { forward, backward } 50 000 times: the outermost repeated name is the step, each holding its two.
    Lines lines;
    lines.process(4242);
    std::uint32_t id = 1;
    for (int i = 0; i < 50'000; ++i) {
        const std::uint64_t t = 1'000'000 + std::uint64_t(i) * 300'000;
        lines.line("mark 4242 7 " + std::to_string(id) + " start " + std::to_string(t) + " forward");
        lines.iteration(4242, 7, t + 1'000, 13);
        lines.line("mark 4242 7 " + std::to_string(id) + " end " + std::to_string(t + 100'000));
        lines.line("mark 4242 7 " + std::to_string(id + 1) + " start " + std::to_string(t + 100'000) + " backward");
        lines.line("mark 4242 7 " + std::to_string(id + 1) + " end " + std::to_string(t + 200'000));
        id += 2;
    }
    const Recording recording = read(lines.text());
    const RecordedRuns split = splitIterations(recording, {});
    // Two names, neither inside the other, as often: the first in name order is taken.
    EXPECT_EQ(split.how, "NVTX range 'backward'");
    const RecordedRuns forward = splitIterations(recording, *parseIterationRule("nvtx:forward"));
    EXPECT_EQ(forward.runs.size(), 50'000u);
}

TEST(IterationsBudget, RecordsPastTheBudgetAreCountedAndWhatCameBeforeIsKept)
{
    Lines lines;
    lines.process(4242);
    for (int i = 0; i < 10; ++i)
        lines.iteration(4242, 7, 1'000'000 + std::uint64_t(i) * 200'000, 13);
    lines.line("exit 4242");
    RecordingReader reader("app.record", 30);  // 7 records an iteration: four iterations and a part fit
    std::istringstream in(lines.text());
    for (std::string text; std::getline(in, text);)
        ASSERT_TRUE(reader.line(text));
    auto recording = reader.finish();
    ASSERT_TRUE(recording.ok()) << recording.error().message();
    EXPECT_EQ(recording->unkept, 70u - 30u);
    EXPECT_TRUE(recording->processes.front().exited) << "the process's end is read past the budget";
    const RecordedRuns split = splitIterations(*recording, {});
    ASSERT_EQ(split.runs.size(), 5u);
    EXPECT_TRUE(split.runs[4].warmup) << "the fifth iteration, cut by the budget, never ended: not measured";
    EXPECT_NE(notesOf(split).find("1 iteration(s) never ended"), std::string::npos) << notesOf(split);
    EXPECT_NE(notesOf(split).find("40 record(s) past the recorder's budget"), std::string::npos) << notesOf(split);
}

// asyncscope-cli record --from FILE with `arguments` after it; its exit status.
int recordFrom(const std::string& path, std::vector<std::string> arguments, std::string& printed)
{
    std::vector<std::string> words { "record", "--from", path };
    words.insert(words.end(), arguments.begin(), arguments.end());
    std::vector<const char*> argv;
    for (const std::string& w : words)
        argv.push_back(w.c_str());
    static const std::atomic<bool> never { false };
    std::ostringstream out, err;
    const int status = runRecordCommand(int(argv.size()), argv.data(), never, out, err);
    printed = out.str() + err.str();
    return status;
}

TEST(RecordExitStatus, AProgramThatDiedFailsAndARefusedRecordingIsAUsageError)
{
    testing::TempDir dir("iterations-test");
    Lines crashed;
    crashed.process(4242);
    for (int i = 0; i < 5; ++i)
        crashed.iteration(4242, 7, 1'000'000 + std::uint64_t(i) * 200'000, 13);
    crashed.line("signal 4242 11");
    const std::string crashedPath = dir.file("crashed.record"), report = dir.file("crashed.json");
    std::ofstream(crashedPath) << crashed.text();
    std::string printed;
    EXPECT_EQ(recordFrom(crashedPath, { "--output", report }, printed), kExitProgramFailed) << printed;
    EXPECT_NE(printed.find("signal 11"), std::string::npos) << printed;
    std::ifstream written(report);
    EXPECT_TRUE(written.good()) << "the report is written all the same";
    // A baseline gate never passes on a program that failed, however close its figures.
    EXPECT_EQ(recordFrom(crashedPath, { "--baseline", report, "--max-slowdown", "50" }, printed),
        kExitProgramFailed)
        << printed;

    Lines fine;
    fine.process(4242);
    for (int i = 0; i < 5; ++i)
        fine.iteration(4242, 7, 1'000'000 + std::uint64_t(i) * 200'000, 13);
    fine.line("exit 4242");
    const std::string finePath = dir.file("fine.record");
    std::ofstream(finePath) << fine.text();
    EXPECT_EQ(recordFrom(finePath, {}, printed), kExitOk) << printed;

    const std::string broken = dir.file("broken.record");
    std::ofstream(broken) << "not a recording\n";
    EXPECT_EQ(recordFrom(broken, {}, printed), kExitUsage) << printed;
    EXPECT_EQ(recordFrom(dir.file("absent.record"), {}, printed), kExitUsage) << printed;
    EXPECT_EQ(recordFrom(finePath, { "--process", "nine" }, printed), kExitUsage) << printed;
}

// A recording of a program that issued no GPU work: it says so on standard error and exits 1; a file name with
// control characters is shown escaped on every line, the "Recorded" one too.
TEST(RecordExitStatus, ARecordingWithoutGpuWorkSaysSoAndNamesAreShownEscaped)
{
    testing::TempDir dir("iterations-test");
    Lines idle;
    idle.process(4242).line("api 4242 7 1 1000 2000 0 1 cudaGetDeviceCount_v3020").line("exit 4242");
    const std::string path = dir.file("idle\x1b[2J.record");
    std::ofstream(path) << idle.text();
    std::string printed;
    EXPECT_EQ(recordFrom(path, {}, printed), kExitFailure) << printed;
    EXPECT_NE(printed.find("no iteration issued GPU work"), std::string::npos) << printed;
    EXPECT_EQ(printed.find('\x1b'), std::string::npos) << "a control character printed as it is";
    EXPECT_NE(printed.find("Recorded " + dir.file("idle\\x1b[2J.record")), std::string::npos) << printed;
}

}  // namespace
}  // namespace asyncscope

// Splitting as the records come (IterationSplitter): the same runs as a whole recording's, with the records of each
// iteration let go once it is over, and a run's operations kept compactly.
#include "engine/record/iterations.hpp"
#include "engine/record/record_stream.hpp"
#include "engine/record/recording.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <fstream>
#include <map>
#include <sstream>
#include <string>
#include <vector>

namespace asyncscope {
namespace {

// A program's records in the order CUPTI hands them over: each call's as it returns, each GPU operation's and event's
// 50 ms after it ended (CUPTI's buffers come every 100 ms at most).
class Program {
public:
    explicit Program(std::uint32_t pid = 300) : m_pid(pid) {}

    // `threads` threads, each on its own stream, each iteration: a copy to the device, a kernel, a copy back, a
    // stream synchronize; an iteration every `every` ms of each thread, `iterations` of them.
    Program& threads(int threads, int iterations, double every, bool ranges = false)
    {
        for (int t = 0; t < threads; ++t)
            for (int i = 0; i < iterations; ++i) {
                const std::uint64_t at = kStart + std::uint64_t((i * every + t * 0.37) * 1e6);
                const std::uint32_t thread = 7000 + std::uint32_t(t), stream = 13 + std::uint32_t(t);
                if (ranges)
                    mark(thread, at, "start", "step");
                const std::uint32_t h2d = call(thread, at + 1'000, at + 6'000, "cudaMemcpyAsync_v3020");
                const std::uint32_t launch = call(thread, at + 7'000, at + 10'000, "cudaLaunchKernel_v7000");
                const std::uint32_t d2h = call(thread, at + 11'000, at + 15'000, "cudaMemcpyAsync_v3020");
                gpu("copy", stream, h2d, at + 20'000, at + 520'000, " 4194304 1 2 3 0 1");
                gpu("kernel", stream, launch, at + 521'000, at + 700'000, " 0 4096 512 _Z9incrementPii");
                gpu("copy", stream, d2h, at + 701'000, at + 1'200'000, " 4194304 2 3 2 0 1");
                call(thread, at + 16'000, at + 1'210'000, "cudaStreamSynchronize_v3020");
                if (ranges)
                    mark(thread, at + 1'300'000, "end", "");
            }
        return *this;
    }
    // Iterations that end in a synchronous copy to the host, timed by events recorded after it (cudaEventRecord,
    // cudaEventSynchronize): each joins its copy's iteration.
    Program& copiesTimedByEvents(int iterations, double every)
    {
        for (int i = 0; i < iterations; ++i) {
            const std::uint64_t at = kStart + std::uint64_t(i * every * 1e6);
            const std::uint32_t start = call(9000, at, at + 2'000, "cudaEventRecord_v3020");
            event(start, at + 3'000);
            const std::uint32_t launch = call(9000, at + 4'000, at + 6'000, "cudaLaunchKernel_v7000");
            gpu("kernel", 13, launch, at + 10'000, at + 300'000, " 0 64 256 _Z6kernelv");
            const std::uint32_t copy = call(9000, at + 7'000, at + 500'000, "cudaMemcpy_v3020");
            gpu("copy", 13, copy, at + 301'000, at + 490'000, " 1048576 2 3 1 0 1");
            const std::uint32_t stop = call(9000, at + 501'000, at + 503'000, "cudaEventRecord_v3020");
            event(stop, at + 502'000);
            call(9000, at + 504'000, at + 506'000, "cudaEventSynchronize_v3020");
        }
        return *this;
    }

    std::vector<std::string> lines() const
    {
        std::vector<std::pair<std::uint64_t, std::string>> sorted = m_lines;
        std::stable_sort(sorted.begin(), sorted.end(), [](const auto& a, const auto& b) { return a.first < b.first; });
        std::vector<std::string> out { std::string(record::kMagic) + " 1",
            "process " + std::to_string(m_pid) + " 1 /opt/app/bin/app",
            "device " + std::to_string(m_pid) +
                " 0 9 0 85017493504 132 3 1980000 13000 0123456789abcdef0123456789abcdef NVIDIA H100 80GB HBM3" };
        for (const auto& [arrival, line] : sorted)
            out.push_back(line);
        out.push_back("exit " + std::to_string(m_pid));
        return out;
    }

private:
    static constexpr std::uint64_t kStart = 5'000'000'000;
    static constexpr std::uint64_t kLate = 50'000'000;

    std::uint32_t call(std::uint32_t thread, std::uint64_t from, std::uint64_t to, const char* name)
    {
        const std::uint32_t id = m_correlation++;
        m_lines.emplace_back(to, "api " + std::to_string(m_pid) + " " + std::to_string(thread) + " " +
                std::to_string(id) + " " + std::to_string(from) + " " + std::to_string(to) + " 0 1 " + name);
        return id;
    }
    void gpu(const char* kind, std::uint32_t stream, std::uint32_t correlation, std::uint64_t from, std::uint64_t to,
        const std::string& rest)
    {
        m_lines.emplace_back(to + kLate, std::string(kind) + " " + std::to_string(m_pid) + " 0 1 " +
                std::to_string(stream) + " " + std::to_string(correlation) + " " + std::to_string(from) + " " +
                std::to_string(to) + rest);
    }
    void event(std::uint32_t correlation, std::uint64_t at)
    {
        m_lines.emplace_back(at + kLate, "event " + std::to_string(m_pid) + " 0 1 13 " + std::to_string(correlation) +
                " " + std::to_string(at));
    }
    void mark(std::uint32_t thread, std::uint64_t at, const char* edge, const char* name)
    {
        const std::uint32_t id = std::string(edge) == "start" ? ++m_range : m_open[thread];
        m_open[thread] = id;
        m_lines.emplace_back(at, "mark " + std::to_string(m_pid) + " " + std::to_string(thread) + " " +
                std::to_string(id) + " " + edge + " " + std::to_string(at) + (*name ? " " : "") + name);
    }

    std::uint32_t m_pid;
    std::uint32_t m_correlation = 1, m_range = 0;
    std::map<std::uint32_t, std::uint32_t> m_open;
    std::vector<std::pair<std::uint64_t, std::string>> m_lines;
};

// Read a line at a time, split every `every` records; the most records held at once in `held`.
RecordedRuns splitAsRead(const std::vector<std::string>& lines, const IterationRule& rule, std::size_t every,
    std::size_t& held)
{
    IterationSplitter splitter(rule);
    RecordingReader reader("app.record");
    reader.splitAsRead(&splitter, every);
    held = 0;
    for (const std::string& line : lines) {
        EXPECT_TRUE(reader.line(line)) << line;
        held = std::max(held, reader.held());
    }
    auto recording = reader.finish();
    EXPECT_TRUE(recording.ok()) << (recording ? std::string() : recording.error().message());
    return recording ? splitter.runsOf(*recording) : RecordedRuns {};
}

RecordedRuns splitWhole(const std::vector<std::string>& lines, const IterationRule& rule)
{
    std::string text;
    for (const std::string& line : lines)
        text += line + "\n";
    std::istringstream in(text);
    auto recording = readRecording(in, "app.record");
    EXPECT_TRUE(recording.ok()) << (recording ? std::string() : recording.error().message());
    return recording ? splitIterations(*recording, rule) : RecordedRuns {};
}

void expectSameRuns(const RecordedRuns& streamed, const RecordedRuns& whole)
{
    EXPECT_EQ(streamed.how, whole.how);
    EXPECT_EQ(streamed.notes, whole.notes);
    ASSERT_EQ(streamed.threads.size(), whole.threads.size());
    for (std::size_t t = 0; t < whole.threads.size(); ++t) {
        EXPECT_EQ(streamed.threads[t].thread, whole.threads[t].thread);
        EXPECT_EQ(streamed.threads[t].runs, whole.threads[t].runs);
    }
    ASSERT_EQ(streamed.runs.size(), whole.runs.size());
    for (std::size_t i = 0; i < whole.runs.size(); ++i) {
        const RunResult a = streamed.runs[i], b = whole.runs[i];
        EXPECT_EQ(a.index, b.index);
        EXPECT_EQ(a.warmup, b.warmup) << "run " << i;
        EXPECT_DOUBLE_EQ(a.startMs, b.startMs) << "run " << i;
        EXPECT_DOUBLE_EQ(a.gpuMs, b.gpuMs) << "run " << i;
        EXPECT_DOUBLE_EQ(a.cpuSubmitMs(), b.cpuSubmitMs()) << "run " << i;
        EXPECT_DOUBLE_EQ(a.waitMs(), b.waitMs()) << "run " << i;
        EXPECT_EQ(a.spans.size(), b.spans.size()) << "run " << i;
        EXPECT_EQ(a.traced.size(), b.traced.size()) << "run " << i;
    }
}

TEST(IterationSplitter, FourThreadsSplitAsTheyComeAreTheWholeRecordingsRunsAndLetTheirRecordsGo)
{
    const std::vector<std::string> lines = Program().threads(4, 200, 20.0).lines();  // 4 s of four threads
    std::size_t held = 0;
    const RecordedRuns streamed = splitAsRead(lines, {}, 256, held);
    const RecordedRuns whole = splitWhole(lines, {});
    ASSERT_EQ(whole.runs.size(), 800u);
    EXPECT_EQ(whole.how, "host synchronizations, thread by thread");
    expectSameRuns(streamed, whole);
    // At most about the settling time's records (0.3 s of 4 s) and a split's worth are held at once.
    EXPECT_LT(held, lines.size() / 4) << "of " << lines.size();
}

TEST(IterationSplitter, NvtxRangesAndEventTimedCopiesSplitAsTheyComeAsAWholeRecordings)
{
    std::size_t held = 0;
    const std::vector<std::string> ranges = Program().threads(1, 400, 10.0, true).lines();
    const RecordedRuns byRange = splitAsRead(ranges, {}, 128, held);
    EXPECT_EQ(byRange.how, "NVTX range 'step'");
    EXPECT_EQ(byRange.runs.size(), 400u);
    expectSameRuns(byRange, splitWhole(ranges, {}));
    EXPECT_LT(held, ranges.size() / 4);

    const std::vector<std::string> copies = Program().copiesTimedByEvents(400, 10.0).lines();
    const RecordedRuns timed = splitAsRead(copies, {}, 128, held);
    ASSERT_EQ(timed.runs.size(), 400u);
    for (std::size_t i = 0; i < timed.runs.size(); ++i)  // the events' span: 0.499 ms, each iteration's own
        EXPECT_NEAR(timed.runs[i].gpuMs, 0.499, 1e-9) << "run " << i;
    expectSameRuns(timed, splitWhole(copies, {}));
    EXPECT_LT(held, copies.size() / 4);
}

TEST(IterationSplitter, AnIterationIsSplitOffOnlyOnceItsLateOperationsAreIn)
{
    // Split after every record: the GPU's records come 50 ms after the calls that issued them, and none is lost.
    const std::vector<std::string> lines = Program().threads(2, 50, 100.0).lines();
    std::size_t held = 0;
    const RecordedRuns streamed = splitAsRead(lines, *parseIterationRule("sync"), 1, held);
    expectSameRuns(streamed, splitWhole(lines, *parseIterationRule("sync")));
    for (const std::string& note : streamed.notes)
        EXPECT_EQ(note.find("left out"), std::string::npos) << note;
}

TEST(IterationSplitter, ARunKeepsAtMost64BytesAGpuOperation)
{
    // 40 iterations of 100 kernels, recorded on an H100: each kernel a span, its launch and the call CUDA makes to
    // name it traced spans.
    std::ifstream in(std::string(ASYNCSCOPE_TEST_DATA) + "/recordings/h100-launch_bound.record");
    ASSERT_TRUE(in) << "no h100-launch_bound.record";
    auto recording = readRecording(in, "h100-launch_bound.record");
    ASSERT_TRUE(recording.ok()) << recording.error().message();
    const RecordedRuns split = splitIterations(*recording, {});
    std::size_t operations = 0;
    for (std::size_t i = 0; i < split.runs.size(); ++i)
        for (const Span& s : split.runs[i].spans)
            operations += onGpu(s.kind) ? 1 : 0;
    ASSERT_GE(operations, 4000u);
    EXPECT_LE(double(split.runs.bytesUsed()) / double(operations), 64.0)
        << split.runs.bytesUsed() << " bytes for " << operations << " operations";
}

TEST(IterationSplitter, TheEventsRecordedAroundTheWorkTimeItWhereverCuptiEndsItsCopies)
{
    // Under busy streams a copy's recorded end can come after the stop event that follows it on its stream: the run's
    // GPU time is still the program's, from its start event to its stop event (0.877 ms), not to the copy's end.
    const std::vector<std::string> lines { std::string(record::kMagic) + " 1", "process 5 1 app",
        "api 5 1 1 1000 2000 0 1 cudaEventRecord_v3020", "event 5 0 1 13 1 3000",
        "api 5 1 2 2100 3000 0 1 cudaMemcpyAsync_v3020", "copy 5 0 1 13 2 4000 500000 1048576 1 2 3 0 1",
        "api 5 1 3 3100 4000 0 1 cudaMemcpyAsync_v3020", "copy 5 0 1 13 3 500100 900000 1048576 2 3 2 0 1",
        "api 5 1 4 4100 5000 0 1 cudaEventRecord_v3020", "event 5 0 1 13 4 880000",
        "api 5 1 5 5100 950000 0 1 cudaStreamSynchronize_v3020", "exit 5" };
    const RecordedRuns split = splitWhole(lines, {});
    ASSERT_EQ(split.runs.size(), 1u);
    EXPECT_DOUBLE_EQ(split.runs[0].gpuMs, 0.877);
}

TEST(IterationSplitter, PastItsMemoryBudgetARunKeepsItsTotalsAndTheReportSaysSo)
{
    const std::vector<std::string> lines = Program().threads(1, 100, 10.0).lines();
    IterationSplitter splitter({}, 200);  // each run keeps 5 spans (3 operations, a wait, its submit) and 7 traced
    RecordingReader reader("app.record");
    reader.splitAsRead(&splitter, 64);
    for (const std::string& line : lines)
        ASSERT_TRUE(reader.line(line));
    auto recording = reader.finish();
    ASSERT_TRUE(recording.ok());
    const RecordedRuns split = splitter.runsOf(*recording);
    const RecordedRuns whole = splitWhole(lines, {});
    ASSERT_EQ(split.runs.size(), 100u);
    std::size_t summarized = 0;
    for (std::size_t i = 0; i < split.runs.size(); ++i) {
        const RunResult a = split.runs[i], b = whole.runs[i];
        EXPECT_DOUBLE_EQ(a.gpuMs, b.gpuMs);
        EXPECT_DOUBLE_EQ(a.cpuSubmitMs(), b.cpuSubmitMs());
        EXPECT_DOUBLE_EQ(a.waitMs(), b.waitMs());
        summarized += a.traced.empty() && !b.traced.empty() ? 1 : 0;
    }
    EXPECT_EQ(summarized, 100u - 200u / 12u);
    const bool said = std::any_of(split.notes.begin(), split.notes.end(), [&](const std::string& n) {
        return n.find(std::to_string(summarized) + " run(s) past the recorder's memory budget") == 0;
    });
    EXPECT_TRUE(said);
}

}  // namespace
}  // namespace asyncscope

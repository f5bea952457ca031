// A program's recording read back (engine/record/recording) and split into runs (engine/record/iterations), on
// record streams written here line by line as the injection library writes them, and hostile edits of them.
#include "engine/record/iterations.hpp"
#include "engine/record/record_stream.hpp"
#include "engine/record/recording.hpp"

#include <gtest/gtest.h>

#include <algorithm>

#include <sstream>
#include <string>
#include <vector>

namespace asyncscope {
namespace {

constexpr std::uint32_t kPid = 4242;

// A record stream as the injection library writes it, built line by line.
class Stream {
public:
    Stream()
    {
        m_text << record::kMagic << ' ' << record::kInlineNamesVersion << '\n';
        m_text << "process " << kPid << " 1 /opt/app/bin/app\n";
        m_text << "device " << kPid << " 0 9 0 150000000000 132 7 1980000 13000 0123456789abcdef0123456789abcdef "
                  "NVIDIA H200\n";
    }
    // One iteration of asyncAPI's shape on `stream`: H2D copy, kernel, D2H copy, then a wait, from `t` (ns).
    Stream& iteration(std::uint64_t t, std::uint32_t stream = 13, const char* wait = "cudaStreamSynchronize_v3020")
    {
        api(t, t + 5'000, "cudaMemcpyAsync_v3020");
        api(t + 6'000, t + 9'000, "cudaLaunchKernel_v7000");
        api(t + 10'000, t + 14'000, "cudaMemcpyAsync_v3020");
        const std::uint32_t first = m_correlation - 3;
        m_text << "copy " << kPid << " 0 1 " << stream << ' ' << first << ' ' << t + 20'000 << ' ' << t + 1'220'000
               << " 67108864 1 2 3 0 1\n";
        m_text << "kernel " << kPid << " 0 1 " << stream << ' ' << first + 1 << ' ' << t + 1'221'000 << ' '
               << t + 1'321'000 << " 0 32768 512 _Z16increment_kernelPii\n";
        m_text << "copy " << kPid << " 0 1 " << stream << ' ' << first + 2 << ' ' << t + 1'322'000 << ' '
               << t + 2'522'000 << " 67108864 2 3 2 0 1\n";
        api(t + 15'000, t + 2'530'000, wait);
        return *this;
    }
    Stream& api(std::uint64_t from, std::uint64_t to, const char* name, int returned = 0, int calls = 1)
    {
        m_text << "api " << kPid << " 7 " << m_correlation++ << ' ' << from << ' ' << to << ' ' << returned << ' '
               << calls << ' ' << name << '\n';
        return *this;
    }
    Stream& mark(std::uint32_t id, const char* kind, std::uint64_t t, const char* name = "")
    {
        m_text << "mark " << kPid << " 7 " << id << ' ' << kind << ' ' << t << (*name ? " " : "") << name << '\n';
        return *this;
    }
    Stream& line(const std::string& text)
    {
        m_text << text << '\n';
        return *this;
    }
    Stream& exit()
    {
        m_text << "exit " << kPid << '\n';
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

TEST(Recording, ReadsEveryKindOfRecord)
{
    Stream stream;
    stream.iteration(1'000'000).mark(5, "start", 900'000, "step 1 of 3").mark(5, "end", 4'000'000);
    stream.line("set 4242 0 1 13 300 10 20 4096 3 0").line("sync 4242 1 13 103 2000 3000 3");
    stream.line("event 4242 0 1 13 101 1015000");
    stream.line("clock 4242 1000000 5000000").line("stream 4242 1 13 1").line("stream 4242 1 7 3");
    stream.line("dropped 4242 7").line("note 4242 cuptiActivityEnable: not supported").exit();
    const Recording r = read(stream.text());
    ASSERT_EQ(r.processes.size(), 1u);
    EXPECT_EQ(r.processes[0].pid, kPid);
    EXPECT_EQ(r.processes[0].executable, "/opt/app/bin/app");
    EXPECT_TRUE(r.processes[0].exited);
    ASSERT_EQ(r.devices.size(), 1u);
    EXPECT_EQ(r.devices[0].name, "NVIDIA H200");  // a name keeps its spaces
    EXPECT_EQ(r.devices[0].ccMajor, 9u);
    ASSERT_EQ(r.operations.size(), 4u);
    EXPECT_EQ(r.operations[0].kind, OperationKind::Copy);
    EXPECT_EQ(r.operations[0].bytes, 67108864u);
    EXPECT_EQ(r.operations[0].copyKind, 1u);
    EXPECT_EQ(r.operations[0].srcKind, 2u);  // pinned
    EXPECT_EQ(r.operations[1].name, "_Z16increment_kernelPii");
    EXPECT_EQ(r.operations[1].blocks, 32768u);
    EXPECT_EQ(r.operations[3].kind, OperationKind::Set);
    EXPECT_EQ(r.calls.size(), 4u);
    EXPECT_EQ(r.calls[3].name, "cudaStreamSynchronize_v3020");
    ASSERT_EQ(r.marks.size(), 2u);
    EXPECT_EQ(r.marks[0].name, "step 1 of 3");
    EXPECT_EQ(r.marks[1].kind, MarkKind::End);
    EXPECT_EQ(r.syncs.size(), 1u);
    ASSERT_EQ(r.events.size(), 1u);
    EXPECT_EQ(r.events[0].correlation, 101u);
    EXPECT_EQ(r.events[0].timestamp, 1015000u);
    EXPECT_EQ(r.dropped, 7u);
    ASSERT_EQ(r.notes.size(), 1u);
    EXPECT_EQ(r.processes[0].steadyMinusCuptiNs, std::optional<std::int64_t>(4'000'000));
    ASSERT_EQ(r.streams.size(), 2u);
    EXPECT_EQ(r.streams[1].stream, 7u);
    EXPECT_EQ(r.streams[1].flag, kNullStreamFlag);
}

TEST(Recording, AHostileLineIsRefusedNamingItsLineAndField)
{
    const std::string good = Stream().iteration(1'000'000).exit().text();
    struct Case {
        std::string text;
        std::string message;
    };
    const std::vector<Case> cases {
        { "", "app.record is empty: not a recording" },
        { "{\"format\": \"asyncscope-report\"}\n", "line 1: is not a recording: it begins '{\"format\"" },
        { "asyncscope-record 9\n", "line 1: 'asyncscope-record 9' is a recording of another version" },
        { good + "launch 4242 1 2\n", "line 12: 'launch' is not a record of a recording" },
        { good + "copy 4242 0 1 13 5 10\n", "line 12: copy: END is missing" },
        { good + "copy 4242 0 1 13 5 10 2x 4 1 2 3 0 1\n", "line 12: copy: END is '2x', not a whole number" },
        { good + "copy 4242 0 1 13 5 10 20 4 1 2 3 0 1 extra\n", "line 12: copy: 'extra' follows its last field" },
        { good + "api 4242 99999999999 1 2 3 0 1 cudaFree\n", "line 12: api: THREAD is 99999999999, above its limit" },
        { good + "api 4242 7 1 2 3 -1 1 cudaFree\n", "line 12: api: RETURN_VALUE is '-1', not a whole number" },
        { good + "api 4242 7 1 2 3 0 0 cudaFree\n", "line 12: api: CALLS is 0: a line stands for at least one call" },
        { good + "mark 4242 7 1 begin 5 x\n", "line 12: mark: KIND is 'begin', not start, end or instant" },
        { good + "kernel 4242 0 1 13 5 10 20 0 1 32 " + std::string(5000, 'k') + "\n", "line 12: longer than 4096" },
        { good + "\n", "line 12: '' is not a record" },
        { good + "event 4242 0 1 13 5\n", "line 12: event: TIMESTAMP is missing" },
        { good + "event 4242 0 1 13 5 1e9\n", "line 12: event: TIMESTAMP is '1e9', not a whole number" },
        { good + "device 4242 0 9 0 1 132 7 1980000 13000 xyz H200\n", "line 12: device: UUID is 'xyz', not 32 hex" },
        { good + std::string("exit 4\0" "2\n", 9), "line 12: exit: PID is '4" },
        { good + "stream 4242 1 13 4\n", "line 12: stream: FLAG is 4, not 0 to 3" },
        { good + "stream 4242 1 13\n", "line 12: stream: FLAG is missing" },
        { good + "clock 4242 1 99999999999999999999\n", "line 12: clock: MONOTONIC_NS is '99999999999999999999'" },
        { good + "clock 4242 1 " + std::to_string((std::uint64_t(1) << 62) + 1) + "\n",
            "line 12: clock: MONOTONIC_NS is 4611686018427387905, above its limit" },
    };
    for (const Case& c : cases) {
        std::istringstream in(c.text);
        const auto r = readRecording(in, "app.record");
        ASSERT_FALSE(r.ok()) << c.text.substr(c.text.size() > 80 ? c.text.size() - 80 : 0);
        EXPECT_NE(r.error().message().find(c.message), std::string::npos)
            << "expected '" << c.message << "' in: " << r.error().message();
        EXPECT_EQ(r.error().message().rfind("app.record", 0), 0u) << r.error().message();
    }
}

TEST(Recording, ReadsPeerCopiesSignalsAndDriverCalls)
{
    Stream stream;
    stream.iteration(1'000'000);
    stream.line("copy 4242 1 1 13 300 10 20 4096 8 3 3 0 1");  // within device 1: the copy's device both ends
    stream.line("peer 4242 0 1 5 14 301 5000 9000 1048576 10 0");
    stream.line("peer 4242 1 1 6 15 302 9500 9900 4096 8 77");
    stream.api(2'000'000, 2'000'500, "cuLaunchKernel").api(2'001'000, 2'002'000, "cuMemcpyHtoDAsync_v2", 0, 3);
    stream.line("signal 4242 11");
    const Recording r = read(stream.text());
    ASSERT_EQ(r.processes.size(), 1u);
    EXPECT_EQ(r.processes[0].signal, 11);
    EXPECT_FALSE(r.processes[0].exited);
    ASSERT_EQ(r.operations.size(), 6u);
    EXPECT_EQ(r.operations[0].dstDevice, 0u);  // a plain copy's destination is its device
    EXPECT_EQ(r.operations[3].device, 1u);
    EXPECT_EQ(r.operations[3].dstDevice, 1u);
    const RecordedOperation& peer = r.operations[4];
    EXPECT_EQ(peer.kind, OperationKind::Copy);
    EXPECT_EQ(peer.pid, kPid);
    EXPECT_EQ(peer.device, 0u);
    EXPECT_EQ(peer.dstDevice, 1u);
    EXPECT_EQ(peer.context, 5u);
    EXPECT_EQ(peer.stream, 14u);
    EXPECT_EQ(peer.correlation, 301u);
    EXPECT_EQ(peer.start, 5000u);
    EXPECT_EQ(peer.end, 9000u);
    EXPECT_EQ(peer.bytes, 1048576u);
    EXPECT_EQ(peer.copyKind, 10u);  // peer to peer
    EXPECT_EQ(peer.srcKind, 0u);    // not sent: unknown
    EXPECT_EQ(peer.copies, 1u);
    EXPECT_EQ(r.operations[5].copyKind, 8u);  // device to device, through a peer context
    EXPECT_EQ(r.operations[5].device, 1u);
    EXPECT_EQ(r.operations[5].dstDevice, 1u);
    EXPECT_EQ(r.operations[5].graphNode, 77u);
    // A driver call reads as any call: its name tells it apart.
    ASSERT_EQ(r.calls.size(), 6u);
    EXPECT_EQ(r.calls[4].name, "cuLaunchKernel");
    EXPECT_EQ(r.calls[4].correlation, 104u);
    EXPECT_EQ(r.calls[4].end, 2'000'500u);
    EXPECT_EQ(r.calls[5].name, "cuMemcpyHtoDAsync_v2");
    EXPECT_EQ(r.calls[5].calls, 3u);

    const Recording clean = read(Stream().iteration(1'000'000).exit().text());
    ASSERT_EQ(clean.processes.size(), 1u);
    EXPECT_EQ(clean.processes[0].signal, 0);  // no signal line: none
}

TEST(Recording, ABadPeerOrSignalLineIsRefusedNamingItsLineAndField)
{
    const std::string good = Stream().iteration(1'000'000).text();
    const struct {
        std::string line;
        std::string message;
    } cases[] = {
        { "peer 4242 0 1 5 14 301 5000 9000", "line 11: peer: BYTES is missing" },
        { "peer 4242 0 x 5 14 301 5000 9000 4096 10 0", "line 11: peer: DST_DEVICE is 'x', not a whole number" },
        { "peer 4242 0 1 5 14 301 5000 9000 4096 10", "line 11: peer: GRAPH_NODE is missing" },
        { "peer 4242 0 1 5 14 301 5000 9000 4096 10 0 1", "line 11: peer: '1' follows its last field" },
        { "peer 4242 99999999999 1 5 14 301 5000 9000 4096 10 0",
            "line 11: peer: SRC_DEVICE is 99999999999, above its limit" },
        { "signal 4242", "line 11: signal: SIGNO is missing" },
        { "signal 4242 0", "line 11: signal: SIGNO is 0, not a signal (1 to 64)" },
        { "signal 4242 65", "line 11: signal: SIGNO is 65, not a signal (1 to 64)" },
        { "signal 4242 -11", "line 11: signal: SIGNO is '-11', not a whole number" },
        { "signal 4242 11 SIGSEGV", "line 11: signal: 'SIGSEGV' follows its last field" },
        { "launch 4242", "(process, clock, device, name, copy, peer, set, kernel, sync, event, stream, api, mark, dropped, "
                         "note, signal, exit)" },
    };
    for (const auto& c : cases) {
        std::istringstream in(good + c.line + "\n");
        const auto r = readRecording(in, "app.record");
        ASSERT_FALSE(r.ok()) << c.line;
        EXPECT_NE(r.error().message().find(c.message), std::string::npos)
            << "expected '" << c.message << "' in: " << r.error().message();
    }
    for (const char* fine : { "signal 4242 1", "signal 4242 64", "peer 4242 0 1 5 14 301 5000 9000 4096 10 0" }) {
        std::istringstream in(good + fine + "\n");
        EXPECT_TRUE(readRecording(in, "app.record").ok()) << fine;
    }
}

TEST(Recording, TheLineWriterKeepsEveryLineReadable)
{
    record::LineWriter line;
    line.word("kernel").number(kPid).number(0).number(1).number(13).number(5).number(10).number(20).number(0)
        .number(1).number(32).text("bad\nname\twith\x01" "controls").end();
    std::string text = std::string(record::kMagic) + " 1\nprocess 4242 1 app\n";
    text.append(line.data(), line.length());
    line.clear();
    line.word("api").number(kPid).number(7).number(1).number(2).number(3).number(0).number(1).text(std::string(9000, 'n').c_str())
        .end();
    EXPECT_EQ(line.length(), record::kMaxLineBytes);  // a long name cut to the longest line, its newline kept
    text.append(line.data(), line.length());
    const Recording r = read(text);
    ASSERT_EQ(r.operations.size(), 1u);
    EXPECT_EQ(r.operations[0].name, "bad?name?with?controls");
    ASSERT_EQ(r.calls.size(), 1u);
    EXPECT_GT(r.calls[0].name.size(), 4000u);
}

TEST(Iterations, HostSynchronizationsEndEachRun)
{
    Stream stream;
    for (int i = 0; i < 3; ++i)
        stream.iteration(1'000'000 + std::uint64_t(i) * 10'000'000);
    stream.exit();
    const RecordedRuns split = splitIterations(read(stream.text()), {});
    EXPECT_EQ(split.how, "host synchronizations");
    ASSERT_EQ(split.runs.size(), 3u);
    for (const RunResult& r : split.runs) {
        EXPECT_DOUBLE_EQ(r.gpuMs, 2.502);           // first copy's start to the last one's end
        EXPECT_DOUBLE_EQ(r.cpuSubmitMs(), 0.012);   // the three calls that issued the work
        EXPECT_DOUBLE_EQ(r.waitMs(), 2.515);        // the wait
        ASSERT_TRUE(r.has(SpanKind::H2D) && r.has(SpanKind::Kernel) && r.has(SpanKind::D2H));
        for (const Span& s : r.spans) {
            if (onGpu(s.kind)) {
                EXPECT_EQ(s.stream, 0);  // the program's stream 13, numbered by first use
            }
        }
        EXPECT_EQ(r.totalBytes(SpanKind::H2D), 67108864u);
        EXPECT_EQ(r.traced.size(), 4u + 3u);  // every call, then the operations
    }
    EXPECT_DOUBLE_EQ(split.runs[1].startMs, 10.0);
    EXPECT_TRUE(split.notes.empty()) << split.notes.front();
}

TEST(Iterations, TheEventsAProgramTimesWithWidenItsGpuTime)
{
    // asyncAPI's shape: an event recorded before the copies (the GPU passes it before the first copy can start) and
    // one after them; the program's cudaEventElapsedTime measures between them, and so does the run's GPU time.
    Stream stream;
    stream.api(990'000, 995'000, "cudaEventRecord_v3020");
    stream.line("event 4242 0 1 13 100 996000");
    stream.iteration(1'000'000);
    stream.exit();
    const RecordedRuns split = splitIterations(read(stream.text()), {});
    ASSERT_EQ(split.runs.size(), 1u);
    EXPECT_NEAR(split.runs[0].gpuMs, (1'000'000 + 2'522'000 - 996'000) / 1e6, 1e-12);
    // An event of no iteration's call (correlation 7: never issued) changes nothing.
    Stream other;
    other.iteration(1'000'000).line("event 4242 0 1 13 7 10").exit();
    const RecordedRuns alone = splitIterations(read(other.text()), {});
    ASSERT_EQ(alone.runs.size(), 1u);
    EXPECT_DOUBLE_EQ(alone.runs[0].gpuMs, 2.502);
}

TEST(Iterations, TheOutermostRepeatedNvtxRangeIsAnIteration)
{
    Stream stream;
    std::uint32_t id = 1;
    for (int i = 0; i < 4; ++i) {
        const std::uint64_t t = 1'000'000 + std::uint64_t(i) * 10'000'000;
        stream.mark(id, "start", t - 1'000, "step");
        // Two inner ranges repeat too, inside each step: the step is the iteration.
        stream.mark(id + 1, "start", t, "copy in").mark(id + 1, "end", t + 5'500);
        stream.iteration(t, 13, i % 2 ? "cudaEventSynchronize_v3020" : "cudaDeviceSynchronize_v3020");
        stream.mark(id, "end", t + 3'000'000);
        id += 2;
    }
    stream.mark(99, "start", 50'000'000, "setup");  // once: not an iteration
    const RecordedRuns split = splitIterations(read(stream.exit().text()), {});
    EXPECT_EQ(split.how, "NVTX range 'step'");
    ASSERT_EQ(split.runs.size(), 4u);
    EXPECT_DOUBLE_EQ(split.runs[0].gpuMs, 2.502);
    // Times from the range's start.
    const RunResult run = split.runs[0];
    const auto first =
        std::find_if(run.spans.begin(), run.spans.end(), [](const Span& s) { return s.kind == SpanKind::H2D; });
    ASSERT_NE(first, run.spans.end());
    EXPECT_DOUBLE_EQ(first->beginMs, 0.021);
    for (const std::string& note : split.notes)
        EXPECT_EQ(note.find("never ended"), std::string::npos) << note;  // 'setup' is no iteration: not said
}

TEST(Iterations, ANamedRangeOrSynchronizationsAsAsked)
{
    Stream stream;
    for (int i = 0; i < 2; ++i) {
        const std::uint64_t t = 1'000'000 + std::uint64_t(i) * 10'000'000;
        stream.mark(std::uint32_t(i + 1), "start", t, "pass").iteration(t).iteration(t + 4'000'000);
        stream.mark(std::uint32_t(i + 1), "end", t + 8'000'000);
    }
    const Recording r = read(stream.exit().text());
    EXPECT_EQ(splitIterations(r, *parseIterationRule("nvtx:pass")).runs.size(), 2u);
    EXPECT_EQ(splitIterations(r, *parseIterationRule("sync")).runs.size(), 4u);
    const RecordedRuns missing = splitIterations(r, *parseIterationRule("nvtx:epoch"));
    ASSERT_FALSE(missing.notes.empty());
    EXPECT_EQ(missing.notes.front(), "No NVTX range is named 'epoch'.");
    for (const char* bad : { "nvtx:", "syncs", "" }) {
        const auto rule = parseIterationRule(bad);
        ASSERT_FALSE(rule.ok()) << bad;
        EXPECT_NE(rule.error().message().find("is not a way to find iterations"), std::string::npos);
    }
}

TEST(Iterations, AProgramThatNeverWaitsIsOneRunSaidSo)
{
    Stream stream;
    stream.api(1'000, 2'000, "cudaMemcpyAsync_v3020");
    stream.line("copy 4242 0 1 7 100 5000 9000 4096 1 1 3 0 1");  // from pageable memory
    const RecordedRuns split = splitIterations(read(stream.text()), {});  // no exit line either
    ASSERT_EQ(split.runs.size(), 1u);
    EXPECT_DOUBLE_EQ(split.runs[0].gpuMs, 0.004);
    std::string notes;
    for (const std::string& n : split.notes)
        notes += n + "\n";
    EXPECT_NE(notes.find("its whole recording is one run"), std::string::npos) << notes;
    EXPECT_NE(notes.find("did not exit normally"), std::string::npos) << notes;
}

TEST(Iterations, APollLoopThatFindsTheGpuDoneIsAWait)
{
    // asyncAPI's shape: the host polls cudaEventQuery(stop) until it stops answering cudaErrorNotReady (600).
    Stream stream;
    for (int i = 0; i < 3; ++i) {
        const std::uint64_t t = 1'000'000 + std::uint64_t(i) * 10'000'000;
        stream.iteration(t, 13, "cudaEventRecord_v3020");  // no synchronize: the record is no wait
        for (std::uint64_t q = 0; q < 50; ++q)
            stream.api(t + 2'531'000 + q * 1'000, t + 2'531'500 + q * 1'000, "cudaEventQuery_v3020", q < 49 ? 600 : 0);
        stream.api(t + 2'600'000, t + 2'601'000, "cudaEventQuery_v3020");  // done long ago: no wait, no end
    }
    const RecordedRuns split = splitIterations(read(stream.exit().text()), {});
    ASSERT_EQ(split.runs.size(), 3u);
    for (const RunResult& r : split.runs) {
        EXPECT_NEAR(r.waitMs(), 0.0495, 1e-9);  // the first busy answer's start to the last answer's end
        EXPECT_NEAR(r.cpuSubmitMs(), 0.012 + 2.515, 1e-9);  // the event record counts as submission
        for (const Span& s : r.traced)
            EXPECT_NE(s.call, ApiCall::EventQuery);  // the polls are the wait, not a span each
    }
}

TEST(Iterations, APollLoopSentAsOneLineIsTheSameWait)
{
    // The injection library sends back-to-back identical polls as one line: 49 busy answers, then the one done.
    Stream stream;
    for (int i = 0; i < 3; ++i) {
        const std::uint64_t t = 1'000'000 + std::uint64_t(i) * 10'000'000;
        stream.iteration(t, 13, "cudaEventRecord_v3020");
        stream.api(t + 2'531'000, t + 2'579'500, "cudaEventQuery_v3020", 600, 49);
        stream.api(t + 2'580'000, t + 2'580'500, "cudaEventQuery_v3020", 0);
    }
    const Recording recording = read(stream.exit().text());
    ASSERT_EQ(recording.calls.size(), 3u * 6u);
    EXPECT_EQ(recording.calls[4].calls, 49u);
    const RecordedRuns split = splitIterations(recording, {});
    ASSERT_EQ(split.runs.size(), 3u);
    for (const RunResult& r : split.runs) {
        EXPECT_NEAR(r.waitMs(), 0.0495, 1e-9);
        EXPECT_NEAR(r.cpuSubmitMs(), 0.012 + 2.515, 1e-9);
    }
}

TEST(Iterations, CallBaseNamesAndWaits)
{
    EXPECT_EQ(callBaseName("cudaMemcpyAsync_ptsz_v7000"), "cudaMemcpyAsync");
    EXPECT_EQ(callBaseName("__cudaLaunchKernel_v13000"), "cudaLaunchKernel");
    EXPECT_TRUE(isHostSynchronization("cudaStreamSynchronize_ptsz_v7000"));
    EXPECT_TRUE(isHostSynchronization("cudaDeviceSynchronize_v3020"));
    EXPECT_FALSE(isHostSynchronization("cudaStreamWaitEvent_v3020"));
    EXPECT_FALSE(isHostSynchronization("cudaEventQuery_v3020"));
}

}  // namespace
}  // namespace asyncscope

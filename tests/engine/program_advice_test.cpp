// The advice on a recorded program (engine/model/advice_program.cpp): recordings of iterations written here as the
// injection library writes them, each of a shape one rule is about, and what the advice then says and does not say.
#include "engine/model/advice.hpp"
#include "engine/record/program_report.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <sstream>

namespace asyncscope {
namespace {

// One operation of an iteration: its call's name, and what the GPU did (times in µs from the iteration's start).
struct Op {
    const char* call;
    const char* kind;  // "h2d", "d2h", "kernel"
    double fromUs, toUs;
    std::uint64_t bytes = 1 << 20;
    std::uint32_t stream = 13;
    int hostKind = 2;  // CUPTI's memory kinds: 1 pageable, 2 pinned
};

// `runs` iterations of `ops`, each ended by a stream synchronize; the calls take `callUs` each.
// `streams`: the program's stream lines (which stream is the default one), written after the device's. `stretch`:
// run i's operations take stretch[i % size] times as long.
std::string recordingOf(int runs, const std::vector<Op>& ops, double callUs = 4.0, const std::string& streams = {},
    const std::vector<double>& stretch = {})
{
    std::ostringstream text;
    text << "asyncscope-record 1\nprocess 77 1 /opt/app/bin/app\n"
         << "device 77 0 9 0 150000000000 132 7 1980000 13000 0123456789abcdef0123456789abcdef NVIDIA H200\n"
         << streams;
    std::uint32_t correlation = 1;
    for (int i = 0; i < runs; ++i) {
        const std::uint64_t t = 1'000'000 + std::uint64_t(i) * 100'000'000;
        std::uint64_t at = t, last = t;
        for (const Op& op : ops) {
            const double k = stretch.empty() ? 1.0 : stretch[std::size_t(i) % stretch.size()];
            const auto ns = [t, k](double us) { return t + 50'000 + std::uint64_t(k * us * 1000.0); };
            text << "api 77 7 " << correlation << ' ' << at << ' ' << at + std::uint64_t(callUs * 1000.0) << " 0 1 "
                 << op.call << '\n';
            at += std::uint64_t(callUs * 1000.0) + 500;
            const std::string kind = op.kind;
            if (kind == "kernel")
                text << "kernel 77 0 1 " << op.stream << ' ' << correlation << ' ' << ns(op.fromUs) << ' '
                     << ns(op.toUs) << " 0 2048 512 k\n";
            else
                text << "copy 77 0 1 " << op.stream << ' ' << correlation << ' ' << ns(op.fromUs) << ' '
                     << ns(op.toUs) << ' ' << op.bytes << (kind == "h2d" ? " 1 " : " 2 ")
                     << (kind == "h2d" ? op.hostKind : 3) << ' ' << (kind == "h2d" ? 3 : op.hostKind) << " 0 1\n";
            last = std::max(last, ns(op.toUs));
            ++correlation;
        }
        text << "api 77 7 " << correlation++ << ' ' << at << ' ' << last + 5'000 << " 0 1 cudaStreamSynchronize_v3020\n";
    }
    text << "exit 77\n";
    return text.str();
}

Advice adviceOn(const std::string& recordingText)
{
    std::istringstream in(recordingText);
    auto recording = readRecording(in, "app.record");
    EXPECT_TRUE(recording.ok()) << (recording ? "" : recording.error().message());
    ProgramInfo program;
    program.command = { "/opt/app/bin/app" };
    const Report report = programReport(*recording, splitIterations(*recording, {}), program);
    return assessSeries(report).advice;
}

const Finding* findingOf(const Advice& advice, std::string_view rule)
{
    const auto found = std::find_if(advice.findings.begin(), advice.findings.end(),
        [rule](const Finding& f) { return f.rule == rule; });
    return found == advice.findings.end() ? nullptr : &*found;
}

std::string rulesOf(const Advice& advice)
{
    std::string list;
    for (const Finding& f : advice.findings)
        list += f.rule + " ";
    return list;
}

TEST(ProgramAdvice, CopiesAndKernelsInSequenceAreModelledInChunks)
{
    // H2D 1200 µs, kernel 100 µs, D2H 1200 µs one after another: 2.5 ms; in 4 chunks over 4 streams the first chunk's
    // three operations (2.5 ms / 4) and then three steps of the longest stage's chunk (0.3 ms): ~1.525 ms.
    const Advice advice = adviceOn(recordingOf(10, { { "cudaMemcpyAsync_v3020", "h2d", 0, 1200 },
        { "cudaLaunchKernel_v7000", "kernel", 1201, 1301 }, { "cudaMemcpyAsync_v3020", "d2h", 1302, 2502 } }));
    const Finding* f = findingOf(advice, rules::kSerializedCopies);
    ASSERT_NE(f, nullptr) << rulesOf(advice);
    EXPECT_NE(f->evidence.find("this iteration's 2.502 ms could be ~1.525 ms with its copies in 4 chunks"),
        std::string::npos)
        << f->evidence;
    // The pipeline's rules read a configuration a program does not have: none of them speaks.
    for (const std::string_view rule : { rules::kTransferBound, rules::kOverlapHeadroom, rules::kCheckBound })
        EXPECT_EQ(findingOf(advice, rule), nullptr) << rule;
    EXPECT_EQ(findingOf(advice, rules::kPageableCopies), nullptr);
    EXPECT_EQ(findingOf(advice, rules::kSynchronousCopies), nullptr);
}

TEST(ProgramAdvice, CopiesThatAlreadyOverlapKernelsAreLeftAlone)
{
    const Advice advice = adviceOn(recordingOf(10, { { "cudaMemcpyAsync_v3020", "h2d", 0, 600, 1 << 20, 13 },
        { "cudaLaunchKernel_v7000", "kernel", 601, 700, 1 << 20, 13 },
        { "cudaMemcpyAsync_v3020", "h2d", 601, 1200, 1 << 20, 14 },
        { "cudaLaunchKernel_v7000", "kernel", 1201, 1300, 1 << 20, 14 } }));
    EXPECT_EQ(findingOf(advice, rules::kSerializedCopies), nullptr) << rulesOf(advice);
}

TEST(ProgramAdvice, PageableCopiesGiveTheirCountBytesAndRate)
{
    Op in { "cudaMemcpyAsync_v3020", "h2d", 0, 1000 };
    in.hostKind = 1;
    const Advice advice = adviceOn(recordingOf(4, { in, { "cudaLaunchKernel_v7000", "kernel", 1001, 1100 } }));
    const Finding* f = findingOf(advice, rules::kPageableCopies);
    ASSERT_NE(f, nullptr) << rulesOf(advice);
    // 1 MiB in 1 ms: 1.05 GB/s, once an iteration.
    EXPECT_NE(f->evidence.find("4 copies from or to pageable host memory in 4 iterations (1.0 an iteration, 1.0 MiB"),
        std::string::npos) << f->evidence;
    EXPECT_NE(f->evidence.find("1.000 ms on the GPU an iteration, at 1.0 GB/s"), std::string::npos) << f->evidence;
}

TEST(ProgramAdvice, SynchronousCopiesAreNamed)
{
    const Advice advice = adviceOn(recordingOf(4, { { "cudaMemcpy_v3020", "h2d", 0, 1000 },
        { "cudaLaunchKernel_v7000", "kernel", 1001, 1100 }, { "cudaMemcpy_v3020", "d2h", 1101, 2100 } }));
    const Finding* f = findingOf(advice, rules::kSynchronousCopies);
    ASSERT_NE(f, nullptr) << rulesOf(advice);
    EXPECT_EQ(f->evidence.rfind("8 synchronous copy or memset calls", 0), 0u) << f->evidence;
    EXPECT_NE(f->action.find("cudaMemcpyAsync"), std::string::npos);
}

TEST(ProgramAdvice, DefaultStreamWorkBesideBlockingStreamsIsNamed)
{
    // Stream 13 made with cudaStreamCreate (blocking), stream 7 the context's NULL stream.
    const std::string streams = "stream 77 1 13 1\nstream 77 1 7 3\n";
    const auto shaped = [](const char* launch) {
        return std::vector<Op> { { "cudaMemcpyAsync_v3020", "h2d", 0, 1000 },
            { launch, "kernel", 1001, 1100, 0, 7 }, { "cudaMemcpyAsync_v3020", "d2h", 1101, 2100 } };
    };
    Advice advice = adviceOn(recordingOf(4, shaped("cudaLaunchKernel_v7000"), 4.0, streams));
    const Finding* f = findingOf(advice, rules::kDefaultStream);
    ASSERT_NE(f, nullptr) << rulesOf(advice);
    EXPECT_EQ(f->evidence.rfind("4 kernels, copies or memsets on the legacy default stream in 4 of 4 iterations", 0),
        0u) << f->evidence;
    EXPECT_NE(f->action.find("--default-stream per-thread"), std::string::npos);

    // Built with a per-thread default stream, the same launches wait for no other stream.
    advice = adviceOn(recordingOf(4, shaped("cudaLaunchKernel_ptsz_v7000"), 4.0, streams));
    EXPECT_EQ(findingOf(advice, rules::kDefaultStream), nullptr) << rulesOf(advice);
    // Beside a non-blocking stream only, nothing waits.
    advice = adviceOn(recordingOf(4, shaped("cudaLaunchKernel_v7000"), 4.0, "stream 77 1 13 2\nstream 77 1 7 3\n"));
    EXPECT_EQ(findingOf(advice, rules::kDefaultStream), nullptr) << rulesOf(advice);
    // A recording without stream lines cannot tell: said so, not guessed.
    advice = adviceOn(recordingOf(4, shaped("cudaLaunchKernel_v7000")));
    EXPECT_EQ(findingOf(advice, rules::kDefaultStream), nullptr);
    EXPECT_TRUE(std::any_of(advice.notChecked.begin(), advice.notChecked.end(),
        [](const NotChecked& n) { return n.rule == rules::kDefaultStream; }));
}

TEST(ProgramAdvice, ManySmallCopiesAreBatched)
{
    std::vector<Op> ops;
    for (int i = 0; i < 20; ++i)
        ops.push_back({ "cudaMemcpyAsync_v3020", "h2d", i * 10.0, i * 10.0 + 4, 4096 });
    ops.push_back({ "cudaLaunchKernel_v7000", "kernel", 300, 400 });
    const Advice advice = adviceOn(recordingOf(6, ops));
    const Finding* f = findingOf(advice, rules::kSmallCopies);
    ASSERT_NE(f, nullptr) << rulesOf(advice);
    EXPECT_EQ(f->evidence.rfind("20 copies in the median iteration (run 4), half of them 4.0 KiB or less", 0), 0u)
        << f->evidence;
    ASSERT_EQ(f->runs.size(), 1u);  // the iteration it was judged on: the timeline opens it
    EXPECT_EQ(f->runs.front().first, 4u);
    EXPECT_TRUE(f->stages);
    // 16 copies of 1 MiB are not small.
    std::vector<Op> large;
    for (int i = 0; i < 16; ++i)
        large.push_back({ "cudaMemcpyAsync_v3020", "h2d", i * 100.0, i * 100.0 + 90 });
    EXPECT_EQ(findingOf(adviceOn(recordingOf(6, large)), rules::kSmallCopies), nullptr);
}

TEST(ProgramAdvice, ManyShortKernelsSubmittedSlowerThanTheyRunAreLaunchBound)
{
    std::vector<Op> kernels;
    for (int i = 0; i < 10; ++i)
        kernels.push_back({ "cudaLaunchKernel_v7000", "kernel", i * 6.0, i * 6.0 + 5 });
    const Advice advice = adviceOn(recordingOf(6, kernels, 5.0));  // 50 µs of calls for ~60 µs on the GPU
    const Finding* f = findingOf(advice, rules::kSubmitBound);
    ASSERT_NE(f, nullptr) << rulesOf(advice);
    EXPECT_NE(f->evidence.find("for 10 kernels in the median iteration"), std::string::npos) << f->evidence;
    EXPECT_NE(f->action.find("CUDA Graph"), std::string::npos);
    // The same kernels issued in far less time than they run are not.
    EXPECT_EQ(findingOf(adviceOn(recordingOf(6, kernels, 0.5)), rules::kSubmitBound), nullptr);
}

TEST(ProgramAdvice, NoiseIsPutDownToTheProgramsWorkOnlyWhereItsIterationsDiffer)
{
    // Twenty iterations of the same copies and kernel, every third one 1.6 times as long: noise, with no cause in the
    // program's work.
    const std::vector<Op> ops = { { "cudaMemcpyAsync_v3020", "h2d", 0, 300, 64 << 20 },
        { "cudaLaunchKernel_v7000", "kernel", 300, 400 }, { "cudaMemcpyAsync_v3020", "d2h", 400, 700, 64 << 20 } };
    const Finding* noisy = findingOf(adviceOn(recordingOf(20, ops, 4.0, {}, { 1.0, 1.0, 1.6 })), rules::kNoisy);
    ASSERT_NE(noisy, nullptr);
    EXPECT_EQ(noisy->evidence.find("different work"), std::string::npos) << noisy->evidence;
    EXPECT_EQ(noisy->severity, Severity::Warning) << noisy->evidence;
}

}  // namespace
}  // namespace asyncscope

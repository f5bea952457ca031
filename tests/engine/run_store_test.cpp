// The compact store of a series' runs: what goes in comes back bit for bit, its column reads agree with the runs they
// read, its changes keep the other runs, the writers print the same text from it, and a classic run costs at most
// 200 bytes.
#include "classic_runs.hpp"

#include "engine/io/csv/csv_report.hpp"
#include "engine/io/json/json_report.hpp"
#include "engine/model/advice.hpp"
#include "engine/model/run_store.hpp"
#include "engine/model/series_summary.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstring>
#include <limits>
#include <sstream>
#include <stdexcept>
#include <type_traits>

using namespace asyncscope;

namespace {

bool sameBits(double a, double b)
{
    return std::memcmp(&a, &b, sizeof a) == 0;
}

void expectSameSpans(const std::vector<Span>& a, const std::vector<Span>& b, const char* what, int run)
{
    ASSERT_EQ(a.size(), b.size()) << what << " of run " << run;
    for (std::size_t k = 0; k < a.size(); ++k) {
        SCOPED_TRACE(std::string(what) + " " + std::to_string(k) + " of run " + std::to_string(run));
        EXPECT_EQ(a[k].kind, b[k].kind);
        EXPECT_EQ(a[k].call, b[k].call);
        EXPECT_EQ(a[k].device, b[k].device);
        EXPECT_EQ(a[k].stream, b[k].stream);
        EXPECT_EQ(a[k].chunk, b[k].chunk);
        EXPECT_EQ(a[k].bytes, b[k].bytes);
        EXPECT_TRUE(sameBits(a[k].beginMs, b[k].beginMs)) << a[k].beginMs << " vs " << b[k].beginMs;
        EXPECT_TRUE(sameBits(a[k].endMs, b[k].endMs)) << a[k].endMs << " vs " << b[k].endMs;
    }
}

// Bit for bit: the store keeps every double exactly.
void expectSameRun(const RunResult& a, const RunResult& b)
{
    EXPECT_EQ(a.index, b.index);
    EXPECT_EQ(a.warmup, b.warmup);
    EXPECT_TRUE(sameBits(a.startMs, b.startMs)) << a.startMs << " vs " << b.startMs;
    EXPECT_EQ(a.hostClockNs, b.hostClockNs);
    EXPECT_TRUE(sameBits(a.gpuMs, b.gpuMs)) << a.gpuMs << " vs " << b.gpuMs;
    EXPECT_EQ(a.pollIterations, b.pollIterations);
    EXPECT_TRUE(sameBits(a.waitCpuMs, b.waitCpuMs));
    EXPECT_EQ(a.expectedValue, b.expectedValue);
    EXPECT_EQ(a.verified, b.verified);
    EXPECT_EQ(a.firstWrongIndex, b.firstWrongIndex);
    EXPECT_EQ(a.firstWrongValue, b.firstWrongValue);
    expectSameSpans(a.spans, b.spans, "span", a.index);
    expectSameSpans(a.traced, b.traced, "traced span", a.index);
}

// A host clock reading in ms from whole nanoseconds, as the pipeline takes it.
double hostNs(double ms)
{
    return asyncscope::testing::hostMs(ms);
}

Span span(SpanKind kind, int device, int stream, int chunk, std::uint64_t bytes, double begin, double end,
    ApiCall call = ApiCall::None)
{
    Span s { kind, device, stream, chunk, bytes, begin, end };
    s.call = call;
    return s;
}

// Runs that use everything a run can hold: every span kind, traced spans with runtime calls, several devices,
// streams and chunks, runs without spans, and times of every form (floats, whole ns, neither; sub-microsecond
// spans; runs of seconds; negative, huge and not finite values).
std::vector<RunResult> variedRuns()
{
    std::vector<RunResult> runs;
    for (int i = 0; i < 40; ++i) {
        asyncscope::testing::Jitter j(std::uint64_t(i) + 7);
        RunResult r;
        r.index = i;
        r.warmup = i < 2;
        r.startMs = i == 0 ? 0.0 : 2.6 * i + j.next();
        r.hostClockNs = 123456789012345 + i * 2600000;
        r.gpuMs = 2.5 + j.next();
        r.pollIterations = std::uint64_t(i) * 1000 + 17;
        r.waitCpuMs = 2.4 * j.next();
        r.expectedValue = 26 * (i + 1);
        r.verified = i % 7 != 3;
        r.firstWrongIndex = r.verified ? -1 : std::int64_t(1) << 40;
        r.firstWrongValue = r.verified ? 0 : -5;
        if (i % 10 == 9) {
            runs.push_back(r);  // no spans at all
            continue;
        }
        const int chunks = 1 + i % 4;
        double at = 0.0;
        for (int c = 0; c < chunks; ++c) {
            for (const SpanKind kind : { SpanKind::H2D, SpanKind::Kernel, SpanKind::D2H }) {
                const double ms = double(float(0.3 + j.next()));
                r.spans.push_back(span(kind, i % 3, c % 2, c, kind == SpanKind::Kernel ? 2u << 20 : 1u << 20, at,
                    double(float(at + ms))));
                at = double(float(at + ms));
            }
        }
        const double submit = hostNs(0.015 + 0.01 * j.next());
        r.spans.push_back(span(SpanKind::Submit, i % 3, 0, 0, 0, 0.0, submit));
        r.spans.push_back(span(SpanKind::Wait, i % 3, 0, 0, 0, submit, hostNs(submit + 2.5)));
        r.spans.push_back(span(SpanKind::Check, i % 3, 1, 0, 1u << 20, hostNs(submit + 2.6), hostNs(submit + 4.1)));
        if (i % 2 == 0) {
            const ApiCall calls[] = { ApiCall::MemcpyAsync, ApiCall::LaunchKernel, ApiCall::EventRecord,
                ApiCall::StreamWaitEvent, ApiCall::GraphLaunch, ApiCall::EventQuery, ApiCall::EventSynchronize,
                ApiCall::Other };
            double t = 0.0;
            for (const ApiCall call : calls) {
                r.traced.push_back(span(SpanKind::Api, i % 3, 0, 0, 0, t, t + 0.000451));  // sub-microsecond
                r.traced.back().call = call;
                t += 0.002 + 1e-9 * i;
            }
            r.traced.push_back(span(SpanKind::H2D, i % 3, 3, 2, 1u << 20, 0.0123456789, 1.2345678912345));
        }
        runs.push_back(r);
    }
    // Extremes: seconds-long runs, negative offsets, huge and tiny values, infinities, NaN, -0, large ints.
    RunResult x;
    x.index = 1 << 30;
    x.startMs = 3.6e9;  // a thousand hours in
    x.gpuMs = std::numeric_limits<double>::max();
    x.pollIterations = std::numeric_limits<std::uint64_t>::max();
    x.waitCpuMs = std::numeric_limits<double>::denorm_min();
    x.expectedValue = std::numeric_limits<int>::min();
    x.firstWrongIndex = std::numeric_limits<std::int64_t>::max();
    x.firstWrongValue = std::numeric_limits<int>::max();
    x.spans = { span(SpanKind::H2D, 7, 63, 4095, std::numeric_limits<std::uint64_t>::max(), 0.0, 4294.967295),
        span(SpanKind::Kernel, 1 << 20, -1, 70000, 0, 4294.967296, 12345.678901234),
        span(SpanKind::D2H, 0, 0, 0, 3, -0.0, -1.5e-7), span(SpanKind::Submit, 0, 0, 0, 0, -2.75, 1e300),
        span(SpanKind::Wait, 0, 0, 0, 0, 1e-300, std::numeric_limits<double>::infinity()),
        span(SpanKind::Check, 0, 0, 0, 0, -std::numeric_limits<double>::infinity(), 0.1),
        span(SpanKind::Api, 0, 0, 0, 0, 0.000001, 0.000000001, ApiCall::Other),
        span(SpanKind::H2D, 0, 0, 0, 0, std::numeric_limits<double>::quiet_NaN(), 3.4028235677973366e38) };
    runs.push_back(x);
    return runs;
}

RunStore storeOf(const std::vector<RunResult>& runs)
{
    RunStore store;
    for (const RunResult& r : runs)
        store.push_back(r);
    return store;
}

}  // namespace

TEST(RunStore, GivesBackEveryRunBitForBit)
{
    const std::vector<RunResult> runs = variedRuns();
    const RunStore store = storeOf(runs);
    ASSERT_EQ(store.size(), runs.size());
    EXPECT_FALSE(store.empty());
    for (std::size_t i = 0; i < runs.size(); ++i)
        expectSameRun(store[i], runs[i]);
    expectSameRun(store.front(), runs.front());
    expectSameRun(store.back(), runs.back());
    expectSameRun(store.at(3), runs[3]);
    EXPECT_THROW(store.at(runs.size()), std::out_of_range);
    const std::vector<RunResult> all = store.toVector();
    ASSERT_EQ(all.size(), runs.size());
    expectSameRun(all[5], runs[5]);
}

TEST(RunStore, ColumnsReadWhatTheRunsHold)
{
    const std::vector<RunResult> runs = variedRuns();
    const RunStore store = storeOf(runs);
    for (std::size_t i = 0; i < runs.size(); ++i) {
        SCOPED_TRACE(i);
        const RunResult& r = runs[i];
        EXPECT_EQ(store.index(i), r.index);
        EXPECT_EQ(store.warmup(i), r.warmup);
        EXPECT_EQ(store.verified(i), r.verified);
        EXPECT_TRUE(sameBits(store.startMs(i), r.startMs));
        EXPECT_EQ(store.hostClockNs(i), r.hostClockNs);
        EXPECT_TRUE(sameBits(store.gpuMs(i), r.gpuMs));
        EXPECT_EQ(store.pollIterations(i), r.pollIterations);
        EXPECT_EQ(store.expectedValue(i), r.expectedValue);
        EXPECT_EQ(store.firstWrongIndex(i), r.firstWrongIndex);
        EXPECT_EQ(store.firstWrongValue(i), r.firstWrongValue);
        for (const SpanKind kind : { SpanKind::H2D, SpanKind::Kernel, SpanKind::D2H, SpanKind::Submit, SpanKind::Wait,
                 SpanKind::Check, SpanKind::Api }) {
            EXPECT_EQ(store.has(i, kind), r.has(kind));
            const double ms = store.totalMs(i, kind), expected = r.totalMs(kind);
            EXPECT_TRUE(sameBits(ms, expected) || (std::isnan(ms) && std::isnan(expected))) << ms << " " << expected;
            EXPECT_EQ(store.totalBytes(i, kind), r.totalBytes(kind));
        }
        EXPECT_EQ(store.stagesTimed(i), r.stagesTimed());
        EXPECT_TRUE(sameBits(store.cpuSubmitMs(i), r.cpuSubmitMs()));
        EXPECT_TRUE(sameBits(store.waitMs(i), r.waitMs()));
        const RunStore::SpanView spans = store.spans(i);
        ASSERT_EQ(spans.size(), r.spans.size());
        EXPECT_EQ(spans.empty(), r.spans.empty());
        std::size_t k = 0;
        for (const Span& s : spans) {  // the view's iterator, spans by value
            EXPECT_EQ(s.kind, r.spans[k].kind);
            EXPECT_EQ(spans.kind(k), r.spans[k].kind);
            EXPECT_TRUE(sameBits(spans.beginMs(k), r.spans[k].beginMs) || std::isnan(r.spans[k].beginMs));
            EXPECT_TRUE(sameBits(spans.endMs(k), r.spans[k].endMs));
            ++k;
        }
        EXPECT_EQ(store.traced(i).size(), r.traced.size());
    }
}

TEST(RunStore, IteratesLikeAVectorOfRuns)
{
    const std::vector<RunResult> runs = variedRuns();
    const RunStore store = storeOf(runs);
    std::size_t i = 0;
    for (const RunResult& r : store)  // binds each materialised run
        EXPECT_EQ(r.index, runs[i++].index);
    EXPECT_EQ(i, runs.size());
    EXPECT_EQ(std::size_t(store.end() - store.begin()), runs.size());
    EXPECT_EQ(std::count_if(store.begin(), store.end(), [](const RunResult& r) { return r.warmup; }), 2);
    const auto found = std::find_if(store.begin(), store.end(), [](const RunResult& r) { return r.index == 13; });
    ASSERT_NE(found, store.end());
    EXPECT_EQ(found.position(), 13u);
    EXPECT_EQ((*found).spans.size(), runs[13].spans.size());
    EXPECT_EQ(store.begin()[4].index, 4);
}

TEST(RunStore, ChangesKeepTheOtherRuns)
{
    std::vector<RunResult> runs = variedRuns();
    RunStore store = storeOf(runs);

    // Same number of spans: in place.
    RunResult changed = runs[4];
    changed.verified = false;
    changed.firstWrongIndex = 12;
    changed.spans[0].endMs = 0.123456789;
    changed.spans[0].bytes = 99;
    store.set(4, changed);
    runs[4] = changed;
    // More spans, fewer spans, none: the spans after it move.
    RunResult more = runs[6];
    more.spans.push_back(span(SpanKind::Check, 2, 1, 0, 5, 1.0, 2.0));
    more.traced.clear();
    store.set(6, more);
    runs[6] = more;
    store.setSpans(8, {});
    runs[8].spans.clear();
    store.setSpans(9, serialSpans(1, { 1 << 20, 1.0, 0.5, 1.0, 0.01, 2.5 }));  // it had none
    runs[9].spans = serialSpans(1, { 1 << 20, 1.0, 0.5, 1.0, 0.01, 2.5 });
    // Several at once, in any order.
    std::vector<std::pair<std::size_t, std::vector<Span>>> batch { { 19, runs[0].spans }, { 2, {} },
        { 11, runs[21].spans } };
    store.setSpans(batch);
    runs[19].spans = runs[0].spans;
    runs[2].spans.clear();
    runs[11].spans = runs[21].spans;
    // The last run.
    RunResult last = runs.back();
    last.spans.resize(2);
    store.set(runs.size() - 1, last);
    runs.back() = last;

    ASSERT_EQ(store.size(), runs.size());
    for (std::size_t i = 0; i < runs.size(); ++i)
        expectSameRun(store[i], runs[i]);
    EXPECT_THROW(store.set(runs.size(), last), std::out_of_range);
    EXPECT_THROW(store.setSpans(runs.size(), {}), std::out_of_range);

    store.pop_back();
    runs.pop_back();
    ASSERT_EQ(store.size(), runs.size());
    expectSameRun(store.back(), runs.back());
    store.push_back(runs[1]);
    expectSameRun(store.back(), runs[1]);
}

TEST(RunStore, HoldsTheRunsReservedWithoutMovingItsColumns)
{
    RunStore store;
    store.reserve(1000);
    EXPECT_GE(store.capacity(), 1000u);
    const std::vector<RunResult> runs = variedRuns();
    for (const RunResult& run : runs)
        store.push_back(run);
    EXPECT_GE(store.capacity(), 1000u);
    EXPECT_GE(store.capacity(), store.size());
}

TEST(RunStore, AppendsAnotherStore)
{
    const std::vector<RunResult> runs = variedRuns();
    // Two halves built apart: their tables of shapes and of exact times number differently.
    const std::size_t half = runs.size() / 2;
    RunStore first = storeOf({ runs.begin() + std::ptrdiff_t(half), runs.end() });
    RunStore second = storeOf({ runs.begin(), runs.begin() + std::ptrdiff_t(half) });
    RunStore whole;
    whole.append(second);
    whole.append(first);
    ASSERT_EQ(whole.size(), runs.size());
    for (std::size_t i = 0; i < runs.size(); ++i)
        expectSameRun(whole[i], runs[i]);
    EXPECT_TRUE(whole == storeOf(runs));
    whole.append(whole);
    ASSERT_EQ(whole.size(), 2 * runs.size());
    expectSameRun(whole[runs.size() + 3], runs[3]);
}

// A report moves between threads and owners: moving its runs must not copy them.
static_assert(std::is_nothrow_move_constructible_v<RunStore> && std::is_nothrow_move_assignable_v<RunStore>);

TEST(RunStore, CopiesCompareAndMovesHandOverTheColumns)
{
    const RunStore store = storeOf(variedRuns());
    RunStore copy = store;
    EXPECT_TRUE(copy == store);
    RunResult r = copy[1];
    r.gpuMs += 1.0;
    copy.set(1, r);
    EXPECT_TRUE(copy != store);
    const std::size_t bytes = copy.bytesUsed();
    RunStore moved = std::move(copy);
    EXPECT_EQ(moved.size(), store.size());
    EXPECT_EQ(moved.bytesUsed(), bytes);
    EXPECT_EQ(moved.gpuMs(1), store.gpuMs(1) + 1.0);
    EXPECT_TRUE(RunStore(std::initializer_list<RunResult> { store[0], store[1] }) ==
        RunStore(std::vector<RunResult> { store[0], store[1] }));
    moved.clear();
    EXPECT_TRUE(moved.empty());
    moved.push_back(store[3]);
    expectSameRun(moved[0], store[3]);
}

// The writers print doubles in their shortest round-trip form: the store must not change a digit of what they print,
// and a file read back and written again is the same file.
TEST(RunStore, WritersPrintTheSameTextAfterARoundTrip)
{
    Report report = asyncscope::testing::classicReport(50);
    std::vector<RunResult> runs = report.runs.toVector();
    // Realistic and extreme times: a run of seconds, sub-microsecond spans, values no 32-bit form holds.
    runs[7].spans[0].endMs = 3517.25;
    runs[7].spans[4].endMs = 5123.456789;
    runs[8].spans[1].beginMs = 1.2345678901234567;
    runs[8].spans[1].endMs = 1.2345678901234567 + 0.000000301;
    runs[9].spans[3].endMs = 0.000000001;
    runs[10].gpuMs = 1234567.891;
    report.runs = RunStore(runs);
    for (const bool csv : { false, true }) {
        SCOPED_TRACE(csv ? "CSV" : "JSON");
        std::ostringstream first;
        csv ? writeCsv(first, report) : writeJson(first, report, assessSeries(report));
        std::istringstream in(first.str());
        const auto read = csv ? readCsv(in) : readJson(in);
        ASSERT_TRUE(read) << read.error().message();
        std::ostringstream second;
        csv ? writeCsv(second, *read) : writeJson(second, *read, assessSeries(*read));
        EXPECT_EQ(first.str(), second.str());
        // What the writers print from the store is what they print from the runs it was given: JSON names every
        // span time, so the text holds the pushed values.
        if (!csv) {
            EXPECT_NE(first.str().find("5123.456789"), std::string::npos);
        }
    }
}

// A classic run (six spans) costs at most 200 bytes, by the store's own count of the capacity it holds: a million
// of them, built as the readers build them (room asked for first), and as a live series grows (run by run).
TEST(RunStore, AClassicRunTakesAtMost200Bytes)
{
    constexpr std::size_t kRuns = 1000000;
    constexpr double kBound = 200.0;
    const Report reserved = asyncscope::testing::classicReport(kRuns);
    ASSERT_EQ(reserved.runs.size(), kRuns);
    const double perRun = double(reserved.runs.bytesUsed()) / double(kRuns);
    std::printf("bytes per classic run: %.1f reserved first", perRun);
    EXPECT_LE(perRun, kBound);

    RunStore grown;
    for (std::size_t i = 0; i < kRuns; ++i)
        grown.push_back(asyncscope::testing::classicRun(int(i), reserved.config));
    const double grownPerRun = double(grown.bytesUsed()) / double(kRuns);
    std::printf(", %.1f grown run by run", grownPerRun);
    EXPECT_LE(grownPerRun, kBound);
    grown.shrink_to_fit();
    std::printf(", %.1f fitted\n", double(grown.bytesUsed()) / double(kRuns));
    EXPECT_LE(double(grown.bytesUsed()) / double(kRuns), grownPerRun);
    expectSameRun(grown[kRuns - 1], asyncscope::testing::classicRun(int(kRuns - 1), reserved.config));
    expectSameRun(reserved.runs[kRuns / 2], asyncscope::testing::classicRun(int(kRuns / 2), reserved.config));
    // The summary reads the columns: the same as over the runs themselves.
    EXPECT_EQ(summarizeSeries(reserved).measuredRuns, kRuns - 1);
}

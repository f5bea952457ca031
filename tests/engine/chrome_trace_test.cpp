// The trace export against the Chrome trace-event format (what Perfetto UI and chrome://tracing read): its shape,
// its tracks, its time axis, and that every span becomes one event.
#include "engine/io/chrome_trace.hpp"
#include "engine/run/plan_advice.hpp"

#include "classic_runs.hpp"

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include <algorithm>
#include <chrono>
#include <cstdlib>
#include <fstream>
#include <iostream>
#include <map>
#include <set>
#include <sstream>
#include <tuple>

using namespace asyncscope;
using nlohmann::json;

namespace {

constexpr std::uint64_t kBytes = std::uint64_t(64) << 20;

Report emptyReport(int chunks = 1, int streams = 1)
{
    Report r;
    r.device.index = 0;
    r.device.name = "NVIDIA H200";
    r.config.elements = kBytes / sizeof(int);
    r.config.chunks = chunks;
    r.config.streams = streams;
    return r;
}

// The classic pipeline: H2D 1.5 ms, kernel 0.1 ms, D2H 1.4 ms; submit 0.02 ms, wait to 3 ms; then the check.
RunResult classicRun(int index, double startMs)
{
    RunResult run;
    run.index = index;
    run.warmup = index == 0;
    run.startMs = startMs;
    run.gpuMs = 3.0;
    run.verified = true;
    SerialDurations d;
    d.bytes = kBytes;
    d.h2dMs = 1.5;
    d.kernelMs = 0.1;
    d.d2hMs = 1.4;
    d.submitMs = 0.02;
    d.waitMs = 2.98;
    run.spans = serialSpans(0, d);
    run.spans.push_back({ SpanKind::Check, 0, 1, 0, kBytes, 3.1, 4.0 });
    return run;
}

// K = 16 on S = 4, by chunk: event spans, and traced spans as CUPTI gives them (the GPU's operations a little later
// on its own clock, the runtime calls that submitted them, the wait's synchronisation).
RunResult chunkedRun(int index, double startMs)
{
    constexpr int k = 16, s = 4;
    const std::uint64_t chunkBytes = kBytes / k;
    RunResult run;
    run.index = index;
    run.startMs = startMs;
    run.verified = true;
    std::vector<double> streamAt(s, 0.0);
    for (int c = 0; c < k; ++c) {
        const int stream = c % s;
        double& at = streamAt[std::size_t(stream)];
        const std::pair<SpanKind, double> stages[] = { { SpanKind::H2D, 0.1 }, { SpanKind::Kernel, 0.01 },
            { SpanKind::D2H, 0.1 } };
        for (const auto& [kind, ms] : stages) {
            const std::uint64_t bytes = kind == SpanKind::Kernel ? 2 * chunkBytes : chunkBytes;
            run.spans.push_back({ kind, 0, stream, c, bytes, at, at + ms });
            run.traced.push_back({ kind, 0, stream, c, bytes, at + 0.005, at + ms + 0.004 });
            at += ms;
        }
    }
    run.gpuMs = *std::max_element(streamAt.begin(), streamAt.end());
    double callAt = 0.001;
    for (int c = 0; c < k; ++c) {
        for (ApiCall call : { ApiCall::MemcpyAsync, ApiCall::LaunchKernel, ApiCall::MemcpyAsync }) {
            run.traced.push_back({ SpanKind::Api, 0, 0, c, 0, callAt, callAt + 0.002, call });
            callAt += 0.0025;
        }
    }
    run.traced.push_back({ SpanKind::Api, 0, 0, 0, 0, 0.2, run.gpuMs, ApiCall::EventSynchronize });
    run.spans.push_back({ SpanKind::Submit, 0, 0, 0, 0, 0.0, callAt });
    run.spans.push_back({ SpanKind::Wait, 0, 0, 0, 0, callAt, run.gpuMs + 0.01 });
    run.spans.push_back({ SpanKind::Check, 0, 1, 0, kBytes, run.gpuMs + 0.02, run.gpuMs + 0.5 });
    return run;
}

json exported(const Report& report)
{
    std::ostringstream out;
    writeChromeTrace(out, report, assessSeries(report));
    return json::parse(out.str());
}

json exported(const PlanReport& plan)
{
    std::ostringstream out;
    writeChromeTrace(out, plan, assessPlan(plan));
    return json::parse(out.str());
}

// The X events a report should give: its GPU spans (traced where CUPTI saw the GPU), its submit, wait and check,
// its traced runtime calls, and one per run.
std::size_t spansCounted(const Report& report)
{
    std::size_t n = 0;
    for (const RunResult& run : report.runs) {
        const bool traced =
            std::any_of(run.traced.begin(), run.traced.end(), [](const Span& s) { return onGpu(s.kind); });
        for (const Span& s : traced ? run.traced : run.spans)
            n += onGpu(s.kind);
        for (const Span& s : run.spans)
            n += !onGpu(s.kind);
        for (const Span& s : run.traced)
            n += s.kind == SpanKind::Api;
        n += 1;
    }
    return n;
}

struct Tracks {
    std::map<std::pair<std::int64_t, std::int64_t>, std::string> threads;  // (pid, tid) -> thread_name
    std::map<std::int64_t, std::string> processes;
    std::vector<json> x;
    std::vector<json> counters;  // "C"
    std::vector<json> instants;  // "i"
};

// Checks the file against the trace-event format and what Perfetto needs to draw it; returns its tracks and X events.
Tracks checkFormat(const json& trace)
{
    Tracks t;
    EXPECT_TRUE(trace.is_object());
    EXPECT_TRUE(trace.contains("traceEvents") && trace.at("traceEvents").is_array());
    EXPECT_EQ(trace.value("displayTimeUnit", ""), "ms");
    EXPECT_EQ(trace.at("otherData").value("format", ""), kChromeTraceFormatName);
    for (const json& e : trace.at("traceEvents")) {
        const std::string ph = e.at("ph");
        EXPECT_TRUE(ph == "X" || ph == "M" || ph == "C" || ph == "i") << e;
        EXPECT_TRUE(e.at("pid").is_number_integer()) << e;
        EXPECT_TRUE(e.at("name").is_string() && !e.at("name").get<std::string>().empty()) << e;
        if (ph == "C" || ph == "i") {
            EXPECT_TRUE(e.at("ts").is_number() && e.at("ts").get<double>() >= 0.0) << e;
            EXPECT_TRUE(e.at("args").is_object()) << e;
            if (ph == "C") {
                for (const auto& [series, value] : e.at("args").items())
                    EXPECT_TRUE(value.is_number()) << series << " in " << e;
                t.counters.push_back(e);
            } else {
                EXPECT_EQ(e.value("s", ""), "p") << e;  // drawn across the process
                t.instants.push_back(e);
            }
            continue;
        }
        if (ph == "M") {
            const std::string name = e.at("name");
            if (name == "process_name")
                t.processes[e.at("pid")] = e.at("args").at("name");
            else if (name == "thread_name")
                t.threads[{ e.at("pid"), e.at("tid") }] = e.at("args").at("name");
            else
                EXPECT_TRUE(name == "process_sort_index" || name == "thread_sort_index") << e;
            continue;
        }
        EXPECT_TRUE(e.at("tid").is_number_integer()) << e;
        EXPECT_TRUE(e.at("ts").is_number()) << e;
        EXPECT_TRUE(e.at("dur").is_number()) << e;
        EXPECT_GE(e.at("ts").get<double>(), 0.0) << e;
        EXPECT_GE(e.at("dur").get<double>(), 0.0) << e;
        EXPECT_TRUE(e.at("cat").is_string() && !e.at("cat").get<std::string>().empty()) << e;
        EXPECT_TRUE(e.at("args").is_object()) << e;
        t.x.push_back(e);
    }
    std::map<std::pair<std::int64_t, std::int64_t>, std::vector<std::pair<double, double>>> slices;
    for (const json& e : t.x) {
        const std::pair<std::int64_t, std::int64_t> track { e.at("pid"), e.at("tid") };
        EXPECT_TRUE(t.threads.count(track)) << "no thread_name for " << e;
        EXPECT_TRUE(t.processes.count(track.first)) << "no process_name for " << e;
        const double ts = e.at("ts");
        slices[track].push_back({ ts, ts + e.at("dur").get<double>() });
    }
    // Slices on one track nest or follow one another: what the viewers draw without dropping any.
    for (auto& [track, list] : slices) {
        std::sort(list.begin(), list.end(),
            [](auto a, auto b) { return a.first < b.first || (a.first == b.first && a.second > b.second); });
        std::vector<double> open;
        for (const auto& [begin, end] : list) {
            while (!open.empty() && open.back() <= begin + 1e-9)
                open.pop_back();
            if (!open.empty()) {
                EXPECT_LE(end, open.back() + 1e-9)
                    << t.threads[track] << ": a slice at " << begin << " µs overlaps one it is not inside";
            }
            open.push_back(end);
        }
    }
    return t;
}

std::vector<json> named(const Tracks& t, const std::string& name)
{
    std::vector<json> found;
    std::copy_if(
        t.x.begin(), t.x.end(), std::back_inserter(found), [&](const json& e) { return e.at("name") == name; });
    return found;
}

std::string trackOf(const Tracks& t, const json& e)
{
    return t.threads.at({ e.at("pid"), e.at("tid") });
}

}  // namespace

TEST(ChromeTrace, AClassicRunHasItsStagesInMicroseconds)
{
    Report report = emptyReport();
    report.runs.push_back(classicRun(0, 0.0));
    const json trace = exported(report);
    const Tracks t = checkFormat(trace);
    EXPECT_EQ(t.x.size(), spansCounted(report));
    EXPECT_EQ(t.processes.at(1), "GPU 0: NVIDIA H200");

    const auto h2d = named(t, "H2D");
    const auto kernel = named(t, "kernel");
    ASSERT_EQ(h2d.size(), 1u);
    ASSERT_EQ(kernel.size(), 1u);
    EXPECT_NEAR(h2d[0].at("ts").get<double>(), 0.0, 1e-6);
    EXPECT_NEAR(h2d[0].at("dur").get<double>(), 1500.0, 1e-6);
    EXPECT_NEAR(kernel[0].at("ts").get<double>(), 1500.0, 1e-6);  // the H2D's 1.5 ms
    EXPECT_EQ(h2d[0].at("cat"), "h2d");
    EXPECT_EQ(trackOf(t, h2d[0]), "Stream 0");
    EXPECT_EQ(h2d[0].at("args").at("bytes"), kBytes);
    EXPECT_NEAR(h2d[0].at("args").at("GB/s").get<double>(), double(kBytes) / 1.5e6, 1e-9);
    EXPECT_EQ(kernel[0].at("args").at("bytes"), 2 * kBytes);

    const auto submit = named(t, "submit");
    const auto wait = named(t, "wait (poll)");
    const auto check = named(t, "check");
    ASSERT_EQ(submit.size(), 1u);
    ASSERT_EQ(wait.size(), 1u);
    ASSERT_EQ(check.size(), 1u);
    EXPECT_EQ(trackOf(t, submit[0]), "CPU · submit & wait");
    EXPECT_EQ(trackOf(t, wait[0]), "CPU · submit & wait");
    EXPECT_EQ(trackOf(t, check[0]), "CPU · check threads");
    EXPECT_NEAR(wait[0].at("ts").get<double>(), 20.0, 1e-6);

    const auto run = named(t, "run 0");
    ASSERT_EQ(run.size(), 1u);
    EXPECT_EQ(trackOf(t, run[0]), "Runs");
    EXPECT_EQ(run[0].at("cat"), "run");
    EXPECT_EQ(run[0].at("args").at("gpu_time_ms"), 3.0);
    EXPECT_EQ(run[0].at("args").at("verified"), true);
    EXPECT_EQ(run[0].at("args").at("warmup"), true);
    EXPECT_NEAR(run[0].at("dur").get<double>(), 3000.0, 1e-6);  // submission to the end of the wait, not the check

    const json& other = trace.at("otherData");
    EXPECT_EQ(other.at("device"), "GPU 0: NVIDIA H200");
    EXPECT_EQ(other.at("trace_source"), "events");
    EXPECT_EQ(other.at("chunks"), 1);
    EXPECT_NE(other.at("clock_alignment").get<std::string>().find("CUDA events"), std::string::npos);
    EXPECT_EQ(other.at("asyncscope_version"), ASYNCSCOPE_VERSION);
}

TEST(ChromeTrace, ChunkedTracedRunsPutEachOperationOnItsStream)
{
    Report report = emptyReport(16, 4);
    report.config.traceSource = TraceSource::Cupti;
    report.runs.push_back(chunkedRun(0, 0.0));
    report.runs.push_back(chunkedRun(1, 2.25));
    const json trace = exported(report);
    const Tracks t = checkFormat(trace);
    EXPECT_EQ(t.x.size(), spansCounted(report));
    EXPECT_EQ(trace.at("otherData").at("trace_source"), "cupti");
    EXPECT_NE(trace.at("otherData").at("clock_alignment").get<std::string>().find("CUPTI"), std::string::npos);

    std::set<std::string> tracks;
    for (const auto& [key, name] : t.threads)
        tracks.insert(name);
    EXPECT_EQ(tracks,
        (std::set<std::string> { "Runs", "CPU · submit & wait", "CPU · runtime calls (CUPTI)", "CPU · check threads",
            "Stream 0", "Stream 1", "Stream 2", "Stream 3" }));

    std::size_t gpu = 0;
    for (const json& e : t.x) {
        const std::string cat = e.at("cat");
        if (cat != "h2d" && cat != "kernel" && cat != "d2h")
            continue;
        ++gpu;
        EXPECT_EQ(trackOf(t, e), "Stream " + std::to_string(e.at("args").at("stream").get<int>())) << e;
        EXPECT_EQ(e.at("args").at("stream"), e.at("args").at("chunk").get<int>() % 4) << e;
    }
    EXPECT_EQ(gpu, 2u * 48u);

    // The GPU's operations come from the traced spans: chunk 0's H2D began 5 µs after submission, on CUPTI's clock.
    const auto h2d = named(t, "H2D");
    ASSERT_FALSE(h2d.empty());
    EXPECT_NEAR(h2d[0].at("ts").get<double>(), 5.0, 1e-6);
    EXPECT_NEAR(h2d[0].at("dur").get<double>(), 99.0, 1e-6);

    // Runtime calls by name, on the submitting thread's CUPTI track.
    const auto memcpy = named(t, "cudaMemcpyAsync");
    const auto launch = named(t, "cudaLaunchKernel");
    const auto sync = named(t, "cudaEventSynchronize");
    EXPECT_EQ(memcpy.size(), 2u * 32u);
    EXPECT_EQ(launch.size(), 2u * 16u);
    ASSERT_EQ(sync.size(), 2u);
    EXPECT_EQ(memcpy[0].at("cat"), "api");
    EXPECT_EQ(trackOf(t, memcpy[0]), "CPU · runtime calls (CUPTI)");

    // Run 1 starts 2.25 ms after run 0: its first H2D too.
    const auto run1 = named(t, "run 1");
    ASSERT_EQ(run1.size(), 1u);
    EXPECT_NEAR(run1[0].at("ts").get<double>(), 2250.0, 1e-6);
    const auto firstOfRun1 =
        std::find_if(h2d.begin(), h2d.end(), [](const json& e) { return e.at("args").at("run") == 1; });
    ASSERT_NE(firstOfRun1, h2d.end());
    EXPECT_NEAR(firstOfRun1->at("ts").get<double>(), 2255.0, 1e-6);
}

TEST(ChromeTrace, RunsAreAtTheirStartTimes)
{
    Report report = emptyReport();
    for (int i = 0; i < 4; ++i)
        report.runs.push_back(classicRun(i, 5.0 * i));
    const Tracks t = checkFormat(exported(report));
    EXPECT_EQ(t.x.size(), spansCounted(report));
    const auto h2d = named(t, "H2D");
    ASSERT_EQ(h2d.size(), 4u);
    for (int i = 0; i < 4; ++i) {
        EXPECT_EQ(h2d[std::size_t(i)].at("args").at("run"), i);
        EXPECT_NEAR(h2d[std::size_t(i)].at("ts").get<double>(), 5000.0 * i, 1e-6);
    }
}

TEST(ChromeTrace, RunsWithoutStartTimesFollowOneAnother)
{
    Report report = emptyReport();
    for (int i = 0; i < 3; ++i)
        report.runs.push_back(classicRun(i, 0.0));
    const json trace = exported(report);
    const Tracks t = checkFormat(trace);
    EXPECT_EQ(t.x.size(), spansCounted(report));
    EXPECT_NE(trace.at("otherData").at("layout").get<std::string>().find("end to end"), std::string::npos);

    // Each run begins where the one before it ended: its check, 4 ms after its start.
    std::map<int, double> runEnd, h2dAt;
    for (const json& e : t.x) {
        const int run = e.at("args").at("run");
        runEnd[run] = std::max(runEnd[run], e.at("ts").get<double>() + e.at("dur").get<double>());
        if (e.at("name") == "H2D")
            h2dAt[run] = e.at("ts");
    }
    ASSERT_EQ(h2dAt.size(), 3u);
    EXPECT_NEAR(h2dAt[0], 0.0, 1e-6);
    EXPECT_NEAR(h2dAt[1], 4000.0, 1e-6);
    EXPECT_NEAR(h2dAt[2], 8000.0, 1e-6);
    EXPECT_GE(h2dAt[1], runEnd[0] - 1e-6);
    EXPECT_GE(h2dAt[2], runEnd[1] - 1e-6);
}

TEST(ChromeTrace, SpansBeforeTheRunsStartMoveTheAxisNotBelowZero)
{
    Report report = emptyReport();
    RunResult run = classicRun(0, 0.0);
    run.spans.push_back({ SpanKind::Check, 0, 1, 0, kBytes, -0.25, -0.1 });  // a check of an earlier series' run
    report.runs.push_back(run);
    const Tracks t = checkFormat(exported(report));
    const auto h2d = named(t, "H2D");
    ASSERT_EQ(h2d.size(), 1u);
    EXPECT_NEAR(h2d[0].at("ts").get<double>(), 250.0, 1e-6);
}

TEST(ChromeTrace, TimesKeepTheirNanoseconds)
{
    Report report = emptyReport();
    RunResult run = classicRun(0, 0.0);
    run.traced = { { SpanKind::Api, 0, 0, 0, 0, 0.0012345, 0.0034567, ApiCall::LaunchKernel } };
    report.runs.push_back(run);
    const Tracks t = checkFormat(exported(report));
    const auto launch = named(t, "cudaLaunchKernel");
    ASSERT_EQ(launch.size(), 1u);
    EXPECT_NEAR(launch[0].at("ts").get<double>(), 1.235, 1e-9);  // µs, to the ns
    EXPECT_NEAR(launch[0].at("dur").get<double>(), 2.222, 1e-9);
    EXPECT_EQ(launch[0].at("args").at("run"), 0);
}

TEST(ChromeTrace, AComparisonHasAProcessPerVariant)
{
    PlanReport plan;
    plan.comparison = Comparison::HostMemory;
    plan.planned = 3;
    for (const char* label : { "pinned", "pageable" }) {
        VariantResult v;
        v.label = label;
        v.report = emptyReport();
        v.report.runs.push_back(classicRun(0, 0.0));
        v.report.runs.push_back(classicRun(1, 4.5));
        plan.variants.push_back(v);
    }
    VariantResult notRun;
    notRun.label = "huge";
    notRun.report = emptyReport();
    notRun.notRun = makeError(ErrorKind::TooLarge, "does not fit");
    plan.variants.push_back(notRun);

    const json trace = exported(plan);
    const Tracks t = checkFormat(trace);
    EXPECT_EQ(t.x.size(), spansCounted(plan.variants[0].report) + spansCounted(plan.variants[1].report));
    EXPECT_EQ(t.processes.size(), 2u);
    EXPECT_EQ(t.processes.at(1), "pinned · GPU 0: NVIDIA H200");
    EXPECT_EQ(t.processes.at(2), "pageable · GPU 0: NVIDIA H200");

    // Both variants start at 0.
    std::map<std::int64_t, double> firstH2d;
    for (const json& e : named(t, "H2D")) {
        const std::int64_t pid = e.at("pid");
        if (!firstH2d.count(pid))
            firstH2d[pid] = e.at("ts");
    }
    EXPECT_NEAR(firstH2d[1], 0.0, 1e-6);
    EXPECT_NEAR(firstH2d[2], 0.0, 1e-6);

    const json& other = trace.at("otherData");
    EXPECT_EQ(other.at("source"), "host-memory");
    ASSERT_EQ(other.at("variants").size(), 3u);
    EXPECT_EQ(other.at("variants")[2].at("variant"), "huge");
    EXPECT_NE(other.at("variants")[2].at("not_run").get<std::string>().find("does not fit"), std::string::npos);
}

TEST(ChromeTrace, ATraceNoteAndBlockingWaitAreKept)
{
    Report report = emptyReport();
    report.config.waitMode = WaitMode::Blocking;
    report.config.traceSource = TraceSource::Cupti;
    report.outcome.emplace();
    report.outcome->measuredRuns = 1;
    report.outcome->traceNote = "CUPTI is held by another profiler";
    report.runs.push_back(classicRun(0, 0.0));
    const json trace = exported(report);
    const Tracks t = checkFormat(trace);
    EXPECT_EQ(named(t, "wait (blocking sync)").size(), 1u);
    EXPECT_EQ(trace.at("otherData").at("trace_source"), "events");
    EXPECT_EQ(trace.at("otherData").at("trace_note"), "CUPTI is held by another profiler");
}

TEST(ChromeTrace, AnEmptySeriesIsAValidTrace)
{
    const json trace = exported(emptyReport());
    const Tracks t = checkFormat(trace);
    EXPECT_TRUE(t.x.empty());
    EXPECT_TRUE(t.processes.empty());
}

TEST(ChromeTrace, AHundredChunkedRunsAreQuick)
{
    Report report = emptyReport(16, 4);
    for (int i = 0; i < 100; ++i)
        report.runs.push_back(chunkedRun(i, 2.5 * i));
    const auto begin = std::chrono::steady_clock::now();
    std::ostringstream out;
    writeChromeTrace(out, report, assessSeries(report));
    const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - begin).count();
    const json trace = json::parse(out.str());
    const Tracks t = checkFormat(trace);
    EXPECT_EQ(t.x.size(), spansCounted(report));
    EXPECT_GT(t.x.size(), 10000u);
    EXPECT_LT(seconds, 2.0) << t.x.size() << " events";
}

namespace {

// A managed run with prefetches as CUPTI traced it: chunk 0's prefetch in and out, its kernel, and the page
// migrations that moved the pages, the two to the device overlapping.
RunResult migratingRun(int index, double startMs)
{
    RunResult run;
    run.index = index;
    run.startMs = startMs;
    run.gpuMs = 1.0;
    run.verified = true;
    run.spans.push_back({ SpanKind::Submit, 0, 0, 0, 0, 0.0, 0.01 });
    run.spans.push_back({ SpanKind::Wait, 0, 0, 0, 0, 0.01, 1.0 });
    run.spans.push_back({ SpanKind::Check, 0, 1, 0, kBytes, 1.0, 1.2 });
    run.traced.push_back({ SpanKind::H2D, 0, 0, 0, kBytes, 0.02, 0.3 });
    run.traced.push_back({ SpanKind::MigrateH2D, 0, 0, 0, kBytes / 2, 0.02, 0.2 });
    run.traced.push_back({ SpanKind::MigrateH2D, 0, 0, 0, kBytes / 2, 0.1, 0.3 });
    run.traced.push_back({ SpanKind::Kernel, 0, 0, 0, 2 * kBytes, 0.3, 0.4 });
    run.traced.push_back({ SpanKind::D2H, 0, 0, 0, kBytes, 0.4, 0.9 });
    run.traced.push_back({ SpanKind::MigrateD2H, 0, 0, 0, kBytes, 0.4, 0.9 });
    run.traced.push_back({ SpanKind::Api, 0, 0, 0, 0, 0.001, 0.002, ApiCall::MemPrefetchAsync });
    return run;
}

}  // namespace

TEST(ChromeTrace, PageMigrationsHaveTracksOfTheirOwnWithTheirBytes)
{
    Report report = emptyReport();
    report.config.hostMemory = HostMemory::Managed;
    report.config.managedMigration = ManagedMigration::Prefetch;
    report.config.traceSource = TraceSource::Cupti;
    report.runs.push_back(migratingRun(0, 0.0));
    report.runs.push_back(migratingRun(1, 1.5));
    const json trace = exported(report);
    const Tracks t = checkFormat(trace);  // the overlapping migrations each on a lane of its own
    EXPECT_EQ(t.x.size(), spansCounted(report));
    const auto toDevice = named(t, "page migration to the device");
    const auto toHost = named(t, "page migration to the host");
    ASSERT_EQ(toDevice.size(), 4u);
    ASSERT_EQ(toHost.size(), 2u);
    EXPECT_EQ(toDevice[0].at("cat"), "migrate-h2d");
    EXPECT_EQ(toHost[0].at("cat"), "migrate-d2h");
    EXPECT_EQ(toDevice[0].at("args").at("bytes"), kBytes / 2);
    EXPECT_TRUE(toDevice[0].at("args").contains("GB/s"));
    EXPECT_FALSE(toDevice[0].at("args").contains("chunk"));  // no chunk of the pipeline's
    EXPECT_EQ(trackOf(t, toDevice[0]), "GPU · page migrations to the device (unified memory)");
    EXPECT_EQ(trackOf(t, toDevice[1]), "GPU · page migrations to the device (unified memory) 2");
    EXPECT_EQ(trackOf(t, toHost[0]), "GPU · page migrations to the host (unified memory)");
    // The prefetches themselves stay on their stream, named as what they are.
    const auto prefetch = named(t, "H2D (prefetch)");
    ASSERT_EQ(prefetch.size(), 2u);
    EXPECT_EQ(trackOf(t, prefetch[0]), "Stream 0");
    EXPECT_EQ(prefetch[0].at("args").at("copy"), "prefetch");
    EXPECT_EQ(named(t, "cudaMemPrefetchAsync").size(), 2u);
    EXPECT_EQ(trace.at("otherData").at("managed_migration"), "prefetch");
    EXPECT_FALSE(trace.at("otherData").contains("memory_note"));  // nothing hidden: the migrations are shown
    // Migrations sort below the streams, above the check threads.
    std::map<std::string, int> sortIndex;
    for (const json& e : trace.at("traceEvents")) {
        if (e.at("name") == "thread_sort_index")
            sortIndex[t.threads.at({ e.at("pid"), e.at("tid") })] = e.at("args").at("sort_index");
    }
    EXPECT_GT(sortIndex.at("GPU · page migrations to the device (unified memory)"), sortIndex.at("Stream 0"));
    EXPECT_LT(
        sortIndex.at("GPU · page migrations to the host (unified memory)"), sortIndex.at("CPU · check threads"));
}

TEST(ChromeTrace, SmCopiesAreNamedAsKernelsThatCopy)
{
    Report report = emptyReport(16, 4);
    report.config.copy = CopyMechanism::Sm;
    report.runs.push_back(chunkedRun(0, 0.0));
    const json trace = exported(report);
    const Tracks t = checkFormat(trace);
    EXPECT_EQ(t.x.size(), spansCounted(report));
    EXPECT_EQ(named(t, "H2D (SM copy kernel)").size(), 16u);
    EXPECT_EQ(named(t, "D2H (SM copy kernel)").size(), 16u);
    EXPECT_TRUE(named(t, "H2D").empty());
    EXPECT_EQ(named(t, "kernel").size(), 16u);  // the increment kernel keeps its name
    const auto h2d = named(t, "H2D (SM copy kernel)");
    EXPECT_EQ(h2d[0].at("cat"), "h2d");
    EXPECT_EQ(h2d[0].at("args").at("copy"), "SM copy kernel");
    EXPECT_EQ(trace.at("otherData").at("copy"), "sm");
    EXPECT_NE(trace.at("otherData").at("config").get<std::string>().find("copies: SM copy kernel"), std::string::npos);

    // With the copy engines the copies keep their plain names and no "copy" argument.
    report.config.copy = CopyMechanism::CopyEngine;
    const Tracks ce = checkFormat(exported(report));
    ASSERT_EQ(named(ce, "H2D").size(), 16u);
    EXPECT_FALSE(named(ce, "H2D")[0].at("args").contains("copy"));
}

TEST(ChromeTrace, DataMovedInsideOtherSpansIsSaidInANote)
{
    Report report = emptyReport();
    report.config.hostMemory = HostMemory::Managed;
    report.config.managedMigration = ManagedMigration::OnDemand;
    RunResult run = classicRun(0, 0.0);
    run.spans.erase(std::remove_if(run.spans.begin(), run.spans.end(),
                        [](const Span& s) { return s.kind == SpanKind::H2D || s.kind == SpanKind::D2H; }),
        run.spans.end());
    report.runs.push_back(run);
    json trace = exported(report);
    checkFormat(trace);
    const std::string managed = trace.at("otherData").value("memory_note", "");
    EXPECT_NE(managed.find("inside the kernel's span"), std::string::npos) << managed;

    report.config.hostMemory = HostMemory::Mapped;
    trace = exported(report);
    const std::string mapped = trace.at("otherData").value("memory_note", "");
    EXPECT_NE(mapped.find("reads and writes host memory over the bus"), std::string::npos) << mapped;

    // Traced migrations have their own track: nothing is hidden in the kernel's span.
    Report traced = emptyReport();
    traced.config.hostMemory = HostMemory::Managed;
    traced.config.managedMigration = ManagedMigration::OnDemand;
    run.traced = { { SpanKind::Kernel, 0, 0, 0, 2 * kBytes, 1.5, 1.6 },
        { SpanKind::MigrateH2D, 0, 0, 0, kBytes, 1.5, 1.55 } };
    traced.runs.push_back(run);
    trace = exported(traced);
    const Tracks t = checkFormat(trace);
    EXPECT_FALSE(trace.at("otherData").contains("memory_note"));
    EXPECT_EQ(named(t, "page migration to the device").size(), 1u);

    report.config = emptyReport().config;
    EXPECT_FALSE(exported(report).at("otherData").contains("memory_note"));
}

TEST(ChromeTrace, ABatchSubmissionIsNamedInTheConfiguration)
{
    Report report = emptyReport(16, 4);
    report.config.submission = Submission::Batch;
    report.runs.push_back(chunkedRun(0, 0.0));
    const json trace = exported(report);
    EXPECT_NE(trace.at("otherData").at("config").get<std::string>().find("cudaMemcpyBatchAsync"), std::string::npos);
    EXPECT_EQ(trace.at("otherData").at("submission"), "batch");
}

// A trace written elsewhere (by `asyncscope-cli --trace` on a GPU machine, say) checked against the same format:
// ASYNCSCOPE_TRACE_TO_CHECK names the file. Skipped when it is not set.
TEST(ChromeTrace, AFileNamedByTheEnvironmentMatchesTheFormat)
{
    const char* path = std::getenv("ASYNCSCOPE_TRACE_TO_CHECK");
    if (!path || !*path)
        GTEST_SKIP() << "ASYNCSCOPE_TRACE_TO_CHECK names no file";
    std::ifstream in(path, std::ios::binary);
    ASSERT_TRUE(in) << "cannot read " << path;
    const json trace = json::parse(in, nullptr, false);
    ASSERT_FALSE(trace.is_discarded()) << path << " is not JSON";
    const Tracks t = checkFormat(trace);
    EXPECT_FALSE(t.x.empty()) << path << " has no spans";
    std::map<std::string, std::size_t> perTrack;
    for (const json& e : t.x)
        ++perTrack[t.processes.at(e.at("pid")) + " / " + trackOf(t, e)];
    std::cout << path << ": " << t.x.size() << " spans, " << t.processes.size() << " process(es), "
              << t.threads.size() << " tracks\n";
    for (const auto& [track, count] : perTrack)
        std::cout << "  " << track << ": " << count << '\n';
}

TEST(ChromeTrace, TheMachinesReadingsAreCountersAndOtherProcessesATrack_TheAdviceIsInOtherData)
{
    Report report = asyncscope::testing::classicReport(20);
    MachineState m;
    m.source = "NVML, driver 580.159.04";
    m.selfPid = 1000;
    for (int k = 0; k < 5; ++k) {
        MachineSample s;
        s.atMs = 10.0 * k;
        s.smClockMHz = 1980;
        s.powerW = 120.0 + k;
        s.temperatureC = 40;
        s.processes = std::vector<GpuProcess> { { 1000, 0, "asyncscope-cli" } };
        if (k >= 2)
            s.processes->push_back({ 4321, 0, "other" });
        m.samples.push_back(s);
    }
    report.machine = m;
    std::ostringstream out;
    writeChromeTrace(out, report, assessSeries(report));
    const json trace = json::parse(out.str());
    int clocks = 0, powers = 0;
    bool other = false;
    for (const json& e : trace.at("traceEvents")) {
        if (e.at("ph") == "C" && e.at("name") == "SM clock")
            ++clocks;
        if (e.at("ph") == "C" && e.at("name") == "GPU power")
            ++powers;
        if (e.at("ph") == "X" && e.at("name") == "PID 4321 other") {
            other = true;
            EXPECT_EQ(e.at("args").at("seen_from_ms"), 20.0);
            EXPECT_EQ(e.at("args").at("seen_to_ms"), 40.0);
        }
    }
    EXPECT_EQ(clocks, 5);
    EXPECT_EQ(powers, 5);
    EXPECT_TRUE(other);
    EXPECT_EQ(trace.at("otherData").at("machine"), "NVML, driver 580.159.04");
    bool interference = false;
    for (const json& f : trace.at("otherData").at("findings"))
        interference = interference || f.at("rule") == "interference";
    EXPECT_TRUE(interference);
}

namespace {

// Readings every 10 ms from 15 ms before the first run of `r`: this process (PID 1000) throughout; PID 554 beside it
// from 15 to 35 ms (the reading at 25 ms could not list processes nor read the power) and again at 75 ms; PID 777
// (python3) from 15 to 55 ms; the clock held by the power cap at 35 ms.
MachineState readingsBeside(const Report& r)
{
    MachineState m;
    m.source = "NVML, driver 580.159.04";
    m.selfPid = 1000;
    const std::size_t last = r.runs.size() - 1;
    const double end = r.runs.startMs(last) + r.runs.gpuMs(last);
    int k = 0;
    for (double t = -15.0; t < end + 10.0; t += 10.0, ++k) {
        MachineSample s;
        s.atMs = t;
        s.smClockMHz = k == 5 ? 1410 : 1980;
        s.clockReasons = k == 5 ? clock_reasons::kSwPowerCap : 0;
        s.temperatureC = k == 5 ? 71 : 40;
        if (k != 4)
            s.powerW = 130.5;
        if (k != 4)
            s.processes = std::vector<GpuProcess> { { 1000, 600u << 20, "asyncscope-cli" } };
        if (k == 3 || k == 5 || k == 9)
            s.processes->push_back({ 554, 2u << 20, {} });
        if (k == 3 || k == 5 || k == 6 || k == 7)
            s.processes->push_back({ 777, 0, "python3" });
        m.samples.push_back(s);
    }
    return m;
}

}  // namespace

TEST(ChromeTrace, ReadingsAreCountersAtTheirTimes_OtherProcessesSlicesPerStretch_FindingsAtTheStart)
{
    Report report = asyncscope::testing::classicReport(30);
    report.machine = readingsBeside(report);
    const json trace = exported(report);
    const Tracks t = checkFormat(trace);  // the slices of overlapping processes on lanes of their own
    EXPECT_EQ(t.x.size(), spansCounted(report) + 3);

    std::map<std::string, std::vector<json>> counters;
    for (const json& c : t.counters) {
        EXPECT_EQ(c.at("pid"), 1);
        counters[c.at("name")].push_back(c);
    }
    // Of the two readings before the first run, the last is shown at its start; the others at their times, in µs.
    const std::size_t shown = report.machine->samples.size() - 1;
    ASSERT_EQ(counters["SM clock"].size(), shown);
    EXPECT_EQ(counters["SM clock"][0].at("ts"), 0.0);
    EXPECT_NEAR(counters["SM clock"][1].at("ts").get<double>(), 5000.0, 1e-6);
    EXPECT_EQ(counters["SM clock"][4].at("args").at("MHz"), 1410);
    EXPECT_EQ(counters["GPU temperature"][4].at("args").at("C"), 71);
    EXPECT_EQ(counters["GPU power"].size(), shown - 1);  // one reading without it
    EXPECT_EQ(counters["GPU power"][0].at("args").at("W"), 130.5);

    const auto first554 = named(t, "PID 554");
    ASSERT_EQ(first554.size(), 2u);  // two stretches
    EXPECT_NEAR(first554[0].at("ts").get<double>(), 15000.0, 1e-6);
    EXPECT_NEAR(first554[0].at("ts").get<double>() - counters["SM clock"][2].at("ts").get<double>(), 0.0, 1e-6);
    EXPECT_NEAR(first554[0].at("dur").get<double>(), 20000.0, 1e-6);
    EXPECT_EQ(first554[0].at("args").at("readings"), 2);  // the reading between that listed nothing ends nothing
    EXPECT_EQ(first554[0].at("args").at("seen_from_ms"), 15.0);
    EXPECT_EQ(first554[0].at("args").at("most_used_bytes"), 2u << 20);
    EXPECT_EQ(first554[1].at("dur"), 0.0);
    const auto python = named(t, "PID 777 python3");
    ASSERT_EQ(python.size(), 1u);
    EXPECT_EQ(python[0].at("args").at("seen_to_ms"), 55.0);
    EXPECT_EQ(trackOf(t, first554[0]), "Other processes on the GPU");
    EXPECT_EQ(trackOf(t, python[0]), "Other processes on the GPU 2");
    EXPECT_EQ(trackOf(t, first554[1]), "Other processes on the GPU");
    EXPECT_TRUE(named(t, "PID 1000 asyncscope-cli").empty());

    // The findings at the first moment shown, and in otherData.
    ASSERT_FALSE(t.instants.empty());
    bool interference = false;
    for (const json& f : t.instants) {
        EXPECT_EQ(f.at("ts"), 0.0);
        EXPECT_EQ(f.at("cat"), "advice");
        for (const char* key : { "rule", "severity", "evidence", "action" })
            EXPECT_TRUE(f.at("args").at(key).is_string()) << f;
        interference = interference || f.at("args").at("rule") == "interference";
    }
    EXPECT_TRUE(interference);
    EXPECT_EQ(trace.at("otherData").at("findings").size(), t.instants.size());
    EXPECT_EQ(trace.at("otherData").at("machine_readings"), report.machine->samples.size());
}

TEST(ChromeTrace, EveryProcessIsListedWhereThisOnesPidIsUnknown_AComparisonsVariantsAreJudgedTogether)
{
    Report report = asyncscope::testing::classicReport(30);
    report.machine = readingsBeside(report);
    report.machine->selfPid.reset();
    const Tracks t = checkFormat(exported(report));
    const auto self = named(t, "PID 1000 asyncscope-cli");
    ASSERT_EQ(self.size(), 1u);
    EXPECT_TRUE(self[0].at("args").contains("note")) << self[0];

    // Without readings: no counters; without start times: the readings cannot be placed; without runs: no events.
    EXPECT_TRUE(checkFormat(exported(asyncscope::testing::classicReport(3))).counters.empty());
    Report noStarts = emptyReport();
    noStarts.runs.push_back(classicRun(0, 0.0));
    noStarts.runs.push_back(classicRun(1, 0.0));
    noStarts.machine = readingsBeside(asyncscope::testing::classicReport(3));
    EXPECT_TRUE(checkFormat(exported(noStarts)).counters.empty());
    Report empty = emptyReport();
    empty.machine = report.machine;
    EXPECT_TRUE(exported(empty).at("traceEvents").empty());

    // A submission comparison: the stream variant learns what the graph variant's submission cost.
    PlanReport plan;
    plan.comparison = Comparison::Submission;
    plan.planned = 2;
    for (const auto& [label, submission, submitMs] :
        { std::tuple { "stream K=64 S=4", Submission::Stream, 1.6 }, std::tuple { "graph K=64 S=4", Submission::Graph, 0.8 } }) {
        VariantResult v;
        v.label = label;
        v.report = asyncscope::testing::classicReport(12);
        v.report.config.chunks = 64;
        v.report.config.streams = 4;
        v.report.config.submission = submission;
        RunStore runs;
        for (std::size_t i = 0; i < v.report.runs.size(); ++i) {
            RunResult run = v.report.runs[i];
            for (Span& s : run.spans) {
                if (s.kind == SpanKind::Submit)
                    s.endMs = submitMs;
                if (s.kind == SpanKind::Wait)
                    s.beginMs = submitMs;
            }
            runs.push_back(run);
        }
        v.report.runs = std::move(runs);
        v.report.machine = readingsBeside(v.report);
        plan.variants.push_back(std::move(v));
    }
    const json trace = exported(plan);
    const Tracks both = checkFormat(trace);
    std::set<std::int64_t> pids;
    for (const json& c : both.counters)
        pids.insert(c.at("pid").get<std::int64_t>());
    EXPECT_EQ(pids, (std::set<std::int64_t> { 1, 2 }));
    const auto learned = [](const json& findings) {
        for (const json& f : findings) {
            if (f.at("evidence").get<std::string>().find("graph K=64 S=4 submits in") != std::string::npos)
                return true;
        }
        return false;
    };
    EXPECT_TRUE(learned(trace.at("otherData").at("variants").at(0).at("findings")));
    std::vector<json> streamInstants;
    for (const json& i : both.instants) {
        if (i.at("pid") == 1)
            streamInstants.push_back(i.at("args"));
    }
    EXPECT_TRUE(learned(json(streamInstants)));
}

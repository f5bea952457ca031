// The advice's rules on invented series, each built to show one thing: every rule fires on its own case and stays
// silent on a clean series; the machine's state comes from invented readings (clocks held low, a second process, a
// link trained down).
#include "engine/io/text_report.hpp"
#include "engine/model/advice.hpp"
#include "engine/model/overlap_model.hpp"
#include "engine/run/plan_advice.hpp"
#include "engine/run/plan_summary.hpp"

#include "fake_machine_probe.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <functional>

namespace asyncscope {
namespace {

// Stage times of one run, whole run's, in ms; each chunk's spans take an equal share.
struct Shape {
    double h2d = 1.22;
    double kernel = 0.06;
    double d2h = 1.22;
    double submit = 0.02;
    double check = 1.8;
};

constexpr std::uint32_t kSelf = 1000;

PipelineConfig classicConfig()
{
    PipelineConfig c;
    c.runs = 200;
    c.warmupRuns = 1;
    return c;
}

CopyPeak pinnedPeak()
{
    CopyPeak p;
    p.h2dGBps = 55.0;
    p.d2hGBps = 55.1;
    p.bidirectionalGBps = 97.0;
    p.bytes = std::size_t(256) << 20;
    p.costs = { 2.0, 2.5, 2500.0, 2.0 };
    return p;
}

// One run as the pipeline records it: the chunks' spans one after the other (a one-stream timing), slowed by `scale`.
RunResult makeRun(int i, double startMs, const PipelineConfig& c, const Shape& s, double scale)
{
    RunResult r;
    r.index = i;
    r.warmup = i < c.warmupRuns;
    r.startMs = startMs;
    r.verified = true;
    const int k = c.chunks;
    const std::uint64_t bytes = c.bytes() / std::uint64_t(k);
    double t = 0.0;
    for (int chunk = 0; chunk < k; ++chunk) {
        const int stream = chunk % c.streams;
        for (const auto& [kind, ms] :
            { std::pair { SpanKind::H2D, s.h2d }, std::pair { SpanKind::Kernel, s.kernel },
                std::pair { SpanKind::D2H, s.d2h } }) {
            if (!hasCopies(c) && kind != SpanKind::Kernel)
                continue;
            const double d = ms * scale / k;
            r.spans.push_back({ kind, c.device, stream, chunk, kind == SpanKind::Kernel ? 2 * bytes : bytes, t, t + d });
            t += d;
        }
    }
    r.gpuMs = t;
    r.spans.push_back({ SpanKind::Submit, c.device, 0, 0, 0, 0.0, s.submit });
    r.spans.push_back({ SpanKind::Wait, c.device, 0, 0, 0, s.submit, t + 0.01 });
    r.spans.push_back({ SpanKind::Check, c.device, 0, 0, c.bytes(), t + 0.02, t + 0.02 + s.check });
    return r;
}

Report makeReport(const PipelineConfig& c, const Shape& s, const std::function<double(int)>& scale = {})
{
    Report r;
    r.device.name = "NVIDIA H200";
    r.device.uuid = "GPU-01234567-89ab-cdef-0123-456789abcdef";
    r.config = c;
    double start = 0.0;
    for (int i = 0; i < c.warmupRuns + c.runs; ++i) {
        r.runs.push_back(makeRun(i, start, c, s, scale ? scale(i) : 1.0 + 0.002 * (i % 5)));
        start += r.runs.gpuMs(r.runs.size() - 1) + 0.1;
    }
    return r;
}

// Readings every 20 ms from before the first run to after the last, clean; `change` alters some.
MachineState machineOver(const Report& r, const std::function<void(MachineSample&)>& change = {})
{
    MachineState m;
    m.source = "NVML, driver 580.159.04";
    m.selfPid = kSelf;
    const std::size_t last = r.runs.size() - 1;
    const double end = r.runs.startMs(last) + r.runs.gpuMs(last);
    for (double t = -5.0; t < end + 20.0; t += 20.0) {
        MachineSample s = testing::cleanReading(kSelf);
        s.atMs = t;
        if (change)
            change(s);
        m.samples.push_back(s);
    }
    return m;
}

const Finding* find(const Advice& a, std::string_view rule)
{
    for (const Finding& f : a.findings) {
        if (f.rule == rule)
            return &f;
    }
    return nullptr;
}

bool notChecked(const Advice& a, std::string_view rule)
{
    return std::any_of(a.notChecked.begin(), a.notChecked.end(), [rule](const NotChecked& n) { return n.rule == rule; });
}

Advice judge(const Report& r)
{
    return judgeSeries(r, summarizeSeries(r));
}

TEST(Advice, ACleanSeriesWithTheMachineReadHasNoFindingAndChecksEveryRule)
{
    Report r = makeReport(classicConfig(), {});
    r.machine = machineOver(r);
    const Advice a = judge(r);
    EXPECT_TRUE(a.findings.empty()) << formatAdviceText(a);
    EXPECT_TRUE(a.notChecked.empty()) << formatAdviceText(a);
    EXPECT_FALSE(a.worst());
}

TEST(Advice, TransferBoundNamesTheBound_AndTheModelsBestShape)
{
    Report r = makeReport(classicConfig(), {});
    r.peak = pinnedPeak();
    r.machine = machineOver(r);
    const Advice a = judge(r);
    const Finding* f = find(a, rules::kTransferBound);
    ASSERT_NE(f, nullptr) << formatAdviceText(a);
    EXPECT_EQ(f->severity, Severity::Info);
    EXPECT_NE(f->evidence.find("serial PCIe bound"), std::string::npos) << f->evidence;
    EXPECT_NE(f->action.find("--chunks"), std::string::npos) << f->action;
    EXPECT_NE(f->action.find("--streams"), std::string::npos) << f->action;
    EXPECT_EQ(a.worst(), Severity::Info);
}

TEST(Advice, TheSuggestedShapeIsTheModelsFastest_FasterThanNowByMoreThanTheNoise)
{
    Report r = makeReport(classicConfig(), {});
    r.peak = pinnedPeak();
    const SeriesSummary summary = summarizeSeries(r);
    const Advice a = judgeSeries(r, summary);
    ASSERT_TRUE(a.suggestion) << formatAdviceText(a);
    const SuggestedShape& s = *a.suggestion;
    EXPECT_EQ(s.rule, rules::kTransferBound);
    const double predicted =
        modelledMs(r.config.bytes(), s.chunks, s.streams, r.config.submission, *r.peak, summary.median("kernel_ms"));
    EXPECT_DOUBLE_EQ(s.predictedMs, predicted);
    EXPECT_DOUBLE_EQ(s.nowMs, summary.median(keys::kGpuTime));
    EXPECT_LT(s.predictedMs, s.nowMs * (1.0 - advice_limits::kModelErrorShare));
    // The finding's words give the same shape and figure.
    const Finding* f = find(a, rules::kTransferBound);
    ASSERT_NE(f, nullptr);
    EXPECT_NE(f->action.find("--chunks " + std::to_string(s.chunks) + " --streams " + std::to_string(s.streams)),
        std::string::npos)
        << f->action;
    EXPECT_NE(f->action.find("--try-advice"), std::string::npos) << f->action;
}

TEST(Advice, NoShapeIsSuggestedWhereTheModelGainsLessThanTheNoiseOrTheModelsError)
{
    PipelineConfig c = classicConfig();
    c.chunks = 16;
    c.streams = 2;  // the model's fastest shape is another (it takes 4 streams where they time alike)
    Report r = makeReport(c, {});
    r.peak = pinnedPeak();
    const double best = bestModelledShape(c.bytes(), c.elements, c.submission, *r.peak, 0.0, kModelMaxChunks,
        kModelMaxStreams)->ms;
    const double now = summarizeSeries(r).median(keys::kGpuTime);
    // 2 % slower than the model's fastest shape: within the model's error.
    Report near = makeReport(c, {}, [&](int i) { return (1.0 + 0.001 * (i % 3)) * 1.02 * best / now; });
    near.peak = r.peak;
    EXPECT_FALSE(judge(near).suggestion) << formatAdviceText(judge(near));
    // 10 % slower, but the runs spread by ±20 %: the gain is within the noise.
    Report noisy = makeReport(c, {}, [&](int i) { return (i % 2 ? 0.8 : 1.2) * 1.10 * best / now; });
    noisy.peak = r.peak;
    EXPECT_FALSE(judge(noisy).suggestion) << formatAdviceText(judge(noisy));
    // 10 % slower with little noise: the shape is suggested.
    Report far = makeReport(c, {}, [&](int i) { return (1.0 + 0.001 * (i % 3)) * 1.10 * best / now; });
    far.peak = r.peak;
    EXPECT_TRUE(judge(far).suggestion) << formatAdviceText(judge(far));
    // A calibration without operation costs predicts no shape.
    far.peak->costs = {};
    EXPECT_FALSE(judge(far).suggestion);
}

TEST(SeriesBounds, TheSummaryGivesTheOverlappedBoundAndTheDistanceToIt)
{
    // An overlapping shape: the bound at its own shape, both directions at once plus one chunk's fill and drain.
    PipelineConfig c = classicConfig();
    c.chunks = 16;
    c.streams = 4;
    Report chunked = makeReport(c, {});
    chunked.peak = pinnedPeak();
    const SeriesSummary s = summarizeSeries(chunked);
    const Figure* bound = s.figure(keys::kOverlappedBound);
    ASSERT_NE(bound, nullptr);
    EXPECT_EQ(bound->name, "Overlapped bound, K=16 S=4");
    const double kernelMs = wholeKernelMs(s.median("kernel_ms"), 16, chunked.peak->costs);
    EXPECT_DOUBLE_EQ(bound->value, overlapBoundMs(c.bytes(), 16, 4, *chunked.peak, kernelMs));
    EXPECT_DOUBLE_EQ(s.value(keys::kOverOverlappedBound), s.median(keys::kGpuTime) / bound->value);
    // A serial shape: the bound at the shape the model has fastest, named; without the operations' costs, none.
    Report serial = makeReport(classicConfig(), {});
    serial.peak = pinnedPeak();
    const SeriesSummary serialSummary = summarizeSeries(serial);
    const Figure* best = serialSummary.figure(keys::kOverlappedBound);
    ASSERT_NE(best, nullptr);
    EXPECT_NE(best->name.find("Overlapped bound, K="), std::string::npos) << best->name;
    EXPECT_NE(best->name, "Overlapped bound, K=1 S=1");
    serial.peak->costs = {};
    EXPECT_EQ(summarizeSeries(serial).figure(keys::kOverlappedBound), nullptr);
    // Zero-copy memory has no copies to overlap.
    PipelineConfig mapped = classicConfig();
    mapped.hostMemory = HostMemory::Mapped;
    Report zeroCopy = makeReport(mapped, {});
    zeroCopy.peak = pinnedPeak();
    EXPECT_EQ(summarizeSeries(zeroCopy).figure(keys::kOverlappedBound), nullptr);
}

TEST(Advice, TransferBoundStaysSilentWhereTheKernelTakesMostOfTheTime)
{
    Shape s;
    s.kernel = 6.0;  // GPU time 3.4 x the serial bound
    Report r = makeReport(classicConfig(), s);
    r.peak = pinnedPeak();
    EXPECT_EQ(find(judge(r), rules::kTransferBound), nullptr);
}

TEST(Advice, OverlapHeadroomFiresWhenAChunkedShapeIsFarFromItsModel)
{
    PipelineConfig c = classicConfig();
    c.chunks = 16;
    c.streams = 4;
    Report r = makeReport(c, {});  // the chunks' spans one after the other: no overlap at all
    r.peak = pinnedPeak();
    const Advice a = judge(r);
    const Finding* f = find(a, rules::kOverlapHeadroom);
    ASSERT_NE(f, nullptr) << formatAdviceText(a);
    EXPECT_EQ(f->severity, Severity::Suggestion);
    EXPECT_NE(f->evidence.find("K=16 S=4"), std::string::npos) << f->evidence;
    // The overlapping shape is judged against its model, not the serial bound.
    EXPECT_EQ(find(a, rules::kTransferBound), nullptr);
}

TEST(Advice, PageableCopiesGiveTheirShareOfThePinnedPeakAndTheCpuBlocked)
{
    PipelineConfig c = classicConfig();
    c.hostMemory = HostMemory::Pageable;
    Shape s;
    s.h2d = 9.6;  // 7 GB/s for 64 MiB
    s.d2h = 4.9;  // 13.7 GB/s
    s.submit = 14.5;
    Report r = makeReport(c, s);
    r.pinnedPeak = pinnedPeak();
    CopyPeak pageable;
    pageable.h2dGBps = 6.6;
    pageable.d2hGBps = 13.4;
    pageable.path = CopyPath::Pageable;
    r.peak = pageable;
    const Advice a = judge(r);
    const Finding* f = find(a, rules::kPageableCopies);
    ASSERT_NE(f, nullptr) << formatAdviceText(a);
    EXPECT_NE(f->evidence.find("of the pinned peak"), std::string::npos) << f->evidence;
    EXPECT_NE(f->evidence.find("13 %"), std::string::npos) << f->evidence;  // 7.0 of 55.0 GB/s
    EXPECT_NE(f->evidence.find("CPU is held"), std::string::npos) << f->evidence;
    EXPECT_NE(f->action.find("cudaMallocHost"), std::string::npos);
    // The CPU's time in the copies is the pageable rule's, not a launch cost; no shape makes them overlap.
    EXPECT_EQ(find(a, rules::kSubmitBound), nullptr);
    EXPECT_EQ(find(a, rules::kTransferBound), nullptr);
}

TEST(Advice, PageableCopiesWithoutAPinnedPeakUseTheLinksNominalRate)
{
    PipelineConfig c = classicConfig();
    c.hostMemory = HostMemory::Pageable;
    Shape s;
    s.h2d = 9.6;
    Report r = makeReport(c, s);
    r.device.topology.current = { "32.0 GT/s PCIe", 5, 16 };
    const Advice judged1 = judge(r);
    const Finding* f = find(judged1, rules::kPageableCopies);
    ASSERT_NE(f, nullptr);
    EXPECT_NE(f->evidence.find("link's nominal"), std::string::npos) << f->evidence;
}

TEST(Advice, SubmitBoundNamesGraphAndBatch_AndTheMeasuredGainWhereAComparisonHasIt)
{
    PipelineConfig c = classicConfig();
    c.chunks = 64;
    c.streams = 4;
    Shape s;
    s.h2d = 0.8;
    s.d2h = 0.8;
    s.submit = 0.76;
    const Report r = makeReport(c, s);
    const SeriesSummary summary = summarizeSeries(r);
    const Advice plain = judgeSeries(r, summary);
    const Finding* f = find(plain, rules::kSubmitBound);
    ASSERT_NE(f, nullptr) << formatAdviceText(plain);
    EXPECT_NE(f->action.find("--submit graph"), std::string::npos) << f->action;
    EXPECT_NE(f->action.find("--submit batch"), std::string::npos) << f->action;

    AdviceContext context;
    context.alternatives.push_back({ "graph K=64 S=4", Submission::Graph, 0.40, 1.70 });
    context.alternatives.push_back({ "batch K=64 S=4", Submission::Batch, 0.55, 1.71 });
    const Advice compared = judgeSeries(r, summary, context);
    f = find(compared, rules::kSubmitBound);
    ASSERT_NE(f, nullptr);
    EXPECT_NE(f->action.find("--submit graph"), std::string::npos) << f->action;
    EXPECT_NE(f->action.find("1.90 ×"), std::string::npos) << f->action;  // 0.76 / 0.40
    EXPECT_NE(f->evidence.find("graph K=64 S=4"), std::string::npos) << f->evidence;
}

TEST(Advice, TooShortToTimeWarnsForRuns_AndInformsForStagesAlone)
{
    PipelineConfig c = classicConfig();
    c.elements = 1024;  // 4 KiB
    Shape tiny { 0.0015, 0.0008, 0.0015, 0.01, 0.001 };
    const Advice runs = judge(makeReport(c, tiny));
    const Finding* f = find(runs, rules::kTooShort);
    ASSERT_NE(f, nullptr) << formatAdviceText(runs);
    EXPECT_EQ(f->severity, Severity::Warning);

    Shape small { 0.004, 0.003, 0.004, 0.01, 0.001 };  // 11 µs runs, stages under 5 µs
    const Advice stages = judge(makeReport(c, small));
    f = find(stages, rules::kTooShort);
    ASSERT_NE(f, nullptr) << formatAdviceText(stages);
    EXPECT_EQ(f->severity, Severity::Info);
    EXPECT_TRUE(f->stages);
    EXPECT_NE(f->evidence.find("kernel"), std::string::npos) << f->evidence;
}

TEST(Advice, AFewKiBAreLatencyBound_NotFarFromTheOverlapModel)
{
    PipelineConfig c = classicConfig();
    c.elements = 1024;  // 4 KiB: the link moves it in 0.07 µs each way
    Shape small { 0.004, 0.003, 0.004, 0.016, 0.001 };
    Report r = makeReport(c, small);
    r.peak = pinnedPeak();
    const Advice a = judge(r);
    const Finding* f = find(a, rules::kLatencyBound);
    ASSERT_NE(f, nullptr) << formatAdviceText(a);
    EXPECT_EQ(f->severity, Severity::Info);
    EXPECT_NE(f->evidence.find("3 operations on 4.0 KiB"), std::string::npos) << f->evidence;
    EXPECT_EQ(find(a, rules::kOverlapHeadroom), nullptr);
}

TEST(Advice, NoiseOfASubmitBoundSeriesIsPutDownToTheCpusScheduling)
{
    PipelineConfig c = classicConfig();
    c.chunks = 64;
    c.streams = 4;
    Shape s;
    s.submit = 0.9;
    const Advice a = judge(makeReport(c, s, [](int i) { return i % 7 ? 1.0 : 1.5; }));
    const Finding* f = find(a, rules::kNoisy);
    ASSERT_NE(f, nullptr) << formatAdviceText(a);
    EXPECT_EQ(f->severity, Severity::Info);
    EXPECT_NE(f->evidence.find("Submit-bound"), std::string::npos) << f->evidence;
}

TEST(Advice, CheckBoundOnlyWhenTheCheckIsLongerAndSerial)
{
    PipelineConfig c = classicConfig();
    c.checkMode = CheckMode::Serial;
    c.checkThreads = 1;
    Shape s;
    s.check = 9.0;
    const Advice serial = judge(makeReport(c, s));
    const Finding* f = find(serial, rules::kCheckBound);
    ASSERT_NE(f, nullptr) << formatAdviceText(serial);
    EXPECT_NE(f->evidence.find("1 check thread"), std::string::npos) << f->evidence;
    EXPECT_NE(f->action.find("--check overlapped"), std::string::npos);

    c.checkMode = CheckMode::Overlapped;
    EXPECT_EQ(find(judge(makeReport(c, s)), rules::kCheckBound), nullptr);
}

TEST(Advice, InterferenceNamesTheProcessAndTheRunsItOverlapped_SevereWhereTheyWereSlower)
{
    PipelineConfig c = classicConfig();
    // Runs 60 to 120 share the GPU and take 1.9 times as long.
    auto slow = [](int i) { return i >= 60 && i <= 120 ? 1.9 : 1.0; };
    Report r = makeReport(c, {}, slow);
    r.peak = pinnedPeak();
    const double from = r.runs.startMs(60), to = r.runs.startMs(120) + r.runs.gpuMs(120);
    r.machine = machineOver(r, [&](MachineSample& s) {
        if (s.atMs > from && s.atMs < to)
            s.processes->push_back({ 4321, 582u << 20, "asyncscope-cli" });
    });
    const Advice a = judge(r);
    const Finding* f = find(a, rules::kInterference);
    ASSERT_NE(f, nullptr) << formatAdviceText(a);
    EXPECT_EQ(f->severity, Severity::Severe) << f->evidence;
    EXPECT_NE(f->evidence.find("PID 4321 (asyncscope-cli"), std::string::npos) << f->evidence;
    ASSERT_EQ(f->runs.size(), 1u);
    // Within half a sampling step (20 ms, 4 to 8 runs) of the truth.
    EXPECT_NEAR(double(f->runs.front().first), 60.0, 8.0);
    EXPECT_NEAR(double(f->runs.front().last), 120.0, 8.0);
    EXPECT_EQ(a.findings.front().rule, rules::kInterference);  // most severe first
    // The noise it caused is put down to it.
    const Finding* noise = find(a, rules::kNoisy);
    ASSERT_NE(noise, nullptr);
    EXPECT_NE(noise->evidence.find("another process"), std::string::npos) << noise->evidence;
}

TEST(Advice, InterferenceOverEveryRunIsSevereAgainstTheModel_AndAWarningWithoutASlowdown)
{
    PipelineConfig c = classicConfig();
    Report shared = makeReport(c, {}, [](int) { return 1.9; });
    shared.peak = pinnedPeak();
    shared.machine = machineOver(shared, [](MachineSample& s) { s.processes->push_back({ 4321, 0, {} }); });
    const Advice judged2 = judge(shared);
    const Finding* f = find(judged2, rules::kInterference);
    ASSERT_NE(f, nullptr);
    EXPECT_EQ(f->severity, Severity::Severe);
    EXPECT_NE(f->evidence.find("the modelled"), std::string::npos) << f->evidence;
    EXPECT_EQ(find(judged2, rules::kTransferBound), nullptr);    // 1.9 x the bound: not the link's doing
    EXPECT_EQ(find(judged2, rules::kOverlapHeadroom), nullptr);  // nor a shape's: the other process is the distance

    Report idle = makeReport(c, {});
    idle.machine = machineOver(idle, [](MachineSample& s) { s.processes->push_back({ 4321, 0, {} }); });
    const Advice judged3 = judge(idle);
    f = find(judged3, rules::kInterference);
    ASSERT_NE(f, nullptr);
    EXPECT_EQ(f->severity, Severity::Warning);
}

TEST(Advice, InterferenceWhenTheDriversPidsAreAnotherNamespacesCountsThisProcessAmongThem)
{
    Report r = makeReport(classicConfig(), {});
    r.machine = machineOver(r);
    r.machine->selfPid.reset();
    for (MachineSample& s : r.machine->samples)
        s.processes = std::vector<GpuProcess> { { 77001, 0, {} } };  // this process alone, under the host's PID
    EXPECT_EQ(find(judge(r), rules::kInterference), nullptr);
    for (MachineSample& s : r.machine->samples)
        s.processes->push_back({ 77002, 0, {} });
    const Advice judged4 = judge(r);
    const Finding* f = find(judged4, rules::kInterference);
    ASSERT_NE(f, nullptr);
    EXPECT_NE(f->evidence.find("one of these is this process"), std::string::npos) << f->evidence;
}

TEST(Advice, LinkDegradedFromTheDriverDuringTheRuns_NotFromAnIdleLinkBeforeThem)
{
    Report r = makeReport(classicConfig(), {});
    r.machine = machineOver(r, [](MachineSample& s) { s.linkGeneration = 3; });
    const Advice judged5 = judge(r);
    const Finding* f = find(judged5, rules::kLinkDegraded);
    ASSERT_NE(f, nullptr);
    EXPECT_EQ(f->severity, Severity::Warning);
    EXPECT_NE(f->evidence.find("Gen3 x16"), std::string::npos) << f->evidence;

    r.machine = machineOver(r, [](MachineSample& s) {
        if (s.atMs < 0)
            s.linkGeneration = 1;  // idle before the first run
    });
    EXPECT_EQ(find(judge(r), rules::kLinkDegraded), nullptr);
}

TEST(Advice, LinkDegradedFallsBackToSysfsWithoutTheDriver)
{
    Report r = makeReport(classicConfig(), {});
    r.device.topology.current = { "8.0 GT/s PCIe", 3, 16 };
    r.device.topology.max = { "32.0 GT/s PCIe", 5, 16 };
    const Advice a = judge(r);
    const Finding* f = find(a, rules::kLinkDegraded);
    ASSERT_NE(f, nullptr) << formatAdviceText(a);
    EXPECT_NE(f->evidence.find("sysfs"), std::string::npos);
    EXPECT_FALSE(notChecked(a, rules::kLinkDegraded));
}

TEST(Advice, ClocksHeldByPowerOrHeatWarn_IdleClocksDoNot)
{
    Report r = makeReport(classicConfig(), {});
    r.machine = machineOver(r, [](MachineSample& s) {
        s.smClockMHz = 1215;
        s.clockReasons = clock_reasons::kSwPowerCap;
    });
    const Advice judged6 = judge(r);
    const Finding* f = find(judged6, rules::kClocks);
    ASSERT_NE(f, nullptr);
    EXPECT_EQ(f->severity, Severity::Warning);
    EXPECT_NE(f->evidence.find("power cap"), std::string::npos) << f->evidence;
    EXPECT_NE(f->evidence.find("1215 MHz of 1980 MHz"), std::string::npos) << f->evidence;

    r.machine = machineOver(r, [](MachineSample& s) {
        s.smClockMHz = 345;
        s.clockReasons = clock_reasons::kGpuIdle;
    });
    EXPECT_EQ(find(judge(r), rules::kClocks), nullptr);
}

TEST(Advice, NoisyNamesItsLikeliestCauseOrSaysUnexplained)
{
    Report r = makeReport(classicConfig(), {}, [](int i) { return i % 2 ? 1.0 : 1.2; });
    r.machine = machineOver(r);
    const Advice judged7 = judge(r);
    const Finding* f = find(judged7, rules::kNoisy);
    ASSERT_NE(f, nullptr);
    EXPECT_EQ(f->severity, Severity::Warning);
    EXPECT_NE(f->evidence.find("unexplained"), std::string::npos) << f->evidence;

    // A few runs far out, the rest close: the median stands.
    Report outliers = makeReport(classicConfig(), {}, [](int i) { return i % 40 == 7 ? 3.0 : 1.0; });
    outliers.machine = machineOver(outliers);
    const Advice judgedOutliers = judge(outliers);
    const Finding* o = find(judgedOutliers, rules::kNoisy);
    ASSERT_NE(o, nullptr);
    EXPECT_EQ(o->severity, Severity::Info);
    EXPECT_NE(o->evidence.find("a few outlying runs"), std::string::npos) << o->evidence;

    r.config.hostMemory = HostMemory::Managed;  // the driver's migrations: the workload's own noise
    const Advice judged8 = judge(r);
    f = find(judged8, rules::kNoisy);
    ASSERT_NE(f, nullptr);
    EXPECT_EQ(f->severity, Severity::Info);

    // A noise-rule series is held to its own target.
    Report target = makeReport(classicConfig(), {}, [](int i) { return i % 2 ? 1.0 : 1.02; });
    target.machine = machineOver(target);
    EXPECT_EQ(find(judge(target), rules::kNoisy), nullptr);
    target.config.stopRule = StopRule::Noise;
    target.config.targetNoisePercent = 0.5;
    EXPECT_NE(find(judge(target), rules::kNoisy), nullptr);
}

TEST(Advice, WithoutTheMachinesStateTheRulesThatNeedItSayWhy)
{
    Report r = makeReport(classicConfig(), {});
    Advice a = judge(r);
    EXPECT_TRUE(notChecked(a, rules::kInterference));
    EXPECT_TRUE(notChecked(a, rules::kClocks));
    EXPECT_TRUE(notChecked(a, rules::kLinkDegraded));  // no sysfs link either
    EXPECT_NE(a.notChecked.front().why.find("not recorded"), std::string::npos);

    r.machine = MachineState {};
    r.machine->unavailable = "libnvidia-ml.so.1 did not load: cannot open shared object file";
    a = judge(r);
    ASSERT_TRUE(notChecked(a, rules::kInterference));
    EXPECT_NE(a.notChecked.front().why.find("libnvidia-ml.so.1 did not load"), std::string::npos);
    EXPECT_NE(formatAdviceText(a).find("not checked: clocks"), std::string::npos);
}

TEST(Advice, RunRangesReadAsPeopleNumberRuns)
{
    EXPECT_EQ(runRangesText({ { 3, 17 }, { 40, 40 } }), "runs 3-17, 40");
    EXPECT_EQ(runRangesText({ { 5, 5 } }), "run 5");
}

TEST(PlanAdvice, AVariantLearnsWhatItsShapeCostsSubmittedOtherwise)
{
    PipelineConfig stream = classicConfig();
    stream.chunks = 64;
    stream.streams = 4;
    PipelineConfig graph = stream;
    graph.submission = Submission::Graph;
    Shape s;
    s.submit = 0.76;
    Shape g = s;
    g.submit = 0.40;
    PlanReport plan;
    plan.comparison = Comparison::Submission;
    plan.planned = 2;
    plan.variants.push_back({ "stream K=64 S=4", makeReport(stream, s), std::nullopt, std::nullopt });
    plan.variants.push_back({ "graph K=64 S=4", makeReport(graph, g), std::nullopt, std::nullopt });
    const std::vector<Advice> advice = advisePlan(plan, summarizePlan(plan));
    ASSERT_EQ(advice.size(), 2u);
    const Finding* f = find(advice[0], rules::kSubmitBound);
    ASSERT_NE(f, nullptr);
    EXPECT_NE(f->evidence.find("graph K=64 S=4 submits in"), std::string::npos) << f->evidence;
}

TEST(AdviceText, TheSummaryEndsWithTheMachineAndTheAdvice)
{
    Report r = makeReport(classicConfig(), {});
    r.peak = pinnedPeak();
    r.machine = machineOver(r, [](MachineSample& s) { s.processes->push_back({ 4321, 0, "other" }); });
    const std::string text = formatSummaryText(r, assessSeries(r));
    EXPECT_NE(text.find("machine: NVML, driver 580.159.04"), std::string::npos) << text;
    EXPECT_NE(text.find("other processes on the GPU"), std::string::npos) << text;
    EXPECT_NE(text.find("PID 4321 (other) held a context"), std::string::npos) << text;
    EXPECT_NE(text.find("advice:"), std::string::npos) << text;
    EXPECT_NE(text.find("[info] Transfer-bound"), std::string::npos) << text;
    for (std::size_t at = 0, next; (next = text.find('\n', at)) != std::string::npos; at = next + 1)
        EXPECT_LE(next - at, 140u) << text.substr(at, next - at);
}

}  // namespace
}  // namespace asyncscope

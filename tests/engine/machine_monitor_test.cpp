// MachineMonitor on a scripted probe: the samples around a series and their times, the rate, the probe that cannot
// read, the thinning of a long series; selfPid and gpuProcessIds; and runPlan recording the machine's state into each
// variant's report on the fake backend.
#include "engine/run/machine_monitor.hpp"
#include "engine/run/plan_runner.hpp"

#include "fake_backend.hpp"

#include <gtest/gtest.h>

#include <atomic>
#include <chrono>
#include <mutex>
#include <thread>

using namespace asyncscope;
using asyncscope::testing::FakeBackend;

namespace {

using namespace std::chrono_literals;

std::int64_t steadyNs()
{
    return std::chrono::duration_cast<std::chrono::nanoseconds>(std::chrono::steady_clock::now().time_since_epoch())
        .count();
}

MachineSample withPids(std::initializer_list<std::uint32_t> pids)
{
    MachineSample s;
    s.smClockMHz = 1980;
    std::vector<GpuProcess> list;
    for (std::uint32_t pid : pids)
        list.push_back({ pid, 1u << 20, {} });
    s.processes = std::move(list);
    return s;
}

// A probe that gives the samples it is scripted with, in order (the last one again once they run out), or an error;
// it counts its calls, and with `numbered` sets each sample's smClockMHz to the call's number (0 first).
class ScriptedProbe final : public MachineProbe {
public:
    std::string why;    // when set: unavailable() says so
    std::string error;  // when set: every sample fails with it
    int failFrom = -1;  // from this call on, every sample fails with "device lost"
    bool numbered = false;
    std::uint32_t own = 1000;
    std::vector<MachineSample> script { withPids({ 1000 }) };
    std::atomic<int> calls { 0 };

    std::string source() const override { return why.empty() ? "scripted NVML" : std::string(); }
    std::string unavailable() const override { return why; }
    std::uint32_t ownPid() const override { return own; }
    std::vector<DeviceInfo> devices() override { return {}; }
    Result<MachineSample> sample(const DeviceInfo& device) override
    {
        const int call = calls++;
        {
            const std::lock_guard lock(m_mutex);
            m_devices.push_back(device.uuid);
        }
        if (!error.empty())
            return makeError(ErrorKind::Unsupported, error);
        if (failFrom >= 0 && call >= failFrom)
            return makeError(ErrorKind::Unsupported, "device lost");
        MachineSample s = script[std::min<std::size_t>(std::size_t(call), script.size() - 1)];
        if (numbered)
            s.smClockMHz = call;
        return s;
    }
    std::vector<std::string> sampled() const
    {
        const std::lock_guard lock(m_mutex);
        return m_devices;
    }

private:
    mutable std::mutex m_mutex;
    std::vector<std::string> m_devices;
};

DeviceInfo h200()
{
    DeviceInfo d;
    d.index = 0;
    d.name = "NVIDIA H200";
    d.uuid = "GPU-monitored";
    d.pciBusId = "0000:17:00.0";
    return d;
}

}  // namespace

TEST(MachineMonitor, StartAndFinishSampleAroundTheSeriesOnTheRunsClock)
{
    ScriptedProbe probe;
    MachineMonitor monitor(probe, h200(), std::chrono::hours(1));  // no sample between start and finish
    monitor.start();
    EXPECT_EQ(probe.calls.load(), 1) << "the first sample is taken when started";
    std::this_thread::sleep_for(2ms);
    const std::int64_t firstRunNs = steadyNs();
    std::this_thread::sleep_for(2ms);
    const MachineState state = monitor.finish(firstRunNs, std::nullopt);
    EXPECT_TRUE(state.read());
    EXPECT_EQ(state.source, "scripted NVML");
    ASSERT_EQ(state.samples.size(), 2u);
    EXPECT_LT(state.samples.front().atMs, -1.5) << "before the first run: negative";
    EXPECT_GT(state.samples.back().atMs, 1.5);
    EXPECT_LT(state.samples.back().atMs, 1000.0);
    EXPECT_EQ(probe.sampled(), std::vector<std::string>(2, "GPU-monitored"));
    EXPECT_EQ(state.selfPid, 1000u);
}

TEST(MachineMonitor, WithoutARunTimesAreFromTheFirstSample)
{
    ScriptedProbe probe;
    MachineMonitor monitor(probe, h200(), std::chrono::hours(1));
    monitor.start();
    std::this_thread::sleep_for(3ms);
    const MachineState state = monitor.finish(0, std::nullopt);
    ASSERT_EQ(state.samples.size(), 2u);
    EXPECT_EQ(state.samples.front().atMs, 0.0);
    EXPECT_GE(state.samples.back().atMs, 2.5);
}

TEST(MachineMonitor, SamplesEveryIntervalWhileTheSeriesRuns)
{
    ScriptedProbe probe;
    probe.numbered = true;
    const auto begin = std::chrono::steady_clock::now();
    MachineMonitor monitor(probe, h200(), 5ms);
    monitor.start();
    std::this_thread::sleep_for(60ms);
    const MachineState state = monitor.finish(0, std::nullopt);
    const double elapsedMs = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - begin).count();
    ASSERT_GT(state.samples.size(), 2u) << "some samples between the first and the last";
    EXPECT_EQ(int(state.samples.size()), probe.calls.load());
    // In time order, and the ones the thread took at least the interval apart (the last one comes when finished).
    for (std::size_t i = 1; i < state.samples.size(); ++i) {
        EXPECT_EQ(state.samples[i].smClockMHz, int(i));
        EXPECT_GE(state.samples[i].atMs, state.samples[i - 1].atMs);
        if (i + 1 < state.samples.size()) {
            EXPECT_GE(state.samples[i].atMs - state.samples[i - 1].atMs, 4.5) << i;
        }
    }
    EXPECT_LE(double(state.samples.size()), elapsedMs / 5.0 + 2.0) << "not more often than every 5 ms";
}

TEST(MachineMonitor, AnUnavailableProbeGivesWhyAndNoSamples)
{
    ScriptedProbe probe;
    probe.why = "libnvidia-ml.so.1 did not load: cannot open shared object file";
    MachineMonitor monitor(probe, h200(), 1ms);
    monitor.start();
    std::this_thread::sleep_for(5ms);
    const MachineState state = monitor.finish(steadyNs(), std::set<std::uint32_t> { 1 });
    EXPECT_FALSE(state.read());
    EXPECT_EQ(state.unavailable, probe.why);
    EXPECT_TRUE(state.samples.empty());
    EXPECT_FALSE(state.selfPid.has_value());
    EXPECT_EQ(probe.calls.load(), 0) << "nothing asked of a probe that cannot answer";
}

TEST(MachineMonitor, AProbeWhoseSamplesFailGivesItsMessage)
{
    ScriptedProbe probe;
    probe.error = "NVML does not know device 0 (GPU-monitored)";
    MachineMonitor monitor(probe, h200(), 2ms);
    monitor.start();
    std::this_thread::sleep_for(10ms);
    const MachineState state = monitor.finish(steadyNs(), std::nullopt);
    EXPECT_FALSE(state.read());
    EXPECT_EQ(state.unavailable, probe.error);
    EXPECT_TRUE(state.samples.empty());
    EXPECT_GE(probe.calls.load(), 2);
}

TEST(MachineMonitor, SamplesThatFailLaterLeaveTheOnesRead)
{
    ScriptedProbe probe;
    probe.failFrom = 1;
    MachineMonitor monitor(probe, h200(), 2ms);
    monitor.start();
    std::this_thread::sleep_for(10ms);
    const MachineState state = monitor.finish(0, std::nullopt);
    EXPECT_TRUE(state.read()) << state.unavailable;
    EXPECT_EQ(state.samples.size(), 1u);
}

TEST(MachineMonitor, DestroyedWithoutFinishingStopsItsThread)
{
    ScriptedProbe probe;
    const auto begin = std::chrono::steady_clock::now();
    {
        MachineMonitor monitor(probe, h200(), std::chrono::hours(1));
        monitor.start();
    }
    EXPECT_LT(std::chrono::steady_clock::now() - begin, 10s);
    EXPECT_EQ(probe.calls.load(), 1);
}

TEST(MachineMonitor, ALongSeriesKeepsItsFirstHalfAndTheRestEvenlyThinned)
{
    // With no interval the thread samples as fast as the probe answers: three times kMaxMachineSamples within seconds,
    // as a series of two hours would at the usual rate.
    ScriptedProbe probe;
    probe.numbered = true;
    MachineMonitor monitor(probe, h200(), 0ms);
    monitor.start();
    const int target = 3 * int(kMaxMachineSamples);
    const auto deadline = std::chrono::steady_clock::now() + 60s;
    while (probe.calls.load() < target && std::chrono::steady_clock::now() < deadline)
        std::this_thread::sleep_for(1ms);
    const MachineState state = monitor.finish(0, std::nullopt);
    const int calls = probe.calls.load();
    ASSERT_GE(calls, target) << "the monitor did not sample fast enough to reach the limit";
    const std::size_t half = kMaxMachineSamples / 2;
    ASSERT_LE(state.samples.size(), kMaxMachineSamples);
    ASSERT_GT(state.samples.size(), half + half / 2) << "the room is used";
    // The first half as taken, in order; the last one taken kept.
    for (std::size_t i = 0; i < half; ++i)
        ASSERT_EQ(state.samples[i].smClockMHz, int(i)) << i;
    for (std::size_t i = 1; i < state.samples.size(); ++i) {
        ASSERT_GT(*state.samples[i].smClockMHz, *state.samples[i - 1].smClockMHz) << i;
        ASSERT_GE(state.samples[i].atMs, state.samples[i - 1].atMs) << i;
    }
    EXPECT_EQ(state.samples.back().smClockMHz, calls - 1);
    // After the first half, one reading in every `stride` (a power of two) over the whole rest of the series: no
    // stretch of it without readings.
    EXPECT_EQ(state.samples[half].smClockMHz, int(half));
    const int stride = *state.samples[half + 1].smClockMHz - *state.samples[half].smClockMHz;
    EXPECT_GE(stride, 4);
    EXPECT_EQ(stride & (stride - 1), 0) << stride;
    for (std::size_t i = half + 1; i + 1 < state.samples.size(); ++i)
        ASSERT_EQ(*state.samples[i].smClockMHz - *state.samples[i - 1].smClockMHz, stride) << i;
    const int lastGap = *state.samples.back().smClockMHz - *state.samples[state.samples.size() - 2].smClockMHz;
    EXPECT_GE(lastGap, 1);
    EXPECT_LE(lastGap, stride);
}

TEST(SelfPid, ThisProcessListedIsItsOwnPid)
{
    const std::vector<MachineSample> samples { withPids({ 7, 1000 }), withPids({ 1000 }) };
    EXPECT_EQ(selfPid(samples, 1000, std::nullopt), 1000u);
    EXPECT_EQ(selfPid(samples, 1000, std::set<std::uint32_t> { 7, 1000 }), 1000u);
    // Listed in a later sample only (its context came after the first).
    EXPECT_EQ(selfPid({ withPids({ 7 }), withPids({ 7, 1000 }) }, 1000, std::nullopt), 1000u);
}

TEST(SelfPid, NotListedTheOneNewPidIsThisProcess)
{
    // In a container: the driver's PIDs are the host's. 5123 came with this process's context.
    const std::set<std::uint32_t> before { 7, 88 };
    EXPECT_EQ(selfPid({ withPids({ 7, 88, 5123 }), withPids({ 88, 5123 }) }, 1000, before), 5123u);
    // One that came and went is not it: this process is in every sample.
    EXPECT_EQ(selfPid({ withPids({ 7, 5123 }), withPids({ 7, 5123, 6001 }), withPids({ 5123 }) }, 1000, before),
        5123u);
    // Samples without a process list say nothing either way.
    MachineSample unread = withPids({});
    unread.processes.reset();
    EXPECT_EQ(selfPid({ unread, withPids({ 7, 5123 }), unread }, 1000, before), 5123u);
}

TEST(SelfPid, TwoNewPidsOrNoBeforeTellNothing)
{
    const std::set<std::uint32_t> before { 7 };
    EXPECT_FALSE(selfPid({ withPids({ 7, 5123, 6001 }) }, 1000, before).has_value());
    EXPECT_FALSE(selfPid({ withPids({ 7, 5123 }) }, 1000, std::nullopt).has_value());
    EXPECT_FALSE(selfPid({ withPids({ 7 }) }, 1000, before).has_value()) << "none new";
    MachineSample unread;
    EXPECT_FALSE(selfPid({ unread, unread }, 1000, before).has_value()) << "no process list at all";
    EXPECT_FALSE(selfPid({}, 1000, before).has_value());
}

TEST(GpuProcessIds, ThePidsOfOneSample)
{
    ScriptedProbe probe;
    probe.script = { withPids({ 42, 7, 42 }) };
    EXPECT_EQ(gpuProcessIds(probe, h200()), (std::set<std::uint32_t> { 7, 42 }));
    EXPECT_EQ(probe.calls.load(), 1);

    probe.script = { withPids({}) };
    auto none = gpuProcessIds(probe, h200());
    ASSERT_TRUE(none.has_value()) << "no process is a known answer";
    EXPECT_TRUE(none->empty());

    probe.script = { MachineSample {} };  // the driver cannot list them
    EXPECT_FALSE(gpuProcessIds(probe, h200()).has_value());

    probe.error = "NVML does not know device 0";
    EXPECT_FALSE(gpuProcessIds(probe, h200()).has_value());

    ScriptedProbe unavailable;
    unavailable.why = "no NVML";
    EXPECT_FALSE(gpuProcessIds(unavailable, h200()).has_value());
    EXPECT_EQ(unavailable.calls.load(), 0);
}

namespace {

PipelineConfig small()
{
    PipelineConfig c;
    c.device = 1;
    c.runs = 3;
    c.warmupRuns = 1;
    c.elements = 1024;
    return c;
}

}  // namespace

TEST(PlanRunnerMachine, EachVariantsReportHoldsTheMachinesState)
{
    FakeBackend backend;
    backend.runDelay = 2ms;
    const Platform platform = *backend.discover();
    auto plan = comparisonPlan(Comparison::Wait, small());
    ASSERT_TRUE(plan.ok());
    // In a container: this process is not listed under its own PID. 4242 appears with its context.
    ScriptedProbe probe;
    probe.own = 1000;
    probe.script = { withPids({ 1 }), withPids({ 1, 4242 }) };
    RunnerOptions options;
    options.machine = &probe;
    std::atomic<bool> cancel { false };
    PlanSink sink;
    const PlanReport result = runPlan(backend, platform, *plan, cancel, sink, options);
    ASSERT_TRUE(result.complete());
    ASSERT_EQ(result.variants.size(), 2u);
    for (const VariantResult& v : result.variants) {
        ASSERT_TRUE(v.report.machine.has_value()) << v.label;
        const MachineState& machine = *v.report.machine;
        EXPECT_TRUE(machine.read()) << machine.unavailable;
        EXPECT_EQ(machine.source, "scripted NVML");
        ASSERT_GE(machine.samples.size(), 2u) << v.label;
        EXPECT_LE(machine.samples.front().atMs, 0.0) << "taken before the first run";
        EXPECT_GT(machine.samples.back().atMs, 0.0) << "taken after the runs";
        EXPECT_EQ(machine.selfPid, 4242u) << v.label;
        ASSERT_FALSE(v.report.runs.empty());
    }
    // The PIDs before the plan once per device, then the samples of both series, all of the variants' device.
    const auto devices = probe.sampled();
    EXPECT_EQ(int(devices.size()), probe.calls.load());
    EXPECT_EQ(devices, std::vector<std::string>(devices.size(), "GPU-fake-1"));
    EXPECT_EQ(devices.size(), 1 + result.variants[0].report.machine->samples.size() +
        result.variants[1].report.machine->samples.size());
}

TEST(PlanRunnerMachine, AProbeThatCannotReadIsRecordedAsSuch)
{
    FakeBackend backend;
    const Platform platform = *backend.discover();
    ScriptedProbe probe;
    probe.why = "libnvidia-ml.so.1 did not load";
    RunnerOptions options;
    options.machine = &probe;
    std::atomic<bool> cancel { false };
    PlanSink sink;
    const PlanReport result = runPlan(backend, platform, seriesPlan(small()), cancel, sink, options);
    ASSERT_TRUE(result.complete());
    ASSERT_TRUE(result.variants[0].report.machine.has_value());
    EXPECT_EQ(result.variants[0].report.machine->unavailable, probe.why);
    EXPECT_TRUE(result.variants[0].report.machine->samples.empty());
}

TEST(PlanRunnerMachine, WithoutAProbeNothingIsRecorded)
{
    FakeBackend backend;
    const Platform platform = *backend.discover();
    auto plan = comparisonPlan(Comparison::Wait, small());
    ASSERT_TRUE(plan.ok());
    std::atomic<bool> cancel { false };
    PlanSink sink;
    const PlanReport result = runPlan(backend, platform, *plan, cancel, sink);
    ASSERT_TRUE(result.complete());
    for (const VariantResult& v : result.variants)
        EXPECT_FALSE(v.report.machine.has_value()) << v.label;
}

TEST(PlanRunnerMachine, APageableVariantKeepsThePinnedPeakBesideItsOwn)
{
    FakeBackend backend;
    const Platform platform = *backend.discover();
    auto plan = comparisonPlan(Comparison::HostMemory, small());
    ASSERT_TRUE(plan.ok());
    ASSERT_EQ(plan->variants.size(), 2u);
    ScriptedProbe probe;
    RunnerOptions options;
    options.machine = &probe;
    std::atomic<bool> cancel { false };
    PlanSink sink;
    const PlanReport result = runPlan(backend, platform, *plan, cancel, sink, options);
    ASSERT_TRUE(result.complete());
    const VariantResult& pinned = result.variants[0];
    const VariantResult& pageable = result.variants[1];
    ASSERT_EQ(pinned.report.config.hostMemory, HostMemory::Pinned);
    ASSERT_EQ(pageable.report.config.hostMemory, HostMemory::Pageable);
    ASSERT_TRUE(pinned.report.peak.has_value());
    EXPECT_EQ(pinned.report.peak->path, CopyPath::Pinned);
    EXPECT_FALSE(pinned.report.pinnedPeak.has_value()) << "its own peak is the pinned one";
    ASSERT_TRUE(pageable.report.peak.has_value());
    EXPECT_EQ(pageable.report.peak->path, CopyPath::Pageable);
    EXPECT_DOUBLE_EQ(pageable.report.peak->h2dGBps, FakeBackend::copyPeakValue(CopyPath::Pageable).h2dGBps);
    ASSERT_TRUE(pageable.report.pinnedPeak.has_value());
    EXPECT_EQ(pageable.report.pinnedPeak->path, CopyPath::Pinned);
    EXPECT_DOUBLE_EQ(pageable.report.pinnedPeak->h2dGBps, FakeBackend::copyPeakValue(CopyPath::Pinned).h2dGBps);
    EXPECT_DOUBLE_EQ(pageable.report.pinnedPeak->d2hGBps, FakeBackend::copyPeakValue(CopyPath::Pinned).d2hGBps);
    // Each path calibrated once: the pinned peak the pageable variant shows is the one the pinned variant had.
    const auto calibrations = backend.calibrations();
    EXPECT_EQ(std::count(calibrations.begin(), calibrations.end(), std::pair(std::string("GPU-fake-1"),
                  CopyPath::Pinned)),
        1);
    for (const VariantResult& v : result.variants) {
        ASSERT_TRUE(v.report.machine.has_value());
        EXPECT_GE(v.report.machine->samples.size(), 2u);
        EXPECT_EQ(v.report.machine->selfPid, 1000u);
    }
}

TEST(PlanRunnerMachine, APageableVariantWithoutAPinnedPeakHasNone)
{
    FakeBackend backend;
    backend.unsupportedPaths = { CopyPath::Pinned };
    const Platform platform = *backend.discover();
    PipelineConfig c = small();
    c.hostMemory = HostMemory::Pageable;
    std::atomic<bool> cancel { false };
    PlanSink sink;
    const PlanReport result = runPlan(backend, platform, seriesPlan(c), cancel, sink);
    ASSERT_TRUE(result.complete());
    ASSERT_TRUE(result.variants[0].report.peak.has_value());
    EXPECT_FALSE(result.variants[0].report.pinnedPeak.has_value());
}

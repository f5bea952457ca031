// Plans over several devices: the device choice, one device at a time and all at once on the fake backend, cancel,
// and the aggregate bandwidth of devices that ran together.
#include "engine/host/cpu_binding.hpp"
#include "engine/run/device_plan_runner.hpp"

#include "fake_backend.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <mutex>
#include <set>
#include <thread>

using namespace asyncscope;
using asyncscope::testing::FakeBackend;

namespace {

// Records what the runner reports, from whichever worker thread it comes.
class RecordingSink final : public DevicePlanSink {
public:
    void deviceStarting(const DeviceInfo& device, const CpuBinding&) override
    {
        std::lock_guard lock(m_mutex);
        started.push_back(device.index);
    }
    void runAvailable(int device, std::size_t, const RunResult&) override
    {
        std::lock_guard lock(m_mutex);
        ++runs[device];
        threads[device].insert(std::this_thread::get_id());
    }
    void deviceEnded(const DeviceResult& result) override
    {
        std::lock_guard lock(m_mutex);
        ended.push_back(result.device.index);
    }

    std::vector<int> started, ended;
    std::map<int, int> runs;
    std::map<int, std::set<std::thread::id>> threads;

private:
    std::mutex m_mutex;
};

DevicePlan seriesOn(std::vector<int> devices, DeviceMode mode, int runs)
{
    PipelineConfig config;
    config.runs = runs;
    config.warmupRuns = 1;
    DevicePlan plan;
    plan.devices = std::move(devices);
    plan.mode = mode;
    plan.plan = seriesPlan(config);
    return plan;
}

Platform platformOf(FakeBackend& backend)
{
    auto platform = backend.discover();
    EXPECT_TRUE(platform.ok());
    return *platform;
}

double medianH2d(const DeviceResult& d)
{
    std::vector<double> rates;
    for (const RunResult& r : d.plan.variants.front().report.runs) {
        if (!r.warmup)
            rates.push_back(double(r.totalBytes(SpanKind::H2D)) / (r.totalMs(SpanKind::H2D) * 1e6));
    }
    std::sort(rates.begin(), rates.end());
    return rates.empty() ? 0.0 : rates[rates.size() / 2];
}

}  // namespace

TEST(DeviceSelection, ParsesBestAllAnIndexAndLists)
{
    EXPECT_EQ(parseDeviceSelection("best")->kind, DeviceSelection::Kind::Best);
    EXPECT_EQ(parseDeviceSelection("all")->kind, DeviceSelection::Kind::All);
    EXPECT_TRUE(parseDeviceSelection("all")->several());
    const auto one = parseDeviceSelection("3");
    ASSERT_TRUE(one.ok());
    EXPECT_EQ(one->indices, std::vector<int> { 3 });
    EXPECT_FALSE(one->several());
    const auto list = parseDeviceSelection("0,2,5");
    ASSERT_TRUE(list.ok());
    EXPECT_EQ(list->indices, (std::vector<int> { 0, 2, 5 }));
    EXPECT_TRUE(list->several());
}

TEST(DeviceSelection, BadListsSayWhatIsWrong)
{
    const std::pair<const char*, const char*> cases[] = { { "0,,2", "an index is missing" },
        { "0,2,", "an index is missing" }, { "", "an index is missing" }, { "x", "'x' is not a device index" },
        { "0,two", "'two' is not a device index" }, { "-1", "'-1' is not a device index" },
        { "1,1", "device 1 is named twice" }, { "2 ", "'2 ' is not a device index" } };
    for (const auto& [text, why] : cases) {
        const auto parsed = parseDeviceSelection(text);
        ASSERT_FALSE(parsed.ok()) << text;
        EXPECT_EQ(parsed.error().kind, ErrorKind::Usage);
        EXPECT_NE(parsed.error().message().find(why), std::string::npos) << parsed.error().message();
    }
}

TEST(DeviceSelection, ResolvesAgainstTheHostsDevices)
{
    FakeBackend backend;
    backend.useHostOf(8);
    const Platform platform = platformOf(backend);
    EXPECT_EQ(*resolveDevices(*parseDeviceSelection("all"), platform), (std::vector<int> { 0, 1, 2, 3, 4, 5, 6, 7 }));
    EXPECT_EQ(*resolveDevices(*parseDeviceSelection("5,0,2"), platform), (std::vector<int> { 5, 0, 2 }));
    EXPECT_EQ(resolveDevices(*parseDeviceSelection("best"), platform)->size(), 1u);
    const auto missing = resolveDevices(*parseDeviceSelection("0,9"), platform);
    ASSERT_FALSE(missing.ok());
    EXPECT_EQ(missing.error().kind, ErrorKind::Usage);
    EXPECT_NE(missing.error().message().find("device 9 does not exist; this host has 8"), std::string::npos)
        << missing.error().message();

    for (DeviceInfo& d : backend.devices)
        d.computeProhibited = true;
    const auto none = resolveDevices(DeviceSelection {}, platformOf(backend));
    ASSERT_FALSE(none.ok());
    EXPECT_NE(none.error().message().find("compute-prohibited"), std::string::npos);
}

TEST(DevicePlanRunner, OneAtATimeRunsEachDeviceAloneOnAThreadOfItsOwn)
{
    FakeBackend backend;
    backend.useHostOf(3);
    backend.copyGBps = { { 0, 50.0 }, { 1, 40.0 }, { 2, 25.0 } };  // each device its own rate
    backend.runDelay = std::chrono::milliseconds(2);
    const Platform platform = platformOf(backend);
    RecordingSink sink;
    std::atomic<bool> cancel { false };
    const HostReport report = runDevicePlan(backend, platform, seriesOn({ 2, 0, 1 }, DeviceMode::OneAtATime, 5),
        cancel, sink);

    EXPECT_EQ(backend.mostActiveSeries.load(), 1);  // never two at once
    EXPECT_FALSE(report.aggregate.has_value());
    EXPECT_FALSE(report.host.empty());
    EXPECT_EQ(report.mode, DeviceMode::OneAtATime);
    EXPECT_EQ(sink.started, (std::vector<int> { 2, 0, 1 }));
    EXPECT_EQ(sink.ended, (std::vector<int> { 2, 0, 1 }));
    ASSERT_EQ(report.devices.size(), 3u);
    const double expected[] = { 25.0, 50.0, 40.0 };
    for (std::size_t i = 0; i < 3; ++i) {
        const DeviceResult& d = report.devices[i];
        EXPECT_EQ(d.device.index, int(std::vector<int> { 2, 0, 1 }[i]));
        ASSERT_TRUE(d.plan.complete());
        const Report& r = d.plan.variants.front().report;
        EXPECT_EQ(r.config.device, d.device.index);
        EXPECT_EQ(r.device.index, d.device.index);
        EXPECT_EQ(r.runs.size(), 6u);
        EXPECT_EQ(r.host, report.host);
        ASSERT_TRUE(r.binding.has_value());
        EXPECT_EQ(r.binding->text(), d.binding.text());
        EXPECT_NEAR(medianH2d(d), expected[i], 0.01 * expected[i]);
        EXPECT_EQ(sink.runs[d.device.index], 6);
        ASSERT_EQ(sink.threads[d.device.index].size(), 1u);  // every run of a device on its one worker
        const std::thread::id worker = *sink.threads[d.device.index].begin();
        EXPECT_EQ(backend.threadOf(d.device.index), worker);
        EXPECT_NE(worker, std::this_thread::get_id());  // (one after the other, workers may reuse an id)
    }
}

TEST(DevicePlanRunner, AllAtOnceRunsEveryDeviceConcurrently)
{
    FakeBackend backend;
    backend.useHostOf(8);
    backend.runDelay = std::chrono::milliseconds(5);
    backend.calibrationDelay = std::chrono::milliseconds(2);
    const Platform platform = platformOf(backend);
    RecordingSink sink;
    std::atomic<bool> cancel { false };
    const HostReport report = runDevicePlan(backend, platform,
        seriesOn({ 0, 1, 2, 3, 4, 5, 6, 7 }, DeviceMode::AllAtOnce, 10), cancel, sink);

    EXPECT_EQ(backend.mostActiveSeries.load(), 8);      // all eight series inside run() at the same time
    EXPECT_EQ(backend.mostActiveCalibrations.load(), 1);  // but calibrated one by one
    ASSERT_EQ(report.devices.size(), 8u);
    std::set<std::thread::id> workers;
    std::optional<RunWindow> common;
    for (const DeviceResult& d : report.devices) {
        ASSERT_EQ(sink.threads[d.device.index].size(), 1u);
        workers.insert(*sink.threads[d.device.index].begin());
        ASSERT_TRUE(d.plan.complete()) << d.device.index;
        const auto& runs = d.plan.variants.front().report.runs;
        ASSERT_EQ(runs.size(), 11u);
        // Each device's measured runs, on the host clock; the stretch all of them share is not empty.
        const RunWindow first = *hostWindow(runs, 1), last = *hostWindow(runs, runs.size() - 1);
        if (!common)
            common = RunWindow { first.beginNs, last.endNs };
        common->beginNs = std::max(common->beginNs, first.beginNs);
        common->endNs = std::min(common->endNs, last.endNs);
    }
    EXPECT_EQ(workers.size(), 8u);  // eight threads alive at once
    EXPECT_EQ(workers.count(std::this_thread::get_id()), 0u);
    ASSERT_TRUE(common.has_value());
    EXPECT_LT(common->beginNs, common->endNs);
    ASSERT_TRUE(report.aggregate.has_value());
    EXPECT_EQ(report.aggregate->devices, 8);
    EXPECT_NEAR(report.aggregate->overlapMs, double(common->endNs - common->beginNs) / 1e6, 1e-6);
    EXPECT_GT(report.aggregate->bytes, 0u);
    EXPECT_NEAR(report.aggregate->gbps, double(report.aggregate->bytes) / (report.aggregate->overlapMs * 1e6), 1e-9);
}

TEST(DevicePlanRunner, ADeviceThatCannotRunDoesNotHoldTheOthers)
{
    FakeBackend backend;
    backend.useHostOf(4);
    backend.devices[2].totalMemoryBytes = std::size_t(16) << 20;  // a 64 MiB series does not fit
    backend.runDelay = std::chrono::milliseconds(1);
    RecordingSink sink;
    std::atomic<bool> cancel { false };
    const HostReport report = runDevicePlan(backend, platformOf(backend),
        seriesOn({ 0, 1, 2, 3 }, DeviceMode::AllAtOnce, 3), cancel, sink);
    ASSERT_EQ(report.devices.size(), 4u);
    EXPECT_TRUE(report.devices[2].plan.variants.front().notRun.has_value());
    for (int i : { 0, 1, 3 })
        EXPECT_EQ(report.devices[std::size_t(i)].plan.variants.front().report.runs.size(), 4u);
    EXPECT_EQ(report.aggregate->devices, 3);
}

TEST(DevicePlanRunner, CancelStopsEveryDevice)
{
    for (const DeviceMode mode : { DeviceMode::AllAtOnce, DeviceMode::OneAtATime }) {
        FakeBackend backend;
        backend.useHostOf(4);
        backend.runDelay = std::chrono::milliseconds(10);
        RecordingSink sink;
        std::atomic<bool> cancel { false };
        std::thread stopper([&] {
            std::this_thread::sleep_for(std::chrono::milliseconds(150));
            cancel = true;
        });
        const auto began = std::chrono::steady_clock::now();
        const HostReport report = runDevicePlan(backend, platformOf(backend), seriesOn({ 0, 1, 2, 3 }, mode, 100000),
            cancel, sink);
        stopper.join();
        const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - began).count();
        EXPECT_LT(seconds, 10.0) << nameOf(mode);
        ASSERT_EQ(report.devices.size(), 4u);
        for (const DeviceResult& d : report.devices) {
            const Error* failure = d.plan.failure();
            ASSERT_NE(failure, nullptr) << nameOf(mode) << " device " << d.device.index;
            EXPECT_EQ(failure->kind, ErrorKind::Cancelled);
        }
        ASSERT_NE(report.failure(), nullptr);
        if (mode == DeviceMode::AllAtOnce) {
            EXPECT_EQ(backend.seriesStarted.load(), 4);
            for (const DeviceResult& d : report.devices)
                EXPECT_FALSE(d.plan.variants.front().report.runs.empty());  // each ran until the cancel
        } else {
            EXPECT_EQ(backend.seriesStarted.load(), 1);  // the first was stopped; the others never started
            for (std::size_t i = 1; i < 4; ++i)
                EXPECT_TRUE(report.devices[i].plan.variants.front().report.runs.empty());
        }
        EXPECT_EQ(sink.ended.size(), 4u);
    }
}

TEST(DevicePlanRunner, BindsEachWorkerToItsDevicesLocalCpusUnlessTurnedOff)
{
    FakeBackend backend;
    backend.useHostOf(2);
    const std::vector<int> mine = threadCpus();
    backend.devices[0].topology.localCpus = formatCpuList(mine);
    backend.devices[0].topology.numaNode = 0;
    backend.devices[1].topology = {};  // a VM: nothing known
    RecordingSink sink;
    std::atomic<bool> cancel { false };
    DevicePlan plan = seriesOn({ 0, 1 }, DeviceMode::OneAtATime, 2);
    HostReport report = runDevicePlan(backend, platformOf(backend), plan, cancel, sink);
    EXPECT_EQ(report.devices[0].binding.text(), "bound to CPUs " + formatCpuList(mine) + ", NUMA node 0");
    EXPECT_EQ(report.devices[1].binding.text(), "not bound: the GPU's local CPUs are unknown");

    plan.bindToLocalCpus = false;
    report = runDevicePlan(backend, platformOf(backend), plan, cancel, sink);
    EXPECT_EQ(report.devices[0].binding.text(), "not bound: binding turned off");
    EXPECT_EQ(report.devices[0].plan.variants.front().report.binding->text(), "not bound: binding turned off");
}

TEST(DevicePlanRunner, ComparisonsRunOnEveryDeviceVariantByVariant)
{
    FakeBackend backend;
    backend.useHostOf(3);
    backend.runDelay = std::chrono::milliseconds(1);
    PipelineConfig config;
    config.runs = 2;
    DevicePlan plan;
    plan.devices = { 0, 1, 2 };
    plan.mode = DeviceMode::AllAtOnce;
    plan.plan = *comparisonPlan(Comparison::HostMemory, config);
    RecordingSink sink;
    std::atomic<bool> cancel { false };
    const HostReport report = runDevicePlan(backend, platformOf(backend), plan, cancel, sink);
    EXPECT_EQ(report.comparison, std::optional(Comparison::HostMemory));
    for (const DeviceResult& d : report.devices) {
        ASSERT_TRUE(d.plan.complete());
        ASSERT_EQ(d.plan.variants.size(), 2u);
        EXPECT_EQ(d.plan.variants[1].report.config.hostMemory, HostMemory::Pageable);
        EXPECT_EQ(d.plan.variants[1].report.config.device, d.device.index);
    }
}

TEST(AggregateBandwidth, CountsTheBytesOfRunsInsideTheOverlap)
{
    // Device A runs from 0 to 10 ms, device B from 4 to 14 ms: both from 4 to 10 ms. Runs of 1 ms, 1 MB each way.
    auto deviceWith = [](std::int64_t fromMs, int runs) {
        DeviceResult d;
        VariantResult& v = d.plan.variants.emplace_back();
        v.report.config.elements = 250000;  // 1 MB
        for (int i = 0; i < runs; ++i) {
            RunResult r;
            r.index = i;
            r.gpuMs = 1.0;
            r.hostClockNs = (fromMs + i) * 1000000 + 1;
            v.report.runs.push_back(r);
        }
        return d;
    };
    std::vector<DeviceResult> devices { deviceWith(0, 10), deviceWith(4, 10) };
    AggregateBandwidth a = aggregateBandwidth(devices);
    EXPECT_EQ(a.devices, 2);
    EXPECT_NEAR(a.overlapMs, 6.0, 1e-6);
    EXPECT_EQ(a.bytes, 12u * 2000000u);  // six runs of each device, 2 MB each
    EXPECT_NEAR(a.gbps, 24e6 / 6e6, 1e-9);

    // Warm-up runs and runs without a host clock (read from a file) do not count.
    devices[1].plan.variants.front().report.runs.update(0, [](RunResult& run) { run.warmup = true; });
    devices.push_back(deviceWith(100, 0));
    a = aggregateBandwidth(devices);
    EXPECT_EQ(a.devices, 2);

    // Devices one after the other share no time.
    a = aggregateBandwidth({ deviceWith(0, 5), deviceWith(10, 5) });
    EXPECT_EQ(a.overlapMs, 0.0);
    EXPECT_EQ(a.gbps, 0.0);
}

#include "engine/run/device_plan_runner.hpp"

#include "engine/host/cpu_binding.hpp"
#include "engine/host/host_name.hpp"

#include <algorithm>
#include <chrono>
#include <condition_variable>
#include <exception>
#include <map>
#include <mutex>
#include <optional>
#include <thread>
#include <vector>

namespace asyncscope {

namespace {

// Where the devices of an all-at-once plan wait for each other: station 0 once every device is calibrated, station
// k + 1 at variant k's first run. Each device arrives at each station once, waiting or passing; a device whose
// variant did not start, or whose plan ended, passes the stations left so that nobody waits for it. A cancel
// releases everyone.
class StartLine {
public:
    StartLine(std::size_t devices, std::size_t stations, const std::atomic<bool>& cancel)
        : m_devices(devices)
        , m_arrived(stations, 0)
        , m_cancel(cancel)
    {
    }

    void arrive(std::size_t station, bool wait)
    {
        std::unique_lock lock(m_mutex);
        if (station >= m_arrived.size())
            return;
        if (++m_arrived[station] >= m_devices)
            m_all.notify_all();
        while (wait && m_arrived[station] < m_devices && !m_cancel.load())
            m_all.wait_for(lock, std::chrono::milliseconds(10));  // a cancel comes from a signal: no notify
    }
    std::size_t stations() const { return m_arrived.size(); }

private:
    std::mutex m_mutex;
    std::condition_variable m_all;
    const std::size_t m_devices;
    std::vector<std::size_t> m_arrived;  // devices that reached each station
    const std::atomic<bool>& m_cancel;
};

// One device's way along the start line: the next station it has not reached.
class Lane {
public:
    explicit Lane(StartLine* line)
        : m_line(line)
    {
    }
    // Passes every station before `station`, then waits at it (where there is a line to wait on).
    void waitAt(std::size_t station)
    {
        passUntil(station);
        if (m_line && m_next == station) {
            m_line->arrive(station, true);
            ++m_next;
        }
    }
    // Passes every station before `station` without waiting.
    void passUntil(std::size_t station)
    {
        for (; m_line && m_next < station; ++m_next)
            m_line->arrive(m_next, false);
    }
    void leave()
    {
        if (m_line)
            passUntil(m_line->stations());
    }

private:
    StartLine* m_line;
    std::size_t m_next = 0;
};

// The backend as one device's plan sees it: its calibration done beforehand where the devices run at once, and
// each series' readiness reported to the device's lane.
class DeviceBackend final : public Backend {
public:
    DeviceBackend(Backend& inner, Lane& lane)
        : m_inner(inner)
        , m_lane(lane)
    {
    }

    std::map<CopyPath, Result<CopyPeak>> calibrated;  // the paths calibrated beforehand, which copyPeak() answers
    std::size_t variant = 0;                          // the variant about to run

    Result<Platform> discover() override { return m_inner.discover(); }
    using Backend::run;
    Result<SeriesOutcome> run(const PipelineConfig& config, const std::atomic<bool>& cancel, const RunSink& sink,
        const SeriesReady& ready) override
    {
        return m_inner.run(config, cancel, sink, [&] {
            if (ready)
                ready();
            m_lane.waitAt(variant + 1);
        });
    }
    Result<CopyPeak> copyPeak(const DeviceInfo& device, CopyPath path) override
    {
        const auto known = calibrated.find(path);
        return known != calibrated.end() ? known->second : m_inner.copyPeak(device, path);
    }

private:
    Backend& m_inner;
    Lane& m_lane;
};

// runPlan's progress for one device, passed on with the device's index; a variant that ends without having
// started its runs passes its station.
class DeviceSinkAdapter final : public PlanSink {
public:
    DeviceSinkAdapter(int device, DevicePlanSink& sink, DeviceBackend& backend, Lane& lane)
        : m_device(device)
        , m_sink(sink)
        , m_backend(backend)
        , m_lane(lane)
    {
    }
    void variantStarting(std::size_t index, const VariantResult& v) override
    {
        m_backend.variant = index;
        m_sink.variantStarting(m_device, index, v);
    }
    void runAvailable(std::size_t index, const RunResult& run) override { m_sink.runAvailable(m_device, index, run); }
    void variantEnded(std::size_t index, const VariantResult& v) override
    {
        m_lane.passUntil(index + 2);
        m_sink.variantEnded(m_device, index, v);
    }
    void calibrationFailed(const Error& error) override { m_sink.calibrationFailed(m_device, error); }

private:
    int m_device;
    DevicePlanSink& m_sink;
    DeviceBackend& m_backend;
    Lane& m_lane;
};

struct Shared {
    Backend& backend;
    const Platform& platform;
    const DevicePlan& plan;
    const std::atomic<bool>& cancel;
    DevicePlanSink& sink;
    const RunnerOptions& options;
    StartLine* line;               // AllAtOnce only
    std::mutex calibration;        // one calibration at a time: they would measure each other otherwise
};

// The paths the variants that can run on the device calibrate, each once, in the plan's order.
std::vector<CopyPath> pathsOf(const Plan& plan)
{
    std::vector<CopyPath> paths;
    for (const Variant& variant : plan.variants) {
        const auto path = copyPathOf(variant.config);
        if (path && !checkCombination(variant.config) && std::find(paths.begin(), paths.end(), *path) == paths.end())
            paths.push_back(*path);
    }
    return paths;
}

void runDevice(Shared& shared, std::size_t slot, DeviceResult& result, Lane& lane)
{
    const int index = shared.plan.devices[slot];
    auto known = findDevice(shared.platform, index);
    result.device.index = index;
    if (known)
        result.device = *known;
    if (!shared.plan.bindToLocalCpus)
        result.binding.why = "binding turned off";
    else if (!known)
        result.binding.why = "no such device";
    else
        result.binding = bindThisThread(result.device.topology);
    shared.sink.deviceStarting(result.device, result.binding);

    DeviceBackend backend(shared.backend, lane);
    const Plan plan = planOnDevice(shared.plan.plan, index);
    if (shared.line) {
        // Calibrated one by one, every path the plan takes, before any device runs: the cached figures then serve
        // the plan.
        if (known && !shared.cancel.load()) {
            std::lock_guard lock(shared.calibration);
            for (const CopyPath path : pathsOf(plan)) {
                if (shared.cancel.load())
                    break;
                backend.calibrated.emplace(path, shared.backend.copyPeak(*known, path));
            }
        }
        lane.waitAt(0);
    }
    DeviceSinkAdapter adapter(index, shared.sink, backend, lane);
    result.plan = runPlan(backend, shared.platform, plan, shared.cancel, adapter, shared.options);
    for (VariantResult& v : result.plan.variants)
        v.report.binding = result.binding;
}

// Runs the device's part, turning anything thrown (a failed allocation of the engine's own) into the device's
// failure, and always leaving the start line so no other device waits for it.
void runDeviceGuarded(Shared& shared, std::size_t slot, DeviceResult& result)
{
    Lane lane(shared.line);
    try {
        runDevice(shared, slot, result, lane);
    } catch (const std::exception& e) {
        VariantResult failed;
        failed.failure = makeError(ErrorKind::Cuda, std::string("the device's worker stopped: ") + e.what());
        result.plan.variants.push_back(std::move(failed));
    }
    lane.leave();
    shared.sink.deviceEnded(result);
}

}  // namespace

HostReport runDevicePlan(Backend& backend, const Platform& platform, const DevicePlan& plan,
    const std::atomic<bool>& cancel, DevicePlanSink& sink, const RunnerOptions& options)
{
    HostReport report;
    report.host = shortHostName();
    report.driverVersion = platform.driverVersion;
    report.runtimeVersion = platform.runtimeVersion;
    report.mode = plan.mode;
    report.comparison = plan.plan.comparison;
    report.devices.resize(plan.devices.size());

    const bool atOnce = plan.mode == DeviceMode::AllAtOnce;
    std::optional<StartLine> line;
    if (atOnce)
        line.emplace(plan.devices.size(), plan.plan.variants.size() + 1, cancel);
    Shared shared { backend, platform, plan, cancel, sink, options, line ? &*line : nullptr, {} };

    std::vector<std::thread> workers;
    for (std::size_t slot = 0; slot < plan.devices.size(); ++slot) {
        try {
            workers.emplace_back(runDeviceGuarded, std::ref(shared), slot, std::ref(report.devices[slot]));
        } catch (const std::system_error& e) {  // no thread: the device did not run, and nobody waits for it
            DeviceResult& r = report.devices[slot];
            r.device.index = plan.devices[slot];
            VariantResult failed;
            failed.failure = makeError(ErrorKind::Cuda, std::string("no worker thread for the device: ") + e.what());
            r.plan.variants.push_back(std::move(failed));
            Lane(shared.line).leave();
            continue;
        }
        if (!atOnce)
            workers.back().join();
    }
    for (std::thread& worker : workers) {
        if (worker.joinable())
            worker.join();
    }
    if (atOnce)
        report.aggregate = aggregateBandwidth(report.devices);
    return report;
}

}  // namespace asyncscope

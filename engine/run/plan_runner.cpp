#include "engine/run/plan_runner.hpp"

#include "engine/host/host_name.hpp"
#include "engine/model/size_parse.hpp"
#include "engine/run/machine_monitor.hpp"

#include <map>
#include <set>
#include <utility>

namespace asyncscope {

namespace {

bool cannotRun(const Error& error)
{
    return error.kind == ErrorKind::TooLarge || error.kind == ErrorKind::OutOfMemory ||
        error.kind == ErrorKind::Unsupported;
}

}  // namespace

PlanReport runPlan(Backend& backend, const Platform& platform, const Plan& plan, const std::atomic<bool>& cancel,
    PlanSink& sink, const RunnerOptions& options)
{
    PlanReport result;
    result.comparison = plan.comparison;
    result.planned = plan.variants.size();
    // By device UUID and path; empty when the calibration failed or the device cannot take the path.
    std::map<std::pair<std::string, CopyPath>, std::optional<CopyPeak>> peaks;
    const std::string host = shortHostName();
    // The PIDs on each device before this plan's first CUDA work there: the one that appears with it is this process.
    std::map<std::string, std::optional<std::set<std::uint32_t>>> before;
    auto peakOf = [&](const DeviceInfo& device, CopyPath path) {
        auto known = peaks.find({ device.uuid, path });
        if (known == peaks.end()) {
            auto peak = backend.copyPeak(device, path);
            if (!peak && peak.error().kind != ErrorKind::Unsupported)
                sink.calibrationFailed(peak.error());
            known = peaks.emplace(std::pair(device.uuid, path), peak ? std::optional(*peak) : std::nullopt).first;
        }
        return known->second;
    };

    for (std::size_t i = 0; i < plan.variants.size(); ++i) {
        const Variant& variant = plan.variants[i];
        VariantResult& v = result.variants.emplace_back();
        v.label = variant.label;
        v.report.host = host;
        v.report.config = variant.config;
        v.report.driverVersion = platform.driverVersion;
        v.report.runtimeVersion = platform.runtimeVersion;
        auto end = [&] {
            sink.variantEnded(i, v);
            return !v.failure;
        };

        if (cancel.load()) {
            v.failure = makeError(ErrorKind::Cancelled, "cancelled before " + variant.label);
            end();
            break;
        }
        auto device = findDevice(platform, variant.config.device);
        if (!device) {
            v.failure = device.error();
            end();
            break;
        }
        v.report.device = *device;
        if (auto invalid = validate(variant.config)) {
            v.failure = *invalid;
            end();
            break;
        }
        if (auto tooBig = checkFitsDevice(variant.config, device->totalMemoryBytes, device->name, "in all")) {
            v.notRun = *tooBig;
            end();
            continue;
        }
        if (auto unsupported = checkCombination(variant.config)) {
            v.notRun = *unsupported;
            end();
            continue;
        }

        if (options.machine && !before.count(device->uuid))
            before[device->uuid] = gpuProcessIds(*options.machine, *device);
        // Each variant's bound comes from the peak of its own path; managed memory migrating on demand has none. A
        // path the device cannot take leaves the variant without a bound (the series itself says why it cannot run).
        if (const auto path = copyPathOf(variant.config)) {
            v.report.peak = peakOf(*device, *path);
            if (*path == CopyPath::Pageable)
                v.report.pinnedPeak = peakOf(*device, CopyPath::Pinned);
        }

        sink.variantStarting(i, v);
        std::optional<MachineMonitor> monitor;
        if (options.machine) {
            monitor.emplace(*options.machine, *device);
            monitor->start();
        }
        std::size_t ran = 0;
        std::int64_t firstRunNs = 0;
        auto outcome = backend.run(variant.config, cancel, [&](const RunResult& run) {
            if (ran++ == 0)
                firstRunNs = run.hostClockNs;
            if (options.keepRuns)
                v.report.runs.push_back(run);
            sink.runAvailable(i, run);
        });
        if (monitor)
            v.report.machine = monitor->finish(firstRunNs, before[device->uuid]);
        if (outcome)
            v.report.outcome = *outcome;
        else if (ran == 0 && cannotRun(outcome.error()))
            v.notRun = outcome.error();
        else
            v.failure = outcome.error();
        if (!end())
            break;
    }
    return result;
}

}  // namespace asyncscope

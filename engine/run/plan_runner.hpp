// Runs a plan: its variants in order on the calling thread, each run and each variant's end handed to a sink, until
// the plan is done, a variant fails, or cancel is set. Returns what ran in every case. The CLI and the window both
// run their plans through runDevicePlan (device_plan_runner.hpp), which calls it once per device.
#pragma once

#include "engine/host/machine_probe.hpp"
#include "engine/run/backend.hpp"
#include "engine/run/plan.hpp"

#include <atomic>
#include <cstddef>

namespace asyncscope {

class PlanSink {
public:
    virtual ~PlanSink() = default;
    // Before the variant's first run (after its calibration).
    virtual void variantStarting(std::size_t /*index*/, const VariantResult& /*variant: device, config, peak*/) {}
    virtual void runAvailable(std::size_t /*index*/, const RunResult& /*run*/) {}
    // Ran, could not run, failed or was cancelled: `variant` says which.
    virtual void variantEnded(std::size_t /*index*/, const VariantResult& /*variant*/) {}
    // The device's copy peak could not be calibrated; the plan runs on without the serial bound.
    virtual void calibrationFailed(const Error& /*error*/) {}
};

// How a runner keeps what it runs.
struct RunnerOptions {
    // false: each run goes to the sink only, and VariantResult::report.runs stays empty: the sink keeps the series
    // (the window holds it once, in its session). Outcome, failure and binding are kept either way.
    bool keepRuns = true;
    // Reads the machine's state around each series (clocks, the link, other processes on the GPU) into its report;
    // null: not recorded.
    MachineProbe* machine = nullptr;
};

// A variant whose device is not in `platform` fails the plan (a usage error). One that does not fit the device's
// memory, or whose backend answers TooLarge or OutOfMemory before its first run, is recorded as not run and the
// plan goes on. Each device is calibrated once per plan, before its first variant.
PlanReport runPlan(Backend& backend, const Platform& platform, const Plan& plan, const std::atomic<bool>& cancel,
    PlanSink& sink, const RunnerOptions& options = {});

}  // namespace asyncscope

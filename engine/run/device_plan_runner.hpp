// Runs a plan over several devices: one worker thread per device owns that device's CUDA work (the series sets the
// device on it first), bound by default to the device's local CPUs so that its host buffers come from the device's
// NUMA node. One device at a time, or all at once with their copy calibrations done one by one first and every
// variant's first run lined up across the devices. A shared cancel flag stops every device; what ran is returned.
#pragma once

#include "engine/run/backend.hpp"
#include "engine/run/device_plan.hpp"
#include "engine/run/plan_runner.hpp"

#include <atomic>
#include <cstddef>

namespace asyncscope {

// What a device plan's progress looks like. Every call comes on the device's worker thread: with
// DeviceMode::AllAtOnce from several threads at the same time, so an implementation guards what it shares.
class DevicePlanSink {
public:
    virtual ~DevicePlanSink() = default;
    // The worker thread started and is bound (or not, `binding` says why).
    virtual void deviceStarting(const DeviceInfo& /*device*/, const CpuBinding& /*binding*/) {}
    virtual void variantStarting(int /*device*/, std::size_t /*index*/, const VariantResult& /*variant*/) {}
    virtual void runAvailable(int /*device*/, std::size_t /*index*/, const RunResult& /*run*/) {}
    virtual void variantEnded(int /*device*/, std::size_t /*index*/, const VariantResult& /*variant*/) {}
    virtual void calibrationFailed(int /*device*/, const Error& /*error*/) {}
    // The device's plan is over, however it ended.
    virtual void deviceEnded(const DeviceResult& /*result*/) {}
};

// The backend's run() is called from the workers, with AllAtOnce from several at once (each for its own device);
// copyPeak() never from two at once (with AllAtOnce each device calibrates every path its variants take, one device
// after the other, before any runs). Devices not in `platform` get a usage error in their result. The report's
// aggregate bandwidth is set with AllAtOnce (from the runs kept: with options.keepRuns false there is none).
HostReport runDevicePlan(Backend& backend, const Platform& platform, const DevicePlan& plan,
    const std::atomic<bool>& cancel, DevicePlanSink& sink, const RunnerOptions& options = {});

}  // namespace asyncscope

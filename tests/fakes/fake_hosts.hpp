// Invented hosts for tests: GPUs of the fake backend run through the device plan runner, one of them slow; and the
// error a host without a driver records. Test code only.
#pragma once

#include "engine/run/device_plan_runner.hpp"

#include "fake_backend.hpp"

#include <string>

namespace asyncscope::testing {

// Eight GPUs on Gen5 x16 copying at 55 GB/s, but GPU 3 at 40 GB/s (the slow one, and below its link) and GPU 6 on
// a Gen6 x16 link it uses at Gen5's rate (below its link, not slow). Not bound to CPUs.
inline HostReport eightGpus(const std::string& host = {}, DeviceMode mode = DeviceMode::OneAtATime)
{
    FakeBackend backend;
    backend.useHostOf(8);
    backend.copyGBps[3] = 40.0;
    backend.devices[6].topology.current = { "64.0 GT/s PCIe", 6, 16 };
    // Runs that take a moment, so that the devices' runs overlap however busy the machine is (instant runs on a
    // loaded machine can miss each other, leaving no aggregate).
    if (mode == DeviceMode::AllAtOnce)
        backend.runDelay = std::chrono::milliseconds(3);
    PipelineConfig config;
    config.runs = 5;
    DevicePlan plan;
    plan.devices = { 0, 1, 2, 3, 4, 5, 6, 7 };
    plan.mode = mode;
    plan.bindToLocalCpus = false;
    plan.plan = seriesPlan(config);
    DevicePlanSink sink;
    std::atomic<bool> cancel { false };
    HostReport report = runDevicePlan(backend, *backend.discover(), plan, cancel, sink);
    if (!host.empty())
        report.host = host;
    return report;
}

// Two GPUs copying at `gbps` on a host of that name.
inline HostReport twoGpus(const std::string& host, double gbps)
{
    FakeBackend backend;
    backend.useHostOf(2);
    backend.copyGBps = { { 0, gbps }, { 1, gbps } };
    PipelineConfig config;
    config.runs = 3;
    DevicePlan plan;
    plan.devices = { 0, 1 };
    plan.bindToLocalCpus = false;
    plan.plan = seriesPlan(config);
    DevicePlanSink sink;
    std::atomic<bool> cancel { false };
    HostReport report = runDevicePlan(backend, *backend.discover(), plan, cancel, sink);
    report.host = host;
    return report;
}

// What the CUDA runtime answers on a host without the NVIDIA driver.
inline Error noDriver()
{
    Error e = makeError(ErrorKind::NoDriver, "CUDA driver version is insufficient for CUDA runtime version",
        "Install the NVIDIA driver.");
    e.api = "cudaGetDeviceCount";
    e.code = 35;
    e.codeName = "cudaErrorInsufficientDriver";
    return e;
}

}  // namespace asyncscope::testing

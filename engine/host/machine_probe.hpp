// Reads the machine's state around a GPU (engine/model/machine_state). The NVML implementation is NvmlProbe
// (engine/host/nvml_probe); tests substitute fakes.
#pragma once

#include "engine/model/device.hpp"
#include "engine/model/error.hpp"
#include "engine/model/machine_state.hpp"

#include <string>
#include <vector>

namespace asyncscope {

class MachineProbe {
public:
    virtual ~MachineProbe() = default;
    // What answers ("NVML, driver 580.95.05"), or empty when nothing can.
    virtual std::string source() const = 0;
    // Why nothing can be read (the library did not load, the driver refused); empty when samples can be taken.
    virtual std::string unavailable() const = 0;
    // One reading of the device, its atMs left 0 (the runner sets it). Readings the driver does not support stay
    // empty; an error only when the device itself cannot be found. Called from one thread at a time per probe.
    virtual Result<MachineSample> sample(const DeviceInfo& device) = 0;
    // This process's PID as the driver numbers it: its own where the driver's PIDs are this PID namespace's.
    virtual std::uint32_t ownPid() const = 0;
    // Every GPU the probe can read, by UUID (and name): what is sampled while a program runs on GPUs of its own
    // choosing. Empty when nothing can be read.
    virtual std::vector<DeviceInfo> devices() = 0;
};

}  // namespace asyncscope

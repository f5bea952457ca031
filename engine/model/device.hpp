// What a CUDA device is to the engine, and which one to use by default.
#pragma once

#include "engine/model/error.hpp"
#include "engine/model/topology.hpp"

#include <cstddef>
#include <optional>
#include <string>
#include <vector>

namespace asyncscope {

struct DeviceInfo {
    int index = 0;
    std::string name;
    int computeMajor = 0;
    int computeMinor = 0;
    int multiprocessors = 0;
    std::size_t totalMemoryBytes = 0;
    std::string pciBusId;          // "0000:19:00.0"
    std::string uuid;              // "GPU-xxxxxxxx-xxxx-xxxx-xxxx-xxxxxxxxxxxx"
    int asyncEngineCount = 0;      // copy engines: 2 or more can copy both directions at once
    int clockKHz = 0;              // peak SM clock
    bool computeProhibited = false;  // compute mode "prohibited": no context can be made on it
    DeviceTopology topology;         // where it sits: PCIe link, NUMA node, local CPUs (from sysfs; may be unknown)

    std::string computeCapability() const;  // "9.0"
    std::string summary() const;            // "0: NVIDIA H200 (sm 9.0, 132 SMs, 139.8 GiB)"
};

struct Platform {
    int driverVersion = 0;   // e.g. 13000
    int runtimeVersion = 0;  // e.g. 13000
    std::vector<DeviceInfo> devices;
};

// CUDA cores per multiprocessor for a compute capability (for the peak-throughput rule).
int coresPerMultiprocessor(int major, int minor);

// The device with the highest peak throughput (multiprocessors x cores per SM x clock), skipping
// devices whose compute mode forbids use; the lowest index wins a tie. Empty if none is usable.
std::optional<int> chooseDefaultDevice(const std::vector<DeviceInfo>& devices);

// The device with this index, or a usage error that lists what there is.
Result<DeviceInfo> findDevice(const Platform& platform, int index);

}  // namespace asyncscope

// Where a GPU sits, read from Linux's sysfs without NVML: /sys/bus/pci/devices/<bus id>/{numa_node, local_cpulist,
// current_link_speed, current_link_width, max_link_speed, max_link_width}.
#pragma once

#include "engine/model/topology.hpp"

#include <string>
#include <string_view>

namespace asyncscope {

constexpr const char* kSysfsRoot = "/sys";

// The name sysfs gives a PCI device: "0000:19:00.0", lower case, a four-digit domain (CUDA may give eight:
// "00000000:19:00.0"). Empty when `busId` is not a PCI bus id.
std::string sysfsBusId(std::string_view busId);

// Reads the device's topology under `sysfsRoot` (tests pass a fake tree). A file that is missing or holds what it
// should not leaves that part unknown and says so in the note; this never fails.
DeviceTopology readTopology(std::string_view busId, const std::string& sysfsRoot = kSysfsRoot);

}  // namespace asyncscope

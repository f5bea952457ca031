// Binding a device's worker thread to the CPUs local to the device, so that the thread's pinned host buffers, first
// touched on that thread, come from the device's NUMA node. No libnuma: the kernel's first-touch placement does it.
#pragma once

#include "engine/model/error.hpp"
#include "engine/model/topology.hpp"

#include <string_view>
#include <vector>

namespace asyncscope {

// The CPUs a Linux CPU list names ("0-3,8,10-11"), in order; a usage error naming the part at fault otherwise.
Result<std::vector<int>> parseCpuList(std::string_view list);

// "0-3,8,10-11": the shortest list naming `cpus` (sorted, no repeats).
std::string formatCpuList(const std::vector<int>& cpus);

// Binds the calling thread to those of the device's local CPUs this process may use. Nothing is changed, and the
// binding says why, when the local CPUs are unknown or none of them is available here (a cgroup's cpuset). Threads
// the bound thread starts later (the host check's) inherit its CPUs.
CpuBinding bindThisThread(const DeviceTopology& topology);

// The CPUs the calling thread may run on now.
std::vector<int> threadCpus();

}  // namespace asyncscope

// A plan over several devices of one host: which devices (the fastest, all, or a list), whether they run one after
// the other or all at once, and what came of it: one result per device, and for devices that ran at once the host's
// aggregate bandwidth. runDevicePlan() (device_plan_runner.hpp) runs it; sideBySideRows() (side_by_side.hpp) puts
// the devices side by side.
#pragma once

#include "engine/model/device.hpp"
#include "engine/model/error.hpp"
#include "engine/model/names.hpp"
#include "engine/model/topology.hpp"
#include "engine/run/plan.hpp"

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace asyncscope {

// OneAtATime: each device alone, for clean figures. AllAtOnce: every device at the same time, each on its own
// thread, their series lined up to start together: the host's shared resources (PCIe switches, memory, the CPUs)
// show as contention.
enum class DeviceMode { OneAtATime, AllAtOnce };

template <>
struct EnumNames<DeviceMode> {
    static constexpr std::array entries { std::pair { DeviceMode::OneAtATime, "one-at-a-time" },
        std::pair { DeviceMode::AllAtOnce, "all-at-once" } };
};

// Which devices a run is for, as `--device` takes it: "best" (the highest peak throughput), "all", one index ("3")
// or a comma list ("0,2,5").
struct DeviceSelection {
    enum class Kind { Best, All, List };
    Kind kind = Kind::Best;
    std::vector<int> indices;  // Kind::List: in the order given, each once

    // All, or a list of more than one device: a plan over several devices rather than one series.
    bool several() const { return kind == Kind::All || (kind == Kind::List && indices.size() > 1); }
};

// Usage errors name the part at fault: "'0,x' is not a device list: 'x' is not a device index".
Result<DeviceSelection> parseDeviceSelection(std::string_view text);

// The indices the selection means on `platform`, in order. An index the platform lacks is a usage error ("device 9
// does not exist; this host has 8: 0 to 7"); so is "best" when every device is compute-prohibited.
Result<std::vector<int>> resolveDevices(const DeviceSelection& selection, const Platform& platform);

struct DevicePlan {
    std::vector<int> devices;  // indices, in the order they run (one at a time) or are listed
    DeviceMode mode = DeviceMode::OneAtATime;
    bool bindToLocalCpus = true;  // each worker thread on its GPU's local CPUs, host buffers from its NUMA node
    Plan plan;                    // what each device runs; each variant's config.device is set to the device's index
};

// `plan` with every variant on `device`.
Plan planOnDevice(const Plan& plan, int device);

// One device's part: where it sits, the CPUs its worker thread was bound to, and its plan's report (each variant's
// report carries the host name and the binding as well).
struct DeviceResult {
    DeviceInfo device;
    CpuBinding binding;
    PlanReport plan;
};

// Devices that ran at once, taken together: every byte their measured runs copied (both directions) while all of
// them were running measured runs, over that stretch of wall time.
struct AggregateBandwidth {
    int devices = 0;          // devices with measured runs on the host clock
    double overlapMs = 0.0;   // wall time during which every one of them was running measured runs; 0: none
    std::uint64_t bytes = 0;  // copied by the runs whose middle falls in that time
    double gbps = 0.0;        // bytes / overlap, decimal GB/s; 0 when the runs did not overlap
};

// Run i's span on this process's steady clock, in ns: from its submission to the end of its wait. Empty for a run
// read from a file (no host clock).
struct RunWindow {
    std::int64_t beginNs = 0;
    std::int64_t endNs = 0;
};
std::optional<RunWindow> hostWindow(const RunStore& runs, std::size_t i);

AggregateBandwidth aggregateBandwidth(const std::vector<DeviceResult>& devices);

// Where a record was written within a Slurm job: its job, the node as Slurm names it, and the task.
struct SlurmTask {
    std::string job;   // SLURM_JOB_ID
    std::string node;  // SLURMD_NODENAME
    int task = 0;      // SLURM_PROCID
};

// One host's record: every device it ran, or why none could run.
struct HostReport {
    std::string host;  // short host name
    int driverVersion = 0;
    int runtimeVersion = 0;
    DeviceMode mode = DeviceMode::OneAtATime;
    std::optional<Comparison> comparison;  // empty: each device ran one series
    std::vector<DeviceResult> devices;     // in the plan's order
    std::optional<AggregateBandwidth> aggregate;  // with DeviceMode::AllAtOnce
    std::optional<Error> error;  // nothing could run on this host: no driver, no device, no usable device
    std::optional<SlurmTask> slurm;  // written by a task of a Slurm job

    // The first device's failure (a CUDA error, a cancel), if any.
    const Error* failure() const;
    // Devices whose plan ran at least one variant.
    std::size_t ranCount() const;
};

// A host's record that says only why it could not run anything.
HostReport hostError(std::string host, Error error);

}  // namespace asyncscope

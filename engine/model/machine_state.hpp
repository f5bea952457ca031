// The state of the machine around a series, as the driver reports it through NVML: clocks and what holds them,
// temperature, power, persistence mode, the PCIe link now and at most, and the processes with a context on the GPU.
// Sampled at the start and end of each series and during it (engine/host/nvml_probe). Every reading is optional: a
// driver may answer "not supported" for any one of them, and without NVML there are no samples at all, only why.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace asyncscope {

// NVML's clock event ("throttle") reasons, as its bit mask gives them.
namespace clock_reasons {
inline constexpr std::uint64_t kGpuIdle = 0x1;
inline constexpr std::uint64_t kApplicationsClocks = 0x2;
inline constexpr std::uint64_t kSwPowerCap = 0x4;
inline constexpr std::uint64_t kHwSlowdown = 0x8;
inline constexpr std::uint64_t kSyncBoost = 0x10;
inline constexpr std::uint64_t kSwThermal = 0x20;
inline constexpr std::uint64_t kHwThermal = 0x40;
inline constexpr std::uint64_t kHwPowerBrake = 0x80;
inline constexpr std::uint64_t kDisplayClocks = 0x100;
// Reasons that hold a busy GPU's clocks below what it could run at: power, heat, a slowdown, a lowered applications
// clock. Idle, sync boost and display clocks say nothing about a measurement.
inline constexpr std::uint64_t kLimiting
    = kApplicationsClocks | kSwPowerCap | kHwSlowdown | kSwThermal | kHwThermal | kHwPowerBrake;
}  // namespace clock_reasons

// "power cap, thermal (software)": the reasons a mask holds, in words; "none" for 0.
std::string clockReasonsText(std::uint64_t mask);

struct GpuProcess {
    std::uint32_t pid = 0;        // as the driver gives it: in a container, the host's PID
    std::uint64_t usedBytes = 0;  // device memory it holds; 0 when the driver does not say
    std::string name;             // its command name where this process can see it; empty otherwise
};

struct MachineSample {
    double atMs = 0.0;  // host clock, ms from the series' first run's start (negative: before it)
    std::optional<int> smClockMHz;
    std::optional<int> smClockMaxMHz;
    std::optional<int> memoryClockMHz;
    std::optional<int> memoryClockMaxMHz;
    std::optional<std::uint64_t> clockReasons;  // clock_reasons bits
    std::optional<int> temperatureC;
    std::optional<double> powerW;
    std::optional<bool> persistenceMode;
    std::optional<int> linkGeneration;  // PCIe now
    std::optional<int> linkWidth;
    std::optional<int> linkGenerationMax;  // the most the GPU and its slot can do together
    std::optional<int> linkWidthMax;
    std::optional<std::vector<GpuProcess>> processes;  // compute processes with a context on the GPU
};

struct MachineState {
    std::string source;       // "NVML, driver 580.95.05": what answered
    std::string unavailable;  // why the state could not be read ("libnvidia-ml.so.1 did not load: …"); empty when read
    // This process's PID as the driver numbers it, where it could be told (the same PID namespace, or the one process
    // that appeared when this one made its context); empty when it could not.
    std::optional<std::uint32_t> selfPid;
    std::vector<MachineSample> samples;  // in time order

    bool read() const { return unavailable.empty(); }
};

// The processes of `sample` other than this one. With `self` unknown and this process's context among them (after
// its first run), one entry is this process: the list holds them all, and `selfAmong` says so.
struct OtherProcesses {
    std::vector<GpuProcess> processes;
    bool selfAmong = false;
};
OtherProcesses otherProcesses(const MachineSample& sample, const std::optional<std::uint32_t>& self);

}  // namespace asyncscope

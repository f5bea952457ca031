// Samples the machine's state (engine/model/machine_state) around one series, on a thread of its own: when started,
// every `every` while the series runs, and when finished. The samples' times are on the host clock the runs' are.
#pragma once

#include "engine/host/machine_probe.hpp"

#include <chrono>
#include <condition_variable>
#include <cstdint>
#include <mutex>
#include <optional>
#include <set>
#include <string>
#include <thread>
#include <vector>

namespace asyncscope {

// Four samples a second: a reading takes the driver 2 to 4 ms on an H200 host, on a core the series does not use.
inline constexpr std::chrono::milliseconds kMachineSampleEvery { 250 };
// A series of more than 40 minutes keeps its first half of readings at this rate, and after them at most as many
// again, evenly spread over the rest of the series: every other reading, then every fourth, … as it goes on, and the
// last one always.
inline constexpr std::size_t kMaxMachineSamples = 10000;

// The PIDs with a context on `device` now, as the probe reads them; empty when it cannot read them.
std::optional<std::set<std::uint32_t>> gpuProcessIds(MachineProbe& probe, const DeviceInfo& device);

// This process's PID in the driver's numbering: its own where a sample lists it; else, where `before` (the PIDs with a
// context before this process made its own) is known, the one PID that is in every sample after and not in `before`.
// Empty when neither tells.
std::optional<std::uint32_t> selfPid(const std::vector<MachineSample>& samples, std::uint32_t ownPid,
    const std::optional<std::set<std::uint32_t>>& before);

class MachineMonitor {
public:
    MachineMonitor(MachineProbe& probe, DeviceInfo device, std::chrono::milliseconds every = kMachineSampleEvery);
    ~MachineMonitor();
    MachineMonitor(const MachineMonitor&) = delete;
    MachineMonitor& operator=(const MachineMonitor&) = delete;

    // Takes the first sample and starts sampling.
    void start();
    // Stops sampling and takes the last sample; finish() does so where this was not called.
    void stop();
    // Stops, takes the last sample, and gives the state: sample times in ms from `firstRunNs` (the series' first run's
    // steady-clock start; 0 when no run started: from the first sample), this process's PID told from the samples
    // and `before` (selfPid).
    MachineState finish(std::int64_t firstRunNs, const std::optional<std::set<std::uint32_t>>& before);

private:
    // One reading; `last` keeps it whatever the spacing of the kept ones.
    void take(bool last = false);
    void loop();

    MachineProbe& m_probe;
    DeviceInfo m_device;
    std::chrono::milliseconds m_every;
    std::vector<std::pair<std::int64_t, MachineSample>> m_samples;  // steady-clock ns, reading
    // Past the first half of kMaxMachineSamples, one reading in `m_stride` is kept; `m_skipped` since the last one.
    std::size_t m_stride = 1;
    std::size_t m_skipped = 0;
    std::string m_lastError;  // why the last reading failed
    std::mutex m_mutex;
    std::condition_variable m_wake;
    bool m_stop = false;
    bool m_stopped = false;  // the last sample is taken
    std::thread m_thread;
};

}  // namespace asyncscope

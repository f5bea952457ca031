// A fake of the machine's state for tests: readings it is told to give instead of NVML's. Test code only.
#pragma once

#include "engine/host/machine_probe.hpp"

#include <atomic>
#include <mutex>

namespace asyncscope::testing {

class FakeMachineProbe final : public MachineProbe {
public:
    static constexpr std::uint32_t kOwnPid = 1000;

    std::string why;       // when set, unavailable() says so and no reading is given
    MachineSample reading;  // what every sample reads (its atMs left 0)
    std::atomic<int> samples { 0 };

    // A clean H200 at full clocks on a full link, this process alone on it.
    FakeMachineProbe()
    {
        reading.smClockMHz = 1980;
        reading.smClockMaxMHz = 1980;
        reading.memoryClockMHz = 3201;
        reading.memoryClockMaxMHz = 3201;
        reading.clockReasons = 0;
        reading.temperatureC = 40;
        reading.powerW = 130.0;
        reading.persistenceMode = true;
        reading.linkGeneration = 5;
        reading.linkWidth = 16;
        reading.linkGenerationMax = 5;
        reading.linkWidthMax = 16;
        reading.processes = std::vector<GpuProcess> { { kOwnPid, 600u << 20, "asyncscope" } };
    }

    // Another process on the GPU from now on.
    void addProcess(std::uint32_t pid, const std::string& name)
    {
        const std::lock_guard lock(m_mutex);
        reading.processes->push_back({ pid, 582u << 20, name });
    }

    std::string source() const override { return why.empty() ? "fake NVML" : std::string(); }
    std::string unavailable() const override { return why; }
    std::uint32_t ownPid() const override { return kOwnPid; }
    Result<MachineSample> sample(const DeviceInfo&) override
    {
        ++samples;
        if (!why.empty())
            return makeError(ErrorKind::Unsupported, why);
        const std::lock_guard lock(m_mutex);
        return reading;
    }

private:
    std::mutex m_mutex;
};

}  // namespace asyncscope::testing

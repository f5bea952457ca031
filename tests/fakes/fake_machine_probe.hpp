// A fake of the machine's state for tests: readings it is told to give instead of NVML's. Test code only.
#pragma once

#include "engine/host/machine_probe.hpp"

#include <atomic>
#include <mutex>

namespace asyncscope::testing {

// A clean H200's reading: full clocks on a full link, no clock held, `self` alone on the GPU.
inline MachineSample cleanReading(std::uint32_t self)
{
    MachineSample s;
    s.smClockMHz = 1980;
    s.smClockMaxMHz = 1980;
    s.memoryClockMHz = 3201;
    s.memoryClockMaxMHz = 3201;
    s.clockReasons = 0;
    s.temperatureC = 40;
    s.powerW = 130.0;
    s.persistenceMode = true;
    s.linkGeneration = 5;
    s.linkWidth = 16;
    s.linkGenerationMax = 5;
    s.linkWidthMax = 16;
    s.processes = std::vector<GpuProcess> { { self, 600u << 20, "asyncscope" } };
    return s;
}

class FakeMachineProbe final : public MachineProbe {
public:
    static constexpr std::uint32_t kOwnPid = 1000;

    std::string why;       // when set, unavailable() says so and no reading is given
    MachineSample reading;  // what every sample reads (its atMs left 0): at first a clean H200's
    std::atomic<int> samples { 0 };

    FakeMachineProbe() : reading(cleanReading(kOwnPid)) {}

    // Another process on the GPU from now on.
    void addProcess(std::uint32_t pid, const std::string& name)
    {
        const std::lock_guard lock(m_mutex);
        reading.processes->push_back({ pid, 582u << 20, name });
    }

    std::string source() const override { return why.empty() ? "fake NVML" : std::string(); }
    std::string unavailable() const override { return why; }
    std::uint32_t ownPid() const override { return kOwnPid; }
    std::vector<DeviceInfo> gpus;  // what devices() lists
    std::vector<DeviceInfo> devices() override { return why.empty() ? gpus : std::vector<DeviceInfo> {}; }
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

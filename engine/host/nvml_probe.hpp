// The machine's state through NVML, loaded at run time: libnvidia-ml.so.1 comes with the driver, and nothing here
// needs its headers or links it. ASYNCSCOPE_NVML names another library to load instead (and only that one: pointing
// it at nothing runs without NVML). A GPU is found by its UUID, or else by its PCI bus id.
#pragma once

#include "engine/host/machine_probe.hpp"

#include <memory>
#include <mutex>
#include <string>

namespace asyncscope {

inline constexpr const char* kNvmlSoname = "libnvidia-ml.so.1";

class NvmlProbe final : public MachineProbe {
public:
    // Loads `library` (empty: ASYNCSCOPE_NVML where set, else kNvmlSoname) and initialises NVML; what fails is kept
    // as unavailable().
    explicit NvmlProbe(const std::string& library = {});
    ~NvmlProbe() override;
    NvmlProbe(const NvmlProbe&) = delete;
    NvmlProbe& operator=(const NvmlProbe&) = delete;

    std::string source() const override;
    std::string unavailable() const override;
    Result<MachineSample> sample(const DeviceInfo& device) override;
    std::uint32_t ownPid() const override;
    std::vector<DeviceInfo> devices() override;

    struct Api;

private:
    std::unique_ptr<Api> m_api;
    std::string m_source;
    std::string m_unavailable;
    std::mutex m_mutex;  // NVML is thread-safe; the probe's own state is guarded for devices sampled at once
};

}  // namespace asyncscope

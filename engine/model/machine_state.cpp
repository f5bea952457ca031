#include "engine/model/machine_state.hpp"

#include <cstdio>
#include <utility>

namespace asyncscope {

std::string clockReasonsText(std::uint64_t mask)
{
    static constexpr std::pair<std::uint64_t, const char*> kNames[] = {
        { clock_reasons::kGpuIdle, "idle" },
        { clock_reasons::kApplicationsClocks, "applications clocks setting" },
        { clock_reasons::kSwPowerCap, "power cap" },
        { clock_reasons::kHwSlowdown, "hardware slowdown" },
        { clock_reasons::kSyncBoost, "sync boost" },
        { clock_reasons::kSwThermal, "thermal (software)" },
        { clock_reasons::kHwThermal, "thermal (hardware)" },
        { clock_reasons::kHwPowerBrake, "power brake" },
        { clock_reasons::kDisplayClocks, "display clock setting" },
    };
    std::string text;
    std::uint64_t named = 0;
    for (const auto& [bit, name] : kNames) {
        if (mask & bit) {
            text += (text.empty() ? "" : ", ") + std::string(name);
            named |= bit;
        }
    }
    if (const std::uint64_t rest = mask & ~named) {
        char hex[24];
        std::snprintf(hex, sizeof hex, "0x%llx", static_cast<unsigned long long>(rest));
        text += (text.empty() ? "other (" : ", other (") + std::string(hex) + ")";
    }
    return text.empty() ? "none" : text;
}

OtherProcesses otherProcesses(const MachineSample& sample, const std::optional<std::uint32_t>& self)
{
    OtherProcesses others;
    if (!sample.processes)
        return others;
    for (const GpuProcess& p : *sample.processes) {
        if (!self || p.pid != *self)
            others.processes.push_back(p);
    }
    others.selfAmong = !self && !others.processes.empty();
    return others;
}

}  // namespace asyncscope

// How a series ended when it ran to its stop rule.
#pragma once

#include "engine/model/names.hpp"

#include <cstdint>
#include <optional>
#include <string>

namespace asyncscope {

// NoiseSettled: the noise stayed above the target but stopped changing, so more runs would not lower it; the series
// reports the noise it has.
enum class StopReason { RunCount, NoiseReached, NoiseSettled, Timeout };

template <>
struct EnumNames<StopReason> {
    static constexpr std::array entries { std::pair { StopReason::RunCount, "run count" },
        std::pair { StopReason::NoiseReached, "noise target reached" },
        std::pair { StopReason::NoiseSettled, "noise settled above the target" },
        std::pair { StopReason::Timeout, "timeout" } };
};

struct SeriesOutcome {
    int measuredRuns = 0;
    StopReason reason = StopReason::RunCount;
    double noisePercent = 0.0;  // of the measured GPU times when the series stopped
    std::string traceNote;      // why CUPTI was asked for and not used (runs then hold event spans only); or empty
    // Registered host memory: cudaHostRegister of the series' host buffers before the first run, and
    // cudaHostUnregister after the last, in ms for all of them together. Empty for the other kinds.
    std::optional<double> hostRegisterMs;
    std::optional<double> hostUnregisterMs;
    std::uint64_t hostRegisteredBytes = 0;  // what was registered: every host buffer's bytes together
};

}  // namespace asyncscope

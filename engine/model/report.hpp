// Everything one series produced: where it ran, what it ran, every run. Written as text, CSV or JSON.
#pragma once

#include "engine/model/config.hpp"
#include "engine/model/copy_peak.hpp"
#include "engine/model/device.hpp"
#include "engine/model/machine_state.hpp"
#include "engine/model/names.hpp"
#include "engine/model/outcome.hpp"
#include "engine/model/program_info.hpp"
#include "engine/model/run_result.hpp"
#include "engine/model/run_store.hpp"
#include "engine/model/topology.hpp"

#include <optional>
#include <string>
#include <vector>

namespace asyncscope {

struct Report {
    std::string host;  // the short name of the host it ran on; empty in files from before hosts were recorded
    DeviceInfo device;
    int driverVersion = 0;
    int runtimeVersion = 0;
    PipelineConfig config;
    RunStore runs;
    std::optional<SeriesOutcome> outcome;  // empty when the series did not finish
    std::optional<CopyPeak> peak;          // this host's calibrated copy peak, when known
    std::optional<CpuBinding> binding;     // the CPUs the series' thread was bound to, or why not; empty: not asked
    // The pinned path's copy peak on this device, for a series whose copies go another way (pageable memory): what
    // its copies are set against. Empty otherwise, or when it could not be calibrated.
    std::optional<CopyPeak> pinnedPeak;
    std::optional<MachineState> machine;  // the machine's state around the series; empty: not recorded (older files)
    std::optional<ProgramInfo> program;   // a recorded program's iterations rather than the built-in pipeline's runs
};

enum class ReportFormat { Text, Csv, Json };

template <>
struct EnumNames<ReportFormat> {
    static constexpr std::array entries { std::pair { ReportFormat::Text, "text" }, std::pair { ReportFormat::Csv, "csv" },
        std::pair { ReportFormat::Json, "json" } };
};

}  // namespace asyncscope

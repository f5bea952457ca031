// Everything one series produced: where it ran, what it ran, every run. Written as text, CSV or JSON.
#pragma once

#include "engine/config.hpp"
#include "engine/copy_calibration.hpp"
#include "engine/device_discovery.hpp"
#include "engine/run_result.hpp"
#include "engine/series_runner.hpp"

#include <optional>
#include <string>
#include <vector>

namespace asyncscope {

struct Report {
    DeviceInfo device;
    int driverVersion = 0;
    int runtimeVersion = 0;
    PipelineConfig config;
    std::vector<RunResult> runs;
    std::optional<SeriesOutcome> outcome;  // empty when the series did not finish
    std::optional<CopyPeak> peak;          // this host's calibrated copy peak, when known
};

enum class ReportFormat { Text, Csv, Json };
std::optional<ReportFormat> parseReportFormat(const std::string& text);

}  // namespace asyncscope

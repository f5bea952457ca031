// The terminal format: the asyncAPI sample's three lines per run, then a summary.
#pragma once

#include "engine/report.hpp"
#include "engine/statistics.hpp"

#include <string>

namespace asyncscope {

std::string formatDeviceText(const DeviceInfo& device, int driverVersion, int runtimeVersion);
std::string formatConfigText(const PipelineConfig& config);
std::string formatRunText(const RunResult& run);
std::string formatSummaryText(const Report& report);

}  // namespace asyncscope

// The terminal format: the asyncAPI sample's three lines per run, then a summary; a comparison as one table.
#pragma once

#include "engine/model/report.hpp"
#include "engine/run/plan.hpp"

#include <string>

namespace asyncscope {

std::string formatDeviceText(const DeviceInfo& device, int driverVersion, int runtimeVersion);
std::string formatConfigText(const PipelineConfig& config);
std::string formatRunText(const RunResult& run);
// "run 3 returned a wrong element: index 513 is 25, expected 52" (the run's own expected value).
std::string formatWrongElement(const RunResult& run);
std::string formatSummaryText(const Report& report);
// One row per variant: samples, the median of every distribution and every figure; variants that did not run say
// why.
std::string formatComparisonText(const PlanReport& plan);

}  // namespace asyncscope

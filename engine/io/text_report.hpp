// The terminal format: the asyncAPI sample's three lines per run, then a summary; a comparison as one table.
#pragma once

#include "engine/model/advice.hpp"
#include "engine/model/report.hpp"
#include "engine/run/plan.hpp"

#include <string>
#include <vector>

namespace asyncscope {

std::string formatDeviceText(const DeviceInfo& device, int driverVersion, int runtimeVersion);
std::string formatConfigText(const PipelineConfig& config);
std::string formatRunText(const RunResult& run);
// "run 3 returned a wrong element: index 513 is 25, expected 52" (the run's own expected value).
std::string formatWrongElement(const RunResult& run);
// The summary, the machine's state around the series and the advice on it (formatAdviceText): `assessed`'s
// (assessSeries of the report, or its variant's entry of assessPlan).
std::string formatSummaryText(const Report& report, const Assessment& assessed);
// "machine: NVML, driver 580.159.04; SM clock 1980 of 1980 MHz, …; other processes on the GPU: none": the readings
// taken during the runs, in one line (most and least where they moved); or why the state was not read.
std::string formatMachineText(const MachineState& machine);
// "advice:" and a finding per paragraph, severity first, the action below; then the rules not checked, and why.
// `indent` spaces before every line. Empty when there is nothing to say.
std::string formatAdviceText(const Advice& advice, int indent = 2);
// One row per variant: samples, the median of every distribution and every figure; variants that did not run say
// why. Then each variant's advice, by variant. `assessed`: assessPlan(plan).
std::string formatComparisonText(const PlanReport& plan, const std::vector<Assessment>& assessed);

}  // namespace asyncscope

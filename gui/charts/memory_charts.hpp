// The memory lab's charts (Compare › Memory): a bar chart per quantity, one bar per variant that has it, in plan
// order from the top: H2D and D2H GB/s, GPU time, CPU submit time, CPU time used while waiting, GPU time over the
// serial PCIe bound, and, where any variant registered its buffers (cudaHostRegister), what that cost. A chart names
// the variants it has no bar for, and why (no copies, not run …), under its values.
#pragma once

#include "engine/model/series_summary.hpp"
#include "engine/run/plan.hpp"

#include <QChart>

#include <memory>
#include <string_view>
#include <vector>

namespace asyncscope {

// How many charts a memory comparison has: six, and a seventh where a variant has a registration cost.
int memoryChartCount(const PlanReport& comparison, const std::vector<SeriesSummary>& summaries);
// Chart `index` of memoryChartCount(); `summaries` one per variant, in plan order (summarizePlan).
std::unique_ptr<QChart> memoryChart(const PlanReport& comparison, const std::vector<SeriesSummary>& summaries,
    int index);

}  // namespace asyncscope

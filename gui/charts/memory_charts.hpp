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

namespace memory_keys {
// The registration figures of a series whose host buffers were registered (summed over its buffers).
inline constexpr std::string_view kHostRegisterMs = "host_register_ms";
inline constexpr std::string_view kHostRegisterRate = "host_register_gbps";
inline constexpr std::string_view kHostUnregisterMs = "host_unregister_ms";
inline constexpr std::string_view kOverSerialBound = "gpu_time_over_serial_bound";
}  // namespace memory_keys

// How many charts a memory comparison has: six, and a seventh where a variant has a registration cost.
int memoryChartCount(const PlanReport& comparison, const std::vector<SeriesSummary>& summaries);
// Chart `index` of memoryChartCount(); `summaries` one per variant, in plan order (summarizePlan).
std::unique_ptr<QChart> memoryChart(const PlanReport& comparison, const std::vector<SeriesSummary>& summaries,
    int index);

}  // namespace asyncscope

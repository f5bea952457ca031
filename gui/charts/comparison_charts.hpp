// A comparison's charts, drawn alike in the window (gui/charts/comparison_view, with a table of every summary value
// below) and in its pictures: grouped bars (host memory, wait; stream calls, CUDA Graph and batched copies per shape;
// a chart per quantity for the memory lab, gui/charts/memory_charts), curves over size on log axes (sweep), or
// speed-up and copy throughput over the chunk count, one line per stream count, beside the overlap model (overlap).
#pragma once

#include "engine/model/series_summary.hpp"
#include "engine/run/plan.hpp"

#include <QChart>

#include <memory>
#include <vector>

namespace asyncscope {

// A comparison's charts, from its variants summarised once (summarizePlan): how many it has (a sweep has two: time
// and bandwidth over size; overlap two: speed-up and copy throughput over chunks; submission two: CPU submit time and
// GPU time per shape; memory six or seven: a chart per quantity), and each one built afresh, so the window and the
// exporter draw the same thing. Holds a reference to the comparison: it lives no longer than that.
class ComparisonCharts {
public:
    explicit ComparisonCharts(const PlanReport& comparison);
    int count() const;
    std::unique_ptr<QChart> build(int index) const;
    const std::vector<SeriesSummary>& summaries() const { return m_summaries; }

private:
    const PlanReport& m_comparison;
    std::vector<SeriesSummary> m_summaries;
};

}  // namespace asyncscope

// A comparison's variants side by side: grouped bars (host memory, wait; stream calls, CUDA Graph and batched copies
// per shape; a chart per quantity for the memory lab, gui/charts/memory_charts),
// curves over size on log axes (sweep), or speed-up and copy throughput over the chunk count, one line per stream
// count, beside the overlap model (overlap); with a table of every summary value below (variants that could not run
// say why).
#pragma once

#include "engine/model/series_summary.hpp"
#include "engine/run/plan.hpp"

#include <QChart>
#include <QWidget>

#include <memory>
#include <vector>

class QChartView;
class QTableWidget;
class QGridLayout;

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

// Charts side by side in one row, or in two rows where there are more than three (the memory lab's).
int chartColumns(int charts);
// The columns a view `width` pixels wide shows `charts` in: chartColumns(), fewer where each would be narrower than a
// bar chart's labels need; then the charts scroll.
int chartColumns(int charts, int width);

class ComparisonView : public QWidget {
    Q_OBJECT
public:
    explicit ComparisonView(QWidget* parent = nullptr);
    void setComparison(const PlanReport& comparison);
    int chartCount() const;

protected:
    void resizeEvent(QResizeEvent* event) override;

private:
    void placeCharts();

    QGridLayout* m_charts = nullptr;  // in rows of chartColumns(count, width)
    int m_columns = 0;                // as the charts are placed now
    QTableWidget* m_table = nullptr;
    QList<QChartView*> m_views;
};

}  // namespace asyncscope

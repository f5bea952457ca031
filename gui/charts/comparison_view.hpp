// A comparison's variants side by side: its charts (gui/charts/comparison_charts) in as many columns as the view has
// room for, with a table of every summary value below (variants that could not run say why).
#pragma once

#include "gui/charts/comparison_charts.hpp"

#include "engine/run/plan.hpp"

#include <QList>
#include <QWidget>

class QChartView;
class QTableWidget;
class QGridLayout;

namespace asyncscope {

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

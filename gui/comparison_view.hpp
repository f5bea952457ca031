// A comparison's variants side by side: grouped bars (host memory, wait) or curves over size on log axes (sweep),
// with a table of the figures below.
#pragma once

#include "engine/comparison.hpp"

#include <QChart>
#include <QWidget>

#include <memory>

class QChartView;
class QTableWidget;
class QHBoxLayout;

namespace asyncscope {

// How many charts a comparison has (a sweep has two: time and bandwidth over size), and each one built afresh, so
// the window and the exporter draw the same thing.
int comparisonChartCount(const ComparisonReport& comparison);
std::unique_ptr<QChart> buildComparisonChart(const ComparisonReport& comparison, int index);

class ComparisonView : public QWidget {
    Q_OBJECT
public:
    explicit ComparisonView(QWidget* parent = nullptr);
    void setComparison(const ComparisonReport& comparison);
    int chartCount() const;

private:
    QHBoxLayout* m_charts = nullptr;
    QTableWidget* m_table = nullptr;
    QList<QChartView*> m_views;
};

}  // namespace asyncscope

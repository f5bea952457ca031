// A run chart's line that, where the chart shows how runs are spread rather than each run, joins the medians of the
// pixel columns and keeps each column's spread, so that the value under the pointer can say which runs a point
// stands for and how they are spread instead of naming a run it is not.
#pragma once

#include "gui/series/chart_decimation.hpp"

#include <QLineSeries>
#include <QString>

#include <vector>

namespace asyncscope {

class SpreadLine : public QLineSeries {
    Q_OBJECT
public:
    using QLineSeries::QLineSeries;

    // The spread of each column its points stand for, one per point, in the unit of its value axis; empty while the
    // line draws runs themselves. `banded`: the chart shades the columns' p5-p95 band around this line.
    void setColumns(std::vector<ColumnSpread> columns, bool banded);
    const std::vector<ColumnSpread>& columns() const { return m_columns; }
    bool banded() const { return m_banded; }

    // "runs 1200–1350: median 2.49 ms, p5–p95 2.45–2.61 ms" for column `i` (one run: "run 1200: 2.49 ms"); the
    // median alone where the line has no band.
    QString describe(std::size_t i, const QString& unit) const;

private:
    std::vector<ColumnSpread> m_columns;
    bool m_banded = false;
};

}  // namespace asyncscope

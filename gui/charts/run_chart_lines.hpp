// What the run charts draw with (internal to gui/charts/run_chart*): the series of one run on one chart, the
// quantities each chart shows in the colours of their kinds, and the pens and shades that the lines, the bands and
// the legend's entries share.
#pragma once

#include "gui/series/series_points.hpp"

#include <QColor>
#include <QPen>
#include <QString>

#include <cstddef>
#include <vector>

class QAreaSeries;
class QScatterSeries;

namespace asyncscope {

class SpreadLine;

namespace runchart {

// The series of one run (the current one or an overlay) on one chart.
struct RunLines {
    std::vector<SpreadLine*> series;  // one per quantity of the chart: its runs, or its columns' medians
    std::vector<QScatterSeries*> warmups;  // the warm-up runs' marks, one per quantity, on that quantity's axis
    // The current run's bands per quantity, p25-p75 and p5-p95, empty while lines are drawn; overlays have none.
    std::vector<QAreaSeries*> inner, outer;
};

// Colours picked for contrast on light and dark backgrounds and for colour-blind readers (Okabe-Ito). A colour
// means a quantity; a line pattern means a run: solid for the current one, dashes and dots for saved ones. In the
// order of SeriesPoints' quantities.
struct Quantity {
    const char* name;
    QColor colour;
};
const std::vector<Quantity>& quantities(SeriesPoints::Chart chart);

constexpr std::size_t kCpuQuantity = 1;  // CPU submit time, of the time chart's quantities
constexpr double kMicrosecondsPerMs = 1000.0;
// The bands' opacity: the inner band over the outer one reads as twice as dense, and lines of other quantities and
// the grid still show through both.
constexpr int kOuterAlpha = 45;
constexpr int kInnerAlpha = 90;
inline const QString kInnerName = QStringLiteral("p25–p75");
inline const QString kOuterName = QStringLiteral("p5–p95");

// An overlay's pen: a line pattern per overlay (run_chart_lines.cpp says why it is one pixel wide on the screen).
QPen overlayPen(const QColor& colour, std::size_t overlay, double pixelScale);
QColor withAlpha(QColor colour, int alpha);
// A band of a quantity between two lines of points, named for the legend it stays out of.
QAreaSeries* newBand(const QString& name);

}  // namespace runchart
}  // namespace asyncscope

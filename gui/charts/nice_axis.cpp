#include "gui/charts/nice_axis.hpp"

#include "gui/series/nice_ticks.hpp"

#include <QChart>
#include <QValueAxis>

#include <algorithm>

namespace asyncscope {

namespace {

constexpr double kTicksX = 8;  // before the chart has a size
constexpr double kTicksY = 5;
constexpr double kPixelsPerTickX = 80.0;  // room for a label like "10000" between ticks
constexpr double kPixelsPerTickY = 50.0;

}  // namespace

double tickRoom(const QChart* chart, Qt::Orientation along)
{
    const QRectF plot = chart->plotArea();
    const double pixels = along == Qt::Horizontal ? plot.width() : plot.height();
    if (!(pixels > 0.0))
        return along == Qt::Horizontal ? kTicksX : kTicksY;
    return std::clamp(pixels / (along == Qt::Horizontal ? kPixelsPerTickX : kPixelsPerTickY), 3.0, 10.0);
}

void setNiceTicks(QValueAxis* axis, double count, double least)
{
    const double low = axis->min(), high = axis->max();
    if (!(high > low))
        return;
    const double step = niceStep(high - low, count, least);
    axis->setTickType(QValueAxis::TicksDynamic);
    axis->setTickAnchor(0.0);  // ticks at whole multiples of the step, wherever the range starts
    axis->setTickInterval(step);
    axis->setLabelFormat(QStringLiteral("%.%1f").arg(niceDecimals(step)));
}

void setNiceRange(QValueAxis* axis, double low, double high, double count, double least)
{
    axis->setTickType(QValueAxis::TicksFixed);
    axis->setRange(low, high);
    setNiceTicks(axis, count, least);  // also where the range did not change (no signal)
}

}  // namespace asyncscope

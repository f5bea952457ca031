#include "gui/charts/run_chart_lines.hpp"

#include "gui/charts/kind_colours.hpp"

#include <QAreaSeries>
#include <QLineSeries>

#include <iterator>

namespace asyncscope::runchart {

namespace {

constexpr double kOverlayPictureWidth = 1.5;  // an overlay's line in a picture, in units of the picture's layout

}  // namespace

const std::vector<Quantity>& quantities(SeriesPoints::Chart chart)
{
    static const std::vector<Quantity> time {
        { "GPU time", gpuTimeColour() },
        { "CPU submit time", kindColour(SpanKind::Submit) },
    };
    static const std::vector<Quantity> polls {
        { "cudaEventQuery polls", QColor(0, 158, 115) },
    };
    static const std::vector<Quantity> stages {
        { "H2D copy", kindColour(SpanKind::H2D) },
        { "kernel", kindColour(SpanKind::Kernel) },
        { "D2H copy", kindColour(SpanKind::D2H) },
    };
    switch (chart) {
    case SeriesPoints::Time: return time;
    case SeriesPoints::Polls: return polls;
    case SeriesPoints::Stages: return stages;
    }
    return time;
}

// A line pattern per overlay, one pixel wide. Qt Charts draws a patterned line as one path, and QPainter strokes a
// patterned path wider than a pixel by building its outline and filling that: for a decimated line of a few thousand
// points (a band of per-column minima and maxima) that took 0.2-0.5 s a repaint. A cosmetic pen of one pixel is drawn
// dash by dash in about a millisecond. A picture larger than its layout (an export) draws it wider by as much as it
// scales the layout, as every other line grows with it, and half as wide again as on the screen, as the current
// run's line: a hairline beside them would vanish when the picture is shown smaller. One slow stroke of a picture is
// no repaint.
QPen overlayPen(const QColor& colour, std::size_t overlay, double pixelScale)
{
    const Qt::PenStyle patterns[] = { Qt::DashLine, Qt::DotLine, Qt::DashDotLine, Qt::DashDotDotLine };
    const double width = pixelScale > 1.0 ? kOverlayPictureWidth * pixelScale : 1.0;
    QPen pen(colour, width, patterns[overlay % std::size(patterns)]);
    pen.setCosmetic(true);
    return pen;
}

QColor withAlpha(QColor colour, int alpha)
{
    colour.setAlpha(alpha);
    return colour;
}

QAreaSeries* newBand(const QString& name)
{
    auto* band = new QAreaSeries;
    band->setUpperSeries(new QLineSeries(band));
    band->setLowerSeries(new QLineSeries(band));
    band->setName(name);
    band->setPen(Qt::NoPen);
    return band;
}

}  // namespace asyncscope::runchart

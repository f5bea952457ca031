#include "gui/charts/distribution_charts.hpp"

#include "gui/charts/kind_colours.hpp"
#include "gui/charts/nice_axis.hpp"
#include "gui/series/nice_ticks.hpp"
#include "gui/series/shown_name.hpp"

#include "engine/model/statistics.hpp"

#include <QFontMetricsF>
#include <QLegendMarker>
#include <QPalette>
#include <QPen>

#include <algorithm>
#include <cmath>

namespace asyncscope {

namespace {

constexpr double kHeadroom = 1.15;  // the share axis ends a little above the tallest bin
constexpr double kMedianTop = 0.94;  // the median line's top, of the share axis: its label stays in the plot
constexpr double kP95Top = 0.80;     // the p95 line ends lower, so the two labels never overlap
const QColor kLight(90, 90, 90), kDark(210, 210, 210);  // markers and their labels on light or dark backgrounds

Qt::PenStyle patternOf(std::size_t overlay)
{
    const Qt::PenStyle patterns[] = { Qt::SolidLine, Qt::DashLine, Qt::DotLine, Qt::DashDotLine };
    return patterns[overlay % std::size(patterns)];
}

QColor colourOf(DistributionCharts::Kind kind)
{
    return kind == DistributionCharts::GpuTime ? gpuTimeColour() : kindColour(SpanKind::Submit);
}

QString quantityName(DistributionCharts::Kind kind)
{
    return kind == DistributionCharts::GpuTime ? QObject::tr("GPU time") : QObject::tr("CPU submit time");
}

// A histogram as a step line of shares in percent: up at the first bin's left edge, across each bin at its share,
// down at the last bin's right edge. Empty when nothing was counted.
QList<QPointF> stepsOf(const Histogram& h)
{
    QList<QPointF> points;
    const std::size_t total = h.total();
    if (total == 0)
        return points;
    points.reserve(qsizetype(2 * h.counts.size() + 2));
    points.append({ h.bins.low, 0.0 });
    for (int i = 0; i < h.bins.count; ++i) {
        const double share = 100.0 * double(h.counts[std::size_t(i)]) / double(total);
        points.append({ h.bins.edge(i), share });
        points.append({ h.bins.edge(i + 1), share });
    }
    points.append({ h.bins.high(), 0.0 });
    return points;
}

double tallest(const Histogram& h)
{
    const std::size_t total = h.total();
    if (total == 0)
        return 0.0;
    return 100.0 * double(*std::max_element(h.counts.begin(), h.counts.end())) / double(total);
}

// A value in ms with one digit more than the bins' edges have: enough to place it within a bin.
QString msText(double ms, const HistogramBins& bins)
{
    return QStringLiteral("%1 ms").arg(ms, 0, 'f', std::min(9, niceDecimals(bins.width) + 1));
}

// "1 run" or "12 runs": `many` takes the count as %1 (and may take more after it).
QString runsText(std::size_t n, const QString& one, const QString& many)
{
    return n == 1 ? one : many.arg(n);
}

// A vertical line from the axis up to `top`, named for what it marks.
void placeMarker(QLineSeries* marker, double at, double top, const QString& name)
{
    marker->setName(name);
    marker->replace({ QPointF(at, 0.0), QPointF(at, top) });
}

// A marker line's name at its top, beside the line rather than over it: to its right where the plot has room, else to
// its left; only a plot too narrow for either puts it over the line, still inside the plot rather than over the
// axis's labels.
void placeLabel(const QChart* chart, const QValueAxis* x, const QLineSeries* marker, QScatterSeries* label)
{
    if (marker->count() != 2) {
        label->clear();
        return;
    }
    const QPointF top = marker->at(1);
    double at = top.x();
    const double pixels = chart->plotArea().width(), span = x->max() - x->min();
    if (pixels > 0.0 && span > 0.0) {
        constexpr double kGapPx = 4.0;  // between the name and its line, and the plot's edge
        const double textPx = QFontMetricsF(label->pointLabelsFont()).horizontalAdvance(marker->name());
        const double half = textPx / 2.0 * span / pixels, gap = kGapPx * span / pixels;
        if (top.x() + 2.0 * (half + gap) <= x->max())
            at = top.x() + gap + half;
        else if (top.x() - 2.0 * (half + gap) >= x->min())
            at = top.x() - gap - half;
        else if (2.0 * (half + gap) < span)
            at = std::clamp(at, x->min() + half + gap, x->max() - half - gap);
    }
    label->setPointLabelsFormat(marker->name());  // no placeholders: the name itself
    label->replace({ QPointF(at, top.y()) });
}

}  // namespace

QString DistributionCharts::title(Kind kind)
{
    return quantityName(kind);
}

DistributionCharts::DistributionCharts()
{
    for (int k = 0; k < kKindCount; ++k)
        build(Kind(k));
    restyle();
    setRuns(Report {});
}

DistributionCharts::~DistributionCharts()
{
    for (const auto& chart : m_charts) {
        if (chart && !chart->scene())
            delete chart.data();
    }
}

void DistributionCharts::build(Kind kind)
{
    auto* chart = new QChart;
    m_charts[kind] = chart;
    chart->setTitle(title(kind));
    chart->setAnimationOptions(QChart::NoAnimation);
    chart->legend()->setAlignment(Qt::AlignBottom);  // two charts side by side: the width goes to the bins
    chart->legend()->setShowToolTips(true);
    chart->legend()->setMarkerShape(QLegend::MarkerShapeFromSeries);
    m_x[kind] = new QValueAxis;
    m_x[kind]->setTitleText(QObject::tr("ms"));  // the chart's title names the quantity
    m_y[kind] = new QValueAxis;
    m_y[kind]->setTitleText(QObject::tr("share of measured runs, %"));
    chart->addAxis(m_x[kind], Qt::AlignBottom);
    chart->addAxis(m_y[kind], Qt::AlignLeft);

    auto* upper = new QLineSeries;  // the bars' top; the lower edge is 0
    m_bars[kind] = new QAreaSeries(upper);
    upper->setParent(m_bars[kind]);  // an area series does not own its lines: this one goes with it
    m_median[kind] = new QLineSeries;
    m_p95[kind] = new QLineSeries;
    m_medianLabel[kind] = new QScatterSeries;
    m_p95Label[kind] = new QScatterSeries;
    const std::initializer_list<QAbstractSeries*> drawn { m_bars[kind], m_median[kind], m_p95[kind],
        m_medianLabel[kind], m_p95Label[kind] };
    for (QAbstractSeries* series : drawn) {
        chart->addSeries(series);
        series->attachAxis(m_x[kind]);
        series->attachAxis(m_y[kind]);
    }
    for (QScatterSeries* label : { m_medianLabel[kind], m_p95Label[kind] }) {
        label->setMarkerSize(1.0);  // the point is not drawn (restyle), only its label
        label->setPointLabelsVisible(true);
        label->setPointLabelsClipping(false);
    }
    // Zooming, resizing: ticks for the room the plot has, the lines' names inside it. The chart's own objects only:
    // it may outlive these charts in a view.
    QObject::connect(chart, &QChart::plotAreaChanged, chart,
        [chart, x = m_x[kind], y = m_y[kind], median = m_median[kind], p95 = m_p95[kind],
            medianLabel = m_medianLabel[kind], p95Label = m_p95Label[kind]] {
            setNiceTicks(x, tickRoom(chart, Qt::Horizontal), 0.0);
            setNiceTicks(y, tickRoom(chart, Qt::Vertical), 0.0);
            placeLabel(chart, x, median, medianLabel);
            placeLabel(chart, x, p95, p95Label);
        });
}

void DistributionCharts::setRuns(
    const Report& report, const QString& source, std::shared_ptr<const SortedTimes> prepared)
{
    const bool changed = m_current.show(report.runs, std::move(prepared));
    if (!changed && source == m_source && !m_histograms[0].empty())
        return;  // nothing new to count
    m_source = source;
    for (int k = 0; k < kKindCount; ++k)
        redraw(Kind(k));
}

void DistributionCharts::setOverlays(const DrawnOverlays& overlays)
{
    for (Overlay& overlay : m_overlays) {
        for (int k = 0; k < kKindCount; ++k) {
            m_charts[k]->removeSeries(overlay.steps[k]);
            delete overlay.steps[k];
        }
    }
    m_overlays.clear();
    for (const SavedRun* saved : overlays) {
        Overlay overlay;
        overlay.label = saved->label;
        overlay.times = preparedFor(saved->report.runs, saved->prepared.times);
        for (int k = 0; k < kKindCount; ++k) {
            overlay.steps[k] = new QLineSeries;
            overlay.steps[k]->setName(saved->label);
            m_charts[k]->addSeries(overlay.steps[k]);
            overlay.steps[k]->attachAxis(m_x[k]);
            overlay.steps[k]->attachAxis(m_y[k]);
        }
        m_overlays.push_back(std::move(overlay));
    }
    restyle();
    for (int k = 0; k < kKindCount; ++k)
        redraw(Kind(k));
}

void DistributionCharts::redraw(Kind kind)
{
    std::vector<const std::vector<double>*> samples { &m_current.get().values(kind) };
    for (const Overlay& overlay : m_overlays)
        samples.push_back(&overlay.times->values(kind));
    const HistogramBins bins = fitBins(samples);
    std::vector<Histogram>& histograms = m_histograms[kind];
    histograms.clear();
    double top = 0.0;
    for (const std::vector<double>* sample : samples) {
        histograms.push_back(countSorted(*sample, bins));
        top = std::max(top, tallest(histograms.back()));
    }
    m_bars[kind]->upperSeries()->replace(stepsOf(histograms[0]));
    for (std::size_t o = 0; o < m_overlays.size(); ++o)
        m_overlays[o].steps[kind]->replace(stepsOf(histograms[o + 1]));

    // Axes: the bins' edges across, the shares up to a round value above the tallest bin.
    const QChart* chart = m_charts[kind];
    const bool any = top > 0.0;
    const double shareStep = niceStep(top * kHeadroom, tickRoom(chart, Qt::Vertical));
    const double shareTop = any ? niceCeil(top * kHeadroom, shareStep) : 100.0;
    setNiceRange(m_x[kind], bins.low, bins.high(), tickRoom(chart, Qt::Horizontal), 0.0);
    setNiceRange(m_y[kind], 0.0, shareTop, tickRoom(chart, Qt::Vertical), 0.0);

    const std::vector<double>& current = m_current.get().values(kind);
    const bool measured = !current.empty();
    if (measured) {
        const double median = sortedMedian(current), p95 = sortedPercentile(current, 0.95);
        placeMarker(m_median[kind], median, shareTop * kMedianTop, QObject::tr("median %1").arg(msText(median, bins)));
        placeMarker(m_p95[kind], p95, shareTop * kP95Top, QObject::tr("p95 %1").arg(msText(p95, bins)));
    } else {
        m_median[kind]->clear();
        m_p95[kind]->clear();
    }
    placeLabel(chart, m_x[kind], m_median[kind], m_medianLabel[kind]);
    placeLabel(chart, m_x[kind], m_p95[kind], m_p95Label[kind]);
    // "GPU time", "9999 measured runs", "18 above 2.605 ms", "(not drawn)", "saved: h200-noise", "H200": a line each,
    // so that a narrow chart shows each whole rather than cutting the one line they would make.
    QStringList lines { quantityName(kind) };
    if (measured) {
        lines << runsText(current.size(), QObject::tr("1 measured run"), QObject::tr("%1 measured runs"));
        const Histogram& h = histograms[0];
        const int decimals = niceDecimals(bins.width);
        if (h.below > 0)
            lines << QObject::tr("%1 below %2 ms").arg(h.below).arg(bins.low, 0, 'f', decimals);
        if (h.above > 0)
            lines << QObject::tr("%1 above %2 ms").arg(h.above).arg(bins.high(), 0, 'f', decimals);
        if (h.below > 0 || h.above > 0)
            lines << QObject::tr("(not drawn)");
    }
    if (!m_source.isEmpty())
        lines << m_source.split(QStringLiteral(" · "));  // "saved: h200-noise", "H200"
    for (QString& line : lines)
        line = line.toHtmlEscaped();
    m_charts[kind]->setTitle(lines.join(QStringLiteral("<br>")));

    // The legend tells the series apart where overlays are drawn: "this run" and each overlay's label. The median
    // and p95 lines carry their names on the plot.
    // Long names are cut in the middle, keeping what tells them apart: the legend would cut them at the end.
    QStringList names { shownSeriesName(m_source) };
    for (const Overlay& overlay : m_overlays)
        names << overlay.label;
    names = shortNames(names);
    m_bars[kind]->setName(m_overlays.empty() ? quantityName(kind) : names.front());
    for (std::size_t o = 0; o < m_overlays.size(); ++o)
        m_overlays[o].steps[kind]->setName(names[qsizetype(o + 1)]);
    // A series shown again shows its legend entry again: entries are hidden after.
    for (QXYSeries* series : std::initializer_list<QXYSeries*> { m_median[kind], m_p95[kind], m_medianLabel[kind],
             m_p95Label[kind] })
        series->setVisible(measured);
    QLegend* legend = m_charts[kind]->legend();
    legend->setVisible(!m_overlays.empty());
    for (QLegendMarker* marker : legend->markers(m_bars[kind]))
        marker->setVisible(measured);
    for (QAbstractSeries* series : std::initializer_list<QAbstractSeries*> { m_median[kind], m_p95[kind],
             m_medianLabel[kind], m_p95Label[kind] }) {
        for (QLegendMarker* marker : legend->markers(series))
            marker->setVisible(false);
    }
    m_legendNames[kind].clear();
    if (!m_overlays.empty()) {
        if (measured)
            m_legendNames[kind] << m_bars[kind]->name();
        m_legendNames[kind] << names.mid(1);
    }
}

std::optional<double> DistributionCharts::medianMarker(Kind kind) const
{
    if (m_median[kind]->count() != 2)
        return std::nullopt;
    return m_median[kind]->at(0).x();
}

std::optional<double> DistributionCharts::p95Marker(Kind kind) const
{
    if (m_p95[kind]->count() != 2)
        return std::nullopt;
    return m_p95[kind]->at(0).x();
}

QString DistributionCharts::describe(Kind kind, double ms) const
{
    const std::vector<Histogram>& histograms = m_histograms[kind];
    if (histograms.empty())
        return {};
    const HistogramBins& bins = histograms[0].bins;
    const int bin = bins.binOf(ms);
    if (bin < 0 || bin >= bins.count)
        return {};
    const int decimals = niceDecimals(bins.width);
    QStringList lines { QStringLiteral("%1–%2 ms")
            .arg(bins.edge(bin), 0, 'f', decimals)
            .arg(bins.edge(bin + 1), 0, 'f', decimals) };
    for (std::size_t i = 0; i < histograms.size(); ++i) {
        const Histogram& h = histograms[i];
        if (h.total() == 0)
            continue;
        const std::size_t n = h.counts[std::size_t(bin)];
        const QString who = i == 0 ? shownSeriesName(m_source) : m_overlays[i - 1].label;
        lines << QStringLiteral("%1: %2, %3 %")
                     .arg(who, runsText(n, QObject::tr("1 run"), QObject::tr("%1 runs")))
                     .arg(100.0 * double(n) / double(h.total()), 0, 'f', 1);
    }
    return lines.join(QLatin1Char('\n'));
}

void DistributionCharts::applyPalette(const QPalette& palette)
{
    m_dark = isDark(palette);
    for (const auto& chart : m_charts)
        applyChartTheme(chart, m_dark);
    restyle();
}

void DistributionCharts::restyle()
{
    const QColor neutral = m_dark ? kDark : kLight;
    for (int k = 0; k < kKindCount; ++k) {
        const QColor colour = colourOf(Kind(k));
        QColor fill = colour;
        fill.setAlpha(110);
        m_bars[k]->setBrush(fill);
        m_bars[k]->setPen(QPen(colour, 1.5));
        m_bars[k]->setColor(fill);
        m_bars[k]->setBorderColor(colour);
        // The legend's entry in the bars' own colour, opaque: a translucent fill reads as black on a dark chart.
        for (QLegendMarker* marker : m_charts[k]->legend()->markers(m_bars[k])) {
            marker->setShape(QLegend::MarkerShapeRectangle);
            marker->setBrush(colour);
            marker->setPen(QPen(colour));
        }
        m_median[k]->setPen(QPen(neutral, 1.5, Qt::SolidLine));
        m_p95[k]->setPen(QPen(neutral, 1.5, Qt::DashLine));
        for (QLineSeries* marker : { m_median[k], m_p95[k] })
            marker->setColor(neutral);
        for (QScatterSeries* label : { m_medianLabel[k], m_p95Label[k] }) {
            label->setPointLabelsColor(neutral);
            label->setColor(Qt::transparent);
            label->setBorderColor(Qt::transparent);
        }
        for (std::size_t o = 0; o < m_overlays.size(); ++o) {
            m_overlays[o].steps[k]->setPen(QPen(overlayColour(o), 2.0, patternOf(o)));
            m_overlays[o].steps[k]->setColor(overlayColour(o));
        }
    }
}

}  // namespace asyncscope

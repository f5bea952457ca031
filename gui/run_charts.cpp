#include "gui/run_charts.hpp"

#include "gui/kind_colours.hpp"

#include <QLegendMarker>
#include <QPalette>
#include <QPen>

#include <algorithm>
#include <cmath>

namespace asyncscope {

struct RunCharts::Lines {
    std::vector<QLineSeries*> series;  // one per quantity of the chart
    QScatterSeries* warmups = nullptr;
    double maxX = 0.0;
    double maxY = 0.0;
};

namespace {

// Colours picked for contrast on light and dark backgrounds and for colour-blind readers (Okabe-Ito). A colour
// means a quantity; a line pattern means a run: solid for the current one, dashes and dots for saved ones.
struct Quantity {
    const char* name;
    QColor colour;
    double (*read)(const RunResult&);
    bool (*has)(const RunResult&);
};

constexpr double kTicksX = 8;  // about this many ticks along the run axis before the chart has a size
constexpr double kTicksY = 5;
constexpr double kPixelsPerTickX = 80.0;  // room for a label like "10000" between ticks
constexpr double kPixelsPerTickY = 50.0;
constexpr int kPointsShownUpTo = 100;  // markers on every point while runs are few enough to see them apart
const QColor kWarmupColour(128, 128, 128);

bool always(const RunResult&)
{
    return true;
}

bool staged(const RunResult& r)
{
    return r.stagesTimed();
}

template <SpanKind Kind>
double spanMs(const RunResult& r)
{
    return r.totalMs(Kind);
}

Qt::PenStyle patternOf(std::size_t overlay)
{
    const Qt::PenStyle patterns[] = { Qt::DashLine, Qt::DotLine, Qt::DashDotLine, Qt::DashDotDotLine };
    return patterns[overlay % std::size(patterns)];
}

// Ticks at 1, 2 or 5 times a power of ten, about `count` of them over `span`; never below `least`.
double niceStep(double span, double count, double least)
{
    const double raw = std::max(span / count, least);
    const double decade = std::pow(10.0, std::floor(std::log10(raw)));
    for (const double m : { 1.0, 2.0, 5.0 }) {
        if (raw <= m * decade)
            return m * decade;
    }
    return 10.0 * decade;
}

// Puts ticks on round values for the range [low, high], once the axis has that range.
void tidyTicks(QValueAxis* axis, double low, double high, double count, double least)
{
    const double span = high - low;
    if (!(span > 0.0))
        return;
    const double step = niceStep(span, count, least);
    axis->setTickType(QValueAxis::TicksDynamic);
    axis->setTickAnchor(0.0);
    axis->setTickInterval(step);
    const int decimals = std::max(0, int(-std::floor(std::log10(step))));
    axis->setLabelFormat(QStringLiteral("%.%1f").arg(decimals));
}

// How many ticks fit the chart's plot area along an axis: about one per label's width.
double tickCount(const QChart* chart, Qt::Orientation along)
{
    const QRectF plot = chart->plotArea();
    const double pixels = along == Qt::Horizontal ? plot.width() : plot.height();
    if (!(pixels > 0.0))
        return along == Qt::Horizontal ? kTicksX : kTicksY;
    return std::clamp(pixels / (along == Qt::Horizontal ? kPixelsPerTickX : kPixelsPerTickY), 3.0, 10.0);
}

// After a resize. An axis with fixed ticks is between two ranges (RunCharts::setRange), which tidies it once the
// new ranges are in (`rangesSet`).
void tidyAxes(const QChart* chart, QValueAxis* x, QValueAxis* y, bool rangesSet = false)
{
    if (rangesSet || x->tickType() == QValueAxis::TicksDynamic)
        tidyTicks(x, x->min(), x->max(), tickCount(chart, Qt::Horizontal), 1.0);
    if (rangesSet || y->tickType() == QValueAxis::TicksDynamic)
        tidyTicks(y, y->min(), y->max(), tickCount(chart, Qt::Vertical), 0.0);
}

}  // namespace

namespace {

const std::vector<Quantity>& quantities(RunCharts::Kind kind)
{
    static const std::vector<Quantity> time {
        { "GPU time", gpuTimeColour(), [](const RunResult& r) { return r.gpuMs; }, always },
        { "CPU submit time", kindColour(SpanKind::Submit), [](const RunResult& r) { return r.cpuSubmitMs(); },
            always },
    };
    static const std::vector<Quantity> polls {
        { "cudaEventQuery polls", QColor(0, 158, 115),
            [](const RunResult& r) { return static_cast<double>(r.pollIterations); }, always },
    };
    static const std::vector<Quantity> stages {
        { "H2D copy", kindColour(SpanKind::H2D), spanMs<SpanKind::H2D>, staged },
        { "kernel", kindColour(SpanKind::Kernel), spanMs<SpanKind::Kernel>, staged },
        { "D2H copy", kindColour(SpanKind::D2H), spanMs<SpanKind::D2H>, staged },
    };
    switch (kind) {
    case RunCharts::Time: return time;
    case RunCharts::Polls: return polls;
    case RunCharts::Stages: return stages;
    }
    return time;
}

}  // namespace

QString RunCharts::title(Kind kind)
{
    switch (kind) {
    case Time: return QStringLiteral("GPU time vs CPU submit time");
    case Polls: return QStringLiteral("CPU poll iterations while waiting");
    case Stages: return QStringLiteral("Stage times");
    }
    return {};
}

RunCharts::RunCharts()
{
    build(Time, QStringLiteral("ms"));
    build(Polls, QStringLiteral("iterations"));
    build(Stages, QStringLiteral("ms"));
    restyle();
    setRuns(Report {});  // empty charts get sensible axes too
}

RunCharts::~RunCharts()
{
    for (QLineSeries* key : m_currentKey) {
        if (!key->chart())
            delete key;
    }
    for (const auto& chart : m_charts) {
        if (chart && !chart->scene())
            delete chart.data();
    }
}

void RunCharts::build(Kind kind, const QString& yTitle)
{
    auto* chart = new QChart;
    m_charts[kind] = chart;
    m_baseTitles[kind] = title(kind);
    chart->setTitle(title(kind));
    chart->setAnimationOptions(QChart::NoAnimation);
    chart->legend()->setAlignment(Qt::AlignRight);  // a column of short names: fits narrow windows and large fonts
    chart->legend()->setShowToolTips(true);         // a name cut short shows whole on hover
    chart->legend()->setMarkerShape(QLegend::MarkerShapeFromSeries);  // lines show their pattern, dots their dot
    m_x[kind] = new QValueAxis;
    m_x[kind]->setTitleText(QStringLiteral("run"));
    m_y[kind] = new QValueAxis;
    m_y[kind]->setTitleText(yTitle);
    chart->addAxis(m_x[kind], Qt::AlignBottom);
    chart->addAxis(m_y[kind], Qt::AlignLeft);
    // Zooming and resizing keep the ticks on round values, as many as the plot has room for.
    QObject::connect(m_x[kind], &QValueAxis::rangeChanged, m_x[kind], [chart, axis = m_x[kind]](double low, double high) {
        tidyTicks(axis, low, high, tickCount(chart, Qt::Horizontal), 1.0);
    });
    QObject::connect(m_y[kind], &QValueAxis::rangeChanged, m_y[kind], [chart, axis = m_y[kind]](double low, double high) {
        tidyTicks(axis, low, high, tickCount(chart, Qt::Vertical), 0.0);
    });
    QObject::connect(chart, &QChart::plotAreaChanged, chart,
        [chart, x = m_x[kind], y = m_y[kind]] { tidyAxes(chart, x, y); });

    m_lines[kind].push_back(addLines(kind, {}));
    m_currentKey[kind] = new QLineSeries;  // a legend entry only, in the chart while overlays need telling apart
    m_currentKey[kind]->setName(QStringLiteral("this run"));
}

RunCharts::Lines RunCharts::addLines(Kind kind, const QString& overlay)
{
    // The current run's series are named for their quantities; an overlay's all carry its label.
    QChart* chart = m_charts[kind];
    auto attach = [&](QXYSeries* series, const QString& name) {
        series->setName(overlay.isEmpty() ? name : overlay);
        chart->addSeries(series);
        series->attachAxis(m_x[kind]);
        series->attachAxis(m_y[kind]);
    };
    Lines lines;
    for (const Quantity& q : quantities(kind)) {
        lines.series.push_back(new QLineSeries);
        attach(lines.series.back(), QString::fromLatin1(q.name));
    }
    if (kind == Time) {
        lines.warmups = new QScatterSeries;
        lines.warmups->setMarkerSize(9.0);
        attach(lines.warmups, QStringLiteral("warm-up run"));
    }
    return lines;
}

void RunCharts::fill(Lines& lines, Kind kind, const std::vector<RunResult>& runs)
{
    const auto& qs = quantities(kind);
    std::vector<QList<QPointF>> points(qs.size());
    QList<QPointF> warmups;
    lines.maxX = runs.empty() ? 0.0 : runs.back().index;  // the last run sits at the right edge, no empty ticks
    lines.maxY = 0.0;
    for (const RunResult& r : runs) {
        const double x = r.index;
        for (std::size_t i = 0; i < qs.size(); ++i) {
            if (!qs[i].has(r))
                continue;
            const double y = qs[i].read(r);
            points[i].append({ x, y });
            lines.maxY = std::max(lines.maxY, y);
            if (r.warmup && lines.warmups)
                warmups.append({ x, y });
        }
    }
    for (std::size_t i = 0; i < qs.size(); ++i) {
        lines.series[i]->replace(points[i]);
        lines.series[i]->setPointsVisible(points[i].size() <= kPointsShownUpTo);
    }
    if (lines.warmups)
        lines.warmups->replace(warmups);
}

void RunCharts::setRuns(const Report& report, const QString& source)
{
    QStringList about;
    if (!source.isEmpty())
        about << source;
    if (const std::string shape = shapeText(report.config); !shape.empty())
        about << QString::fromStdString(shape);
    const QString suffix = about.isEmpty() ? QString() : QStringLiteral(" — ") + about.join(QStringLiteral(" · "));
    for (int k = 0; k < kKindCount; ++k) {
        const Kind kind = Kind(k);
        fill(m_lines[k][0], kind, report.runs);
        m_charts[k]->setTitle(m_baseTitles[k] + suffix);
        rescale(kind);
    }
    updateLegend();
}

void RunCharts::setOverlays(const std::vector<SavedRun>& overlays)
{
    for (int k = 0; k < kKindCount; ++k) {
        QChart* chart = m_charts[k];
        auto& lines = m_lines[k];
        for (std::size_t o = 1; o < lines.size(); ++o) {
            for (QLineSeries* s : lines[o].series) {
                chart->removeSeries(s);
                delete s;
            }
            if (lines[o].warmups) {
                chart->removeSeries(lines[o].warmups);
                delete lines[o].warmups;
            }
        }
        lines.resize(1);
        for (QLineSeries* key : m_overlayKeys[k]) {
            chart->removeSeries(key);
            delete key;
        }
        m_overlayKeys[k].clear();

        for (const SavedRun& saved : overlays) {
            Lines added = addLines(Kind(k), saved.label);
            fill(added, Kind(k), saved.report.runs);
            lines.push_back(added);
            auto* key = new QLineSeries;
            key->setName(saved.label);
            chart->addSeries(key);
            m_overlayKeys[k].push_back(key);
        }
        rescale(Kind(k));
    }
    restyle();
    updateLegend();
}

void RunCharts::rescale(Kind kind)
{
    if (m_charts[kind]->isZoomed())
        return;
    double maxX = 0.0, maxY = 0.0;
    for (const Lines& l : m_lines[kind]) {
        maxX = std::max(maxX, l.maxX);
        maxY = std::max(maxY, l.maxY);
    }
    const double spanX = std::max(4.0, maxX);
    const double stepX = niceStep(spanX, tickCount(m_charts[kind], Qt::Horizontal), 1.0);
    const double top = maxY > 0.0 ? maxY * 1.1 : 1.0;
    const double stepY = niceStep(top, tickCount(m_charts[kind], Qt::Vertical), 0.0);
    m_full[kind] = QRectF(QPointF(0.0, 0.0), QPointF(std::ceil(spanX / stepX) * stepX, std::ceil(top / stepY) * stepY));
    setRange(kind, m_full[kind]);
}

void RunCharts::setRange(Kind kind, const QRectF& range)
{
    // An interval that suits one range can mean tens of thousands of ticks over another (a sweep's 1 MiB and
    // 32 GiB runs differ by 10^4), and the chart lays out every tick it is given. So the axes jump with a fixed
    // handful of ticks; the rangeChanged handlers then put ticks on round values for the new range.
    for (QValueAxis* axis : { m_x[kind], m_y[kind] })
        axis->setTickType(QValueAxis::TicksFixed);
    m_x[kind]->setRange(range.left(), range.right());
    m_y[kind]->setRange(range.top(), range.bottom());
    tidyAxes(m_charts[kind], m_x[kind], m_y[kind], true);  // also where the range did not change (no signal)
}

void RunCharts::resetZoom(Kind kind)
{
    setRange(kind, m_full[kind]);  // with a few ticks, so the reset does not lay out the zoomed interval
    m_charts[kind]->zoomReset();
    rescale(kind);
}

void RunCharts::applyPalette(const QPalette& palette)
{
    m_dark = palette.color(QPalette::Window).lightness() < 128;
    for (const auto& chart : m_charts) {
        chart->setTheme(m_dark ? QChart::ChartThemeDark : QChart::ChartThemeLight);
        chart->setAnimationOptions(QChart::NoAnimation);
    }
    restyle();  // a theme resets every series' colours
    updateLegend();
}

void RunCharts::restyle()
{
    for (int k = 0; k < kKindCount; ++k) {
        const auto& qs = quantities(Kind(k));
        const auto& lines = m_lines[k];
        for (std::size_t o = 0; o < lines.size(); ++o) {
            const bool current = o == 0;
            for (std::size_t i = 0; i < qs.size(); ++i) {
                QPen pen(qs[i].colour, current ? 2.0 : 1.6, current ? Qt::SolidLine : patternOf(o - 1));
                lines[o].series[i]->setPen(pen);
                lines[o].series[i]->setColor(qs[i].colour);
            }
            if (lines[o].warmups) {
                lines[o].warmups->setColor(current ? kWarmupColour : Qt::transparent);
                lines[o].warmups->setBorderColor(kWarmupColour);
            }
        }
        styleKeys(k);
    }
}

void RunCharts::styleKeys(int k)
{
    const QColor neutral = m_dark ? QColor(200, 200, 200) : QColor(90, 90, 90);
    m_currentKey[k]->setPen(QPen(neutral, 2.0, Qt::SolidLine));
    for (std::size_t o = 0; o < m_overlayKeys[k].size(); ++o)
        m_overlayKeys[k][o]->setPen(QPen(neutral, 1.6, patternOf(o)));
}

void RunCharts::updateLegend()
{
    // The legend names a colour per quantity and a pattern per run; it lists only what the chart shows.
    for (int k = 0; k < kKindCount; ++k) {
        QLegend* legend = m_charts[k]->legend();
        const auto& lines = m_lines[k];
        const bool currentShown = lines[0].series[0]->count() > 0;
        const bool overlays = lines.size() > 1;
        bool warmupShown = false;
        for (const Lines& l : lines)
            warmupShown = warmupShown || (l.warmups && l.warmups->count() > 0);
        m_legendNames[k].clear();
        auto show = [this, k, legend](QAbstractSeries* series, bool visible) {
            for (QLegendMarker* marker : legend->markers(series))
                marker->setVisible(visible);
            if (visible)
                m_legendNames[k] << series->name();
        };
        for (QLineSeries* s : lines[0].series)
            show(s, currentShown || overlays);
        if (lines[0].warmups)
            show(lines[0].warmups, warmupShown);
        // Entries of series without points are added and removed rather than hidden: the legend lays out a hidden
        // empty series' entry again without its name. "this run" goes before the runs' entries.
        // The chart changes only when "this run" comes or goes, not on every refresh of a running series.
        QChart* chart = m_charts[k];
        const bool thisRun = currentShown && overlays;
        if (thisRun != (m_currentKey[k]->chart() != nullptr)) {
            for (QLineSeries* key : m_overlayKeys[k])
                chart->removeSeries(key);
            if (thisRun)
                chart->addSeries(m_currentKey[k]);
            else
                chart->removeSeries(m_currentKey[k]);
            for (QLineSeries* key : m_overlayKeys[k])
                chart->addSeries(key);
        }
        if (thisRun)
            m_legendNames[k] << m_currentKey[k]->name();
        for (QLineSeries* key : m_overlayKeys[k])
            m_legendNames[k] << key->name();
        for (std::size_t o = 1; o < lines.size(); ++o) {
            for (QLineSeries* s : lines[o].series)
                show(s, false);
            if (lines[o].warmups)
                show(lines[o].warmups, false);
        }
        styleKeys(k);
        legend->setVisible(currentShown || overlays);
    }
}

void RunCharts::onRunClicked(std::function<void(int)> handler)
{
    // Runs sit at whole x values: the nearest one is the run clicked, wherever on its mark the click fell.
    const Lines& current = m_lines[Time][0];
    std::vector<QXYSeries*> clickable(current.series.begin(), current.series.end());
    if (current.warmups)
        clickable.push_back(current.warmups);
    for (QXYSeries* series : clickable) {
        QObject::connect(series, &QXYSeries::clicked, series,
            [handler](const QPointF& point) { handler(int(std::lround(point.x()))); });
    }
}

int RunCharts::pointCount(Kind kind) const
{
    return static_cast<int>(m_lines[kind][0].series[0]->count());
}

}  // namespace asyncscope

#include "gui/charts/run_charts.hpp"

#include "gui/charts/kind_colours.hpp"
#include "gui/charts/nice_axis.hpp"
#include "gui/series/nice_ticks.hpp"
#include "gui/series/shown_name.hpp"

#include <QEvent>
#include <QGraphicsScene>
#include <QGraphicsView>
#include <QLegendMarker>
#include <QMetaObject>
#include <QPalette>
#include <QPen>

#include <algorithm>
#include <cmath>

namespace asyncscope {

// Receives the charts' signals, and the Show events of their views: a chart not drawn while hidden is drawn then.
class RunCharts::Context : public QObject {
public:
    explicit Context(RunCharts* charts)
        : m_charts(charts)
    {
    }

protected:
    bool eventFilter(QObject* watched, QEvent* event) override
    {
        if (event->type() == QEvent::Show) {
            for (int k = 0; k < kKindCount; ++k) {
                const QGraphicsScene* scene = m_charts->m_charts[k]->scene();
                if (scene && scene->views().contains(watched))
                    m_charts->update(Kind(k));
            }
        }
        return QObject::eventFilter(watched, event);
    }

private:
    RunCharts* m_charts;
};

struct RunCharts::Lines {
    std::vector<SpreadLine*> series;  // one per quantity of the chart: its runs, or its columns' medians
    std::vector<QScatterSeries*> warmups;  // one per quantity on the time chart, on that quantity's axis
    // The current run's bands per quantity, p25-p75 and p5-p95, empty while lines are drawn; overlays have none.
    std::vector<QAreaSeries*> inner, outer;
};

namespace {

// Colours picked for contrast on light and dark backgrounds and for colour-blind readers (Okabe-Ito). A colour
// means a quantity; a line pattern means a run: solid for the current one, dashes and dots for saved ones. In the
// order of SeriesPoints' quantities.
struct Quantity {
    const char* name;
    QColor colour;
};

constexpr int kPointsShownUpTo = 100;  // markers on every point while runs in view are few enough to see apart
constexpr int kColumnsUnlaidOut = 1920;  // pixel columns assumed before a chart has a size
constexpr double kFewestRunsZoomed = 10.0;  // a zoom into runs shows at least this many, so one run has neighbours
constexpr double kZoomMargin = 0.05;        // of the runs zoomed into, either side
const QColor kWarmupColour(128, 128, 128);
constexpr std::size_t kCpuQuantity = 1;  // CPU submit time, of the time chart's quantities
constexpr double kMicrosecondsPerMs = 1000.0;
constexpr double kOverlayPictureWidth = 1.5;  // an overlay's line in a picture, in units of the picture's layout
// The bands' opacity: the inner band over the outer one reads as twice as dense, and lines of other quantities and
// the grid still show through both.
constexpr int kOuterAlpha = 45;
constexpr int kInnerAlpha = 90;
const QString kInnerName = QStringLiteral("p25–p75");
const QString kOuterName = QStringLiteral("p5–p95");

// An overlay's pen: a line pattern per overlay, one pixel wide. Qt Charts draws a patterned line as one path, and
// QPainter strokes a patterned path wider than a pixel by building its outline and filling that: for a decimated line
// of a few thousand points (a band of per-column minima and maxima) that took 0.2-0.5 s a repaint. A cosmetic pen of
// one pixel is drawn dash by dash in about a millisecond. A picture larger than its layout (an export) draws it
// wider by as much as it scales the layout, as every other line grows with it, and half as wide again as on the
// screen, as the current run's line: a hairline beside them would vanish when the picture is shown smaller. One
// slow stroke of a picture is no repaint.
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

// A band of a quantity between two lines of points, named for the legend it stays out of.
QAreaSeries* newBand(const QString& name)
{
    auto* band = new QAreaSeries;
    band->setUpperSeries(new QLineSeries(band));
    band->setLowerSeries(new QLineSeries(band));
    band->setName(name);
    band->setPen(Qt::NoPen);
    return band;
}

// After a resize: ticks for the axes' ranges as they are, as many as the plot has room for now.
void tidyAxes(const QChart* chart, QValueAxis* x, QValueAxis* y)
{
    setNiceTicks(x, tickRoom(chart, Qt::Horizontal), 1.0);
    setNiceTicks(y, tickRoom(chart, Qt::Vertical), 0.0);
}

}  // namespace

namespace {

const std::vector<Quantity>& quantities(RunCharts::Kind kind)
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
    : m_context(std::make_unique<Context>(this))
{
    build(Time, QStringLiteral("ms"));
    build(Polls, QStringLiteral("iterations"));
    build(Stages, QStringLiteral("ms"));
    restyle();
    setRuns(Report {});  // empty charts get sensible axes too
}

RunCharts::~RunCharts()
{
    m_context.reset();  // nothing the charts signal from here on reaches this object
    for (const auto& key : m_currentKey) {
        if (key && !key->chart())
            delete key.data();
    }
    for (const auto& keys : m_bandKeys) {
        for (const auto& key : keys) {
            if (key && !key->chart())
                delete key.data();
        }
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
    if (kind == Time) {
        m_cpuY = new QValueAxis;
        m_cpuY->setTitleText(QStringLiteral("CPU submit µs"));
        chart->addAxis(m_cpuY, Qt::AlignRight);
        QObject::connect(m_cpuY, &QValueAxis::rangeChanged, m_context.get(),
            [this] { setNiceTicks(m_cpuY, tickRoom(m_charts[Time], Qt::Vertical), 0.0); });
        // Not its own axis, it goes with GPU time's: the CPU lines, drawn against it, are in milliseconds then.
        QObject::connect(m_y[kind], &QValueAxis::rangeChanged, m_context.get(), [this](double low, double high) {
            if (!m_cpuOwnAxis)
                m_cpuY->setRange(low, high);
        });
    }
    // Zooming, scrolling and resizing keep the ticks on round values, as many as the plot has room for, and draw the
    // lines again from every run for the runs now in view.
    QObject::connect(m_x[kind], &QValueAxis::rangeChanged, m_context.get(), [this, kind] {
        setNiceTicks(m_x[kind], tickRoom(m_charts[kind], Qt::Horizontal), 1.0);
        drawLater(kind);
    });
    QObject::connect(m_y[kind], &QValueAxis::rangeChanged, m_context.get(),
        [this, kind] { setNiceTicks(m_y[kind], tickRoom(m_charts[kind], Qt::Vertical), 0.0); });
    QObject::connect(chart, &QChart::plotAreaChanged, m_context.get(), [this, kind] {
        tidyAxes(m_charts[kind], m_x[kind], m_y[kind]);
        if (kind == Time)
            setNiceTicks(m_cpuY, tickRoom(m_charts[kind], Qt::Vertical), 0.0);
        applyZoomToRuns(kind);
        drawLater(kind);
    });

    m_lines[kind].push_back(addLines(kind, {}));
    m_currentKey[kind] = new QLineSeries;  // a legend entry only, in the chart while overlays need telling apart
    m_currentKey[kind]->setName(QStringLiteral("this run"));
    m_bandKeys[kind] = { newBand(kInnerName), newBand(kOuterName) };  // legend entries only, as "this run"
}

QValueAxis* RunCharts::valueAxisOf(Kind kind, std::size_t quantity) const
{
    return kind == Time && quantity == kCpuQuantity ? m_cpuY : m_y[kind];
}

double RunCharts::valueScale(Kind kind, std::size_t quantity) const
{
    return kind == Time && quantity == kCpuQuantity && m_cpuOwnAxis ? kMicrosecondsPerMs : 1.0;
}

RunCharts::Lines RunCharts::addLines(Kind kind, const QString& overlay)
{
    // The current run's series are named for their quantities; an overlay's all carry its label.
    // The current run's bands go first, under every line.
    QChart* chart = m_charts[kind];
    auto attach = [&](QAbstractSeries* series, const QString& name, std::size_t quantity) {
        series->setName(overlay.isEmpty() ? name : overlay);
        chart->addSeries(series);
        series->attachAxis(m_x[kind]);
        series->attachAxis(valueAxisOf(kind, quantity));
    };
    const auto& qs = quantities(kind);
    Q_ASSERT(int(qs.size()) == SeriesPoints::quantityCount(kind));
    Lines lines;
    if (overlay.isEmpty()) {
        for (std::size_t i = 0; i < qs.size(); ++i) {
            const QString name = QString::fromLatin1(qs[i].name) + ' ';
            lines.outer.push_back(newBand(name + kOuterName));
            attach(lines.outer.back(), lines.outer.back()->name(), i);
            lines.inner.push_back(newBand(name + kInnerName));
            attach(lines.inner.back(), lines.inner.back()->name(), i);
        }
    }
    for (std::size_t i = 0; i < qs.size(); ++i) {
        lines.series.push_back(new SpreadLine);
        attach(lines.series.back(), QString::fromLatin1(qs[i].name), i);
    }
    if (kind == Time) {
        for (std::size_t i = 0; i < qs.size(); ++i) {
            lines.warmups.push_back(new QScatterSeries);
            lines.warmups.back()->setMarkerSize(9.0);
            attach(lines.warmups.back(), QStringLiteral("warm-up run"), i);
        }
    }
    return lines;
}

void RunCharts::setRuns(const Report& report, const QString& source, std::shared_ptr<const SeriesPoints> prepared)
{
    QStringList about;
    if (!source.isEmpty())
        about << source;
    if (const std::string shape = shapeText(report.config); !shape.empty())
        about << QString::fromStdString(shape);
    const QString suffix = about.isEmpty() ? QString() : QStringLiteral(" — ") + about.join(QStringLiteral(" · "));
    const bool changed = m_current.show(report.runs, std::move(prepared));
    for (int k = 0; k < kKindCount; ++k) {
        const Kind kind = Kind(k);
        if (changed)
            ++m_version[k];
        m_charts[k]->setTitle(m_baseTitles[k] + suffix);
        update(kind);
    }
    m_source = source;
    nameKeys();
    updateLegend();
}

void RunCharts::nameKeys()
{
    // Cut in the middle where long, keeping what tells them apart: the legend would cut them at the end.
    QStringList names { shownSeriesName(m_source) };
    names << m_overlayLabels;
    names = shortNames(names);
    for (int k = 0; k < kKindCount; ++k) {
        if (m_currentKey[k])
            m_currentKey[k]->setName(names.front());
        for (std::size_t o = 0; o < m_overlayKeys[k].size() && o + 1 < std::size_t(names.size()); ++o)
            m_overlayKeys[k][o]->setName(names[qsizetype(o + 1)]);
    }
}

void RunCharts::setOverlays(const std::vector<SavedRun>& overlays)
{
    m_overlayPoints.clear();
    m_overlayLabels.clear();
    for (const SavedRun& saved : overlays) {
        m_overlayPoints.push_back(preparedFor(saved.report.runs, saved.prepared.points));
        m_overlayLabels << saved.label;
    }
    for (int k = 0; k < kKindCount; ++k) {
        QChart* chart = m_charts[k];
        auto& lines = m_lines[k];
        for (std::size_t o = 1; o < lines.size(); ++o) {
            for (SpreadLine* s : lines[o].series) {
                chart->removeSeries(s);
                delete s;
            }
            for (QScatterSeries* s : lines[o].warmups) {
                chart->removeSeries(s);
                delete s;
            }
        }
        lines.resize(1);
        for (QLineSeries* key : m_overlayKeys[k]) {
            chart->removeSeries(key);
            delete key;
        }
        m_overlayKeys[k].clear();

        for (const SavedRun& saved : overlays) {
            lines.push_back(addLines(Kind(k), saved.label));
            auto* key = new QLineSeries;
            key->setName(saved.label);
            chart->addSeries(key);
            m_overlayKeys[k].push_back(key);
        }
        ++m_version[k];
        update(Kind(k));
    }
    nameKeys();
    restyle();
    updateLegend();
}

QRectF RunCharts::fullRange(Kind kind) const
{
    // The value axis spans the quantities drawn against it, and the warm-up marks.
    double maxX = 0.0, maxY = 0.0;
    for (std::size_t run = 0; run < m_lines[kind].size(); ++run) {
        const SeriesPoints::Lines& read = pointsOf(run, kind);
        maxX = std::max(maxX, read.maxX);
        for (std::size_t i = 0; i < read.points.size(); ++i) {
            if (valueAxisOf(kind, i) == m_y[kind] || !m_cpuOwnAxis)
                maxY = std::max({ maxY, read.points[i].maxY(), read.warmupPoints[i].maxY() });
        }
    }
    // The run axis ends at the last run; the value axis at the first tick above the highest value and a margin.
    const double right = std::max(1.0, maxX);
    const double top = maxY > 0.0 ? maxY * 1.1 : 1.0;
    const double stepY = niceStep(top, tickRoom(m_charts[kind], Qt::Vertical), 0.0);
    return QRectF(QPointF(0.0, 0.0), QPointF(right, niceCeil(top, stepY)));
}

void RunCharts::rescale(Kind kind)
{
    if (m_charts[kind]->isZoomed())
        return;
    m_full[kind] = fullRange(kind);
    setRange(kind, m_full[kind]);
}

void RunCharts::setRange(Kind kind, const QRectF& range)
{
    const QChart* chart = m_charts[kind];
    setNiceRange(m_x[kind], range.left(), range.right(), tickRoom(chart, Qt::Horizontal), 1.0);
    setNiceRange(m_y[kind], range.top(), range.bottom(), tickRoom(chart, Qt::Vertical), 0.0);
}

void RunCharts::resetZoom(Kind kind)
{
    setRange(kind, m_full[kind]);  // with a few ticks, so the reset does not lay out the zoomed interval
    m_charts[kind]->zoomReset();
    rescale(kind);
    draw(kind);
}

void RunCharts::setPixelScale(double scale)
{
    m_pixelScale = std::max(scale, 1e-3);
    restyle();
    for (int k = 0; k < kKindCount; ++k) {
        rescale(Kind(k));  // the plot has its size now: as many ticks as it has room for
        draw(Kind(k));
    }
}

void RunCharts::zoomToRuns(Kind kind, double first, double last)
{
    m_zoomToRuns[kind] = std::pair { std::min(first, last), std::max(first, last) };
    applyZoomToRuns(kind);
}

void RunCharts::applyZoomToRuns(Kind kind)
{
    // The chart zooms by a rectangle of its plot, mapped through the plot's size: a chart shown for the first time
    // has none until its view has laid it out.
    QChart* chart = m_charts[kind];
    const QRectF plot = chart->plotArea();
    if (!m_zoomToRuns[kind] || !(plot.width() > 1.0 && plot.height() > 1.0))
        return;
    auto [low, high] = *m_zoomToRuns[kind];
    m_zoomToRuns[kind].reset();
    const double margin = std::max({ (high - low) * kZoomMargin, (kFewestRunsZoomed - (high - low)) / 2.0, 0.5 });
    m_charts[kind]->zoomReset();
    rescale(kind);  // every run, so the zoom is into the runs asked for whatever was shown before
    low = std::max(low - margin, m_x[kind]->min());
    high = std::min(high + margin, m_x[kind]->max());
    QAbstractSeries* series = m_lines[kind][0].series[0];
    QRectF runs(chart->mapToPosition(QPointF(low, 0.0), series), chart->mapToPosition(QPointF(high, 0.0), series));
    runs = runs.normalized();
    runs.setTop(plot.top());
    runs.setBottom(plot.bottom());
    if (runs.width() >= 1.0)
        chart->zoomIn(runs);
    draw(kind);
}

bool RunCharts::Drawn::operator==(const Drawn& other) const
{
    return low == other.low && high == other.high && columns == other.columns && version == other.version;
}

int RunCharts::columns(Kind kind) const
{
    const double width = m_charts[kind]->plotArea().width();
    if (!(width > 0.0))
        return kColumnsUnlaidOut;
    return std::max(1, int(std::ceil(width * m_pixelScale)));
}

void RunCharts::drawLater(Kind kind)
{
    // A zoom changes the x axis's range while the chart is still taking in the new one: the lines follow once it
    // has, and one zoom's several signals draw once.
    if (m_drawPending[kind])
        return;
    m_drawPending[kind] = true;
    QMetaObject::invokeMethod(m_context.get(), [this, kind] { draw(kind); }, Qt::QueuedConnection);
}

void RunCharts::update(Kind kind)
{
    // A hidden chart's axes and lines are left as they are: every change to them costs Qt Charts a pass over the
    // lines' points (their outline for clicks), on every refresh of a running series.
    if (hidden(kind))
        return;  // updated when one of its views shows
    const QRectF full = fullRange(kind);
    if (!m_charts[kind]->isZoomed() &&
        (full.right() != m_x[kind]->max() || full.top() != m_y[kind]->min() || full.bottom() != m_y[kind]->max())) {
        // New axes would lay the lines out for the new range with their old points, and drawing once more with the
        // new ones: emptied first, they are laid out once, with the points they will show.
        for (Lines& lines : m_lines[kind]) {
            for (SpreadLine* series : lines.series)
                series->clear();
            for (const auto& bands : { lines.inner, lines.outer }) {
                for (QAreaSeries* band : bands) {
                    band->upperSeries()->clear();
                    band->lowerSeries()->clear();
                }
            }
        }
        m_drawn[kind] = {};
    }
    rescale(kind);
    draw(kind);
}

bool RunCharts::hidden(Kind kind)
{
    // A chart in views that are all hidden (another tab is shown) is drawn when one of them shows; one in no view is
    // being exported and is drawn now.
    const QGraphicsScene* scene = m_charts[kind]->scene();
    if (!scene || scene->views().isEmpty())
        return false;
    bool shown = false;
    for (QGraphicsView* view : scene->views()) {
        shown = shown || view->isVisible();
        if (!m_watched.contains(view)) {
            m_watched.append(view);
            view->installEventFilter(m_context.get());
        }
    }
    return !shown;
}

void RunCharts::draw(Kind kind)
{
    m_drawPending[kind] = false;
    const Drawn now { m_x[kind]->min(), m_x[kind]->max(), columns(kind), m_version[kind] };
    if (now == m_drawn[kind] || hidden(kind))
        return;
    m_drawn[kind] = now;
    const bool density = densityFor(kind, now.low, now.high, now.columns);
    const bool changedLook = density != m_density[kind];
    m_density[kind] = density;
    // Drawn as density: the highest p95 of the current series and median of an overlay, on each value axis.
    double densityTop = 0.0, cpuDensityTop = 0.0;
    QList<QPointF> points, upper, lower;
    for (std::size_t o = 0; o < m_lines[kind].size(); ++o) {
        Lines& lines = m_lines[kind][o];
        const SeriesPoints::Lines& read = pointsOf(o, kind);
        for (std::size_t i = 0; i < lines.series.size(); ++i) {
            const LinePoints& all = read.points[i];
            const double scale = valueScale(kind, i);
            points.clear();
            if (density) {
                // Each column's median at the middle of its runs; the current run's bands around it.
                std::vector<ColumnSpread> columns = all.spread(now.low, now.high, now.columns, o != 0);
                points.reserve(qsizetype(columns.size()));
                const bool onValueAxis = valueAxisOf(kind, i) == m_y[kind] || !m_cpuOwnAxis;
                for (ColumnSpread& c : columns) {
                    for (double* v : { &c.p5, &c.p25, &c.median, &c.p75, &c.p95 })
                        *v *= scale;
                    points.append({ (c.firstX + c.lastX) / 2.0, c.median });
                    double& top = onValueAxis ? densityTop : cpuDensityTop;
                    top = std::max(top, o == 0 ? c.p95 : c.median);
                }
                if (o == 0) {
                    const std::pair<QAreaSeries*, std::pair<double ColumnSpread::*, double ColumnSpread::*>> bands[] = {
                        { lines.outer[i], { &ColumnSpread::p95, &ColumnSpread::p5 } },
                        { lines.inner[i], { &ColumnSpread::p75, &ColumnSpread::p25 } },
                    };
                    for (const auto& [band, edges] : bands) {
                        upper.clear();
                        lower.clear();
                        for (const ColumnSpread& c : columns) {
                            const double x = (c.firstX + c.lastX) / 2.0;
                            upper.append({ x, c.*edges.first });
                            lower.append({ x, c.*edges.second });
                        }
                        band->upperSeries()->replace(upper);
                        band->lowerSeries()->replace(lower);
                    }
                }
                lines.series[i]->replace(points);
                lines.series[i]->setColumns(std::move(columns), o == 0);
            } else {
                const std::vector<std::size_t> kept = all.decimate(now.low, now.high, now.columns);
                points.reserve(qsizetype(kept.size()));
                for (const std::size_t p : kept)
                    points.append({ all.x(p), all.y(p) * scale });
                if (o == 0 && changedLook) {
                    for (const auto& bands : { lines.inner, lines.outer }) {
                        for (QAreaSeries* band : bands) {
                            band->upperSeries()->clear();
                            band->lowerSeries()->clear();
                        }
                    }
                }
                lines.series[i]->replace(points);
                lines.series[i]->setColumns({}, false);
            }
            lines.series[i]->setPointsVisible(!density && points.size() <= kPointsShownUpTo);
        }
        for (std::size_t i = 0; i < lines.warmups.size(); ++i) {
            const LinePoints& all = read.warmupPoints[i];
            const double scale = valueScale(kind, i);
            points.clear();
            for (const std::size_t p : all.decimate(now.low, now.high, now.columns))
                points.append({ all.x(p), all.y(p) * scale });
            lines.warmups[i]->replace(points);
        }
    }
    // Drawn as density, every run shows within its column's p5-p95: the value axis fits what is drawn, not the one run
    // in a million that took a hundred times the rest and would press every band flat against 0. Lines show it.
    if (density && densityTop > 0.0 && !m_charts[kind]->isZoomed()) {
        const double top = densityTop * 1.1;
        m_full[kind].setBottom(niceCeil(top, niceStep(top, tickRoom(m_charts[kind], Qt::Vertical), 0.0)));
        setRange(kind, m_full[kind]);
    }
    if (kind == Time)
        fitCpuAxis(cpuDensityTop);
    if (changedLook) {
        nameLines(kind);
        updateLegend();
    }
}

bool RunCharts::densityFor(Kind kind, double low, double high, int columns) const
{
    if (m_style != Style::Automatic)
        return m_style == Style::Density;
    std::size_t most = 0;
    for (std::size_t o = 0; o < m_lines[kind].size(); ++o) {
        for (const LinePoints& line : pointsOf(o, kind).points)
            most = std::max(most, line.countWithin(low, high));
    }
    return most > std::size_t(std::max(columns, 1));
}

void RunCharts::fitCpuAxis(double densityTop)
{
    // The CPU submit times of the runs in view, not the warm-ups': the first submit of a process costs a millisecond
    // or more (lazy loading), a hundred times a measured run's, and would flatten every other run at the bottom.
    // Drawn as density, what is drawn: the highest p95 or median.
    if (!m_cpuOwnAxis)
        return;
    const double low = m_x[Time]->min(), high = m_x[Time]->max();
    double highest = densityTop;
    for (std::size_t o = 0; o < m_lines[Time].size() && densityTop <= 0.0; ++o) {
        const SeriesPoints::Lines& read = pointsOf(o, Time);
        const LinePoints& warmups = read.warmupPoints[kCpuQuantity];
        std::vector<double> skipped;
        skipped.reserve(warmups.size());
        for (std::size_t i = 0; i < warmups.size(); ++i)
            skipped.push_back(warmups.x(i));
        const LinePoints& cpu = read.points[kCpuQuantity];
        std::optional<double> most = cpu.highestWithin(low, high, skipped);
        if (!most)  // only warm-ups in view: theirs, then
            most = cpu.highestWithin(low, high, {});
        highest = std::max(highest, most.value_or(0.0) * kMicrosecondsPerMs);
    }
    const double top = highest > 0.0 ? highest * 1.1 : 1.0;
    const double room = tickRoom(m_charts[Time], Qt::Vertical);
    setNiceRange(m_cpuY, 0.0, niceCeil(top, niceStep(top, room, 0.0)), room, 0.0);
}

void RunCharts::nameLines(int k)
{
    const auto& qs = quantities(Kind(k));
    for (std::size_t i = 0; i < qs.size(); ++i) {
        const QString name = QString::fromLatin1(qs[i].name);
        m_lines[k][0].series[i]->setName(m_density[k] ? name + QStringLiteral(" median") : name);
    }
}

void RunCharts::setStyle(Style style)
{
    m_style = style;
    for (int k = 0; k < kKindCount; ++k) {
        ++m_version[k];
        update(Kind(k));
    }
}

void RunCharts::setLook(const Look& look)
{
    setCpuOwnAxis(look.cpuOwnAxis);
    setStyle(look.style);
}

void RunCharts::setCpuOwnAxis(bool own)
{
    if (own == m_cpuOwnAxis)
        return;
    m_cpuOwnAxis = own;
    m_cpuY->setVisible(own);
    // The readout takes a line's unit from its axis's title: microseconds on its own, GPU time's milliseconds not.
    m_cpuY->setTitleText(own ? QStringLiteral("CPU submit µs") : m_y[Time]->titleText());
    if (!own)
        m_cpuY->setRange(m_y[Time]->min(), m_y[Time]->max());
    ++m_version[Time];
    m_drawn[Time] = {};
    update(Time);
}

void RunCharts::applyPalette(const QPalette& palette)
{
    m_dark = isDark(palette);
    for (const auto& chart : m_charts)
        applyChartTheme(chart, m_dark);
    restyle();
    updateLegend();
}

void RunCharts::restyle()
{
    // Lines are as wide in a picture, relative to it, as on the screen: the current run's pen scales with the
    // picture's painter, the overlays' cosmetic pens with the pixel scale (overlayPen).
    for (int k = 0; k < kKindCount; ++k) {
        const auto& qs = quantities(Kind(k));
        const auto& lines = m_lines[k];
        for (std::size_t o = 0; o < lines.size(); ++o) {
            const bool current = o == 0;
            for (std::size_t i = 0; i < qs.size(); ++i) {
                lines[o].series[i]->setPen(
                    current ? QPen(qs[i].colour, 2.0) : overlayPen(qs[i].colour, o - 1, m_pixelScale));
                lines[o].series[i]->setColor(qs[i].colour);
            }
            for (std::size_t i = 0; i < lines[o].inner.size(); ++i) {
                lines[o].inner[i]->setBrush(withAlpha(qs[i].colour, kInnerAlpha));
                lines[o].outer[i]->setBrush(withAlpha(qs[i].colour, kOuterAlpha));
                lines[o].inner[i]->setPen(Qt::NoPen);
                lines[o].outer[i]->setPen(Qt::NoPen);
            }
            for (QScatterSeries* warmups : lines[o].warmups) {
                warmups->setColor(current ? kWarmupColour : Qt::transparent);
                warmups->setBorderColor(kWarmupColour);
            }
        }
        styleKeys(k);
    }
    // The CPU axis in CPU submit time's colour, so it is read against its line.
    const QColor cpu = quantities(Time)[kCpuQuantity].colour;
    m_cpuY->setLabelsColor(cpu);
    m_cpuY->setTitleBrush(cpu);
    m_cpuY->setLinePenColor(cpu);
    m_cpuY->setGridLineVisible(false);  // GPU time's grid is the chart's
}

void RunCharts::styleKeys(int k)
{
    const QColor neutral = m_dark ? QColor(200, 200, 200) : QColor(90, 90, 90);
    m_currentKey[k]->setPen(QPen(neutral, 2.0, Qt::SolidLine));
    for (std::size_t o = 0; o < m_overlayKeys[k].size(); ++o)
        m_overlayKeys[k][o]->setPen(overlayPen(neutral, o, m_pixelScale));
    // The bands' entries: their markers are given the shade themselves, as a chart's theme gives an area it takes in
    // a colour of its own.
    const QColor shades[] = { withAlpha(neutral, kInnerAlpha + kOuterAlpha), withAlpha(neutral, kOuterAlpha) };
    for (std::size_t b = 0; b < m_bandKeys[k].size(); ++b) {
        QAreaSeries* key = m_bandKeys[k][b];
        key->setBrush(shades[b]);
        key->setPen(Qt::NoPen);
        for (QLegendMarker* marker : m_charts[k]->legend()->markers(key)) {
            marker->setShape(QLegend::MarkerShapeRectangle);  // from the series, an area's would be its outline
            marker->setBrush(shades[b]);
            marker->setPen(Qt::NoPen);
        }
    }
}

void RunCharts::updateLegend()
{
    // The legend names a colour per quantity and a pattern per run; it lists only what the chart shows. While the
    // chart shows density the quantities' entries name their median lines, and two neutral entries the bands of
    // every quantity: a band per quantity and percentile would double the legend.
    for (int k = 0; k < kKindCount; ++k) {
        QLegend* legend = m_charts[k]->legend();
        const auto& lines = m_lines[k];
        const bool currentShown = !pointsOf(0, Kind(k)).points[0].empty();
        const bool overlays = lines.size() > 1;
        bool warmupShown = false;
        for (std::size_t run = 0; run < lines.size(); ++run)
            warmupShown = warmupShown || (k == Time && !pointsOf(run, Kind(k)).warmupPoints[0].empty());
        m_legendNames[k].clear();
        auto show = [this, k, legend](QAbstractSeries* series, bool visible) {
            for (QLegendMarker* marker : legend->markers(series))
                marker->setVisible(visible);
            if (visible)
                m_legendNames[k] << series->name();
        };
        for (const auto& bands : { lines[0].outer, lines[0].inner }) {
            for (QAreaSeries* band : bands)
                show(band, false);
        }
        for (QLineSeries* s : lines[0].series)
            show(s, currentShown || overlays);
        for (std::size_t i = 0; i < lines[0].warmups.size(); ++i)
            show(lines[0].warmups[i], i == 0 && warmupShown);  // one entry for the marks of every quantity
        // Entries of series without points are added and removed rather than hidden: the legend lays out a hidden
        // empty series' entry again without its name. The bands' entries, then "this run", go before the runs'.
        // The chart changes only when one of them comes or goes, not on every refresh of a running series.
        QChart* chart = m_charts[k];
        const bool thisRun = currentShown && overlays;
        const bool bands = currentShown && m_density[k];
        if (thisRun != (m_currentKey[k]->chart() != nullptr) || bands != (m_bandKeys[k][0]->chart() != nullptr)) {
            for (QLineSeries* key : m_overlayKeys[k])
                chart->removeSeries(key);
            for (QAreaSeries* key : m_bandKeys[k]) {
                if (key->chart())
                    chart->removeSeries(key);
            }
            if (m_currentKey[k]->chart())
                chart->removeSeries(m_currentKey[k]);
            if (bands) {
                for (QAreaSeries* key : m_bandKeys[k])
                    chart->addSeries(key);
            }
            if (thisRun)
                chart->addSeries(m_currentKey[k]);
            for (QLineSeries* key : m_overlayKeys[k])
                chart->addSeries(key);
        }
        if (bands) {
            for (QAreaSeries* key : m_bandKeys[k])
                m_legendNames[k] << key->name();
        }
        if (thisRun)
            m_legendNames[k] << m_currentKey[k]->name();
        for (QLineSeries* key : m_overlayKeys[k])
            m_legendNames[k] << key->name();
        for (std::size_t o = 1; o < lines.size(); ++o) {
            for (QLineSeries* s : lines[o].series)
                show(s, false);
            for (QScatterSeries* s : lines[o].warmups)
                show(s, false);
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
    clickable.insert(clickable.end(), current.warmups.begin(), current.warmups.end());
    for (QXYSeries* series : clickable) {
        QObject::connect(series, &QXYSeries::clicked, series,
            [handler](const QPointF& point) { handler(int(std::lround(point.x()))); });
    }
}

int RunCharts::pointCount(Kind kind) const
{
    return static_cast<int>(pointsOf(0, kind).points[0].size());
}

const SeriesPoints::Lines& RunCharts::pointsOf(std::size_t run, Kind kind) const
{
    return (run == 0 ? m_current.get() : *m_overlayPoints[run - 1]).lines(kind);
}

int RunCharts::drawnCount(Kind kind) const
{
    return static_cast<int>(m_lines[kind][0].series[0]->count());
}

}  // namespace asyncscope

// The chart and the runs it shows: built with its axes and the current run's lines, lines for each overlay, every
// run's range, and when to draw (not while none of its views shows).
#include "gui/charts/run_chart.hpp"

#include "gui/charts/nice_axis.hpp"
#include "gui/charts/spread_line.hpp"

#include <QEvent>
#include <QGraphicsScene>
#include <QGraphicsView>
#include <QLegend>
#include <QScatterSeries>

#include <algorithm>
#include <cmath>

namespace asyncscope {

using runchart::kCpuQuantity;
using runchart::RunLines;

// Receives the chart's signals, and the Show events of its views: a chart not drawn while hidden is drawn then.
class RunChart::Context : public QObject {
public:
    explicit Context(RunChart* chart)
        : m_chart(chart)
    {
    }

protected:
    bool eventFilter(QObject* watched, QEvent* event) override
    {
        if (event->type() == QEvent::Show) {
            const QGraphicsScene* scene = m_chart->m_chart->scene();
            if (scene && scene->views().contains(watched))
                m_chart->update();
        }
        return QObject::eventFilter(watched, event);
    }

private:
    RunChart* m_chart;
};

namespace {

// After a resize: ticks for the axes' ranges as they are, as many as the plot has room for now.
void tidyAxes(const QChart* chart, QValueAxis* x, QValueAxis* y)
{
    setNiceTicks(x, tickRoom(chart, Qt::Horizontal), 1.0);
    setNiceTicks(y, tickRoom(chart, Qt::Vertical), 0.0);
}

}  // namespace

QString RunChart::title(Kind kind)
{
    switch (kind) {
    case SeriesPoints::Time: return QStringLiteral("GPU time vs CPU submit time");
    case SeriesPoints::Polls: return QStringLiteral("CPU poll iterations while waiting");
    case SeriesPoints::Stages: return QStringLiteral("Stage times");
    }
    return {};
}

RunChart::RunChart(Kind kind, const ChartRuns& runs)
    : m_kind(kind)
    , m_runs(runs)
    , m_context(std::make_unique<Context>(this))
{
    auto* chart = new QChart;
    m_chart = chart;
    m_baseTitle = title(kind);
    chart->setTitle(title(kind));
    chart->setAnimationOptions(QChart::NoAnimation);
    chart->legend()->setAlignment(Qt::AlignRight);  // a column of short names: fits narrow windows and large fonts
    chart->legend()->setShowToolTips(true);         // a name cut short shows whole on hover
    chart->legend()->setMarkerShape(QLegend::MarkerShapeFromSeries);  // lines show their pattern, dots their dot
    m_x = new QValueAxis;
    m_x->setTitleText(QStringLiteral("run"));
    m_y = new QValueAxis;
    m_y->setTitleText(kind == SeriesPoints::Polls ? QStringLiteral("iterations") : QStringLiteral("ms"));
    chart->addAxis(m_x, Qt::AlignBottom);
    chart->addAxis(m_y, Qt::AlignLeft);
    if (kind == SeriesPoints::Time) {
        m_cpuY = new QValueAxis;
        m_cpuY->setTitleText(QStringLiteral("CPU submit µs"));
        chart->addAxis(m_cpuY, Qt::AlignRight);
        QObject::connect(m_cpuY, &QValueAxis::rangeChanged, m_context.get(),
            [this] { setNiceTicks(m_cpuY, tickRoom(m_chart, Qt::Vertical), 0.0); });
        // Not its own axis, it goes with GPU time's: the CPU lines, drawn against it, are in milliseconds then.
        QObject::connect(m_y, &QValueAxis::rangeChanged, m_context.get(), [this](double low, double high) {
            if (!m_cpuOwnAxis)
                m_cpuY->setRange(low, high);
        });
    }
    // Zooming, scrolling and resizing keep the ticks on round values, as many as the plot has room for, and draw the
    // lines again from every run for the runs now in view.
    QObject::connect(m_x, &QValueAxis::rangeChanged, m_context.get(), [this] {
        setNiceTicks(m_x, tickRoom(m_chart, Qt::Horizontal), 1.0);
        drawLater();
    });
    QObject::connect(m_y, &QValueAxis::rangeChanged, m_context.get(),
        [this] { setNiceTicks(m_y, tickRoom(m_chart, Qt::Vertical), 0.0); });
    QObject::connect(chart, &QChart::plotAreaChanged, m_context.get(), [this] {
        tidyAxes(m_chart, m_x, m_y);
        if (m_cpuY)
            setNiceTicks(m_cpuY, tickRoom(m_chart, Qt::Vertical), 0.0);
        drawLater();
    });
    m_lines.push_back(addLines({}));
    restyle();
}

RunChart::~RunChart()
{
    m_context.reset();  // nothing the chart signals from here on reaches this object
    if (m_chart && !m_chart->scene())
        delete m_chart.data();  // the legend's entries in it with it; those not in it go with the legend
}

QValueAxis* RunChart::valueAxisOf(std::size_t quantity) const
{
    return m_kind == SeriesPoints::Time && quantity == kCpuQuantity ? m_cpuY : m_y;
}

double RunChart::valueScale(std::size_t quantity) const
{
    return m_kind == SeriesPoints::Time && quantity == kCpuQuantity && m_cpuOwnAxis ? runchart::kMicrosecondsPerMs
                                                                                    : 1.0;
}

RunLines RunChart::addLines(const QString& overlay)
{
    // The current run's series are named for their quantities; an overlay's all carry its label.
    // The current run's bands go first, under every line.
    QChart* chart = m_chart;
    auto attach = [&](QAbstractSeries* series, const QString& name, std::size_t quantity) {
        series->setName(overlay.isEmpty() ? name : overlay);
        chart->addSeries(series);
        series->attachAxis(m_x);
        series->attachAxis(valueAxisOf(quantity));
    };
    const auto& qs = runchart::quantities(m_kind);
    Q_ASSERT(int(qs.size()) == SeriesPoints::quantityCount(m_kind));
    RunLines lines;
    if (overlay.isEmpty()) {
        // The last quantity's bands lowest: GPU time's over CPU submit time's, every line over both.
        lines.outer.resize(qs.size());
        lines.inner.resize(qs.size());
        for (std::size_t i = qs.size(); i-- > 0;) {
            const QString name = QString::fromLatin1(qs[i].name) + ' ';
            lines.outer[i] = runchart::newBand(name + runchart::kOuterName);
            attach(lines.outer[i], lines.outer[i]->name(), i);
            lines.inner[i] = runchart::newBand(name + runchart::kInnerName);
            attach(lines.inner[i], lines.inner[i]->name(), i);
        }
    }
    for (std::size_t i = 0; i < qs.size(); ++i) {
        lines.series.push_back(new SpreadLine);
        attach(lines.series.back(), QString::fromLatin1(qs[i].name), i);
    }
    for (std::size_t i = 0; i < qs.size(); ++i) {
        lines.warmups.push_back(new QScatterSeries);
        lines.warmups.back()->setMarkerSize(9.0);
        attach(lines.warmups.back(), QStringLiteral("warm-up run"), i);
    }
    return lines;
}

void RunChart::showRuns(const QString& titleSuffix, bool changed, const QStringList& keyNames)
{
    if (changed)
        ++m_version;
    m_chart->setTitle(m_baseTitle + titleSuffix);
    update();
    m_legend.nameKeys(keyNames);
    updateLegend();
}

void RunChart::setOverlays(const QStringList& labels, const QStringList& keyNames)
{
    QChart* chart = m_chart;
    for (std::size_t o = 1; o < m_lines.size(); ++o) {
        for (SpreadLine* s : m_lines[o].series) {
            chart->removeSeries(s);
            delete s;
        }
        for (QScatterSeries* s : m_lines[o].warmups) {
            chart->removeSeries(s);
            delete s;
        }
    }
    m_lines.resize(1);
    m_legend.removeOverlayKeys(chart);
    for (const QString& label : labels) {
        m_lines.push_back(addLines(label));
        m_legend.addOverlayKey(chart, label);
    }
    ++m_version;
    update();
    m_legend.nameKeys(keyNames);
    restyle();
    updateLegend();
}

std::pair<double, double> RunChart::allRuns() const
{
    // From run 0 to the last run of any line, warm-ups included, and half a run beyond each: the first run's mark is
    // drawn whole, off the value axis's line (a program's single run in the middle).
    double last = 0.0;
    for (std::size_t run = 0; run < m_lines.size(); ++run)
        last = std::max(last, pointsOf(run).maxX);
    return { -0.5, last + 0.5 };
}

void RunChart::update()
{
    // A hidden chart's axes and lines are left as they are: every change to them costs Qt Charts a pass over the
    // lines' points (their outline for clicks), on every refresh of a running series.
    if (hidden())
        return;  // updated when one of its views shows
    if (!m_runsShown && allRuns().second != m_x->max()) {
        // A new run axis would lay the lines out for the new range with their old points, and drawing once more with
        // the new ones: emptied first, they are laid out once, with the points they will show.
        for (RunLines& lines : m_lines) {
            for (SpreadLine* series : lines.series)
                series->clear();
            for (const auto& bands : { lines.inner, lines.outer }) {
                for (QAreaSeries* band : bands) {
                    band->upperSeries()->clear();
                    band->lowerSeries()->clear();
                }
            }
        }
        m_drawn = {};
    }
    rescale();
    draw();
}

bool RunChart::hidden()
{
    // A chart in views that are all hidden (another tab is shown) is drawn when one of them shows; one in no view is
    // being exported and is drawn now.
    const QGraphicsScene* scene = m_chart->scene();
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

void RunChart::onRunClicked(std::function<void(int)> handler)
{
    // Runs sit at whole x values: the nearest one is the run clicked, wherever on its mark the click fell.
    const RunLines& current = m_lines[0];
    std::vector<QXYSeries*> clickable(current.series.begin(), current.series.end());
    clickable.insert(clickable.end(), current.warmups.begin(), current.warmups.end());
    for (QXYSeries* series : clickable) {
        QObject::connect(series, &QXYSeries::clicked, series,
            [handler](const QPointF& point) { handler(int(std::lround(point.x()))); });
    }
}

const SeriesPoints::Lines& RunChart::pointsOf(std::size_t run) const
{
    return m_runs.lines(run, m_kind);
}

int RunChart::pointCount() const
{
    return static_cast<int>(pointsOf(0).points[0].size() + pointsOf(0).warmupPoints[0].size());
}

int RunChart::drawnCount() const
{
    return static_cast<int>(m_lines[0].series[0]->count());
}

}  // namespace asyncscope

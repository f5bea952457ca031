// The run charts at scale: a long series hands Qt Charts a few points per pixel column and keeps every column's
// lowest and highest run; zooming (keys, a rectangle) draws the runs in view again from every run, a reset goes back;
// an export is decimated at the picture's own width; the run axis ends at the last run and both axes tick at 1, 2
// or 5 × 10^n. Where runs outnumber the pixel columns the charts show each column's median and percentile bands
// (their values checked against the runs of each column sorted here), lines again once zoomed in, or as the user
// chooses; CPU submit time has a right-hand axis of its own in microseconds; an export's lines, overlays' included,
// are as wide relative to the picture as on the screen. Runs are invented (tests/fakes/classic_runs.hpp), not
// measured.
#include "classic_runs.hpp"

#include "gui/files/chart_picture.hpp"
#include "gui/charts/chart_export.hpp"
#include "gui/charts/kind_colours.hpp"
#include "gui/charts/spread_line.hpp"
#include "gui/charts/chart_view.hpp"
#include "gui/series/new_runs.hpp"
#include "gui/charts/run_charts.hpp"
#include "gui/series/series_points.hpp"

#include <QApplication>
#include <QAreaSeries>
#include <QImage>
#include <QLineSeries>
#include <QScatterSeries>
#include <QTemporaryDir>
#include <QTest>
#include <QValueAxis>

#include <algorithm>
#include <cmath>
#include <map>
#include <memory>
#include <set>
#include <thread>

using namespace asyncscope;
using asyncscope::testing::classicReport;

namespace {

constexpr int kSpikeRun = 123457;
constexpr double kSpikeMs = 40.0;
constexpr int kDipRun = 77777;
constexpr double kDipMs = 0.5;

// A long series with one run far above the rest and one far below: what decimation must never lose.
const Report& longSeries()
{
    static const Report report = [] {
        Report r = classicReport(200000);
        r.runs.update(kSpikeRun, [](RunResult& run) { run.gpuMs = kSpikeMs; });
        r.runs.update(kDipRun, [](RunResult& run) { run.gpuMs = kDipMs; });
        return r;
    }();
    return report;
}

// The current run's GPU time: the chart's first line (its bands, areas, go before it).
QLineSeries* gpuLine(const RunCharts& charts)
{
    for (QAbstractSeries* s : charts.chart(RunCharts::Time)->series()) {
        if (auto* line = qobject_cast<QLineSeries*>(s))
            return line;
    }
    return nullptr;
}

bool draws(const QLineSeries* line, double x, double y)
{
    const QList<QPointF> points = line->points();
    return std::any_of(points.begin(), points.end(), [&](const QPointF& p) { return p.x() == x && p.y() == y; });
}

QValueAxis* axis(const QChart* chart, Qt::Orientation along)
{
    return qobject_cast<QValueAxis*>(chart->axes(along).first());
}

template <class Series>
Series* named(const QChart* chart, const QString& name)
{
    for (QAbstractSeries* s : chart->series()) {
        if (auto* series = qobject_cast<Series*>(s); series && s->name() == name)
            return series;
    }
    return nullptr;
}

// A series whose GPU times are spread widely and unevenly (a slow tail every few runs), so that each column's
// percentiles differ from one another and from its lowest and highest run.
Report spreadSeries(std::size_t runs)
{
    Report r = classicReport(runs);
    asyncscope::testing::Jitter j(42);
    for (std::size_t i = 0; i < runs; ++i) {
        const double u = j.next();
        r.runs.update(i, [u, i](RunResult& run) { run.gpuMs = 2.4 + u * u * (i % 7 == 3 ? 3.0 : 0.4); });
    }
    return r;
}

// The nearest-rank percentile (rank ceil(f·n), from 1) and the median (two middle values averaged) of sorted values.
double percentile(const std::vector<double>& sorted, double fraction)
{
    const auto rank = std::size_t(std::ceil(fraction * double(sorted.size())));
    return sorted[std::clamp<std::size_t>(rank, 1, sorted.size()) - 1];
}

double median(const std::vector<double>& sorted)
{
    const std::size_t n = sorted.size();
    return n % 2 == 1 ? sorted[n / 2] : (sorted[n / 2 - 1] + sorted[n / 2]) / 2.0;
}

// Pixels of `image` near `colour` (each channel within `tolerance`).
int pixelsNear(const QImage& image, const QColor& colour, int tolerance)
{
    int n = 0;
    for (int y = 0; y < image.height(); ++y) {
        for (int x = 0; x < image.width(); ++x) {
            const QColor c = image.pixelColor(x, y);
            n += std::abs(c.red() - colour.red()) <= tolerance && std::abs(c.green() - colour.green()) <= tolerance &&
                    std::abs(c.blue() - colour.blue()) <= tolerance
                ? 1
                : 0;
        }
    }
    return n;
}

// White under `colour` drawn at `alpha`: a band's shade on the light theme's plot.
QColor over(const QColor& colour, int alpha)
{
    auto mix = [alpha](int c) { return (c * alpha + 255 * (255 - alpha)) / 255; };
    return QColor(mix(colour.red()), mix(colour.green()), mix(colour.blue()));
}

// 1, 2 or 5 × 10^n.
bool nice(double step)
{
    const double m = step / std::pow(10.0, std::floor(std::log10(step) + 1e-9));
    return std::fabs(m - 1.0) < 1e-6 || std::fabs(m - 2.0) < 1e-6 || std::fabs(m - 5.0) < 1e-6;
}

// At most two points per pixel column of the plot, and the ends.
int mostPoints(const QChart* chart, double scale = 1.0)
{
    return 2 * int(std::ceil(chart->plotArea().width() * scale)) + 4;
}

}  // namespace

class RunChartsTest : public QObject {
    Q_OBJECT
private slots:
    // Drawn as density, the value axes fit the bands: the one run of 200 000 at 40 ms GPU time, or at 5 ms of CPU
    // submit time, would press them flat at 2.5 ms and tens of µs. Lines fit every run, the spikes included.
    void theDensityLookFitsTheValueAxesToTheirBands()
    {
        Report report = longSeries();
        report.runs.update(kDipRun + 1, [](RunResult& run) {
            for (Span& span : run.spans) {
                if (span.kind == SpanKind::Submit)
                    span.endMs = span.beginMs + 5.0;
            }
        });
        RunCharts charts;
        ChartView view(charts.at(RunCharts::Time));
        view.resize(1000, 600);
        view.show();
        QVERIFY(QTest::qWaitForWindowExposed(&view));
        charts.setRuns(report);
        QChart* chart = charts.chart(RunCharts::Time);
        const QValueAxis* y = axis(chart, Qt::Vertical);
        const QValueAxis* cpu = charts.at(RunCharts::Time).cpuAxis();
        QVERIFY(cpu && cpu != y);
        QTRY_VERIFY(chart->plotArea().width() > 100.0);
        QTRY_VERIFY2(y->max() < 10.0, qPrintable(QString::number(y->max())));
        QVERIFY(y->max() > 2.5);  // the runs' p95 stays in view
        QVERIFY2(cpu->max() < 1000.0, qPrintable(QString::number(cpu->max())));  // µs: far under the 5000 µs run
        charts.setStyle(RunCharts::Style::Lines);
        charts.at(RunCharts::Time).resetZoom();
        QTRY_VERIFY2(y->max() >= kSpikeMs, qPrintable(QString::number(y->max())));
        QVERIFY2(cpu->max() >= 5000.0, qPrintable(QString::number(cpu->max())));
    }

    void aLongSeriesIsDecimatedAndKeepsItsExtremes()
    {
        RunCharts charts;
        charts.setStyle(RunCharts::Style::Lines);
        ChartView view(charts.at(RunCharts::Time));
        view.resize(1000, 600);
        view.show();
        QVERIFY(QTest::qWaitForWindowExposed(&view));
        charts.setRuns(longSeries());
        QCOMPARE(charts.at(RunCharts::Time).pointCount(), 200000);
        QChart* chart = charts.chart(RunCharts::Time);
        QTRY_VERIFY(chart->plotArea().width() > 100.0);
        QTRY_VERIFY2(charts.at(RunCharts::Time).drawnCount() <= mostPoints(chart),
            qPrintable(QString::number(charts.at(RunCharts::Time).drawnCount())));
        QVERIFY(charts.at(RunCharts::Time).drawnCount() > 100);
        const QLineSeries* gpu = gpuLine(charts);
        QVERIFY(draws(gpu, kSpikeRun, kSpikeMs));
        QVERIFY(draws(gpu, kDipRun, kDipMs));
        QCOMPARE(gpu->at(0).x(), 1.0);  // the first measured run; run 0, the warm-up, is a mark of its own
        QCOMPARE(gpu->at(gpu->count() - 1).x(), 199999.0);
        QVERIFY(!gpu->pointsVisible());  // no marker per point at this density
        for (const RunCharts::Kind kind : { RunCharts::Polls, RunCharts::Stages })
            QVERIFY(charts.at(kind).drawnCount() <= mostPoints(charts.chart(kind)));
    }

    void zoomingDrawsTheRunsInViewFromEveryRun()
    {
        RunCharts charts;
        charts.setStyle(RunCharts::Style::Lines);
        ChartView view(charts.at(RunCharts::Time));
        view.resize(1000, 600);
        view.show();
        QVERIFY(QTest::qWaitForWindowExposed(&view));
        charts.setRuns(longSeries());
        QChart* chart = charts.chart(RunCharts::Time);
        QValueAxis* x = axis(chart, Qt::Horizontal);
        QTRY_VERIFY(charts.at(RunCharts::Time).drawnCount() <= mostPoints(chart));

        // + zooms to the middle half: the spike is in view, and only runs in view (and one beyond each edge) drawn.
        view.setFocus();
        QTest::keyClick(&view, Qt::Key_Plus);
        QVERIFY(charts.at(RunCharts::Time).isZoomed());
        const double low = x->min(), high = x->max();
        QVERIFY(low > 1000.0 && high < 199000.0);
        QTRY_VERIFY(gpuLine(charts)->at(1).x() >= low);
        const QLineSeries* gpu = gpuLine(charts);
        QVERIFY(gpu->at(0).x() < low);
        QVERIFY(gpu->at(gpu->count() - 1).x() > high);
        QVERIFY(gpu->at(gpu->count() - 2).x() <= high);
        QVERIFY(draws(gpu, kSpikeRun, kSpikeMs));
        QVERIFY(charts.at(RunCharts::Time).drawnCount() <= mostPoints(chart));

        // Back to every run (0, Home or a right click: the window answers the view's request so).
        charts.at(RunCharts::Time).resetZoom();
        QVERIFY(!charts.at(RunCharts::Time).isZoomed());
        QCOMPARE(x->max(), 199999.5);
        QVERIFY(charts.at(RunCharts::Time).drawnCount() <= mostPoints(chart));
        QVERIFY(draws(gpuLine(charts), kSpikeRun, kSpikeMs));
        QVERIFY(draws(gpuLine(charts), kDipRun, kDipMs));

        // A rectangle around 80 runs: every one of them, as measured, with markers.
        const QPointF from = chart->mapToPosition(QPointF(1000.5, 0.0));
        const QPointF to = chart->mapToPosition(QPointF(1079.5, 0.0));
        charts.at(RunCharts::Time).zoomToArea(
            QRectF(QPointF(from.x(), chart->plotArea().top()), QPointF(to.x(), chart->plotArea().bottom())));
        QTRY_COMPARE(charts.at(RunCharts::Time).drawnCount(), 81);  // 1001 to 1079, and 1000 and 1080 beyond the edges
        gpu = gpuLine(charts);
        for (int i = 0; i < gpu->count(); ++i) {
            QCOMPARE(gpu->at(i).x(), 1000.0 + i);
            QCOMPARE(gpu->at(i).y(), longSeries().runs[std::size_t(1000 + i)].gpuMs);
        }
        QVERIFY(gpu->pointsVisible());
        charts.at(RunCharts::Time).resetZoom();
        QVERIFY(charts.at(RunCharts::Time).drawnCount() <= mostPoints(chart));

    }

    void theRunAxisEndsAtTheLastRun_data()
    {
        QTest::addColumn<int>("runs");
        QTest::newRow("5") << 5;
        QTest::newRow("42") << 42;
        QTest::newRow("10000") << 10000;
        QTest::newRow("10001") << 10001;
        QTest::newRow("12345") << 12345;
    }

    void theRunAxisEndsAtTheLastRun()
    {
        QFETCH(int, runs);
        RunCharts charts;
        ChartView view(charts.at(RunCharts::Time));
        view.resize(1000, 600);
        view.show();
        QVERIFY(QTest::qWaitForWindowExposed(&view));
        charts.setRuns(classicReport(std::size_t(runs)));
        QApplication::processEvents();
        for (int k = 0; k < RunCharts::kKindCount; ++k) {
            const QChart* chart = charts.chart(RunCharts::Kind(k));
            const QValueAxis* x = axis(chart, Qt::Horizontal);
            const QValueAxis* y = axis(chart, Qt::Vertical);
            QCOMPARE(x->min(), -0.5);  // half a run beyond the first and the last: their marks drawn whole
            QCOMPARE(x->max(), double(runs - 1) + 0.5);
            for (const QValueAxis* a : { x, y }) {
                QCOMPARE(a->tickType(), QValueAxis::TicksDynamic);
                QCOMPARE(a->tickAnchor(), 0.0);
                QVERIFY2(nice(a->tickInterval()), qPrintable(QString::number(a->tickInterval())));
                const double ticks = (a->max() - a->min()) / a->tickInterval();
                QVERIFY2(ticks >= 1.0 && ticks <= 11.0, qPrintable(QString::number(ticks)));
            }
            QVERIFY(x->tickInterval() >= 1.0);  // no tick between two runs
            // The value axis ends on a tick, above every value, labelled with the step's digits.
            QVERIFY(std::fabs(y->max() / y->tickInterval() - std::round(y->max() / y->tickInterval())) < 1e-6);
            const int decimals = std::max(0, int(-std::floor(std::log10(y->tickInterval()) + 1e-9)));
            QCOMPARE(y->labelFormat(), QString("%.%1f").arg(decimals));
        }
        QCOMPARE(axis(charts.chart(RunCharts::Time), Qt::Vertical)->labelFormat(), QString("%.1f"));  // 2.5 ms
    }

    void anExportIsDecimatedAtThePicturesWidth()
    {
        QTemporaryDir dir;
        RunCharts charts;
        charts.setStyle(RunCharts::Style::Lines);
        charts.setRuns(longSeries());
        QChart* chart = charts.chart(RunCharts::Time);
        int drawn = 0, atScreenSize = 0;
        double width = 0.0;
        const QString path = dir.filePath("long.png");
        const QString failure = saveChartsPicture({ chart }, "long", path, QSize(3840, 2160), [&](double scale) {
            QCOMPARE(scale, 3.0);
            charts.setPixelScale(1.0);
            atScreenSize = charts.at(RunCharts::Time).drawnCount();
            charts.setPixelScale(scale);
            drawn = charts.at(RunCharts::Time).drawnCount();
            width = chart->plotArea().width();
        });
        QVERIFY2(failure.isEmpty(), qPrintable(failure));
        QVERIFY(width > 500.0);  // laid out at 1280 x 720, scaled three times
        QVERIFY2(drawn <= mostPoints(chart, 3.0), qPrintable(QString::number(drawn)));
        QVERIFY2(drawn > mostPoints(chart), qPrintable(QString("%1 of %2").arg(drawn).arg(atScreenSize)));
        QVERIFY(atScreenSize <= mostPoints(chart));
        QCOMPARE(QImage(path).size(), QSize(3840, 2160));

        // The exporter does the same for the window's charts.
        const QString viaExporter = dir.filePath("exported.png");
        QVERIFY(exportChart(longSeries(), {}, nullptr, {}, RunCharts::Time, viaExporter, QSize(1920, 1080),
            { RunCharts::Style::Lines, true })
                    .isEmpty());
        QCOMPARE(QImage(viaExporter).size(), QSize(1920, 1080));
    }

    // A series drawn as density at the window's width and as lines across a wide picture's columns: the legend's
    // entries change as the picture is laid out, and the picture still shows the legend (it came out blank).
    void aPictureWhoseLookChangesWithItsWidthKeepsItsLegend()
    {
        QTemporaryDir dir;
        SavedRun overlay;
        overlay.report = classicReport(1500);
        overlay.label = "shared · H200";
        const QString path = dir.filePath("wide.png");
        QVERIFY(exportChart(classicReport(2001), {}, nullptr, { &overlay }, RunCharts::Time, path, QSize(3200, 1800),
            { RunCharts::Style::Automatic, true })
                    .isEmpty());
        const QImage picture(path);
        QCOMPARE(picture.size(), QSize(3200, 1800));
        // The legend's names stand right of the CPU axis, between a third and two thirds of the height.
        int dark = 0;
        for (int y = 600; y < 1200; ++y) {
            for (int x = 2720; x < 3150; ++x)
                dark += qGray(picture.pixel(x, y)) < 128 ? 1 : 0;
        }
        QVERIFY2(dark > 500, qPrintable(QString::number(dark)));
    }

    void overlaysAreDecimatedToo()
    {
        RunCharts charts;
        charts.setStyle(RunCharts::Style::Lines);
        SavedRun saved;
        saved.report = longSeries();
        saved.label = "long · H200";
        charts.setOverlays({ &saved });
        charts.setRuns(classicReport(50));
        QCOMPARE(charts.at(RunCharts::Time).pointCount(), 50);
        QCOMPARE(charts.at(RunCharts::Time).drawnCount(), 49);  // few: untouched (the warm-up a mark of its own)
        const auto series = charts.chart(RunCharts::Time)->series();
        const auto overlay = std::find_if(series.begin(), series.end(), [](QAbstractSeries* s) {
            return s->name() == "long · H200" && qobject_cast<QLineSeries*>(s);
        });
        QVERIFY(overlay != series.end());
        const auto* line = qobject_cast<QLineSeries*>(*overlay);
        QVERIFY2(line->count() <= 2 * 1920 + 4, qPrintable(QString::number(line->count())));  // not laid out yet
        QVERIFY(draws(line, kSpikeRun, kSpikeMs));
        QCOMPARE(axis(charts.chart(RunCharts::Time), Qt::Horizontal)->max(), 199999.5);
    }

    void overlaysAreToldApartByPatternsDrawnAPixelWide()
    {
        // A patterned pen wider than a pixel makes QPainter outline and fill the whole decimated line on every
        // repaint; a cosmetic pen of one pixel draws it dash by dash.
        RunCharts charts;
        SavedRun first, second;
        first.report = second.report = classicReport(3000);
        first.label = "first";
        second.label = "second";
        charts.setOverlays({ &first, &second });
        charts.setRuns(classicReport(50));
        std::map<QString, std::set<Qt::PenStyle>> patterns;
        int overlayLines = 0;
        for (QAbstractSeries* s : charts.chart(RunCharts::Time)->series()) {
            const auto* line = qobject_cast<QLineSeries*>(s);
            if (!line || (line->name() != "first" && line->name() != "second"))
                continue;
            ++overlayLines;
            const QPen pen = line->pen();
            QVERIFY2(pen.style() != Qt::SolidLine, qPrintable(line->name()));
            QVERIFY(pen.isCosmetic());
            QVERIFY(pen.widthF() <= 1.0);
            patterns[line->name()].insert(pen.style());
        }
        QVERIFY(overlayLines >= 4);  // two quantities and a legend entry per overlay at least
        QCOMPARE(patterns["first"].size(), std::size_t(1));  // one pattern per run, on every line and its key
        QCOMPARE(patterns["second"].size(), std::size_t(1));
        QVERIFY(*patterns["first"].begin() != *patterns["second"].begin());
    }

    void manyRunsShowTheirSpreadAndFewTheirLines()
    {
        RunCharts charts;  // automatic, as the window starts
        ChartView view(charts.at(RunCharts::Time));
        view.resize(1000, 600);
        view.show();
        QVERIFY(QTest::qWaitForWindowExposed(&view));
        charts.setRuns(spreadSeries(20000));
        QChart* chart = charts.chart(RunCharts::Time);
        QTRY_VERIFY(chart->plotArea().width() > 100.0);
        QTRY_VERIFY(charts.at(RunCharts::Time).drawnCount() <= int(std::ceil(chart->plotArea().width())));
        QVERIFY(charts.at(RunCharts::Time).densityShown());  // 20 000 runs, fewer than a thousand columns
        const QAreaSeries* outer = named<QAreaSeries>(chart, "GPU time p5–p95");
        QVERIFY(outer);
        QCOMPARE(outer->upperSeries()->count(), charts.at(RunCharts::Time).drawnCount());  // one median per column
        QVERIFY(!gpuLine(charts)->pointsVisible());
        // The legend: a median per quantity, the two bands once for every quantity.
        const QStringList legend = charts.at(RunCharts::Time).legendNames();
        for (const char* entry : { "GPU time median", "CPU submit time median", "p25–p75", "p5–p95" })
            QVERIFY2(legend.contains(entry), qPrintable(legend.join(", ")));
        QVERIFY2(legend.size() <= 6, qPrintable(legend.join(", ")));

        // Zoomed into 80 runs, fewer than the columns: each run again, and no band.
        const QPointF from = chart->mapToPosition(QPointF(1000.5, 0.0), gpuLine(charts));
        const QPointF to = chart->mapToPosition(QPointF(1079.5, 0.0), gpuLine(charts));
        charts.at(RunCharts::Time).zoomToArea(
            QRectF(QPointF(from.x(), chart->plotArea().top()), QPointF(to.x(), chart->plotArea().bottom())));
        QTRY_COMPARE(charts.at(RunCharts::Time).drawnCount(), 81);
        QVERIFY(!charts.at(RunCharts::Time).densityShown());
        QCOMPARE(outer->upperSeries()->count(), 0);
        QVERIFY(charts.at(RunCharts::Time).legendNames().contains("GPU time"));
        QVERIFY(!charts.at(RunCharts::Time).legendNames().contains("p5–p95"));
        QVERIFY(gpuLine(charts)->pointsVisible());

        charts.at(RunCharts::Time).resetZoom();
        QVERIFY(charts.at(RunCharts::Time).densityShown());
        QVERIFY(outer->upperSeries()->count() > 100);
    }

    void theBandsAreThePercentilesOfEachColumnsRuns()
    {
        RunCharts charts;
        ChartView view(charts.at(RunCharts::Time));
        view.resize(800, 500);
        view.show();
        QVERIFY(QTest::qWaitForWindowExposed(&view));
        const Report report = spreadSeries(30011);
        charts.setRuns(report);
        QChart* chart = charts.chart(RunCharts::Time);
        QTRY_VERIFY(chart->plotArea().width() > 100.0);
        QTRY_VERIFY(charts.at(RunCharts::Time).drawnCount() <= int(std::ceil(chart->plotArea().width())));
        QVERIFY(charts.at(RunCharts::Time).densityShown());

        // The runs of each pixel column, sorted here: column c holds low + c·w <= run < low + (c + 1)·w.
        const QValueAxis* x = axis(chart, Qt::Horizontal);
        const int columns = int(std::ceil(chart->plotArea().width()));
        const double low = x->min(), high = x->max(), width = (high - low) / columns;
        std::vector<std::vector<double>> byColumn(static_cast<std::size_t>(columns));
        for (std::size_t i = 0; i < report.runs.size(); ++i) {
            const double run = report.runs.index(i);
            if (run < low || run > high || report.runs.warmup(i))
                continue;  // warm-ups are marked, not part of the spread
            int c = std::clamp(int((run - low) / width), 0, columns - 1);
            while (c > 0 && run < low + c * width)
                --c;
            while (c + 1 < columns && run >= low + (c + 1) * width)
                ++c;
            byColumn[std::size_t(c)].push_back(report.runs.gpuMs(i));
        }
        const QLineSeries* medians = gpuLine(charts);
        const QAreaSeries* outer = named<QAreaSeries>(chart, "GPU time p5–p95");
        const QAreaSeries* inner = named<QAreaSeries>(chart, "GPU time p25–p75");
        QVERIFY(medians && outer && inner);
        qsizetype p = 0;
        int narrowerThanTheirRuns = 0;
        for (std::vector<double>& values : byColumn) {
            if (values.empty())
                continue;
            std::sort(values.begin(), values.end());
            QVERIFY(p < medians->count());
            QCOMPARE(medians->at(p).y(), median(values));
            QCOMPARE(outer->upperSeries()->at(p).y(), percentile(values, 0.95));
            QCOMPARE(outer->lowerSeries()->at(p).y(), percentile(values, 0.05));
            QCOMPARE(inner->upperSeries()->at(p).y(), percentile(values, 0.75));
            QCOMPARE(inner->lowerSeries()->at(p).y(), percentile(values, 0.25));
            narrowerThanTheirRuns += percentile(values, 0.95) < values.back() ? 1 : 0;
            ++p;
        }
        QCOMPARE(p, medians->count());
        QVERIFY(narrowerThanTheirRuns > p / 2);  // the bands are not the columns' lowest and highest runs
    }

    void theUserChoosesLinesOrDensity()
    {
        RunCharts charts;  // not laid out: as wide as a large screen
        charts.setRuns(classicReport(50));
        QVERIFY(!charts.at(RunCharts::Time).densityShown());
        QCOMPARE(charts.at(RunCharts::Time).drawnCount(), 49);  // the measured runs; the warm-up is a mark
        charts.setStyle(RunCharts::Style::Density);
        QVERIFY(charts.at(RunCharts::Time).densityShown());
        QVERIFY(charts.at(RunCharts::Stages).densityShown());
        QVERIFY(charts.at(RunCharts::Time).legendNames().contains("p25–p75"));
        QCOMPARE(charts.at(RunCharts::Time).drawnCount(), 49);  // a measured run per column: its value, as its median

        charts.setStyle(RunCharts::Style::Lines);
        charts.setRuns(longSeries());
        QVERIFY(!charts.at(RunCharts::Time).densityShown());
        QVERIFY(draws(gpuLine(charts), kSpikeRun, kSpikeMs));
        QVERIFY(!charts.at(RunCharts::Time).legendNames().contains("p25–p75"));
        charts.setStyle(RunCharts::Style::Automatic);
        QVERIFY(charts.at(RunCharts::Time).densityShown());  // 200 000 runs in 1920 columns
        QCOMPARE(charts.look().style, RunCharts::Style::Automatic);
    }

    void anExportKeepsTheDensityLook()
    {
        QTemporaryDir dir;
        RunCharts charts;
        charts.setRuns(longSeries());
        QChart* chart = charts.chart(RunCharts::Time);
        bool density = false;
        int drawn = 0;
        double width = 0.0;
        const QString path = dir.filePath("density.png");
        const QString failure = saveChartsPicture({ chart }, "long", path, QSize(3840, 2160), [&](double scale) {
            charts.setPixelScale(scale);
            density = charts.at(RunCharts::Time).densityShown();
            drawn = charts.at(RunCharts::Time).drawnCount();
            width = chart->plotArea().width();
        });
        QVERIFY2(failure.isEmpty(), qPrintable(failure));
        QVERIFY(density);
        QVERIFY2(drawn > int(std::ceil(width)), qPrintable(QString::number(drawn)));  // a median per picture column

        // Through the exporter, as the window and --export save it: the outer band's shade fills the picture, where
        // lines leave none of it.
        const QString shaded = dir.filePath("shaded.png"), lined = dir.filePath("lined.png");
        const Report spread = spreadSeries(200000);
        QVERIFY(exportChart(spread, {}, nullptr, {}, RunCharts::Time, shaded, QSize(1600, 900)).isEmpty());
        QVERIFY(exportChart(spread, {}, nullptr, {}, RunCharts::Time, lined, QSize(1600, 900),
            { RunCharts::Style::Lines, true })
                    .isEmpty());
        const QColor shade = over(gpuTimeColour(), 45);
        const int inDensity = pixelsNear(QImage(shaded), shade, 6);
        const int inLines = pixelsNear(QImage(lined), shade, 6);
        QVERIFY2(inDensity > 2000 && inDensity > 5 * inLines, qPrintable(QString("%1 vs %2").arg(inDensity).arg(inLines)));
    }

    // A process's first submit (over a millisecond: lazy loading) is marked, not fitted: drawn as density, as 2000
    // runs are at 800 px, the CPU submit axis fits the measured runs' columns (15 to 25 µs), not the warm-up's 1313 µs,
    // which is a mark of its own; GPU time's line and bands are drawn over CPU submit time's bands.
    void warmUpsAreMarkedNotFitted()
    {
        Report report = classicReport(2000);
        report.runs.update(0, [](RunResult& run) {
            for (Span& span : run.spans) {
                if (span.kind == SpanKind::Submit)
                    span.endMs = 1.313;
            }
        });
        RunCharts charts;
        ChartView view(charts.at(RunCharts::Time));
        view.resize(800, 500);
        view.show();
        QVERIFY(QTest::qWaitForWindowExposed(&view));
        charts.setRuns(report);
        QTRY_VERIFY(charts.at(RunCharts::Time).densityShown());
        const QValueAxis* cpu = charts.at(RunCharts::Time).cpuAxis();
        QTRY_VERIFY2(cpu->max() >= 25.0 && cpu->max() <= 50.0, qPrintable(QString::number(cpu->max())));
        bool marked = false;
        const QList<QAbstractSeries*> series = charts.chart(RunCharts::Time)->series();
        for (QAbstractSeries* s : series) {
            if (auto* marks = qobject_cast<QScatterSeries*>(s); marks && marks->count() == 1)
                marked = marked || (marks->at(0).x() == 0.0 && std::abs(marks->at(0).y() - 1313.0) < 1e-6);
        }
        QVERIFY2(marked, "the warm-up's 1313 µs is marked");
        const auto order = [&series](const QString& name) {
            for (qsizetype i = 0; i < series.size(); ++i) {
                if (series[i]->name() == name)
                    return i;
            }
            return qsizetype(-1);
        };
        const qsizetype cpuBand = order(QStringLiteral("CPU submit time p5–p95"));
        QVERIFY(cpuBand >= 0);
        QVERIFY(order(QStringLiteral("GPU time p5–p95")) > cpuBand);
        QVERIFY(order(QStringLiteral("GPU time p25–p75")) > cpuBand);
        QVERIFY(order(QStringLiteral("GPU time median")) > cpuBand);
    }

    void cpuSubmitTimeHasAnAxisOfItsOwn()
    {
        Report report = classicReport(2000);
        auto setSubmit = [&report](std::size_t i, double ms) {
            report.runs.update(i, [ms](RunResult& run) {
                for (Span& span : run.spans) {
                    if (span.kind == SpanKind::Submit)
                        span.endMs = span.beginMs + ms;
                }
            });
        };
        setSubmit(0, 1.3);  // the warm-up: a process's first submit
        for (std::size_t i = 1000; i < 1100; ++i)
            setSubmit(i, 0.06);  // a slower stretch
        RunCharts charts;
        charts.setStyle(RunCharts::Style::Lines);
        ChartView view(charts.at(RunCharts::Time));
        view.resize(1000, 600);
        view.show();
        QVERIFY(QTest::qWaitForWindowExposed(&view));
        charts.setRuns(report);
        QChart* chart = charts.chart(RunCharts::Time);
        QTRY_VERIFY(chart->plotArea().width() > 100.0);
        QValueAxis* cpu = charts.at(RunCharts::Time).cpuAxis();
        QVERIFY(cpu);
        QVERIFY(cpu->isVisible());
        QCOMPARE(chart->axes(Qt::Vertical).size(), 2);
        QCOMPARE(cpu->alignment(), Qt::AlignRight);
        QVERIFY2(cpu->titleText().endsWith("µs"), qPrintable(cpu->titleText()));
        QCOMPARE(cpu->tickType(), QValueAxis::TicksDynamic);
        QVERIFY2(nice(cpu->tickInterval()), qPrintable(QString::number(cpu->tickInterval())));
        // The measured runs' CPU times fill it; the warm-up's 1300 µs does not flatten them.
        QVERIFY2(cpu->max() >= 60.0 && cpu->max() < 200.0, qPrintable(QString::number(cpu->max())));
        QCOMPARE(cpu->min(), 0.0);
        const QValueAxis* gpu = axis(chart, Qt::Vertical);
        QVERIFY(gpu != cpu);
        QVERIFY(gpu->max() < 4.0);

        QLineSeries* line = named<QLineSeries>(chart, "CPU submit time");
        QVERIFY(line && line->attachedAxes().contains(cpu));
        QTRY_VERIFY(line->count() > 100);
        for (const QPointF& p : line->points())
            QCOMPARE(p.y(), report.runs.cpuSubmitMs(std::size_t(p.x())) * 1000.0);

        // Zoomed into runs that do not include the slower stretch: the axis fits the runs in view.
        charts.at(RunCharts::Time).zoomToRuns(1500, 1600);
        QTRY_VERIFY(charts.at(RunCharts::Time).isZoomed());
        QTRY_VERIFY2(cpu->max() < 40.0, qPrintable(QString::number(cpu->max())));
        QVERIFY(cpu->max() >= 25.0);  // above the highest, 25 µs
        charts.at(RunCharts::Time).resetZoom();
        QVERIFY(cpu->max() >= 60.0);

        // Switched off: CPU submit time on GPU time's axis, in milliseconds.
        charts.setCpuOwnAxis(false);
        QVERIFY(!cpu->isVisible());
        QCOMPARE(cpu->min(), gpu->min());
        QCOMPARE(cpu->max(), gpu->max());
        QCOMPARE(line->at(0).y(), report.runs.cpuSubmitMs(std::size_t(line->at(0).x())));
        QVERIFY(!charts.look().cpuOwnAxis);
        charts.setCpuOwnAxis(true);
        QVERIFY(cpu->isVisible());
        QCOMPARE(line->at(0).y(), report.runs.cpuSubmitMs(std::size_t(line->at(0).x())) * 1000.0);
    }

    void anExportsLinesGrowWithIt()
    {
        // Only an overlay, so that every line of GPU time's colour in the picture is the overlay's.
        SavedRun saved;
        saved.report = classicReport(3000);
        saved.label = "saved";
        RunCharts charts;
        charts.setStyle(RunCharts::Style::Lines);
        charts.setOverlays({ &saved });
        auto overlayWidths = [&charts] {
            std::vector<double> widths;
            for (QAbstractSeries* s : charts.chart(RunCharts::Time)->series()) {
                if (const auto* line = qobject_cast<QLineSeries*>(s); line && line->name() == "saved")
                    widths.push_back(line->pen().widthF());
            }
            return widths;
        };
        const std::vector<double> onScreen = overlayWidths();
        QVERIFY(onScreen.size() >= 2);
        charts.setPixelScale(4.0);
        const std::vector<double> scaled = overlayWidths();
        QCOMPARE(scaled.size(), onScreen.size());
        for (std::size_t i = 0; i < scaled.size(); ++i)
            QVERIFY2(scaled[i] >= 4.0 * onScreen[i], qPrintable(QString("%1 vs %2").arg(scaled[i]).arg(onScreen[i])));
        charts.setPixelScale(1.0);
        QCOMPARE(overlayWidths(), onScreen);

        // A 3200 x 1800 picture shown 800 pixels wide still shows the overlay's line in its colour.
        QTemporaryDir dir;
        const QString path = dir.filePath("overlay.png");
        QVERIFY(exportChart(Report {}, {}, nullptr, { &saved }, RunCharts::Time, path, QSize(3200, 1800),
            { RunCharts::Style::Lines, true })
                    .isEmpty());
        const QImage small = QImage(path).scaledToWidth(800, Qt::SmoothTransformation);
        const int shown = pixelsNear(small, gpuTimeColour(), 60);
        QVERIFY2(shown > 150, qPrintable(QString::number(shown)));
    }

    void theChartsMayOutliveTheirViews()
    {
        // A view's scene owns the chart and every series in it, "this run"'s legend entry included once an overlay
        // needs it: the charts, gone before them, must not touch it again.
        auto charts = std::make_unique<RunCharts>();
        auto view = std::make_unique<ChartView>(charts->at(RunCharts::Time));
        SavedRun other;
        other.report = classicReport(40);
        other.label = "other";
        charts->setOverlays({ &other });
        charts->setRuns(classicReport(30));
        QVERIFY(charts->at(RunCharts::Time).legendNames().contains("this run"));
        view.reset();
        charts.reset();  // crashed here, or under AddressSanitizer reported a use after free
    }

    void aGrowingSeriesIsReadRunByRun()
    {
        RunCharts charts;
        Report report = classicReport(1000);
        charts.setRuns(report);
        QCOMPARE(charts.at(RunCharts::Time).pointCount(), 1000);
        const Report more = classicReport(1500);
        report.runs.append(more.runs, 1000, more.runs.size());
        charts.setRuns(report);
        QCOMPARE(charts.at(RunCharts::Time).pointCount(), 1500);
        QCOMPARE(charts.at(RunCharts::Stages).pointCount(), 1500);
        QCOMPARE(axis(charts.chart(RunCharts::Time), Qt::Horizontal)->max(), 1499.5);

        // Another series of as many runs (another plan, a saved run opened) is read again whole.
        Report other = classicReport(1500);
        for (std::size_t i = 0; i < other.runs.size(); ++i)
            other.runs.update(i, [](RunResult& run) { run.gpuMs += 1.0; });
        charts.setRuns(other);
        QCOMPARE(charts.at(RunCharts::Time).pointCount(), 1500);
        QCOMPARE(gpuLine(charts)->at(0).y(), other.runs[1].gpuMs);  // the first measured run
        charts.setRuns(classicReport(10));
        QCOMPARE(charts.at(RunCharts::Time).pointCount(), 10);
        QCOMPARE(charts.at(RunCharts::Time).drawnCount(), 9);  // run 0, the warm-up, is a mark
        charts.setRuns(Report {});
        QCOMPARE(charts.at(RunCharts::Time).pointCount(), 0);
    }

    // A saved run's points are read with its file, off the GUI thread: the charts draw them as they are, shared, and
    // read the runs themselves when the points are of other runs.
    void preparedPointsAreDrawnAsTheyAre()
    {
        Report report = classicReport(3000);
        report.runs.update(1234, [](RunResult& run) { run.gpuMs = kSpikeMs; });
        auto prepared = std::make_shared<SeriesPoints>();
        std::thread([&] { prepared->update(report.runs); }).join();
        QVERIFY(prepared->isOf(report.runs));
        RunCharts charts;
        charts.setStyle(RunCharts::Style::Lines);
        charts.setRuns(report, {}, prepared);
        QCOMPARE(prepared.use_count(), 2L);  // shared, not copied
        QCOMPARE(charts.at(RunCharts::Time).pointCount(), 3000);
        QVERIFY(draws(gpuLine(charts), 1234, kSpikeMs));
        QCOMPARE(axis(charts.chart(RunCharts::Time), Qt::Horizontal)->max(), 2999.5);

        Report other = classicReport(3000);
        for (std::size_t i = 0; i < other.runs.size(); ++i)
            other.runs.update(i, [](RunResult& run) { run.gpuMs += 1.0; });
        QVERIFY(!prepared->isOf(other.runs));
        charts.setRuns(other, {}, prepared);
        QCOMPARE(prepared.use_count(), 1L);
        QCOMPARE(charts.at(RunCharts::Time).pointCount(), 3000);
        QCOMPARE(gpuLine(charts)->at(0).y(), other.runs[1].gpuMs);  // the first measured run
        QVERIFY(!draws(gpuLine(charts), 1234, kSpikeMs));

        // A measured series after a saved one is read as its runs arrive.
        charts.setRuns(report, {}, prepared);
        charts.setRuns(classicReport(10));
        QCOMPARE(charts.at(RunCharts::Time).pointCount(), 10);
    }

    // A series being measured has room for all its runs from its start (the session reserves them); its points are
    // given as much at its first refresh, so that they are never copied to grow on the window's thread.
    void aGrowingSeriesHasRoomForItsPointsFromTheStart()
    {
        RunStore runs;
        runs.reserve(50000);
        const Report first = classicReport(10);
        runs.append(first.runs);
        SeriesPoints points;
        QVERIFY(points.update(runs));
        for (int c = 0; c < SeriesPoints::kChartCount; ++c) {
            for (const LinePoints& line : points.lines(SeriesPoints::Chart(c)).points)
                QVERIFY(line.capacity() >= 50000);
        }
    }

    void newRunsAreTheRunsNotReadYet()
    {
        NewRuns read;
        RunStore runs = classicReport(100).runs;
        QCOMPARE(read.firstUnread(runs), std::size_t(0));
        read.read(runs);
        QCOMPARE(read.firstUnread(runs), std::size_t(100));
        const Report more = classicReport(130);
        runs.append(more.runs, 100, more.runs.size());
        QCOMPARE(read.firstUnread(runs), std::size_t(100));
        read.read(runs);
        QCOMPARE(read.firstUnread(runs), std::size_t(130));

        // Another run where one was read: the first, one at a power of two, the last; or fewer runs.
        for (const std::size_t changed : { std::size_t(0), std::size_t(63), std::size_t(129) }) {
            RunStore other = runs;
            other.update(changed, [](RunResult& run) { run.gpuMs += 0.5; });
            QCOMPARE(read.firstUnread(other), std::size_t(0));
        }
        runs.pop_back();
        QCOMPARE(read.firstUnread(runs), std::size_t(0));
        read.read(runs);
        QCOMPARE(read.firstUnread(runs), std::size_t(129));
        read.read({});
        QCOMPARE(read.count(), std::size_t(0));
    }
};

QTEST_MAIN(RunChartsTest)
#include "run_charts_test.moc"

// The Distribution tab: histograms whose bins count every measured run once (warm-ups left out), median and p95
// lines where the statistics put them, an overlay's histogram beside the current one on the same bins, a growing
// series read run by run to the same result as a whole one, bins fitted to the data (Freedman–Diaconis, round
// edges, far outliers left out and counted), and the tab in the window, caught up when shown and exported. Runs are
// invented (tests/fakes), not measured.
#include "classic_runs.hpp"
#include "fake_backend.hpp"

#include "gui/charts/distribution_panel.hpp"
#include "gui/app/file_actions.hpp"
#include "gui/series/histogram.hpp"
#include "gui/app/main_window.hpp"
#include "gui/series/nice_ticks.hpp"
#include "gui/session/session_model.hpp"
#include "gui/series/sorted_times.hpp"

#include "engine/model/statistics.hpp"

#include <QChartView>
#include <QGraphicsTextItem>
#include <QFontMetricsF>
#include <QImage>
#include <QLegend>
#include <QPalette>
#include <QPushButton>
#include <QScatterSeries>
#include <QSettings>
#include <QSignalSpy>
#include <QSpinBox>
#include <QTabWidget>
#include <QTemporaryDir>
#include <QTest>
#include <QValueAxis>

#include <algorithm>
#include <cmath>
#include <memory>
#include <optional>
#include <thread>

using namespace asyncscope;
using asyncscope::testing::classicReport;
using asyncscope::testing::FakeBackend;

namespace {

constexpr DistributionCharts::Kind kKinds[] = { DistributionCharts::GpuTime, DistributionCharts::CpuSubmit };

std::vector<double> measured(const Report& report, DistributionCharts::Kind kind)
{
    std::vector<double> values;
    const RunStore& runs = report.runs;
    for (std::size_t i = 0; i < runs.size(); ++i) {
        if (!runs.warmup(i))
            values.push_back(kind == DistributionCharts::GpuTime ? runs.gpuMs(i) : runs.cpuSubmitMs(i));
    }
    return values;
}

// Each value's bin found one by one, for comparison with the counts from sorted values.
Histogram countOneByOne(const std::vector<double>& values, const HistogramBins& bins)
{
    Histogram h;
    h.bins = bins;
    h.counts.assign(std::size_t(bins.count), 0);
    for (const double v : values) {
        if (v < bins.low)
            ++h.below;
        else if (v > bins.high())
            ++h.above;
        else
            ++h.counts[std::size_t(bins.binOf(v))];
    }
    return h;
}

bool niceWidth(double width)
{
    const double m = width / std::pow(10.0, std::floor(std::log10(width) + 1e-9));
    return std::fabs(m - 1.0) < 1e-6 || std::fabs(m - 2.0) < 1e-6 || std::fabs(m - 5.0) < 1e-6;
}

SavedRun savedSlower(std::size_t runs, double slowerMs, const QString& label)
{
    SavedRun saved;
    saved.report = classicReport(runs);
    for (std::size_t i = 0; i < saved.report.runs.size(); ++i)
        saved.report.runs.update(i, [slowerMs](RunResult& r) { r.gpuMs += slowerMs; });
    saved.label = label;
    return saved;
}

// Whether both show the same current series: `runs` measured runs in the same bins, the same median and p95.
bool sameCurrent(const DistributionCharts& a, const DistributionCharts& b, std::size_t runs)
{
    for (const auto kind : kKinds) {
        if (a.measuredRuns(kind) != runs || b.measuredRuns(kind) != runs ||
            a.histogram(kind, 0).counts != b.histogram(kind, 0).counts || a.medianMarker(kind) != b.medianMarker(kind) ||
            a.p95Marker(kind) != b.p95Marker(kind))
            return false;
    }
    return true;
}

// The series that shows a marker line's name on the plot.
const QScatterSeries* labelOf(const QChart* chart, const QString& name)
{
    for (const QAbstractSeries* s : chart->series()) {
        const auto* label = qobject_cast<const QScatterSeries*>(s);
        if (label && label->pointLabelsFormat() == name)
            return label;
    }
    return nullptr;
}

// Where the marker line named `prefix…` ("median ", "p95 ") stands and where its name spans, in pixels from the plot's
// left edge; nothing where the chart has no such line or name.
struct NamedLine {
    double linePx = 0.0;
    double leftPx = 0.0;
    double rightPx = 0.0;
};
std::optional<NamedLine> namedLine(const QChart* chart, const QString& prefix)
{
    const auto* x = qobject_cast<QValueAxis*>(chart->axes(Qt::Horizontal).first());
    const double pixelsPerMs = chart->plotArea().width() / (x->max() - x->min());
    for (QAbstractSeries* series : chart->series()) {
        const auto* line = qobject_cast<const QLineSeries*>(series);
        if (!line || !line->name().startsWith(prefix) || line->count() != 2)
            continue;
        const QScatterSeries* label = labelOf(chart, line->name());
        if (!label || label->count() != 1)
            return std::nullopt;
        const double halfPx = QFontMetricsF(label->pointLabelsFont()).horizontalAdvance(label->pointLabelsFormat()) / 2;
        const double centrePx = (label->at(0).x() - x->min()) * pixelsPerMs;
        return NamedLine { (line->at(1).x() - x->min()) * pixelsPerMs, centrePx - halfPx, centrePx + halfPx };
    }
    return std::nullopt;
}

}  // namespace

class DistributionPanelTest : public QObject {
    Q_OBJECT
private slots:
    void initTestCase()
    {
        QCoreApplication::setOrganizationName("AsyncScopeTests");
        QCoreApplication::setApplicationName("DistributionPanelTest");
        QSettings().clear();
    }

    void binsCountEveryMeasuredRunOnce()
    {
        Report report = classicReport(5000);  // run 0 is a warm-up
        report.runs.update(0, [](RunResult& r) { r.gpuMs = 50.0; });  // a slow warm-up: left out, not counted
        DistributionCharts charts;
        charts.setRuns(report);
        for (const auto kind : kKinds) {
            const std::vector<double> values = measured(report, kind);
            QCOMPARE(charts.measuredRuns(kind), std::size_t(4999));
            QCOMPARE(charts.histogramCount(kind), std::size_t(1));
            const Histogram& h = charts.histogram(kind, 0);
            QCOMPARE(h.total(), std::size_t(4999));
            QCOMPARE(h.below + h.above, std::size_t(0));  // no far outliers here: every run in a bin
            const Histogram direct = countOneByOne(values, h.bins);
            QCOMPARE(h.counts, direct.counts);
            QVERIFY(h.bins.count >= 5 && h.bins.count <= kMostBins);
            QVERIFY2(niceWidth(h.bins.width), qPrintable(QString::number(h.bins.width)));
            QVERIFY(std::fabs(h.bins.low / h.bins.width - std::round(h.bins.low / h.bins.width)) < 1e-6);
            // The bars: a step line over the bins, up to each bin's share.
            const QList<QPointF> steps = charts.bars(kind)->upperSeries()->points();
            QCOMPARE(steps.size(), qsizetype(2 * h.bins.count + 2));
            double shares = 0.0;
            for (int i = 0; i < h.bins.count; ++i)
                shares += steps[1 + 2 * i].y();
            QVERIFY(std::fabs(shares - 100.0) < 1e-6);
        }
        QVERIFY(charts.chart(DistributionCharts::GpuTime)->title().startsWith("GPU time<br>4999 measured runs"));

        // Runs that waited for something, far beyond the rest: counted, named in the title, not drawn.
        for (const std::size_t slow : { 100, 2000, 3000 })
            report.runs.update(slow, [](RunResult& r) { r.gpuMs = 9.0; });
        DistributionCharts outliers;
        outliers.setRuns(report);
        const Histogram& h = outliers.histogram(DistributionCharts::GpuTime, 0);
        QCOMPARE(h.above, std::size_t(3));
        QCOMPARE(h.total(), std::size_t(4999));
        QVERIFY(h.bins.high() < 3.0);
        QVERIFY2(outliers.chart(DistributionCharts::GpuTime)->title().contains("<br>3 above "),
            qPrintable(outliers.chart(DistributionCharts::GpuTime)->title()));
    }

    void medianAndP95LinesStandAtTheStatistics()
    {
        const Report report = classicReport(3001);
        DistributionCharts charts;
        QVERIFY(!charts.medianMarker(DistributionCharts::GpuTime));  // nothing measured: no line
        charts.setRuns(report);
        for (const auto kind : kKinds) {
            const Summary s = summarize(measured(report, kind));
            QCOMPARE(*charts.medianMarker(kind), s.median);
            QCOMPARE(*charts.p95Marker(kind), s.p95);
            // Each line is named on the plot, at its top: "median 2.5071 ms", "p95 2.5409 ms".
            const std::pair<QString, double> lines[] = { { "median ", s.median }, { "p95 ", s.p95 } };
            for (const auto& [prefix, at] : lines) {
                const auto series = charts.chart(kind)->series();
                const auto line = std::find_if(series.begin(), series.end(),
                    [&](QAbstractSeries* x) { return x->name().startsWith(prefix) && x->isVisible(); });
                QVERIFY2(line != series.end(), qPrintable(prefix));
                const auto* marker = qobject_cast<QLineSeries*>(*line);
                QCOMPARE(marker->count(), 2);
                QCOMPARE(marker->at(1).x(), at);
                QVERIFY(marker->at(1).y() > marker->at(0).y());
                const QScatterSeries* label = labelOf(charts.chart(kind), marker->name());
                QVERIFY2(label, qPrintable(marker->name()));
                QCOMPARE(label->count(), 1);
                QCOMPARE(label->at(0).y(), marker->at(1).y());
                QVERIFY(label->pointLabelsVisible());
                const int decimals = niceDecimals(charts.histogram(kind, 0).bins.width) + 1;  // finer than a bin
                QCOMPARE(marker->name(), prefix + QString::number(at, 'f', decimals) + " ms");
            }
        }
    }

    // A chart as narrow as the tab's at 800 × 600 (about 200 px) shows its title whole, a line for each part, and its
    // value axis's title whole: nothing is cut with "...".
    void aNarrowChartsTitlesAreWhole()
    {
        Report report = classicReport(2001);
        for (const std::size_t slow : { 100, 900 })
            report.runs.update(slow, [](RunResult& r) { r.gpuMs = 9.0; });
        DistributionCharts charts;
        QChartView view(charts.chart(DistributionCharts::GpuTime));
        view.resize(210, 430);
        view.show();
        QVERIFY(QTest::qWaitForWindowExposed(&view));
        charts.setRuns(report, QStringLiteral("saved: h200-noise · H200"));
        QTest::qWait(20);  // laid out
        QStringList shown;
        for (QGraphicsItem* item : view.scene()->items()) {
            if (auto* text = dynamic_cast<QGraphicsTextItem*>(item); text && text->isVisible())
                shown << text->toPlainText();
        }
        QString all = shown.join(" | ");  // the title's lines joined by "/"
        all.replace(QChar::LineSeparator, QLatin1Char('/')).replace(QLatin1Char('\n'), QLatin1Char('/'));
        for (const char* whole : { "GPU time", "2000 measured runs", "above", "(not drawn)", "saved: h200-noise/H200" })
            QVERIFY2(all.contains(whole), qPrintable(whole + QStringLiteral(" not in: ") + all));
        QVERIFY2(!all.contains("..."), qPrintable(all));
    }

    // A line near the plot's edge is named inside the plot, beside it rather than over the axis's labels.
    void theLinesNamesStayInsideThePlot()
    {
        // Most runs at the bins' low edge, a long tail: the median stands at the left edge of the plot.
        Report report = classicReport(2001);
        for (std::size_t i = 0; i < report.runs.size(); ++i)
            report.runs.update(
                i, [i](RunResult& r) { r.gpuMs = i % 10 == 0 ? 2.5 + 0.5 * double(i % 100) / 100.0 : 2.5; });
        DistributionCharts charts;
        QChartView view(charts.chart(DistributionCharts::GpuTime));
        view.resize(420, 320);
        view.show();
        QVERIFY(QTest::qWaitForWindowExposed(&view));
        charts.setRuns(report);
        QTest::qWait(20);  // laid out
        const QChart* chart = charts.chart(DistributionCharts::GpuTime);
        const auto* x = qobject_cast<QValueAxis*>(chart->axes(Qt::Horizontal).first());
        const double pixelsPerMs = chart->plotArea().width() / (x->max() - x->min());
        const double median = *charts.medianMarker(DistributionCharts::GpuTime);
        QVERIFY2((median - x->min()) * pixelsPerMs < 20.0, qPrintable(QString::number(median)));  // at the edge
        for (const char* prefix : { "median ", "p95 " }) {
            const auto named = namedLine(chart, prefix);
            QVERIFY2(named, prefix);
            QVERIFY2(named->leftPx >= 0.0 && named->rightPx <= chart->plotArea().width(),
                qPrintable(QString("%1: %2 to %3 px of %4")
                               .arg(prefix)
                               .arg(named->leftPx)
                               .arg(named->rightPx)
                               .arg(chart->plotArea().width())));
        }
    }

    // The median's and the p95's names sit beside their lines, never crossed by them: a line near the plot's right
    // edge is named to its left.
    void theLinesNamesAreNotStruckThroughByTheirLines()
    {
        Report spread = classicReport(2001);  // runs spread evenly: the lines in the middle of the plot
        for (std::size_t i = 0; i < spread.runs.size(); ++i)
            spread.runs.update(i, [i](RunResult& r) { r.gpuMs = 2.0 + double(i % 100) / 200.0; });
        Report high = classicReport(2001);  // most runs at the top of the bins: the lines near the right edge
        for (std::size_t i = 0; i < high.runs.size(); ++i)
            high.runs.update(i, [i](RunResult& r) { r.gpuMs = i % 10 == 0 ? 2.0 + double(i % 100) / 200.0 : 2.5; });
        for (const auto& [report, size] : { std::pair { spread, QSize(420, 320) }, std::pair { spread, QSize(900, 500) },
                 std::pair { high, QSize(420, 320) }, std::pair { high, QSize(900, 500) } }) {
            DistributionCharts charts;
            QChartView view(charts.chart(DistributionCharts::GpuTime));
            view.resize(size);
            view.show();
            QVERIFY(QTest::qWaitForWindowExposed(&view));
            charts.setRuns(report);
            QTest::qWait(20);  // laid out
            const QChart* chart = charts.chart(DistributionCharts::GpuTime);
            for (const char* prefix : { "median ", "p95 " }) {
                const auto named = namedLine(chart, prefix);
                QVERIFY2(named, prefix);
                QVERIFY2(named->rightPx < named->linePx || named->leftPx > named->linePx,
                    qPrintable(QString("%1 from %2 to %3 px, its line at %4 px")
                                   .arg(prefix)
                                   .arg(named->leftPx)
                                   .arg(named->rightPx)
                                   .arg(named->linePx)));
                QVERIFY(named->leftPx >= 0.0 && named->rightPx <= chart->plotArea().width());
            }
        }
    }

    // Over a dark chart the legend's entry of the series shown has the bars' colour, not a translucent black.
    void theLegendShowsTheBarsColourOnADarkChart()
    {
        DistributionCharts charts;
        QPalette dark;
        dark.setColor(QPalette::Window, QColor(40, 40, 40));
        charts.applyPalette(dark);
        charts.setRuns(classicReport(2000));
        const SavedRun slower = savedSlower(800, 0.3, "a100-run · A100");
        charts.setOverlays({ &slower });
        QChartView view(charts.chart(DistributionCharts::GpuTime));
        view.resize(600, 400);
        view.show();
        QVERIFY(QTest::qWaitForWindowExposed(&view));
        QTest::qWait(20);
        const QChart* chart = charts.chart(DistributionCharts::GpuTime);
        const QImage picture = view.grab().toImage();
        const QRect legend = chart->legend()->geometry().toAlignedRect().intersected(picture.rect());
        QVERIFY(!legend.isEmpty());
        const QColor bars = charts.bars(DistributionCharts::GpuTime)->borderColor();
        int near = 0;
        for (int y = legend.top(); y <= legend.bottom(); ++y) {
            for (int px = legend.left(); px <= legend.right(); ++px) {
                const QColor c = picture.pixelColor(px, y);
                near += std::abs(c.red() - bars.red()) + std::abs(c.green() - bars.green()) +
                                std::abs(c.blue() - bars.blue()) < 40 ? 1 : 0;
            }
        }
        QVERIFY2(near >= 20, qPrintable(QString("%1 pixels of %2 in the legend").arg(near).arg(bars.name())));
    }

    void anOverlayAppearsBesideOnTheSameBins()
    {
        DistributionCharts charts;
        charts.setRuns(classicReport(2000));
        const SavedRun saved = savedSlower(800, 0.3, "a100-run · A100");
        charts.setOverlays({ &saved });
        const auto kind = DistributionCharts::GpuTime;
        QCOMPARE(charts.histogramCount(kind), std::size_t(2));
        const Histogram& current = charts.histogram(kind, 0);
        const Histogram& overlay = charts.histogram(kind, 1);
        QCOMPARE(overlay.bins.low, current.bins.low);
        QCOMPARE(overlay.bins.width, current.bins.width);
        QCOMPARE(overlay.bins.count, current.bins.count);
        QCOMPARE(overlay.total(), std::size_t(799));
        QCOMPARE(current.total(), std::size_t(1999));
        QCOMPARE(overlay.below + overlay.above + current.below + current.above, std::size_t(0));
        // Its histogram lies to the right of the current one: both are drawn, each in its own range of bins.
        const double currentTop = sortedPercentile(
            [&] { auto v = measured(classicReport(2000), kind); std::sort(v.begin(), v.end()); return v; }(), 1.0);
        QVERIFY(current.bins.binOf(currentTop) < overlay.bins.binOf(currentTop + 0.3));
        QLineSeries* step = nullptr;
        for (QAbstractSeries* series : charts.chart(kind)->series()) {
            if (series->name() == saved.label)
                step = qobject_cast<QLineSeries*>(series);
        }
        QVERIFY(step);
        QCOMPARE(step->count(), 2 * current.bins.count + 2);
        QVERIFY(step->pen().color() != charts.bars(kind)->borderColor());  // a colour of its own
        const QStringList legend = charts.legendNames(kind);
        QVERIFY2(legend.contains("this run") && legend.contains(saved.label), qPrintable(legend.join(" | ")));
        QVERIFY(charts.describe(kind, *charts.medianMarker(kind)).contains("a100-run · A100"));

        charts.setOverlays({});
        QCOMPARE(charts.histogramCount(kind), std::size_t(1));
        QVERIFY(charts.legendNames(kind).isEmpty());  // one series: nothing to tell apart
        QCOMPARE(charts.bars(kind)->name(), QString("GPU time"));
    }

    void aGrowingSeriesGivesWhatTheWholeOneGives()
    {
        const Report whole = classicReport(3000);
        Report growing = whole;
        growing.runs.resize(1000);
        DistributionCharts charts;
        charts.setRuns(growing);
        for (std::size_t n = 1000; n < whole.runs.size(); n += 250) {
            growing.runs.append(whole.runs, n, n + 250);
            charts.setRuns(growing);
        }
        DistributionCharts fresh;
        fresh.setRuns(whole);
        QVERIFY(sameCurrent(charts, fresh, 2999));
        // Another series in its place is counted whole again.
        const SavedRun other = savedSlower(500, 1.0, "other");
        charts.setRuns(other.report);
        QCOMPARE(charts.measuredRuns(DistributionCharts::GpuTime), std::size_t(499));
        QCOMPARE(*charts.medianMarker(DistributionCharts::GpuTime),
            summarize(measured(other.report, DistributionCharts::GpuTime)).median);
        charts.setRuns(Report {});
        QCOMPARE(charts.measuredRuns(DistributionCharts::GpuTime), std::size_t(0));
        QVERIFY(!charts.p95Marker(DistributionCharts::GpuTime));
    }

    // A saved run's values are sorted as its file is read, off the GUI thread: the charts count them as they are,
    // shared, and read the runs themselves when the values are of other runs.
    void preparedValuesAreCountedAsTheyAre()
    {
        const Report report = classicReport(3000);
        auto prepared = std::make_shared<SortedTimes>();
        std::thread([&] { prepared->update(report.runs); }).join();
        QVERIFY(prepared->isOf(report.runs));
        QVERIFY(std::is_sorted(prepared->values(SortedTimes::GpuTime).begin(),
            prepared->values(SortedTimes::GpuTime).end()));
        DistributionCharts charts;
        charts.setRuns(report, {}, prepared);
        QCOMPARE(prepared.use_count(), 2L);  // shared, not copied
        DistributionCharts fresh;
        fresh.setRuns(report);
        QVERIFY(sameCurrent(charts, fresh, 2999));

        const SavedRun other = savedSlower(500, 1.0, "other");
        QVERIFY(!prepared->isOf(other.report.runs));
        charts.setRuns(other.report, {}, prepared);
        QCOMPARE(prepared.use_count(), 1L);
        QCOMPARE(charts.measuredRuns(DistributionCharts::GpuTime), std::size_t(499));
    }

    void binsFitTheData()
    {
        // Evenly spread values in [0, 1): IQR 0.5, n = 1000, so 2 × 0.5 / 10 = 0.1 wide.
        std::vector<double> even;
        for (int i = 0; i < 1000; ++i)
            even.push_back(i / 1000.0);
        HistogramBins bins = fitBins({ &even });
        QCOMPARE(bins.width, 0.1);
        QCOMPARE(bins.low, 0.0);
        QCOMPARE(bins.count, 10);
        QCOMPARE(countSorted(even, bins).counts, std::vector<std::size_t>(10, 100));

        // A far outlier would take thousands of bins: left out and counted above.
        std::vector<double> spiky = even;
        spiky.push_back(5000.0);
        bins = fitBins({ &spiky });
        QVERIFY(bins.count <= kMostBins);
        const Histogram h = countSorted(spiky, bins);
        QCOMPARE(h.above, std::size_t(1));
        QCOMPARE(h.total(), spiky.size());

        // All equal: one bin around them. Nothing at all: no counts.
        const std::vector<double> same(50, 2.5);
        bins = fitBins({ &same });
        QCOMPARE(bins.count, 1);
        QVERIFY(bins.low <= 2.5 && bins.high() >= 2.5);
        QCOMPARE(countSorted(same, bins).counts, std::vector<std::size_t> { 50 });
        const std::vector<double> none;
        bins = fitBins({ &none });
        QCOMPARE(countSorted(none, bins).total(), std::size_t(0));
        const std::vector<double> zeros(3, 0.0);
        QCOMPARE(countSorted(zeros, fitBins({ &zeros })).counts.front(), std::size_t(3));

        // A few runs and a wide range: never more bins than allowed, a value on the last edge counted.
        const std::vector<double> wide { 0.001, 0.5, 2.0, 9.0, 10.0 };
        bins = fitBins({ &wide }, 4);
        QVERIFY(bins.count <= 4);
        QCOMPARE(countSorted(wide, bins).total(), wide.size());
    }

    void theWindowsTabCatchesUpWhenShownAndExports()
    {
        MainWindow window(std::make_shared<FakeBackend>());
        window.show();
        QVERIFY(QTest::qWaitFor([&] { return window.runEnabled(); }, 5000));
        window.findChild<QSpinBox*>("runs")->setValue(60);
        window.findChild<QSpinBox*>("warmup")->setValue(3);
        QSignalSpy ended(&window, &MainWindow::planEnded);
        window.findChild<QPushButton*>("run")->click();
        QVERIFY(ended.wait(60000));

        auto* panel = window.findChild<DistributionPanel*>();
        QVERIFY(panel);
        auto* tabs = window.findChild<QTabWidget*>();
        QCOMPARE(tabs->tabText(tabs->indexOf(panel)), QString("Distribution"));
        QCOMPARE(panel->charts().measuredRuns(DistributionCharts::GpuTime), std::size_t(0));  // hidden: no work
        tabs->setCurrentWidget(panel);
        QCOMPARE(panel->charts().measuredRuns(DistributionCharts::GpuTime), std::size_t(60));
        const Summary gpu = summarize(measured(window.session().report(), DistributionCharts::GpuTime));
        QCOMPARE(*panel->charts().medianMarker(DistributionCharts::GpuTime), gpu.median);
        QCOMPARE(*panel->charts().p95Marker(DistributionCharts::GpuTime), gpu.p95);

        // File › Export picture, with this tab shown, writes both histograms; the tab's own buttons go that way too.
        QTemporaryDir dir;
        QSignalSpy done(&window.files(), &FileActions::done);
        const QString png = dir.filePath("distribution.png");
        QVERIFY(window.files().exportPictureTo(png, QSize(1600, 700)));
        QCOMPARE(done.count(), 1);
        QCOMPARE(QImage(png).size(), QSize(1600, 700));
        const QString svg = dir.filePath("distribution.svg");
        QVERIFY(window.files().exportPictureTo(svg, QSize(1600, 700)));
        QFile file(svg);
        QVERIFY(file.open(QIODevice::ReadOnly));
        const QByteArray drawn = file.readAll();
        QVERIFY(drawn.contains("<svg"));
        QVERIFY(drawn.contains("GPU time"));
        QSignalSpy problem(&window.files(), &FileActions::problem);
        QVERIFY(!window.files().exportPictureTo(dir.filePath("distribution.nope"), QSize(1600, 700)));
        QCOMPARE(problem.count(), 1);
        window.close();
    }
};

QTEST_MAIN(DistributionPanelTest)
#include "distribution_panel_test.moc"

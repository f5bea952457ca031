// Benchmark (not a test): what redrawing a long series costs the window's thread. Builds a series of the classic
// pipeline (tests/fakes/classic_runs.hpp), shows it in the run charts and the distributions as the window does, then
// times a first read of every run, refreshes as runs arrive (the session model's ten a second), a zoom, painting the
// time chart at a window's size, and painting it with a noisier copy of the runs overlaid; prints milliseconds per
// step.
// Usage: QT_QPA_PLATFORM=offscreen asyncscope_bench_chart_redraw [runs] [automatic|lines|density]
// (1000000 runs, automatic by default: density for a long series; lines draws each column's lowest and highest run)
#include "classic_runs.hpp"

#include "gui/charts/chart_view.hpp"
#include "gui/charts/distribution_charts.hpp"
#include "gui/charts/run_charts.hpp"
#include "gui/series/saved_run.hpp"
#include "gui/series/series_points.hpp"

#include <QApplication>
#include <QElapsedTimer>
#include <QImage>
#include <QPainter>
#include <QTabWidget>

#include <cstdio>
#include <cstdlib>
#include <memory>
#include <string>
#include <vector>

using namespace asyncscope;

namespace {

double msSince(const QElapsedTimer& clock)
{
    return double(clock.nsecsElapsed()) / 1e6;
}

}  // namespace

int main(int argc, char** argv)
{
    QApplication app(argc, argv);
    const long runs = argc > 1 ? std::strtol(argv[1], nullptr, 10) : 1000000;
    constexpr long kArriving = 1000;  // runs that arrive between two refreshes (10 000 runs/s at ten refreshes/s)
    constexpr int kRefreshes = 20;
    const std::string style = argc > 2 ? argv[2] : "automatic";
    if (runs < 1 || (style != "automatic" && style != "lines" && style != "density")) {
        std::fprintf(stderr, "usage: asyncscope_bench_chart_redraw [runs] [automatic|lines|density]\n");
        return 2;
    }
    QElapsedTimer clock;
    clock.start();
    const Report whole = testing::classicReport(std::size_t(runs + kArriving * kRefreshes));
    Report report = whole;
    report.runs.resize(std::size_t(runs));
    std::printf("%ld runs built in %.0f ms\n", runs, msSince(clock));

    // As in the window: each chart in a view of its own tab, the time chart's shown; the distributions on a tab
    // of their own, shown while their refresh is timed.
    RunCharts charts;
    charts.setStyle(style == "lines" ? RunCharts::Style::Lines
            : style == "density"     ? RunCharts::Style::Density
                                     : RunCharts::Style::Automatic);
    QTabWidget tabs;
    for (int k = 0; k < RunCharts::kKindCount; ++k)
        tabs.addTab(new ChartView(charts.at(RunCharts::Kind(k))), RunCharts::title(RunCharts::Kind(k)));
    auto* time = qobject_cast<ChartView*>(tabs.widget(RunCharts::Time));
    tabs.resize(1280, 720);
    tabs.show();
    app.processEvents();
    DistributionCharts distributions;

    clock.restart();
    charts.setRuns(report);
    app.processEvents();
    std::printf("run charts, first read of every run:   %8.1f ms (%d points of %d drawn, %s)\n", msSince(clock),
        charts.at(RunCharts::Time).drawnCount(), charts.at(RunCharts::Time).pointCount(),
        charts.at(RunCharts::Time).densityShown() ? "density" : "lines");
    clock.restart();
    distributions.setRuns(report);
    std::printf("distributions, first read:             %8.1f ms\n", msSince(clock));

    double chartsMs = 0.0, distributionsMs = 0.0, paintMs = 0.0;
    QImage image(time->size(), QImage::Format_ARGB32_Premultiplied);
    for (int i = 0; i < kRefreshes; ++i) {
        const std::size_t from = report.runs.size();
        report.runs.append(whole.runs, from, from + kArriving);
        clock.restart();
        charts.setRuns(report);
        chartsMs += msSince(clock);
        clock.restart();
        distributions.setRuns(report);
        distributionsMs += msSince(clock);
        clock.restart();
        {
            QPainter painter(&image);
            time->render(&painter);
        }
        paintMs += msSince(clock);
    }
    std::printf("run charts, refresh with %ld new runs:  %8.2f ms (the time chart shown)\n", kArriving,
        chartsMs / kRefreshes);
    std::printf("distributions, refresh:                %8.2f ms (both charts)\n", distributionsMs / kRefreshes);
    std::printf("painting the time chart:               %8.2f ms (%d x %d)\n", paintMs / kRefreshes, time->width(),
        time->height());

    clock.restart();
    charts.chart(RunCharts::Time)->zoomIn();
    app.processEvents();
    std::printf("zoom in (+) and redraw from every run: %8.2f ms\n", msSince(clock));
    clock.restart();
    charts.at(RunCharts::Time).resetZoom();
    std::printf("reset zoom:                            %8.2f ms\n", msSince(clock));
    // An overlay: the same runs, each up to 20 % slower (a noisier machine), drawn as a band of per-column extremes
    // in its line pattern.
    std::vector<SavedRun> overlays(1);  // kept, as the session model keeps its overlays: the points are of these runs
    SavedRun& noisier = overlays.front();
    noisier.label = QStringLiteral("noisier");
    noisier.report = report;
    for (std::size_t i = 0; i < noisier.report.runs.size(); ++i)
        noisier.report.runs.update(i, [i](RunResult& r) { r.gpuMs *= 1.0 + 0.2 * double((i * 7919) % 101) / 100.0; });
    auto points = std::make_shared<SeriesPoints>();  // laid out as the window's reading thread does it
    points->update(noisier.report.runs);
    noisier.prepared.points = std::move(points);
    clock.restart();
    charts.setOverlays({ &noisier });
    app.processEvents();
    std::printf("overlay the runs, 20 %% noisier:        %8.2f ms\n", msSince(clock));
    constexpr int kPaints = 5;
    clock.restart();
    for (int i = 0; i < kPaints; ++i) {
        QPainter painter(&image);
        time->render(&painter);
    }
    std::printf("painting the time chart, overlaid:     %8.2f ms\n", msSince(clock) / kPaints);

    clock.restart();
    tabs.setCurrentIndex(RunCharts::Stages);
    std::printf("showing the stages tab, drawn then:    %8.2f ms\n", msSince(clock));
    return 0;
}

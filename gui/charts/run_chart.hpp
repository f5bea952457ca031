// One of the charts of a series (gui/charts/run_charts.hpp keeps the three): time per run (GPU vs CPU submit,
// warm-ups marked), poll iterations, or stage times; saved runs overlaid with a line pattern of their own. Every run
// is kept (ChartRuns), and each line hands the chart only the lowest and highest point per pixel column of the runs in
// view (chart_decimation): a million runs draw as fast as a thousand. Zooming, scrolling and resizing decimate again
// from every run.
// Where more runs are in view than the plot has pixel columns, the lowest and highest of each column would draw a
// band that hides where the runs are: the chart shows, per column, the median of its runs with shaded p25-p75 and
// p5-p95 bands instead (the density look; a user may ask for lines or density always). Overlays then draw their
// columns' medians in their pattern, without bands, so that medians are compared with medians and the bands of
// several series do not blur into one another.
// CPU submit time (microseconds) has a value axis of its own on the time chart, on the right, fitted to the runs in
// view that are not warm-ups: beside GPU time (milliseconds) on one axis it would be a flat line at 0.
// Its parts, a file each: the chart and the runs it shows (run_chart.cpp), drawing them as lines or as density
// (run_chart_drawing.cpp), how they look (run_chart_look.cpp) and the legend (run_chart_legend), and the zoom
// (run_chart_zoom.cpp).
#pragma once

#include "gui/charts/run_chart_legend.hpp"
#include "gui/charts/run_chart_lines.hpp"
#include "gui/series/series_points.hpp"
#include "gui/series/shown_series.hpp"

#include <QChart>
#include <QList>
#include <QPointer>
#include <QRectF>
#include <QString>
#include <QStringList>
#include <QValueAxis>

#include <functional>
#include <memory>
#include <optional>
#include <utility>
#include <vector>

class QGraphicsView;
class QObject;
class QPalette;

namespace asyncscope {

// What the run charts draw: the current series' points, then each overlay's. Their owner keeps them for all three.
struct ChartRuns {
    ShownSeries<SeriesPoints> current;                            // what the current run's lines draw
    std::vector<std::shared_ptr<const SeriesPoints>> overlays;  // what each overlay's lines draw
    // Run 0 the current one, then the overlays.
    const SeriesPoints::Lines& lines(std::size_t run, SeriesPoints::Chart chart) const
    {
        return (run == 0 ? current.get() : *overlays[run - 1]).lines(chart);
    }
};

class RunChart {
public:
    using Kind = SeriesPoints::Chart;
    static QString title(Kind kind);

    // How the runs are drawn: each run (lines through every column's lowest and highest run), or how the runs of each
    // pixel column are spread (density); automatic: density while the runs in view outnumber the pixel columns.
    enum class Style { Automatic, Lines, Density };

    // The chart of `kind`, drawing from `runs` (which outlives it).
    RunChart(Kind kind, const ChartRuns& runs);
    ~RunChart();  // deletes the chart if no view or scene has taken it
    RunChart(const RunChart&) = delete;
    RunChart& operator=(const RunChart&) = delete;

    Kind kind() const { return m_kind; }
    QChart* chart() const { return m_chart; }

    // After the current runs changed (`changed`) or grew: rescales axes that are not zoomed and redraws
    // (QXYSeries::replace, once per series). The title gets `titleSuffix` (" — saved: h200-5runs · H200"); the
    // legend names the current run and the overlays `keyNames`.
    void showRuns(const QString& titleSuffix, bool changed, const QStringList& keyNames);
    // After the overlays changed: lines for each of them, labelled `labels`, in the legend as `keyNames` (the current
    // run first).
    void setOverlays(const QStringList& labels, const QStringList& keyNames);

    // The zoom (run_chart_zoom.cpp). The run axis shows the runs zoomed into, or every run; the value axes fit the
    // runs in view (from 0 while every run shows, closely once zoomed into runs), unless the user chose their range
    // (a rectangle, the value axis's own zoom or scroll), which stays until the runs in view change by a zoom.
    bool isZoomed() const { return m_runsShown.has_value() || m_valuesChosen; }
    // Back to every run, the value axes fitted again, with tidy ticks.
    void resetZoom();
    // The run axis alone, by `factor` (below 1 zooms in), keeping run `around` where it is on the plot (the middle
    // of the view when none); no fewer than kFewestRuns runs across, and out no further than every run (a step
    // beyond shows every run again). The value axes fit the runs now in view.
    void zoomRuns(double factor, std::optional<double> around = std::nullopt);
    // The value axes alone, by `factor`, keeping the value at `fromBottom` (0 the plot's bottom, 1 its top) in place.
    void zoomValues(double factor, double fromBottom);
    // To the rectangle `area` of the chart (its coordinates, as a drag covers the plot): the runs under it and, unless
    // it is a thin strip (a drag along the runs), the values too.
    void zoomToArea(const QRectF& area);
    // By `fraction` of the range in view: the runs (positive: later ones), or the values (positive: higher ones).
    void scrollRuns(double fraction);
    void scrollValues(double fraction);
    // Zooms into runs `first` to `last` (RunResult::index) with a margin either side, as a drag along them would.
    void zoomToRuns(double first, double last);
    static constexpr double kFewestRuns = 2.0;  // the narrowest the run axis zooms: a run and its neighbours

    // The chart is drawn at `scale` pixels per unit of its size (an export larger than its layout): lines keep that
    // many more points, one pair per pixel column of the picture.
    void setPixelScale(double scale);
    // How the runs are drawn (automatic unless asked otherwise); redraws.
    void setStyle(Style style);
    Style style() const { return m_style; }
    // Whether the chart shows the runs' spread per column now (the style, or in automatic the runs in view).
    bool densityShown() const { return m_density; }
    // The time chart's CPU submit time on a value axis of its own (microseconds, on the right) or on GPU time's
    // (milliseconds). The other charts have no such axis.
    void setCpuOwnAxis(bool own);
    bool cpuOwnAxis() const { return m_cpuOwnAxis; }
    QValueAxis* cpuAxis() const { return m_cpuY; }  // hidden when not its own; null but on the time chart
    // Light or dark, following the palette (the window's, or the system's).
    void applyPalette(const QPalette& palette);
    // A click on a point of the current runs (on the time chart: GPU time, CPU submit time, a warm-up mark) calls
    // `handler` with that run's RunResult::index.
    void onRunClicked(std::function<void(int)> handler);
    // Calls `listener` each time the legend's entries are set anew (what it lists, or their names).
    void onLegendChanged(std::function<void()> listener) { m_legendChanged = std::move(listener); }

    int pointCount() const;  // runs of the chart's first quantity, warm-ups with them (every one, not only those drawn)
    int drawnCount() const;  // points the chart's first series was handed: a few per pixel column at most
    QStringList legendNames() const { return m_legend.names(); }  // the entries the legend lists

private:
    class Context;
    std::function<void()> m_legendChanged;

    // What the chart's series were last drawn from: drawing again for the same is skipped.
    struct Drawn {
        double low = 0.0, high = -1.0;
        int columns = 0;
        unsigned version = 0;
        bool operator==(const Drawn& other) const;
    };

    // The chart and its runs (run_chart.cpp).
    runchart::RunLines addLines(const QString& overlay);  // the series of one run, added to the chart
    std::pair<double, double> allRuns() const;  // the run axis's range showing every run: from run 0 to the last
    QValueAxis* valueAxisOf(std::size_t quantity) const;  // the axis a quantity's lines are drawn against
    double valueScale(std::size_t quantity) const;         // its axis's unit per millisecond or iteration
    void update();  // rescales and draws, unless hidden
    bool hidden();  // in views, none of them shown: updated when one shows
    const SeriesPoints::Lines& pointsOf(std::size_t run) const;  // run 0 the current one, then overlays
    // Drawing (run_chart_drawing.cpp).
    void draw();  // decimates every line of the chart for its x range and width
    bool densityFor(double low, double high, int columns) const;
    // The lowest and highest value drawn in view on a value axis.
    struct Extent {
        double low = 0.0, high = -1.0;  // nothing while low > high
        void take(double lowest, double highest);
    };
    // The value axes fitted to what is drawn in view on each (`cpu`: on CPU submit time's own axis), unless chosen.
    void fitValues(const Extent& values, const Extent& cpu);
    bool fittedOnCpu(std::size_t quantity) const;  // the quantity's values fit CPU submit time's own axis
    int columns() const;  // pixel columns of the plot
    // The look and the legend (run_chart_look.cpp).
    void nameLines();  // "GPU time", or "GPU time median" while the chart shows density
    void restyle();
    void updateLegend();
    // The zoom (run_chart_zoom.cpp).
    void rescale();                      // every run's range; the run axis to it, unless zoomed into runs
    std::vector<QValueAxis*> valueAxes() const;  // the values' axis, and CPU submit time's where it has its own
    // The run axis from `low` to `high`, moved within every run (every run where that wide); draws, fitting the
    // value axes unless the user chose them.
    void setRunAxis(double low, double high);
    void drawLater();                    // once the zoom or resize under way is done

    const Kind m_kind;
    const ChartRuns& m_runs;
    QPointer<QChart> m_chart;
    QValueAxis* m_x = nullptr;
    QValueAxis* m_y = nullptr;
    QValueAxis* m_cpuY = nullptr;  // the time chart's CPU submit axis
    std::vector<runchart::RunLines> m_lines;  // [0] the current run, then one per overlay
    RunChartLegend m_legend;
    QString m_baseTitle;
    std::pair<double, double> m_allRuns { 0.0, 1.0 };  // every run's range, as rescale() last set it
    Drawn m_drawn;
    unsigned m_version = 0;  // counts changes to the chart's lines
    bool m_drawPending = false;
    std::optional<std::pair<double, double>> m_runsShown;  // the runs zoomed into; none: every run
    bool m_valuesChosen = false;  // the user set the value axes' range: they are not fitted
    bool m_density = false;  // as last drawn
    Style m_style = Style::Automatic;
    bool m_cpuOwnAxis = true;
    double m_pixelScale = 1.0;
    bool m_dark = false;
    QList<QPointer<QGraphicsView>> m_watched;  // the views whose Show events draw the chart
    std::unique_ptr<QObject> m_context;        // gets the chart's signals and views' events while this lives
};

}  // namespace asyncscope

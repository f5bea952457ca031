// The charts of a series: time per run (GPU vs CPU submit, warm-ups marked), poll iterations, stage times; saved
// runs overlaid on each with a line pattern of their own. Used by the window (inside chart views) and by the
// exporter (rendered off-screen at a fixed size). Every run is kept here, and each line hands the chart only the
// lowest and highest point per pixel column of the runs in view (chart_decimation): a million runs draw as fast as
// a thousand. Zooming, scrolling and resizing decimate again from every run.
// Where more runs are in view than the plot has pixel columns, the lowest and highest of each column would draw a
// band that hides where the runs are: the charts show, per column, the median of its runs with shaded p25-p75 and
// p5-p95 bands instead (the density look; a user may ask for lines or density always). Overlays then draw their
// columns' medians in their pattern, without bands, so that medians are compared with medians and the bands of
// several series do not blur into one another.
// CPU submit time (microseconds) has a value axis of its own on the time chart, on the right, fitted to the runs in
// view that are not warm-ups: beside GPU time (milliseconds) on one axis it would be a flat line at 0.
#pragma once

#include "gui/charts/spread_line.hpp"
#include "gui/series/saved_run.hpp"
#include "gui/series/series_points.hpp"
#include "gui/series/shown_series.hpp"

#include "engine/model/report.hpp"
#include "engine/model/run_result.hpp"

#include <QAreaSeries>
#include <QChart>
#include <QLineSeries>
#include <QPointer>
#include <QScatterSeries>
#include <QString>
#include <QValueAxis>

#include <array>
#include <functional>
#include <memory>
#include <optional>
#include <utility>
#include <vector>

class QGraphicsView;
class QPalette;

namespace asyncscope {

class RunCharts {
public:
    using Kind = SeriesPoints::Chart;
    static constexpr Kind Time = SeriesPoints::Time;
    static constexpr Kind Polls = SeriesPoints::Polls;
    static constexpr Kind Stages = SeriesPoints::Stages;
    static constexpr int kKindCount = SeriesPoints::kChartCount;
    static QString title(Kind kind);

    // How the runs are drawn: each run (lines through every column's lowest and highest run), or how the runs of each
    // pixel column are spread (density); automatic: density while the runs in view outnumber the pixel columns.
    enum class Style { Automatic, Lines, Density };
    // What a user chose of how the charts look, kept with the window's settings and given to its exports.
    struct Look {
        Style style = Style::Automatic;
        bool cpuOwnAxis = true;
    };

    RunCharts();
    ~RunCharts();  // deletes the charts no view or scene has taken
    RunCharts(const RunCharts&) = delete;
    RunCharts& operator=(const RunCharts&) = delete;

    QChart* chart(Kind kind) const { return m_charts[kind]; }

    // Shows the report's runs, rescales axes that are not zoomed and redraws (QXYSeries::replace, once per series).
    // Runs already shown are not read again as a series grows: a refresh reads the runs that arrived since.
    // `source` names where the runs come from when they are not measured now ("saved: h200-5runs · H200"); the
    // titles name it and the workload's shape when it is not the classic pipeline ("K = 16, S = 4, by chunk").
    // `prepared`, when it holds the points of exactly these runs (a saved run's, read with its file), is drawn as it
    // is and shared, not read again.
    void setRuns(const Report& report, const QString& source = {},
        std::shared_ptr<const SeriesPoints> prepared = nullptr);
    // Saved runs drawn beside the current one, each in its own line pattern, warm-ups marked; their prepared
    // points are used where they have them.
    void setOverlays(const std::vector<SavedRun>& overlays);
    // Back to every run, with tidy ticks.
    void resetZoom(Kind kind);
    // Zooms into runs `first` to `last` (RunResult::index) with a margin either side, the value axis as it is, as a
    // drag over them would (reset shows every run again). A chart not laid out yet zooms once it is.
    void zoomToRuns(Kind kind, double first, double last);
    // The charts are drawn at `scale` pixels per unit of their size (an export larger than its layout): lines keep
    // that many more points, one pair per pixel column of the picture.
    void setPixelScale(double scale);
    // How the runs are drawn (automatic unless asked otherwise); redraws every chart.
    void setStyle(Style style);
    Style style() const { return m_style; }
    // Whether the chart shows the runs' spread per column now (the style, or in automatic the runs in view).
    bool densityShown(Kind kind) const { return m_density[kind]; }
    // CPU submit time on a value axis of its own (microseconds, on the right) or on GPU time's (milliseconds).
    void setCpuOwnAxis(bool own);
    bool cpuOwnAxis() const { return m_cpuOwnAxis; }
    QValueAxis* cpuAxis() const { return m_cpuY; }
    void setLook(const Look& look);
    Look look() const { return { m_style, m_cpuOwnAxis }; }  // the time chart's axis of CPU submit time, hidden when not its own
    // Light or dark, following the palette (the window's, or the system's).
    void applyPalette(const QPalette& palette);
    // A click on a point of the time chart's current runs (GPU time, CPU submit time, a warm-up mark) calls
    // `handler` with that run's RunResult::index.
    void onRunClicked(std::function<void(int)> handler);

    int pointCount(Kind kind) const;  // runs the chart's first line holds (every one, not only those drawn)
    int drawnCount(Kind kind) const;  // points the chart's first series was handed: a few per pixel column at most
    QStringList legendNames(Kind kind) const { return m_legendNames[kind]; }  // the entries the legend lists

private:
    struct Lines;  // the series of one run (the current one or an overlay) on one chart
    class Context;

    // What a chart's series were last drawn from: drawing again for the same is skipped.
    struct Drawn {
        double low = 0.0, high = -1.0;
        int columns = 0;
        unsigned version = 0;
        bool operator==(const Drawn& other) const;
    };

    void build(Kind kind, const QString& yTitle);
    Lines addLines(Kind kind, const QString& overlay);  // the series of one run on one chart, added to it
    QRectF fullRange(Kind kind) const;  // every run's range: from run 0 to the last, from 0 to a tick above the values
    QValueAxis* valueAxisOf(Kind kind, std::size_t quantity) const;  // the axis a quantity's lines are drawn against
    double valueScale(Kind kind, std::size_t quantity) const;         // its axis's unit per millisecond or iteration
    bool densityFor(Kind kind, double low, double high, int columns) const;
    // To the CPU submit times of the runs in view, warm-ups left out, when on its own axis; drawn as density, to
    // `densityTop` µs, the highest of what is drawn.
    void fitCpuAxis(double densityTop = 0.0);
    void nameLines(int kind);  // "GPU time", or "GPU time median" while the chart shows density
    void rescale(Kind kind);             // to the full range, unless zoomed
    void setRange(Kind kind, const QRectF& range);  // x from left to right, y from top to bottom (top the lower)
    int columns(Kind kind) const;                   // pixel columns of the plot
    void draw(Kind kind);                           // decimates every line of the chart for its x range and width
    void update(Kind kind);                         // rescales and draws, unless hidden
    bool hidden(Kind kind);                         // in views, none of them shown: updated when one shows
    void drawLater(Kind kind);                      // once the zoom or resize under way is done
    void applyZoomToRuns(Kind kind);                // the zoom asked for, once the chart has a plot
    void restyle();
    void styleKeys(int kind);  // the legend-only series: a neutral colour and each run's pattern
    void updateLegend();
    void nameKeys();  // the legend's names of the series shown and the overlays, cut where long
    const SeriesPoints::Lines& pointsOf(std::size_t run, Kind kind) const;  // run 0 the current one, then overlays

    std::array<QPointer<QChart>, kKindCount> m_charts;
    std::array<QValueAxis*, kKindCount> m_x {};
    std::array<QValueAxis*, kKindCount> m_y {};
    QValueAxis* m_cpuY = nullptr;  // the time chart's CPU submit axis
    std::array<std::vector<Lines>, kKindCount> m_lines;  // [0] the current run, then one per overlay
    ShownSeries<SeriesPoints> m_current;                              // what the current run's lines draw
    std::vector<std::shared_ptr<const SeriesPoints>> m_overlayPoints;  // what each overlay's lines draw
    // Legend entry "this run": owned by its chart while in it, so gone with the chart when the chart's view goes first.
    std::array<QPointer<QLineSeries>, kKindCount> m_currentKey {};
    std::array<std::vector<QLineSeries*>, kKindCount> m_overlayKeys;  // legend entries, one per overlay
    // Legend entries "p25–p75" and "p5–p95" while the chart shows density: owned as "this run"'s is.
    std::array<std::array<QPointer<QAreaSeries>, 2>, kKindCount> m_bandKeys {};
    std::array<QString, kKindCount> m_baseTitles;
    std::array<QRectF, kKindCount> m_full;  // every run's range, as rescale() last set it
    std::array<QStringList, kKindCount> m_legendNames;
    QString m_source;            // where the series shown comes from (setRuns)
    QStringList m_overlayLabels;  // each overlay's label, whole
    std::array<Drawn, kKindCount> m_drawn;
    std::array<unsigned, kKindCount> m_version {};  // counts changes to the chart's lines
    std::array<bool, kKindCount> m_drawPending {};
    std::array<std::optional<std::pair<double, double>>, kKindCount> m_zoomToRuns;  // asked for, not yet laid out
    std::array<bool, kKindCount> m_density {};  // as last drawn
    Style m_style = Style::Automatic;
    bool m_cpuOwnAxis = true;
    double m_pixelScale = 1.0;
    bool m_dark = false;
    QList<QPointer<QGraphicsView>> m_watched;  // the views whose Show events draw their chart
    std::unique_ptr<Context> m_context;        // gets the charts' signals and views' events while this lives
};

}  // namespace asyncscope

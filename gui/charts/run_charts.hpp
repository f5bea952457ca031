// The charts of a series, one RunChart each (gui/charts/run_chart.hpp): time per run (GPU vs CPU submit, warm-ups
// marked), poll iterations, stage times; saved runs overlaid on each with a line pattern of their own. Used by the
// window (inside chart views) and by the exporter (rendered off-screen at a fixed size). It keeps the runs the three
// draw (ChartRuns) and gives every chart the series, the overlays and the look; what concerns one chart (its zoom,
// what it draws now, its legend) is that chart's: at(kind).
#pragma once

#include "gui/charts/run_chart.hpp"
#include "gui/series/saved_run.hpp"
#include "gui/series/series_points.hpp"

#include "engine/model/report.hpp"

#include <QChart>
#include <QString>
#include <QStringList>

#include <array>
#include <memory>
#include <vector>

class QPalette;

namespace asyncscope {

class RunCharts {
public:
    using Kind = RunChart::Kind;
    static constexpr Kind Time = SeriesPoints::Time;
    static constexpr Kind Polls = SeriesPoints::Polls;
    static constexpr Kind Stages = SeriesPoints::Stages;
    static constexpr int kKindCount = SeriesPoints::kChartCount;
    static QString title(Kind kind) { return RunChart::title(kind); }

    using Style = RunChart::Style;
    // What a user chose of how the charts look, kept with the window's settings and given to its exports.
    struct Look {
        Style style = Style::Automatic;
        bool cpuOwnAxis = true;
    };

    RunCharts();
    ~RunCharts();
    RunCharts(const RunCharts&) = delete;
    RunCharts& operator=(const RunCharts&) = delete;

    // The chart of `kind`: its zoom, what it draws now, its legend; chart() its QChart, for a view to show.
    RunChart& at(Kind kind) { return *m_charts[kind]; }
    const RunChart& at(Kind kind) const { return *m_charts[kind]; }
    QChart* chart(Kind kind) const { return m_charts[kind]->chart(); }

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
    void setOverlays(const DrawnOverlays& overlays);
    // Every chart drawn at `scale` pixels per unit of its size (RunChart::setPixelScale).
    void setPixelScale(double scale);
    // How the runs are drawn (automatic unless asked otherwise); redraws every chart.
    void setStyle(Style style);
    Style style() const { return at(Time).style(); }
    // CPU submit time on a value axis of its own (microseconds, on the right) or on GPU time's (milliseconds).
    void setCpuOwnAxis(bool own) { at(Time).setCpuOwnAxis(own); }
    bool cpuOwnAxis() const { return at(Time).cpuOwnAxis(); }
    void setLook(const Look& look);
    Look look() const { return { style(), cpuOwnAxis() }; }
    // Light or dark, following the palette (the window's, or the system's).
    void applyPalette(const QPalette& palette);

private:
    QStringList keyNames() const;  // the legend's names of the series shown and the overlays, cut where long

    ChartRuns m_runs;
    std::array<std::unique_ptr<RunChart>, kKindCount> m_charts;
    QString m_source;             // where the series shown comes from (setRuns)
    QStringList m_overlayLabels;  // each overlay's label, whole
};

}  // namespace asyncscope

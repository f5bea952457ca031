// The charts of a series: time per run (GPU vs CPU submit, warm-ups marked), poll iterations, stage times; saved
// runs overlaid on each with a line pattern of their own. Used by the window (inside chart views) and by the
// exporter (rendered off-screen at a fixed size).
#pragma once

#include "gui/saved_run.hpp"

#include "engine/model/report.hpp"
#include "engine/model/run_result.hpp"

#include <QChart>
#include <QLineSeries>
#include <QPointer>
#include <QScatterSeries>
#include <QString>
#include <QValueAxis>

#include <array>
#include <functional>
#include <vector>

class QPalette;

namespace asyncscope {

class RunCharts {
public:
    enum Kind { Time, Polls, Stages };
    static constexpr int kKindCount = 3;
    static QString title(Kind kind);

    RunCharts();
    ~RunCharts();  // deletes the charts no view or scene has taken
    RunCharts(const RunCharts&) = delete;
    RunCharts& operator=(const RunCharts&) = delete;

    QChart* chart(Kind kind) const { return m_charts[kind]; }

    // Replaces every series' points with the report's runs in one go (QXYSeries::replace) and rescales axes that are
    // not zoomed. `source` names where the runs come from when they are not measured now ("saved: h200-5runs · H200");
    // the titles name it and the workload's shape when it is not the classic pipeline ("K = 16, S = 4, by chunk").
    void setRuns(const Report& report, const QString& source = {});
    // Saved runs drawn beside the current one, each in its own line pattern, warm-ups marked.
    void setOverlays(const std::vector<SavedRun>& overlays);
    // Back to every run, with tidy ticks.
    void resetZoom(Kind kind);
    // Light or dark, following the palette (the window's, or the system's).
    void applyPalette(const QPalette& palette);
    // A click on a point of the time chart's current runs (GPU time, CPU submit time, a warm-up mark) calls
    // `handler` with that run's RunResult::index.
    void onRunClicked(std::function<void(int)> handler);

    int pointCount(Kind kind) const;  // points in the chart's first series
    QStringList legendNames(Kind kind) const { return m_legendNames[kind]; }  // the entries the legend lists

private:
    struct Lines;  // the series of one run (the current one or an overlay) on one chart

    void build(Kind kind, const QString& yTitle);
    Lines addLines(Kind kind, const QString& overlay);  // the series of one run on one chart, added to it
    static void fill(Lines& lines, Kind kind, const std::vector<RunResult>& runs);
    void rescale(Kind kind);
    void setRange(Kind kind, const QRectF& range);  // x from left to right, y from top to bottom (top the lower)
    void restyle();
    void styleKeys(int kind);  // the legend-only series: a neutral colour and each run's pattern
    void updateLegend();

    std::array<QPointer<QChart>, kKindCount> m_charts;
    std::array<QValueAxis*, kKindCount> m_x {};
    std::array<QValueAxis*, kKindCount> m_y {};
    std::array<std::vector<Lines>, kKindCount> m_lines;  // [0] the current run, then one per overlay
    std::array<QLineSeries*, kKindCount> m_currentKey {};  // legend entry "this run"
    std::array<std::vector<QLineSeries*>, kKindCount> m_overlayKeys;  // legend entries, one per overlay
    std::array<QString, kKindCount> m_baseTitles;
    std::array<QRectF, kKindCount> m_full;
    std::array<QStringList, kKindCount> m_legendNames;  // every run's range, as rescale() last set it
    bool m_dark = false;
};

}  // namespace asyncscope

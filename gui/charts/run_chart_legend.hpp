// A run chart's legend: a colour per quantity and a line pattern per run, listing only what the chart shows. Beside
// the quantities' own entries it keeps entries of its own, series that draw nothing: "this run" (a neutral colour
// and the current run's pattern) while saved runs are overlaid, one per overlay in its pattern, and "p25–p75" and
// "p5–p95" (neutral shades) while the chart shows density. An entry is in the chart while the legend lists it; the
// chart then owns it, so it goes with the chart when the chart's view goes first.
#pragma once

#include "gui/charts/run_chart_lines.hpp"

#include <QAreaSeries>
#include <QLineSeries>
#include <QPointer>
#include <QStringList>

#include <array>
#include <vector>

class QChart;

namespace asyncscope {

class RunChartLegend {
public:
    RunChartLegend();
    ~RunChartLegend();  // deletes the entries no chart has taken
    RunChartLegend(const RunChartLegend&) = delete;
    RunChartLegend& operator=(const RunChartLegend&) = delete;

    // The overlays' entries: removed from `chart` and deleted; one added for an overlay labelled `label`.
    void removeOverlayKeys(QChart* chart);
    void addOverlayKey(QChart* chart, const QString& label);
    // "this run" named `names` first, then each overlay's entry the next (cut short where long: shortNames).
    void nameKeys(const QStringList& names);
    // Lists what `chart` shows of `lines` (the current run's, then each overlay's): the quantities' entries where
    // the current run has points or overlays are drawn, one entry for the warm-up marks where `warmupShown`, the
    // bands' where the chart shows `density`, "this run" beside overlays, then the overlays'.
    void update(QChart* chart, const std::vector<runchart::RunLines>& lines, bool currentShown, bool warmupShown,
        bool density, bool dark, double pixelScale);
    // The entries' pens and shades, for a `dark` palette and a picture drawn at `pixelScale`.
    void styleKeys(QChart* chart, bool dark, double pixelScale);

    const QStringList& names() const { return m_names; }  // the entries the legend lists

private:
    // Legend entry "this run": owned by its chart while in it, so gone with the chart when the chart's view goes first.
    QPointer<QLineSeries> m_currentKey;
    std::vector<QLineSeries*> m_overlayKeys;  // legend entries, one per overlay
    // Legend entries "p25–p75" and "p5–p95" while the chart shows density: owned as "this run"'s is.
    std::array<QPointer<QAreaSeries>, 2> m_bandKeys;
    QStringList m_names;
};

}  // namespace asyncscope

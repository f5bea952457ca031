// The distributions of a series: a histogram of GPU time and one of CPU submit time over its measured runs (warm-ups
// left out, as the statistics leave them out), the median and p95 marked by labelled vertical lines, and each
// overlaid saved run's histogram beside it on the same bins, as a step line in a colour of its own. Heights are
// shares of each run's runs, so a series of 100 runs and one of a million compare. Used by the Distribution tab
// (inside chart views) and by its export (rendered off-screen at a fixed size).
#pragma once

#include "gui/series/histogram.hpp"
#include "gui/series/saved_run.hpp"
#include "gui/series/shown_series.hpp"
#include "gui/series/sorted_times.hpp"

#include <QAreaSeries>
#include <QChart>
#include <QLineSeries>
#include <QPointer>
#include <QScatterSeries>
#include <QString>
#include <QStringList>
#include <QValueAxis>

#include <array>
#include <memory>
#include <optional>
#include <vector>

class QPalette;

namespace asyncscope {

class DistributionCharts {
public:
    using Kind = SortedTimes::Quantity;
    static constexpr Kind GpuTime = SortedTimes::GpuTime;
    static constexpr Kind CpuSubmit = SortedTimes::CpuSubmit;
    static constexpr int kKindCount = SortedTimes::kQuantityCount;
    static QString title(Kind kind);

    DistributionCharts();
    ~DistributionCharts();  // deletes the charts no view or scene has taken
    DistributionCharts(const DistributionCharts&) = delete;
    DistributionCharts& operator=(const DistributionCharts&) = delete;

    QChart* chart(Kind kind) const { return m_charts[kind]; }

    // Shows the report's measured runs. As a series grows only the runs that arrived since are read: their values
    // are merged into the values kept sorted, and the bins are counted from those (no pass over every run).
    // `source` names where the runs come from when they are not measured now. `prepared`, when it holds the values
    // of exactly these runs (a saved run's, sorted as its file was read), is counted as it is, shared.
    void setRuns(const Report& report, const QString& source = {}, std::shared_ptr<const SortedTimes> prepared = nullptr);
    // Saved runs drawn beside the current one; their prepared values are used where they have them.
    void setOverlays(const DrawnOverlays& overlays);
    // Light or dark, following the palette.
    void applyPalette(const QPalette& palette);

    // What the charts show, for tests and tooltips. Histogram 0 is the current series', then one per overlay.
    std::size_t histogramCount(Kind kind) const { return m_histograms[kind].size(); }
    const Histogram& histogram(Kind kind, std::size_t which) const { return m_histograms[kind][which]; }
    std::size_t measuredRuns(Kind kind) const { return m_current.get().values(kind).size(); }
    // Where the current series' median and p95 lines stand; empty when it has no measured run.
    std::optional<double> medianMarker(Kind kind) const;
    std::optional<double> p95Marker(Kind kind) const;
    // The bin under `ms` and each series' share of it: "2.450–2.455 ms · this run: 120 runs (12.0 %) · …".
    QString describe(Kind kind, double ms) const;
    QStringList legendNames(Kind kind) const { return m_legendNames[kind]; }  // the entries the legend lists
    // The series drawn as filled bars: the current one.
    QAreaSeries* bars(Kind kind) const { return m_bars[kind]; }

private:
    struct Overlay {
        QString label;
        std::shared_ptr<const SortedTimes> times;
        std::array<QLineSeries*, kKindCount> steps {};
    };

    void build(Kind kind);
    void redraw(Kind kind);
    void restyle();

    std::array<QPointer<QChart>, kKindCount> m_charts;
    std::array<QValueAxis*, kKindCount> m_x {};
    std::array<QValueAxis*, kKindCount> m_y {};
    std::array<QAreaSeries*, kKindCount> m_bars {};
    std::array<QLineSeries*, kKindCount> m_median {};
    std::array<QLineSeries*, kKindCount> m_p95 {};
    std::array<QScatterSeries*, kKindCount> m_medianLabel {};  // each line's name, kept inside the plot
    std::array<QScatterSeries*, kKindCount> m_p95Label {};
    ShownSeries<SortedTimes> m_current;  // the current series' measured values, sorted
    std::array<std::vector<Histogram>, kKindCount> m_histograms;
    std::vector<Overlay> m_overlays;
    std::array<QStringList, kKindCount> m_legendNames;
    QString m_source;
    bool m_dark = false;
};

}  // namespace asyncscope

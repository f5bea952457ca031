// A run saved by this app or the CLI (JSON or CSV), read back to be shown in every tab or overlaid on the charts.
#pragma once

#include "gui/series/series_points.hpp"
#include "gui/series/shown_advice.hpp"
#include "gui/series/sorted_times.hpp"

#include "engine/io/read_control.hpp"
#include "engine/model/report.hpp"
#include "engine/model/series_summary.hpp"
#include "engine/run/plan.hpp"

#include <QString>

#include <atomic>
#include <memory>
#include <optional>
#include <vector>

namespace asyncscope {

// What the views make of a series' runs, made as a saved run is read: off the GUI thread, where a million runs take
// a second to summarise and a few tenths of a second to lay out for the charts. A part left empty (a saved run put
// together otherwise) is made by its view.
struct PreparedViews {
    std::optional<SeriesSummary> summary;       // the summary table's
    std::shared_ptr<const SeriesPoints> points;  // the run charts'
    std::shared_ptr<const SortedTimes> times;    // the distributions'
    std::shared_ptr<const ShownAdvice> advice;   // the Advice tab's and the status line's
};

struct SavedRun {
    Report report;
    // "h200-5runs · H200": the file's base name and the GPU it ran on, short enough for a legend; among other series
    // shown with the same name, told apart from them (distinctLabels).
    QString label;
    QString path;
    PreparedViews prepared;
    QString fileLabel;  // the label its file gives it, before it is told apart; empty: `label` is that
    // The file's format, "JSON format 2" or "CSV": what an older format does not record is said with it.
    QString format;
    // A comparison's file: its variants, opened into the Comparison tab (`report` and `prepared` left empty).
    std::optional<PlanReport> comparison;
};

// The saved runs a chart draws over the series shown, in the order of their legend entries.
using DrawnOverlays = std::vector<const SavedRun*>;

// A series shown among others, as its file names it: its label ("h200-run · H200"), its file (empty for a series
// measured here) and its report.
struct ShownLabel {
    QString label;
    QString path;
    const Report* report = nullptr;
};
// The labels of `shown`, in their order, made to tell each from the others. Series whose files have the same base
// name are named by the settings in which they differ ("h200-run · K=16 S=4" beside "h200-run · K=1 S=1"; the GPU
// where the GPUs differ: "h200-run · A100 · pageable"); where the settings are the same, a later one by what tells
// its file apart: the same name in another format becomes "h200-2k.csv · H200", the same file name in another folder
// "b/h200-2k.json · H200", and failing that a number does ("h200-2k · H200 (2)").
std::vector<QString> distinctLabels(const std::vector<ShownLabel>& shown);

// What a saved run is read as. A series to show or overlay is a series report (readReportFile: JSON of any format, or
// CSV), or a comparison of several variants (readComparisonFile), shown in the Comparison tab; a baseline is whatever asyncscope-cli --baseline takes (readSeriesFile): a series report, or a host's record
// of one GPU's series, while a comparison, a merged table and a record of several GPUs are refused saying what to
// compare instead.
enum class SavedRunUse { Series, Baseline };

// Reads the file and prepares every view of its runs. Errors name the file and what in it is wrong. `progress` and
// `cancel` as readReportFile takes them; any thread.
Result<SavedRun> readSavedRun(const QString& path, const ReadProgress& progress = {},
    const std::atomic<bool>* cancel = nullptr, SavedRunUse use = SavedRunUse::Series);

}  // namespace asyncscope

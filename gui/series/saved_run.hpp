// A run saved by this app or the CLI (JSON or CSV), read back to be shown in every tab or overlaid on the charts.
#pragma once

#include "gui/series/series_points.hpp"
#include "gui/series/shown_advice.hpp"
#include "gui/series/sorted_times.hpp"

#include "engine/io/read_control.hpp"
#include "engine/model/report.hpp"
#include "engine/model/series_summary.hpp"

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
    QString label;  // "h200-5runs · H200": the file's base name and the GPU it ran on, short enough for a legend
    QString path;
    PreparedViews prepared;
};

// A series already shown: its label and file.
struct ShownLabel {
    QString label;
    QString path;
};
// `run`'s label made to differ from each of `taken`'s by what tells the files apart: the same name in another format
// becomes "h200-2k.csv · H200", the same file name in another folder "b/h200-2k.json · H200", and failing that a
// number does ("h200-2k · H200 (2)").
QString distinctLabel(const SavedRun& run, const std::vector<ShownLabel>& taken);

// Reads the file and prepares every view of its runs. Errors name the file and what in it is wrong. `progress` and `cancel` as readReportFile takes them; any thread.
Result<SavedRun> readSavedRun(const QString& path, const ReadProgress& progress = {},
    const std::atomic<bool>* cancel = nullptr);

}  // namespace asyncscope

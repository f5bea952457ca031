// A run saved by this app or the CLI (JSON or CSV), read back to be shown in every tab or overlaid on the charts.
#pragma once

#include "gui/series_points.hpp"

#include "engine/io/read_control.hpp"
#include "engine/model/report.hpp"
#include "engine/model/series_summary.hpp"

#include <QString>

#include <atomic>
#include <memory>
#include <optional>

namespace asyncscope {

struct SavedRun {
    Report report;
    QString label;  // "h200-5runs · H200": the file's base name and the GPU it ran on, short enough for a legend
    QString path;
    // The report's summary, made as it was read: off the GUI thread, where a million runs take seconds to summarise.
    // Empty for a saved run put together otherwise; views then make it.
    std::optional<SeriesSummary> summary;
    // The points the run charts draw, read with the file for the same reason. Null for a saved run put together
    // otherwise; the charts then read its runs.
    std::shared_ptr<const SeriesPoints> points;
};

// Reads the file, summarises its runs and reads their chart points. Errors name the file and what in it is wrong. `progress` and `cancel` as readReportFile takes them; any thread.
Result<SavedRun> readSavedRun(const QString& path, const ReadProgress& progress = {},
    const std::atomic<bool>* cancel = nullptr);

}  // namespace asyncscope

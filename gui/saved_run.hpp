// A run saved by this app or the CLI (JSON or CSV), read back to be shown in every tab or overlaid on the charts.
#pragma once

#include "engine/io/read_control.hpp"
#include "engine/model/report.hpp"

#include <QString>

#include <atomic>

namespace asyncscope {

struct SavedRun {
    Report report;
    QString label;  // "h200-5runs · H200": the file's base name and the GPU it ran on, short enough for a legend
    QString path;
};

// Errors name the file and what in it is wrong. `progress` and `cancel` as readReportFile takes them; any thread.
Result<SavedRun> readSavedRun(const QString& path, const ReadProgress& progress = {},
    const std::atomic<bool>* cancel = nullptr);

}  // namespace asyncscope

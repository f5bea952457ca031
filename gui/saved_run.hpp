// A run saved by this app or the CLI (JSON or CSV), read back to be shown in every tab or overlaid on the charts.
#pragma once

#include "engine/model/report.hpp"

#include <QString>

namespace asyncscope {

struct SavedRun {
    Report report;
    QString label;  // "h200-5runs · H200": the file's base name and the GPU it ran on, short enough for a legend
    QString path;
};

// Errors name the file and what in it is wrong.
Result<SavedRun> readSavedRun(const QString& path);

}  // namespace asyncscope

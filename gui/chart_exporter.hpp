// Saving charts and data: PNG (or another raster format) or SVG by the file's suffix, rendered at a fixed
// pixel size that does not depend on the screen; data as CSV or JSON with the CLI's fields.
// Files are written through QSaveFile, so a failed export leaves an existing file as it was.
#pragma once

#include "gui/run_charts.hpp"

#include "engine/model/report.hpp"
#include "engine/run/plan.hpp"

#include <QSize>
#include <QString>

#include <functional>

namespace asyncscope {

// Each returns an empty string on success, otherwise a sentence saying what went wrong.

// Renders charts that belong to no view or scene side by side into one picture of `pixels`. `laidOut`, when given,
// is called once the charts have their size in the picture, with the picture's pixels per unit of that size (charts
// are laid out at a screen's size and scaled up): lines decimated per pixel column are drawn again for it there.
QString saveChartsPicture(const QList<QChart*>& charts, const QString& title, const QString& path, QSize pixels,
    const std::function<void(double scale)>& laidOut = {});

// The chart of `kind` for these runs (from `source` when not measured now) with the saved runs overlaid.
QString exportChart(const Report& report, const QString& source, const std::vector<SavedRun>& overlays,
    RunCharts::Kind kind, const QString& path, QSize pixels);
QString exportData(const Report& report, const QString& path);
QString exportComparisonChart(const PlanReport& comparison, const QString& path, QSize pixels);
QString exportComparisonData(const PlanReport& comparison, const QString& path);

}  // namespace asyncscope

// The run charts and a comparison's charts as pictures of a given pixel size (files/chart_picture), built for the
// picture rather than grabbed from the screen.
#pragma once

#include "gui/charts/run_charts.hpp"

#include "engine/model/report.hpp"
#include "engine/run/plan.hpp"

#include <QSize>
#include <QString>

#include <memory>

namespace asyncscope {

// The chart of `kind` for these runs (from `source` when not measured now; `prepared`: their points when read with
// their file, as RunCharts::setRuns takes them) with the saved runs overlaid, drawn as `look` says (the window's
// choice; the headless export takes the default: density where runs outnumber the picture's pixel columns, CPU submit
// time on its own axis). Each returns an empty string on
// success, otherwise a sentence saying what went wrong.
QString exportChart(const Report& report, const QString& source, std::shared_ptr<const SeriesPoints> prepared,
    const DrawnOverlays& overlays, RunCharts::Kind kind, const QString& path, QSize pixels,
    const RunCharts::Look& look = {});
QString exportComparisonChart(const PlanReport& comparison, const QString& path, QSize pixels);

}  // namespace asyncscope

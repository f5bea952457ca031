// The run charts' look as the window's settings keep it: the style by its name (GuiSettings::runChartStyle), from one
// table of the styles and their names, and whether CPU submit time has an axis of its own.
#pragma once

#include "gui/charts/run_charts.hpp"
#include "gui/config/settings_store.hpp"

namespace asyncscope {

struct ChartStyleName {
    RunCharts::Style style;
    const char* name;
};
inline constexpr ChartStyleName kChartStyleNames[] = {
    { RunCharts::Style::Automatic, "automatic" },
    { RunCharts::Style::Lines, "lines" },
    { RunCharts::Style::Density, "density" },
};

QString chartStyleName(RunCharts::Style style);
// The look `settings` keep; a style by a name not in the table is Automatic.
RunCharts::Look chartLookOf(const GuiSettings& settings);
void keepChartLook(GuiSettings& settings, const RunCharts::Look& look);

}  // namespace asyncscope

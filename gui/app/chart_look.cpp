#include "gui/app/chart_look.hpp"

namespace asyncscope {

QString chartStyleName(RunCharts::Style style)
{
    for (const auto& [named, name] : kChartStyleNames) {
        if (named == style)
            return QLatin1String(name);
    }
    return QLatin1String(kChartStyleNames[0].name);
}

RunCharts::Look chartLookOf(const GuiSettings& settings)
{
    RunCharts::Look look;
    look.style = RunCharts::Style::Automatic;
    for (const auto& [style, name] : kChartStyleNames) {
        if (settings.runChartStyle == QLatin1String(name))
            look.style = style;
    }
    look.cpuOwnAxis = settings.cpuOwnAxis;
    return look;
}

void keepChartLook(GuiSettings& settings, const RunCharts::Look& look)
{
    settings.runChartStyle = chartStyleName(look.style);
    settings.cpuOwnAxis = look.cpuOwnAxis;
}

}  // namespace asyncscope

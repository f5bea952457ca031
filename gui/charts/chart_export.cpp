#include "gui/charts/chart_export.hpp"

#include "gui/charts/comparison_charts.hpp"
#include "gui/files/chart_picture.hpp"

#include <memory>

namespace asyncscope {

QString exportChart(const Report& report, const QString& source, std::shared_ptr<const SeriesPoints> prepared,
    const DrawnOverlays& overlays, RunCharts::Kind kind, const QString& path, QSize pixels,
    const RunCharts::Look& look)
{
    RunCharts charts;
    charts.setLook(look);
    charts.setOverlays(overlays);
    charts.setRuns(report, source, std::move(prepared));
    // Decimated from every run for the picture's own width.
    return saveChartsPicture({ charts.chart(kind) }, RunCharts::title(kind), path, pixels,
        [&charts](double scale) { charts.setPixelScale(scale); });
}

QString exportComparisonChart(const PlanReport& comparison, const QString& path, QSize pixels)
{
    std::vector<std::unique_ptr<QChart>> owned;
    QList<QChart*> charts;
    const ComparisonCharts built(comparison);
    for (int i = 0; i < built.count(); ++i) {
        owned.push_back(built.build(i));
        charts.append(owned.back().get());
    }
    return saveChartsPicture(charts, charts.first()->title(), path, pixels);
}

}  // namespace asyncscope

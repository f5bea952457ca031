#include "gui/charts/run_charts.hpp"

#include "gui/series/shown_name.hpp"
#include "gui/series/shown_series.hpp"

#include <utility>

namespace asyncscope {

RunCharts::RunCharts()
{
    for (int k = 0; k < kKindCount; ++k)
        m_charts[k] = std::make_unique<RunChart>(Kind(k), m_runs);
    setRuns(Report {});  // empty charts get sensible axes too
}

RunCharts::~RunCharts() = default;

void RunCharts::setRuns(const Report& report, const QString& source, std::shared_ptr<const SeriesPoints> prepared)
{
    QStringList about;
    if (!source.isEmpty())
        about << source;
    if (report.program)
        about << QString::fromStdString(programLabel(*report.program));
    else if (const std::string shape = shapeText(report.config); !shape.empty())
        about << QString::fromStdString(shape);
    const QString suffix = about.isEmpty() ? QString() : QStringLiteral(" — ") + about.join(QStringLiteral(" · "));
    const bool changed = m_runs.current.show(report.runs, std::move(prepared));
    m_source = source;
    const QStringList names = keyNames();
    for (const auto& chart : m_charts)
        chart->showRuns(suffix, changed, names);
}

QStringList RunCharts::keyNames() const
{
    // Cut in the middle where long, keeping what tells them apart: the legend would cut them at the end.
    QStringList names { shownSeriesName(m_source) };
    names << m_overlayLabels;
    return shortNames(names);
}

void RunCharts::setOverlays(const DrawnOverlays& overlays)
{
    m_runs.overlays.clear();
    m_overlayLabels.clear();
    for (const SavedRun* saved : overlays) {
        m_runs.overlays.push_back(preparedFor(saved->report.runs, saved->prepared.points));
        m_overlayLabels << saved->label;
    }
    const QStringList names = keyNames();
    for (const auto& chart : m_charts)
        chart->setOverlays(m_overlayLabels, names);
}

void RunCharts::setPixelScale(double scale)
{
    for (const auto& chart : m_charts)
        chart->setPixelScale(scale);
}

void RunCharts::setStyle(Style style)
{
    for (const auto& chart : m_charts)
        chart->setStyle(style);
}

void RunCharts::setLook(const Look& look)
{
    setCpuOwnAxis(look.cpuOwnAxis);
    setStyle(look.style);
}

void RunCharts::applyPalette(const QPalette& palette)
{
    for (const auto& chart : m_charts)
        chart->applyPalette(palette);
}

}  // namespace asyncscope

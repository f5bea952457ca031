#include "gui/app/shown_picture.hpp"

#include "gui/charts/chart_export.hpp"
#include "gui/charts/chart_view.hpp"
#include "gui/charts/comparison_view.hpp"
#include "gui/charts/difference_view.hpp"
#include "gui/charts/distribution_panel.hpp"
#include "gui/gpus/all_gpus_panel.hpp"
#include "gui/session/session_model.hpp"
#include "gui/timeline/timeline_panel.hpp"

#include <QTabWidget>

namespace asyncscope {

FileActions::Picture pictureOfTab(const PictureTabs& tabs)
{
    QWidget* shown = tabs.tabs->currentWidget();
    const SessionModel* s = tabs.session;
    const bool runs = !s->report().runs.empty() || !s->overlays().empty();
    if (auto* chart = qobject_cast<ChartView*>(shown); chart && runs) {
        const auto kind = RunCharts::Kind(tabs.tabs->indexOf(chart));  // the first tabs, in the order of their kinds
        return { QObject::tr("Export chart"), QStringLiteral("asyncscope-chart"),
            [s, kind, look = tabs.look](const QString& path, QSize pixels) {
                return exportChart(s->report(), s->source().label(), s->prepared().points, s->drawnOverlays(), kind,
                    path, pixels, look);
            } };
    }
    if (shown == tabs.comparison && s->lastComparison())
        return { QObject::tr("Export comparison"), QStringLiteral("asyncscope-comparison"),
            [s](const QString& path, QSize pixels) {
                return exportComparisonChart(*s->lastComparison(), path, pixels);
            } };
    TimelinePanel* timeline = tabs.timeline;
    if (shown == timeline && timeline->shownRun())
        return { QObject::tr("Export timeline"), QStringLiteral("asyncscope-timeline"),
            [timeline](const QString& path, QSize pixels) { return timeline->exportPicture(path, pixels); } };
    DistributionPanel* distribution = tabs.distribution;
    if (shown == distribution && runs)
        return { QObject::tr("Export distributions"), QStringLiteral("asyncscope-distribution"),
            [distribution](const QString& path, QSize pixels) { return distribution->exportPicture(path, pixels); } };
    AllGpusPanel* gpus = tabs.allGpus;
    if (shown == gpus && !gpus->rows().empty() && !gpus->isRunning())
        return { QObject::tr("Export the GPUs' chart"), QStringLiteral("asyncscope-all-gpus"),
            [gpus](const QString& path, QSize pixels) { return gpus->exportChart(path, pixels); } };
    const DifferenceView* difference = tabs.difference;
    if (shown == difference && difference->hasPlot())
        return { QObject::tr("Export the difference from the baseline"), QStringLiteral("asyncscope-difference"),
            [difference](const QString& path, QSize pixels) { return difference->exportPicture(path, pixels); } };
    return {};
}

}  // namespace asyncscope

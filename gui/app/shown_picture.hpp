// What File › Export picture… saves of the tab shown: a run chart, the comparison, the timeline, the
// distributions, the GPUs' chart or the difference from the baseline, with the dialog's title and the file name it
// suggests; nothing (no `draw`) where the tab shows nothing yet.
#pragma once

#include "gui/app/file_actions.hpp"
#include "gui/charts/run_charts.hpp"

class QTabWidget;

namespace asyncscope {

class AllGpusPanel;
class ComparisonView;
class DifferenceView;
class DistributionPanel;
class SessionModel;
class TimelinePanel;

struct PictureTabs {
    const QTabWidget* tabs;  // the run charts first, in the order of their kinds
    RunCharts::Look look;    // how the run charts look in the window, and so in their pictures
    const SessionModel* session;
    const ComparisonView* comparison;
    TimelinePanel* timeline;
    DistributionPanel* distribution;
    AllGpusPanel* allGpus;
    const DifferenceView* difference;
};

FileActions::Picture pictureOfTab(const PictureTabs& tabs);

}  // namespace asyncscope

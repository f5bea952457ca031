// The window's tabs: the run charts (the first, in the order of their kinds), the timeline, the distributions, the
// summary, the difference from the baseline, the advice, the comparison and All GPUs. Which tab shows what a finding
// of the advice concerns, the tab --tab names, and what File › Export picture saves of the tab shown.
#pragma once

#include "gui/advice/advice_panel.hpp"
#include "gui/app/file_actions.hpp"
#include "gui/charts/run_charts.hpp"

#include <QTabWidget>

namespace asyncscope {

class AllGpusPanel;
class ChartView;
class ComparisonView;
class DifferenceView;
class DistributionPanel;
class SessionModel;
class SummaryTable;
class TimelinePanel;

class WindowTabs : public QTabWidget {
    Q_OBJECT
public:
    // The views of `session`, All GPUs apart; the run charts' tabs show `charts`, which outlives them.
    WindowTabs(SessionModel* session, RunCharts& charts, QWidget* parent = nullptr);
    // All GPUs, the last tab, on the session's run thread: added once the tabs are in the window, which puts its
    // controls where they always were in the window's keyboard focus chain.
    AllGpusPanel* addAllGpus();

    TimelinePanel* timeline() const { return m_timeline; }
    DistributionPanel* distribution() const { return m_distribution; }
    SummaryTable* summary() const { return m_summary; }
    DifferenceView* difference() const { return m_difference; }
    AdvicePanel* advice() const { return m_advice; }
    ComparisonView* comparison() const { return m_comparison; }
    AllGpusPanel* allGpus() const { return m_allGpus; }
    ChartView* currentChart() const;  // null where the tab shown is not a run chart

    // Shows `page` and gives it the keyboard.
    void showAndFocus(QWidget* page);
    // Shows the tab --tab names ("advice", "all-gpus", "poll-iterations": a tab's text in lower case, spaces as
    // dashes); nothing where none is named so.
    void showNamed(const QString& name);
    // Shows what a finding of the Advice tab concerns: its runs, a run's stages, the summary or the comparison.
    void showFinding(const AdvicePanel::Jump& jump);
    // A plan ended: the comparison where one ran, in its tab, and the tab --tab names (`named`) where it names one,
    // else the comparison's.
    void showEnded(const PlanReport& plan, const QString& named);
    void resetZoom();  // every run chart's
    // While no series is shown, the run charts say what to do: run (where a GPU can), open a saved run or drop one.
    void sayWhatToDo();
    // What File › Export picture saves of the tab shown; no `draw` where it shows nothing yet.
    FileActions::Picture picture() const;

private:
    SessionModel* m_session;
    RunCharts& m_charts;
    ChartView* m_views[RunCharts::kKindCount] = {};
    TimelinePanel* m_timeline = nullptr;
    DistributionPanel* m_distribution = nullptr;
    SummaryTable* m_summary = nullptr;
    DifferenceView* m_difference = nullptr;
    AdvicePanel* m_advice = nullptr;
    ComparisonView* m_comparison = nullptr;
    AllGpusPanel* m_allGpus = nullptr;
};

}  // namespace asyncscope

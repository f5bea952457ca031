#include "gui/app/window_tabs.hpp"

#include "gui/app/shown_picture.hpp"
#include "gui/charts/chart_view.hpp"
#include "gui/charts/comparison_view.hpp"
#include "gui/charts/difference_view.hpp"
#include "gui/charts/distribution_panel.hpp"
#include "gui/charts/summary_table.hpp"
#include "gui/gpus/all_gpus_panel.hpp"
#include "gui/session/session_model.hpp"
#include "gui/timeline/timeline_panel.hpp"

#include <QTabBar>
#include <QToolButton>

namespace asyncscope {

WindowTabs::WindowTabs(SessionModel* session, RunCharts& charts, QWidget* parent)
    : QTabWidget(parent)
    , m_session(session)
    , m_charts(charts)
{
    setUsesScrollButtons(true);
    // Tab goes from the tab bar into the page shown; its scroll buttons are for the mouse (the arrow keys and
    // Ctrl+Tab move between tabs).
    for (QToolButton* scroll : tabBar()->findChildren<QToolButton*>())
        scroll->setFocusPolicy(Qt::NoFocus);
    const QString tabNames[] = { tr("Time"), tr("Poll iterations"), tr("Stages") };
    for (int k = 0; k < RunCharts::kKindCount; ++k) {
        m_views[k] = new ChartView(m_charts.at(RunCharts::Kind(k)));
        addTab(m_views[k], tabNames[k]);
    }
    m_timeline = new TimelinePanel(session);
    addTab(m_timeline, tr("Timeline"));
    m_charts.at(RunCharts::Time).onRunClicked([this](int run) { m_timeline->showRun(run); });
    m_distribution = new DistributionPanel(session);
    addTab(m_distribution, tr("Distribution"));
    m_summary = new SummaryTable;
    m_summary->follow(session);
    addTab(m_summary, tr("Summary"));
    m_difference = new DifferenceView(session);
    addTab(m_difference, tr("Difference"));
    m_advice = new AdvicePanel;
    m_advice->follow(session);
    addTab(m_advice, tr("Advice"));
    connect(m_advice, &AdvicePanel::jumpRequested, this, &WindowTabs::showFinding);
    m_comparison = new ComparisonView;
    addTab(m_comparison, tr("Comparison"));
}

AllGpusPanel* WindowTabs::addAllGpus()
{
    m_allGpus = new AllGpusPanel(m_session->controller());
    addTab(m_allGpus, tr("All GPUs"));
    return m_allGpus;
}

ChartView* WindowTabs::currentChart() const
{
    return qobject_cast<ChartView*>(currentWidget());
}

void WindowTabs::showAndFocus(QWidget* page)
{
    setCurrentWidget(page);
    page->setFocus(Qt::OtherFocusReason);
}

void WindowTabs::showNamed(const QString& name)
{
    const QString wanted = name.toLower();
    for (int i = 0; i < count(); ++i) {
        QString text = tabText(i).toLower().remove(QLatin1Char('&'));
        if (text == wanted || text.replace(QLatin1Char(' '), QLatin1Char('-')) == wanted)
            return setCurrentIndex(i);
    }
}

void WindowTabs::showFinding(const AdvicePanel::Jump& jump)
{
    using To = AdvicePanel::Jump::To;
    QWidget* shown = m_summary;
    switch (jump.to) {
    case To::Runs:
        shown = m_views[RunCharts::Time];
        setCurrentWidget(shown);  // shown first: a chart hidden until now lays out its plot as it shows
        m_charts.at(RunCharts::Time).zoomToRuns(double(jump.first), double(jump.last));
        break;
    case To::Timeline:
        shown = m_timeline;
        if (jump.run >= 0)
            m_timeline->showRun(jump.run);
        break;
    case To::Comparison: shown = m_comparison; break;
    case To::Summary: break;
    }
    showAndFocus(shown);  // the keyboard goes on there: + and - zoom the chart, arrows scroll
    if (jump.to == To::Summary && !jump.figure.empty())
        m_summary->selectFigure(jump.figure);
}

void WindowTabs::showEnded(const PlanReport& plan, const QString& named)
{
    if (plan.comparison && plan.ranCount() > 0) {
        m_comparison->setComparison(plan);
        if (named.isEmpty())
            setCurrentWidget(m_comparison);
    }
    if (!named.isEmpty())
        showNamed(named);
}

void WindowTabs::sayWhatToDo()
{
    QString text;
    if (m_session->report().runs.empty() && m_session->overlays().empty()) {
        const QString open = tr("open a saved run or comparison (File › Open saved run…, Ctrl+O), or drop a JSON or "
                                "CSV file here.");
        const QString record = tr("File › Record a program… (Ctrl+Shift+R) runs a CUDA program of your own under the "
                                  "recorder and shows its iterations as runs.");
        text = m_session->platform().devices.empty()
            ? tr("No series yet. Without a GPU that can run here, %1\n%2").arg(open, record)
            : tr("No series yet. Run (Ctrl+R) measures the pipeline on the GPU chosen on the left; or %1\n%2")
                  .arg(open, record);
    }
    for (ChartView* view : m_views)
        view->setWhatToDo(text);
}

void WindowTabs::resetZoom()
{
    for (int k = 0; k < RunCharts::kKindCount; ++k)
        m_charts.at(RunCharts::Kind(k)).resetZoom();
}

FileActions::Picture WindowTabs::picture() const
{
    return pictureOfTab(
        { this, m_charts.look(), m_session, m_comparison, m_timeline, m_distribution, m_allGpus, m_difference });
}

}  // namespace asyncscope

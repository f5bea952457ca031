// The AsyncScope window: wires the configuration panel, the session model, the views and the actions.
#pragma once

#include "gui/advice/advice_panel.hpp"
#include "gui/app/app_options.hpp"
#include "gui/app/file_actions.hpp"
#include "gui/charts/run_charts.hpp"
#include "gui/config/settings_store.hpp"

#include "engine/run/backend.hpp"
#include "engine/run/plan.hpp"

#include <QMainWindow>
#include <QMessageBox>
#include <QPointer>

#include <memory>
#include <optional>

class QTabWidget;

namespace asyncscope {

class AdvicePanel;
class AllGpusPanel;
class ChartView;
class ComparisonView;
class ConfigPanel;
class DifferenceView;
class DistributionPanel;
class HeadlessRunner;
class RunStatus;
class SessionModel;
class SummaryTable;
class TimelinePanel;
class WindowActions;

class MainWindow : public QMainWindow {
    Q_OBJECT
public:
    MainWindow(std::shared_ptr<Backend> backend, AppOptions options = {}, QWidget* parent = nullptr);
    ~MainWindow() override = default;

    // For tests and headless use.
    const SessionModel& session() const { return *m_session; }
    const RunCharts& charts() const { return *m_charts; }
    const WindowActions& actions() const { return *m_actions; }
    const GuiSettings& settings() const { return m_settings; }
    bool runEnabled() const;
    QString statusText() const;
    QString deviceMessage() const;
    FileActions& files() const { return *m_files; }
    const AdvicePanel& advice() const { return *m_advice; }
    // The status line's advice badge ("⚠ 2 warnings"); empty while the advice has no warning or worse.
    QString adviceBadge() const;
    QTabWidget& tabs() const { return *m_tabs; }
    const SummaryTable& summary() const { return *m_summary; }
    const DifferenceView& difference() const { return *m_difference; }
    // The status line's comparison with the baseline, whole; empty without a baseline.
    QString baselineStatus() const;

public slots:
    void startRun();
    void startComparison(asyncscope::Comparison comparison, std::size_t sweepMinBytes = kSweepMinBytes,
        std::size_t sweepMaxBytes = kSweepMaxBytes);
    void cancelRun();

signals:
    void headlessFinished(int exitCode, const QString& message);  // the message as written on standard error
    void planEnded();  // a series or a comparison finished, failed, was cancelled or could not run

protected:
    void closeEvent(QCloseEvent* event) override;
    void changeEvent(QEvent* event) override;

private:
    void buildViews();
    void wireActions();
    void updateActions();
    void startPlan(const Result<Plan>& plan);
    void startAllGpus();  // the configured series on every GPU, in the All GPUs tab
    void refreshViews();
    // Shows what a finding of the Advice tab concerns: its runs, a run's stages, the summary or the comparison.
    void showFindingTarget(const AdvicePanel::Jump& jump);
    ChartView* currentChart() const;
    FileActions::Picture shownPicture() const;  // of the tab shown; no `draw` where it shows nothing yet
    void showProblem(const QString& text);  // nothing when `text` is empty
    // The baseline's configuration differs from the shown series' (blocking differences): asks whether to compare
    // anyway, in a box that leaves the event loop running; Cancel takes a baseline not yet compared away. Headless,
    // nobody is asked: compared anyway, and the status line says so.
    void askAcrossConfigurations(bool justSet);
    void saveSettingsNow();
    void applyChartLook();  // the run charts' look as the settings say, and the View menu's checks with it

    void onDevicesAvailable(const Platform& platform);
    void onDiscoveryFailed(const Error& error);
    void onPlanFinished(const PlanReport& plan);
    // The tab --tab names ("advice", "timeline", "all-gpus"), shown from the start and when a plan ends.
    void showTabNamed(const QString& name);

    void resetSettings();

    AppOptions m_options;
    SessionModel* m_session;
    std::unique_ptr<RunCharts> m_charts;
    GuiSettings m_settings;
    HeadlessRunner* m_headless = nullptr;
    WindowActions* m_actions = nullptr;
    FileActions* m_files = nullptr;

    ConfigPanel* m_panel = nullptr;
    ComparisonView* m_comparisonView = nullptr;
    QTabWidget* m_tabs = nullptr;
    ChartView* m_views[RunCharts::kKindCount] = {};
    DistributionPanel* m_distribution = nullptr;
    TimelinePanel* m_timeline = nullptr;
    SummaryTable* m_summary = nullptr;
    DifferenceView* m_difference = nullptr;
    QPointer<QMessageBox> m_acrossQuestion;  // open while it waits for an answer
    bool m_acrossJustSet = false;  // what the last question was asked with
    AdvicePanel* m_advice = nullptr;
    RunStatus* m_status = nullptr;
    AllGpusPanel* m_allGpus = nullptr;
};

}  // namespace asyncscope

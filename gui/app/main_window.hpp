// The AsyncScope window: wires the configuration panel, the session model, the views and the actions.
#pragma once

#include "gui/advice/advice_panel.hpp"
#include "gui/app/app_options.hpp"
#include "gui/app/file_actions.hpp"
#include "gui/app/run_status.hpp"
#include "gui/app/window_tabs.hpp"
#include "gui/charts/run_charts.hpp"
#include "gui/config/config_panel.hpp"
#include "gui/config/settings_store.hpp"

#include "engine/run/backend.hpp"
#include "engine/run/plan.hpp"

#include <QMainWindow>

#include <memory>
#include <optional>

namespace asyncscope {

class AllGpusPanel;
class BaselineConsent;
class DifferenceView;
class HeadlessRunner;
class PanelStack;
class RecordActions;
class SessionModel;
class SummaryTable;
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
    bool runEnabled() const { return m_panel->runEnabled(); }
    QString statusText() const { return m_status->text(); }
    QString deviceMessage() const { return m_panel->deviceMessage(); }
    FileActions& files() const { return *m_files; }
    RecordActions& record() const { return *m_record; }
    const AdvicePanel& advice() const { return *m_tabs->advice(); }
    // The status line's advice badge ("⚠ 2 warnings"); empty while the advice has no warning or worse.
    QString adviceBadge() const { return m_status->adviceBadge(); }
    QTabWidget& tabs() const { return *m_tabs; }
    const SummaryTable& summary() const { return *m_tabs->summary(); }
    const PanelStack& leftPanel() const { return *m_side; }
    const DifferenceView& difference() const { return *m_tabs->difference(); }
    // The status line's comparison with the baseline, whole; empty without a baseline.
    QString baselineStatus() const { return m_status->baselineText(); }
    QString baselineStatusShown() const { return m_status->baselineShown(); }

public slots:
    void startRun() { startComparison(std::nullopt); }
    // A comparison's variants, or without one the series the panel sets.
    void startComparison(std::optional<asyncscope::Comparison> comparison, std::size_t sweepMinBytes = kSweepMinBytes,
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
    void showProblem(const QString& text);  // nothing when `text` is empty
    void saveSettingsNow();
    void applyChartLook();  // the run charts' look as the settings say, and the View menu's checks with it

    void onDevicesAvailable(const Platform& platform);
    void onDiscoveryFailed(const Error& error);
    void onPlanFinished(const PlanReport& plan);

    void resetSettings();

    AppOptions m_options;
    SessionModel* m_session;
    std::unique_ptr<RunCharts> m_charts;
    GuiSettings m_settings;
    HeadlessRunner* m_headless = nullptr;
    WindowActions* m_actions = nullptr;
    FileActions* m_files = nullptr;
    RecordActions* m_record = nullptr;
    BaselineConsent* m_consent = nullptr;  // the question across configurations

    ConfigPanel* m_panel = nullptr;
    PanelStack* m_side = nullptr;  // m_panel, or the recorded program shown
    WindowTabs* m_tabs = nullptr;
    RunStatus* m_status = nullptr;
    AllGpusPanel* m_allGpus = nullptr;
};

}  // namespace asyncscope

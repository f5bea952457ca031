// The AsyncScope window: wires the configuration panel, the session model and the views, and holds the menus.
#pragma once

#include "gui/app_options.hpp"
#include "gui/run_charts.hpp"
#include "gui/settings_store.hpp"

#include "engine/run/backend.hpp"
#include "engine/run/plan.hpp"

#include <QMainWindow>

#include <memory>
#include <optional>

class QAction;
class QTabWidget;

namespace asyncscope {

class ChartView;
class ComparisonView;
class ConfigPanel;
class HeadlessRunner;
class RunStatus;
class SessionModel;
class SummaryTable;

class MainWindow : public QMainWindow {
    Q_OBJECT
public:
    MainWindow(std::shared_ptr<Backend> backend, AppOptions options = {}, QWidget* parent = nullptr);
    ~MainWindow() override = default;

    // For tests and headless use.
    const SessionModel& session() const { return *m_session; }
    const RunCharts& charts() const { return *m_charts; }
    bool runEnabled() const;
    QString statusText() const;
    QString deviceMessage() const;
    bool exportChartTo(const QString& path, QSize pixels);
    bool exportDataTo(const QString& path);
    bool exportComparisonTo(const QString& path);
    // Overlays a saved run (JSON or CSV, by suffix) on the time chart; a file that cannot be read is shown and
    // leaves the current overlay as it is.
    bool loadOverlay(const QString& path);

public slots:
    void startRun();
    void startComparison(asyncscope::Comparison comparison, std::size_t sweepMinBytes = kSweepMinBytes,
        std::size_t sweepMaxBytes = kSweepMaxBytes);
    void cancelRun();

signals:
    void headlessFinished(int exitCode);
    void planEnded();  // a series or a comparison finished, failed, was cancelled or could not run

protected:
    void closeEvent(QCloseEvent* event) override;

private:
    void buildViews();
    void buildMenus();
    void startPlan(const Result<Plan>& plan);
    void setRunning(bool running);
    void refreshViews();
    void showProblem(const QString& text);  // nothing when `text` is empty
    bool reportExport(const QString& path, const QString& problem);  // status line on success, message otherwise

    void onDevicesAvailable(const Platform& platform);
    void onDiscoveryFailed(const Error& error);
    void onPlanFinished(const PlanReport& plan);

    void exportChartInteractive(const QString& format);
    void exportDataInteractive(const QString& format, bool comparison);
    void resetSettings();

    AppOptions m_options;
    SessionModel* m_session;
    std::unique_ptr<RunCharts> m_charts;
    GuiSettings m_settings;
    HeadlessRunner* m_headless = nullptr;

    ConfigPanel* m_panel = nullptr;
    ComparisonView* m_comparisonView = nullptr;
    QList<QAction*> m_comparisonActions;  // enabled when a GPU is there and nothing runs
    QTabWidget* m_tabs = nullptr;
    ChartView* m_views[RunCharts::kKindCount] = {};
    SummaryTable* m_summary = nullptr;
    RunStatus* m_status = nullptr;
};

}  // namespace asyncscope

#include "gui/main_window.hpp"

#include "gui/about_dialog.hpp"
#include "gui/chart_exporter.hpp"
#include "gui/chart_view.hpp"
#include "gui/comparison_view.hpp"
#include "gui/config_panel.hpp"
#include "gui/file_dialogs.hpp"
#include "gui/headless_runner.hpp"
#include "gui/pixel_size_dialog.hpp"
#include "gui/plan_verdict.hpp"
#include "gui/run_status.hpp"
#include "gui/session_model.hpp"
#include "gui/summary_table.hpp"
#include "gui/sweep_range_dialog.hpp"

#include "engine/cuda/cuda_error.hpp"
#include "engine/model/size_parse.hpp"

#include <QApplication>
#include <QCloseEvent>
#include <QDir>
#include <QMenuBar>
#include <QMessageBox>
#include <QSplitter>
#include <QStatusBar>
#include <QTabWidget>
#include <QVBoxLayout>

// The icons live in the static GUI library; its resources must be registered by name.
static void initResources()
{
    Q_INIT_RESOURCE(resources);
}

namespace asyncscope {

MainWindow::MainWindow(std::shared_ptr<Backend> backend, AppOptions options, QWidget* parent)
    : QMainWindow(parent)
    , m_options(std::move(options))
    , m_session(new SessionModel(std::move(backend), this))
    , m_charts(std::make_unique<RunCharts>())
    , m_settings(loadSettings())
{
    initResources();
    setWindowTitle(QStringLiteral("AsyncScope"));
    setWindowIcon(QIcon(QStringLiteral(":/icons/asyncscope.svg")));
    buildViews();
    buildMenus();
    m_panel->applySettings(m_settings);
    if (m_options.elements)
        m_panel->showSize(*m_options.elements, SizeUnit::GiB);  // the largest unit that shows it exactly
    if (m_options.runs)
        m_panel->setRuns(*m_options.runs);
    if (!m_settings.geometry.isEmpty())
        restoreGeometry(m_settings.geometry);
    else
        resize(1280, 800);

    connect(m_panel, &ConfigPanel::runRequested, this, &MainWindow::startRun);
    connect(m_panel, &ConfigPanel::cancelRequested, this, &MainWindow::cancelRun);
    connect(m_session, &SessionModel::devicesAvailable, this, &MainWindow::onDevicesAvailable);
    connect(m_session, &SessionModel::discoveryFailed, this, &MainWindow::onDiscoveryFailed);
    connect(m_session, &SessionModel::reportChanged, this, &MainWindow::refreshViews);
    connect(m_session, &SessionModel::planFinished, this, &MainWindow::onPlanFinished);
    connect(m_session, &SessionModel::overlayChanged, this, [this] {
        m_charts->setOverlay(m_session->overlay().runs, m_session->overlay().label);
        refreshViews();
    });
    QString startupProblem;
    if (!m_options.overlay.isEmpty()) {
        if (auto problem = m_session->loadOverlay(m_options.overlay))
            startupProblem = QString::fromStdString(problem->message());
        showProblem(startupProblem);
    }
    if (m_options.headless()) {
        m_headless = new HeadlessRunner(m_options, m_session, this,
            [this] { return m_panel->plan(m_options.comparison, m_options.sweepMinBytes, m_options.sweepMaxBytes); },
            startupProblem, this);
        connect(m_headless, &HeadlessRunner::finished, this, &MainWindow::headlessFinished);
    }

    setRunning(false);
    m_status->showMessage(tr("Looking for CUDA devices…"));
    m_session->discover();
}

void MainWindow::buildViews()
{
    m_panel = new ConfigPanel;
    auto* left = new QWidget;
    auto* leftLayout = new QVBoxLayout(left);
    leftLayout->addWidget(m_panel);
    leftLayout->addStretch(1);

    m_tabs = new QTabWidget;
    const QString tabNames[] = { tr("Time"), tr("Poll iterations"), tr("Stages") };
    for (int k = 0; k < RunCharts::kKindCount; ++k) {
        m_views[k] = new ChartView(m_charts->chart(RunCharts::Kind(k)));
        m_tabs->addTab(m_views[k], tabNames[k]);
    }
    m_summary = new SummaryTable;
    m_tabs->addTab(m_summary, tr("Summary"));
    m_comparisonView = new ComparisonView;
    m_tabs->addTab(m_comparisonView, tr("Comparison"));

    auto* splitter = new QSplitter;
    splitter->addWidget(left);
    splitter->addWidget(m_tabs);
    splitter->setStretchFactor(1, 1);
    splitter->setSizes({ 400, 880 });
    setCentralWidget(splitter);

    m_status = new RunStatus(m_session);
    statusBar()->addWidget(m_status, 1);
}

void MainWindow::buildMenus()
{
    QMenu* file = menuBar()->addMenu(tr("&File"));
    file->addAction(tr("&Export chart as PNG…"), this, [this] { exportChartInteractive("png"); })
        ->setShortcut(QKeySequence(Qt::CTRL | Qt::Key_E));
    file->addAction(tr("Export chart as &SVG…"), this, [this] { exportChartInteractive("svg"); });
    file->addAction(tr("Export data as &CSV…"), this, [this] { exportDataInteractive("csv", false); });
    file->addAction(tr("Export data as &JSON…"), this, [this] { exportDataInteractive("json", false); });
    file->addSeparator();
    file->addAction(tr("&Overlay saved run (JSON or CSV)…"), this, [this] {
        if (const QString path = askOverlayPath(this, m_settings); !path.isEmpty())
            loadOverlay(path);
    })->setShortcut(QKeySequence::Open);
    file->addAction(tr("&Remove overlay"), m_session, &SessionModel::clearOverlay);
    file->addSeparator();
    file->addAction(tr("&Quit"), this, &QWidget::close)->setShortcut(QKeySequence::Quit);

    QMenu* compare = menuBar()->addMenu(tr("&Compare"));
    m_comparisonActions = {
        compare->addAction(tr("&Pinned vs pageable host memory"), this,
            [this] { startComparison(Comparison::HostMemory); }),
        compare->addAction(tr("&Spin-poll vs blocking-sync wait"), this, [this] { startComparison(Comparison::Wait); }),
        compare->addAction(tr("Size s&weep…"), this,
            [this] {
                if (const auto range = askSweepRange(this))
                    startComparison(Comparison::Size, range->first, range->second);
            }),
    };
    compare->addSeparator();
    compare->addAction(tr("Export comparison as &CSV…"), this, [this] { exportDataInteractive("csv", true); });
    compare->addAction(tr("Export comparison as &JSON…"), this, [this] { exportDataInteractive("json", true); });

    QMenu* view = menuBar()->addMenu(tr("&View"));
    view->addAction(tr("&Reset zoom"), this, [this] {
        for (ChartView* v : m_views)
            v->resetZoom();
        refreshViews();
    })->setShortcut(QKeySequence(Qt::CTRL | Qt::Key_0));

    menuBar()->addMenu(tr("&Settings"))->addAction(tr("&Reset to defaults"), this, &MainWindow::resetSettings);
    menuBar()->addMenu(tr("&Help"))->addAction(tr("&About AsyncScope"), this,
        [this] { showAboutDialog(this, m_session->platform()); });
}

bool MainWindow::runEnabled() const
{
    return m_panel->runEnabled();
}

QString MainWindow::statusText() const
{
    return m_status->text();
}

QString MainWindow::deviceMessage() const
{
    return m_panel->deviceMessage();
}

void MainWindow::startRun()
{
    startPlan(m_panel->plan(std::nullopt));
}

void MainWindow::startComparison(Comparison comparison, std::size_t sweepMinBytes, std::size_t sweepMaxBytes)
{
    startPlan(m_panel->plan(comparison, sweepMinBytes, sweepMaxBytes));
}

void MainWindow::startPlan(const Result<Plan>& plan)
{
    const Status refused = plan ? m_session->start(*plan) : Status(plan.error());
    if (refused)
        return showProblem(QString::fromStdString(refused->message()));
    for (ChartView* v : m_views)
        v->resetZoom();
    setRunning(true);
    const PipelineConfig& first = plan->variants.front().config;
    m_status->showMessage(tr("Running %1 on %2…")
                          .arg(QString::fromStdString(formatBytes(first.bytes())),
                              QString::fromStdString(m_session->report().device.name)));
}

void MainWindow::cancelRun()
{
    if (!m_session->isRunning())
        return;
    m_session->cancel();
    m_status->showMessage(tr("Cancelling…"));
}

void MainWindow::setRunning(bool running)
{
    m_panel->setRunning(running);
    for (QAction* action : m_comparisonActions)
        action->setEnabled(!running && m_session->devicesKnown());
}

void MainWindow::refreshViews()
{
    m_charts->setRuns(m_session->report().runs);
    m_summary->setReport(m_session->report());
}

void MainWindow::onDevicesAvailable(const Platform& platform)
{
    if (auto problem = m_panel->setDevices(platform, m_settings.deviceUuid, m_options.device))
        showProblem(QString::fromStdString(problem->message()));
    setRunning(false);
    m_status->showMessage(tr("%n CUDA device(s), driver CUDA %1", nullptr, int(platform.devices.size()))
                          .arg(QString::fromStdString(formatCudaVersion(platform.driverVersion))));
    if (m_options.headless())
        return;  // the headless runner starts it
    if (m_options.comparison)
        startComparison(*m_options.comparison, m_options.sweepMinBytes, m_options.sweepMaxBytes);
    else if (m_options.runNow)
        startRun();
}

void MainWindow::onDiscoveryFailed(const Error& error)
{
    m_panel->setNoDevices(error.kind == ErrorKind::NoDriver ? tr("No NVIDIA driver") : tr("No CUDA device"),
        QString::fromStdString(error.message()));
    setRunning(false);
    m_status->showMessage(tr("Cannot run: %1").arg(QString::fromStdString(error.detail)));
}

void MainWindow::onPlanFinished(const PlanReport& plan)
{
    setRunning(false);
    if (plan.comparison && plan.ranCount() > 0) {
        m_comparisonView->setComparison(plan);
        m_tabs->setCurrentWidget(m_comparisonView);
    }
    showProblem(judgePlan(plan).problem);
    emit planEnded();
}

void MainWindow::showProblem(const QString& text)
{
    if (text.isEmpty() || m_options.headless())
        return;  // reported on standard error instead
    // Non-modal, so nothing blocks the event loop (the run thread's results keep arriving).
    auto* box = new QMessageBox(QMessageBox::Warning, tr("AsyncScope"), text, QMessageBox::Ok, this);
    box->setAttribute(Qt::WA_DeleteOnClose);
    box->open();
}

bool MainWindow::reportExport(const QString& path, const QString& problem)
{
    if (problem.isEmpty()) {
        m_status->showMessage(tr("Saved %1").arg(QDir::toNativeSeparators(path)));
        return true;
    }
    showProblem(problem);
    return false;
}

bool MainWindow::exportChartTo(const QString& path, QSize pixels)
{
    const auto& comparison = m_session->lastComparison();
    if (m_tabs->currentWidget() == m_comparisonView && comparison)
        return reportExport(path, exportComparisonChart(*comparison, path, pixels));
    const int tab = m_tabs->currentIndex();
    const auto kind = tab >= 0 && tab < RunCharts::kKindCount ? RunCharts::Kind(tab) : RunCharts::Time;
    return reportExport(path, exportChart(m_session->report(), m_session->overlay(), kind, path, pixels));
}

bool MainWindow::exportDataTo(const QString& path)
{
    return reportExport(path, exportData(m_session->report(), path));
}

bool MainWindow::exportComparisonTo(const QString& path)
{
    const auto& comparison = m_session->lastComparison();
    return reportExport(path,
        comparison ? exportComparisonData(*comparison, path) : tr("Run a comparison first (Compare menu)."));
}

bool MainWindow::loadOverlay(const QString& path)
{
    const Status problem = m_session->loadOverlay(path);
    if (problem)
        showProblem(QString::fromStdString(problem->message()));
    else
        m_status->showMessage(tr("Overlaid %1").arg(m_session->overlay().label));
    return !problem;
}

void MainWindow::exportChartInteractive(const QString& format)
{
    const QString path = askSavePath(this, m_settings, tr("Export chart"), "asyncscope-chart." + format,
        format == "svg" ? tr("SVG pictures (*.svg)") : tr("PNG pictures (*.png)"));
    if (path.isEmpty())
        return;
    if (const auto size = askPixelSize(this, m_settings.exportSize)) {
        m_settings.exportSize = *size;
        exportChartTo(path, *size);
    }
}

void MainWindow::exportDataInteractive(const QString& format, bool comparison)
{
    const QString path = askSavePath(this, m_settings, tr("Export data"),
        (comparison ? "asyncscope-comparison." : "asyncscope-runs.") + format,
        format == "csv" ? tr("CSV files (*.csv)") : tr("JSON files (*.json)"));
    if (!path.isEmpty())
        comparison ? exportComparisonTo(path) : exportDataTo(path);
}

void MainWindow::resetSettings()
{
    clearSettings();
    m_settings = defaultSettings();
    m_panel->applySettings(m_settings);
    if (m_session->devicesKnown())
        m_panel->setDevices(m_session->platform(), {}, std::nullopt);
    m_status->showMessage(tr("Settings reset to defaults"));
}

void MainWindow::closeEvent(QCloseEvent* event)
{
    if (!m_options.headless()) {  // a scripted run leaves the user's settings alone
        m_settings = m_panel->settings(m_settings);
        m_settings.geometry = saveGeometry();
        saveSettings(m_settings);
    }
    m_session->shutdown();  // cancels the plan and waits for the run thread
    event->accept();
}

}  // namespace asyncscope

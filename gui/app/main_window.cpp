#include "gui/app/main_window.hpp"

#include "gui/app/about_dialog.hpp"
#include "gui/gpus/all_gpus_panel.hpp"
#include "gui/files/data_export.hpp"
#include "gui/charts/chart_export.hpp"
#include "gui/charts/chart_view.hpp"
#include "gui/charts/comparison_view.hpp"
#include "gui/config/config_panel.hpp"
#include "gui/charts/distribution_panel.hpp"
#include "gui/app/headless_runner.hpp"
#include "gui/app/help_pages.hpp"
#include "gui/session/plan_verdict.hpp"
#include "gui/app/run_status.hpp"
#include "gui/session/plan_controller.hpp"
#include "gui/session/session_model.hpp"
#include "gui/charts/summary_table.hpp"
#include "gui/config/sweep_range_dialog.hpp"
#include "gui/app/text_page_dialog.hpp"
#include "gui/timeline/timeline_panel.hpp"
#include "gui/app/window_actions.hpp"

#include "engine/model/cuda_versions.hpp"

#include <QAction>
#include <QCloseEvent>
#include <QMenuBar>
#include <QMessageBox>
#include <QScreen>
#include <QSplitter>
#include <QStatusBar>
#include <QTabWidget>

// The icons live in the static GUI library; its resources must be registered by name.
static void initResources()
{
    Q_INIT_RESOURCE(resources);
}

namespace asyncscope {

namespace {

constexpr int kTransientMs = 6000;  // how long a "Saved …" line stays in the status bar

}  // namespace

MainWindow::MainWindow(std::shared_ptr<Backend> backend, AppOptions options, QWidget* parent)
    : QMainWindow(parent)
    , m_options(std::move(options))
    , m_session(new SessionModel(backend, this))
    , m_charts(std::make_unique<RunCharts>())
    , m_settings(loadSettings())
{
    initResources();
    setWindowTitle(QStringLiteral("AsyncScope"));
    setWindowIcon(QIcon(QStringLiteral(":/icons/asyncscope.svg")));
    buildViews();
    m_allGpus = new AllGpusPanel(m_session->controller());
    m_tabs->addTab(m_allGpus, tr("All GPUs"));
    if (m_options.allGpus)
        m_allGpus->setMode(m_options.allAtOnce ? DeviceMode::AllAtOnce : DeviceMode::OneAtATime);
    m_allGpus->setBindToLocalCpus(m_options.numaBinding);  // every plan of the window, as in the CLI
    m_files = new FileActions(m_session, m_settings, [this] { return shownPicture(); }, this);
    const auto saved = [this](const QString& message) {
        saveSettingsNow();
        m_status->showTransient(message, kTransientMs);
    };
    connect(m_files, &FileActions::problem, this, &MainWindow::showProblem);
    connect(m_files, &FileActions::done, this, saved);
    // The tabs' own export buttons go the File menu's way: the shown tab's picture, where and as large as asked.
    const auto exportShown = [this](const QString& format) { m_files->exportPictureInteractive(format); };
    connect(m_timeline, &TimelinePanel::exportRequested, this, exportShown);
    connect(m_distribution, &DistributionPanel::exportRequested, this, exportShown);
    connect(m_allGpus, &AllGpusPanel::exportRequested, this, exportShown);
    connect(m_allGpus, &AllGpusPanel::exportTableRequested, this, [this] {
        m_files->exportTableInteractive(tr("Export the GPUs' table"), QStringLiteral("all-gpus.csv"),
            [this](const QString& path) { return m_allGpus->exportCsv(path); });
    });
    connect(m_allGpus, &AllGpusPanel::runRequested, this, &MainWindow::startAllGpus);
    connect(m_allGpus, &AllGpusPanel::runningChanged, this, [this](bool running) {
        if (running)
            m_tabs->setCurrentWidget(m_allGpus);
        else
            m_status->showMessage(m_allGpus->summaryText());
        updateActions();
    });
    m_charts->onRunClicked([this](int run) { m_timeline->showRun(run); });
    m_actions = new WindowActions(menuBar(), this);
    wireActions();
    m_charts->applyPalette(palette());
    GuiSettings start = m_settings;
    m_options.applyShape(start.config);
    m_panel->applySettings(start);
    if (m_options.elements)
        m_panel->showSize(*m_options.elements);
    if (m_options.runs)
        m_panel->setRuns(*m_options.runs);
    placeOnScreen();

    connect(m_panel, &ConfigPanel::runRequested, this, &MainWindow::startRun);
    connect(m_panel, &ConfigPanel::cancelRequested, this, &MainWindow::cancelRun);
    connect(m_panel, &ConfigPanel::changed, this, &MainWindow::saveSettingsNow);
    connect(m_tabs, &QTabWidget::currentChanged, this, &MainWindow::updateActions);
    connect(m_session, &SessionModel::devicesAvailable, this, &MainWindow::onDevicesAvailable);
    connect(m_session, &SessionModel::discoveryFailed, this, &MainWindow::onDiscoveryFailed);
    connect(m_session, &SessionModel::reportChanged, this, &MainWindow::refreshViews);
    connect(m_session, &SessionModel::planFinished, this, &MainWindow::onPlanFinished);
    connect(m_session, &SessionModel::overlayChanged, this, [this] {
        m_charts->setOverlays(m_session->overlays());
        refreshViews();
    });
    QString startupProblem;
    if (!m_options.open.isEmpty() && !m_files->openSaved(m_options.open))
        startupProblem = tr("Cannot open %1.").arg(m_options.open);
    for (const QString& overlay : m_options.overlays) {
        if (!m_files->addOverlay(overlay))
            startupProblem = tr("Cannot overlay %1.").arg(overlay);
    }
    if (m_options.headless()) {
        m_headless = new HeadlessRunner(m_options, m_session, this,
            [this] { return m_panel->plan(m_options.comparison, m_options.sweepMinBytes, m_options.sweepMaxBytes); },
            [this](const QString& path, QSize pixels) {
                m_timeline->refresh();  // the last run, whatever the views' throttle has drawn so far
                return m_timeline->exportPicture(path, pixels);
            },
            startupProblem, this);
        connect(m_headless, &HeadlessRunner::finished, this, &MainWindow::headlessFinished);
        if (m_options.allGpus)
            m_headless->runAllGpus(m_allGpus);
    }
    m_status->showMessage(tr("Looking for CUDA devices…"));
    updateActions();
    m_session->discover();
}

void MainWindow::buildViews()
{
    m_panel = new ConfigPanel;  // its fields scroll at small window sizes rather than being cut

    m_tabs = new QTabWidget;
    m_tabs->setUsesScrollButtons(true);
    const QString tabNames[] = { tr("Time"), tr("Poll iterations"), tr("Stages") };
    for (int k = 0; k < RunCharts::kKindCount; ++k) {
        m_views[k] = new ChartView(m_charts->chart(RunCharts::Kind(k)));
        m_tabs->addTab(m_views[k], tabNames[k]);
        connect(m_views[k], &ChartView::resetRequested, this, [this, k] { m_charts->resetZoom(RunCharts::Kind(k)); });
    }
    m_timeline = new TimelinePanel(m_session);
    m_tabs->addTab(m_timeline, tr("Timeline"));
    m_distribution = new DistributionPanel(m_session);
    m_tabs->addTab(m_distribution, tr("Distribution"));
    m_summary = new SummaryTable;
    m_summary->follow(m_session);
    m_tabs->addTab(m_summary, tr("Summary"));
    m_comparisonView = new ComparisonView;
    m_tabs->addTab(m_comparisonView, tr("Comparison"));

    auto* splitter = new QSplitter;
    splitter->addWidget(m_panel);
    splitter->addWidget(m_tabs);
    splitter->setStretchFactor(1, 1);
    const int panelWidth = m_panel->minimumSizeHint().width();
    splitter->setSizes({ panelWidth, 4 * panelWidth });  // the charts take what is left
    setCentralWidget(splitter);
    m_status = new RunStatus(m_session);
    statusBar()->addWidget(m_status, 1);
}

void MainWindow::wireActions()
{
    WindowActions& a = *m_actions;
    FileActions* f = m_files;
    connect(a.exportPng, &QAction::triggered, f, [f] { f->exportPictureInteractive("png"); });
    connect(a.exportSvg, &QAction::triggered, f, [f] { f->exportPictureInteractive("svg"); });
    connect(a.exportCsv, &QAction::triggered, f, [f] { f->exportDataInteractive("csv", false); });
    connect(a.exportJson, &QAction::triggered, f, [f] { f->exportDataInteractive("json", false); });
    connect(a.exportTrace, &QAction::triggered, f,
        [this, f] { f->exportTraceInteractive(m_tabs->currentWidget() == m_comparisonView); });
    connect(a.openSaved, &QAction::triggered, f, &FileActions::openSavedInteractive);
    connect(a.openResults, &QAction::triggered, f, &FileActions::openResultsInteractive);
    connect(a.runAllGpus, &QAction::triggered, this, &MainWindow::startAllGpus);
    connect(a.addOverlay, &QAction::triggered, f, &FileActions::addOverlayInteractive);
    connect(a.removeOverlays, &QAction::triggered, m_session, &SessionModel::clearOverlays);
    connect(a.quit, &QAction::triggered, this, &QWidget::close);
    connect(a.compareHostMemory, &QAction::triggered, this, [this] { startComparison(Comparison::HostMemory); });
    connect(a.compareWait, &QAction::triggered, this, [this] { startComparison(Comparison::Wait); });
    connect(a.compareOverlap, &QAction::triggered, this, [this] { startComparison(Comparison::Overlap); });
    connect(a.compareSubmission, &QAction::triggered, this, [this] { startComparison(Comparison::Submission); });
    connect(a.sweep, &QAction::triggered, this, [this] {
        if (const auto range = askSweepRange(this))
            startComparison(Comparison::Size, range->first, range->second);
    });
    connect(a.exportComparisonCsv, &QAction::triggered, f, [f] { f->exportDataInteractive("csv", true); });
    connect(a.exportComparisonJson, &QAction::triggered, f, [f] { f->exportDataInteractive("json", true); });
    connect(a.zoomIn, &QAction::triggered, this, [this] { currentChart()->zoomIn(); });
    connect(a.zoomOut, &QAction::triggered, this, [this] { currentChart()->zoomOut(); });
    connect(a.resetZoom, &QAction::triggered, this, [this] {
        for (int k = 0; k < RunCharts::kKindCount; ++k)
            m_charts->resetZoom(RunCharts::Kind(k));
    });
    connect(a.nextTab, &QAction::triggered, this,
        [this] { m_tabs->setCurrentIndex((m_tabs->currentIndex() + 1) % m_tabs->count()); });
    connect(a.previousTab, &QAction::triggered, this,
        [this] { m_tabs->setCurrentIndex((m_tabs->currentIndex() + m_tabs->count() - 1) % m_tabs->count()); });
    connect(a.resetSettings, &QAction::triggered, this, &MainWindow::resetSettings);
    auto page = [this](const QString& title, const QString& html) {
        auto* dialog = new TextPageDialog(title, html, this);
        dialog->setAttribute(Qt::WA_DeleteOnClose);
        dialog->show();
    };
    connect(a.guide, &QAction::triggered, this, [page] { page(tr("AsyncScope guide"), guidePage()); });
    connect(a.shortcuts, &QAction::triggered, this,
        [this, page] { page(tr("Keyboard shortcuts"), shortcutsPage(m_actions->withShortcuts())); });
    connect(a.licence, &QAction::triggered, this, [page] { page(tr("Licence"), licencePage()); });
    connect(a.about, &QAction::triggered, this, [this] { showAboutDialog(this, m_session->platform()); });
}

void MainWindow::updateActions()
{
    const auto& comparison = m_session->lastComparison();
    const bool runs = !m_session->report().runs.empty();
    const bool overlays = !m_session->overlays().empty();
    const bool drawn = bool(shownPicture().draw);
    const bool running = m_session->controller()->isRunning();
    m_actions->update({ running, m_session->devicesKnown(), runs, drawn, currentChart() != nullptr,
        comparison.has_value(), overlays });
    m_panel->setRunning(running);
    m_allGpus->setCanRun(!running && m_session->devicesKnown());
}

FileActions::Picture MainWindow::shownPicture() const
{
    QWidget* tab = m_tabs->currentWidget();
    const SessionModel* s = m_session;
    const bool runs = !s->report().runs.empty() || !s->overlays().empty();
    if (ChartView* chart = currentChart(); chart && runs) {
        const auto kind = RunCharts::Kind(m_tabs->indexOf(chart));
        return { tr("Export chart"), QStringLiteral("asyncscope-chart"), [s, kind](const QString& path, QSize pixels) {
                    return exportChart(s->report(), s->source(), s->overlays(), kind, path, pixels);
                } };
    }
    if (tab == m_comparisonView && s->lastComparison())
        return { tr("Export comparison"), QStringLiteral("asyncscope-comparison"),
            [s](const QString& path, QSize pixels) { return exportComparisonChart(*s->lastComparison(), path, pixels); } };
    if (tab == m_timeline && m_timeline->shownRun())
        return { tr("Export timeline"), QStringLiteral("asyncscope-timeline"),
            [this](const QString& path, QSize pixels) { return m_timeline->exportPicture(path, pixels); } };
    if (tab == m_distribution && runs)
        return { tr("Export distributions"), QStringLiteral("asyncscope-distribution"),
            [this](const QString& path, QSize pixels) { return m_distribution->exportPicture(path, pixels); } };
    if (tab == m_allGpus && !m_allGpus->rows().empty() && !m_allGpus->isRunning())
        return { tr("Export the GPUs' chart"), QStringLiteral("asyncscope-all-gpus"),
            [this](const QString& path, QSize pixels) { return m_allGpus->exportChart(path, pixels); } };
    return {};
}

ChartView* MainWindow::currentChart() const
{
    return qobject_cast<ChartView*>(m_tabs->currentWidget());
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
    const Status refused = plan ? m_session->start(*plan, m_allGpus->bindsToLocalCpus()) : Status(plan.error());
    if (refused)
        return showProblem(QString::fromStdString(refused->message()));
    for (int k = 0; k < RunCharts::kKindCount; ++k)
        m_charts->resetZoom(RunCharts::Kind(k));
    m_timeline->followLatest();
    updateActions();
    m_status->showStart(*plan, QString::fromStdString(m_session->report().device.name));
}

void MainWindow::startAllGpus()
{
    if (m_session->isRunning())
        return showProblem(tr("A run is going; cancel it before running every GPU."));
    const Result<Plan> plan = m_panel->plan(std::nullopt);
    const Status refused = plan ? m_allGpus->start(*plan, m_session->platform()) : Status(plan.error());
    if (refused)
        showProblem(QString::fromStdString(refused->message()));
}

void MainWindow::cancelRun()
{
    if (m_allGpus->isRunning())
        return m_allGpus->cancel();
    if (!m_session->isRunning())
        return;
    m_session->cancel();
    m_status->showMessage(tr("Cancelling…"));
}

void MainWindow::refreshViews()
{
    m_charts->setRuns(m_session->report(), m_session->source(), m_session->prepared().points);
    setWindowTitle(m_session->source().isEmpty() ? QStringLiteral("AsyncScope")
                                                 : QStringLiteral("AsyncScope — %1").arg(m_session->source()));
    updateActions();
}

void MainWindow::onDevicesAvailable(const Platform& platform)
{
    if (auto problem = m_panel->setDevices(platform, m_settings.deviceUuid, m_options.device))
        showProblem(QString::fromStdString(problem->message()));
    updateActions();
    m_status->showMessage(tr("%n CUDA device(s), driver CUDA %1", nullptr, int(platform.devices.size()))
                              .arg(QString::fromStdString(formatCudaVersion(platform.driverVersion))));
    if (m_options.headless())
        return;  // the headless runner starts it
    if (m_options.comparison)
        startComparison(*m_options.comparison, m_options.sweepMinBytes, m_options.sweepMaxBytes);
    else if (m_options.allGpus)
        startAllGpus();
    else if (m_options.runNow)
        startRun();
}

void MainWindow::onDiscoveryFailed(const Error& error)
{
    const bool noDriver = error.kind == ErrorKind::NoDriver || error.kind == ErrorKind::DriverTooOld;
    m_panel->setNoDevices(noDriver ? tr("No NVIDIA driver") : tr("No CUDA device"),
        QString::fromStdString(plainSentence(error)), QString::fromStdString(error.message()));
    updateActions();
    m_status->showMessage(noDriver ? tr("No GPU can run here; saved runs still open (File menu).")
                                   : tr("No CUDA device answers."));
}

void MainWindow::onPlanFinished(const PlanReport& plan)
{
    if (plan.comparison && plan.ranCount() > 0) {
        m_comparisonView->setComparison(plan);
        m_tabs->setCurrentWidget(m_comparisonView);
    }
    updateActions();
    showProblem(m_session->verdict().problem);
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

void MainWindow::saveSettingsNow()
{
    if (m_options.headless())
        return;  // a scripted run leaves the user's settings alone
    m_settings = m_panel->settings(m_settings);
    m_settings.geometry = saveGeometry();
    saveSettings(m_settings);
}

void MainWindow::resetSettings()
{
    clearSettings();
    m_settings = defaultSettings();
    m_panel->applySettings(m_settings);
    if (m_session->devicesKnown())
        m_panel->setDevices(m_session->platform(), {}, std::nullopt);
    m_status->showTransient(tr("Settings reset to defaults"), kTransientMs);
}

void MainWindow::placeOnScreen()
{
    // A remembered geometry is used only if it fits this screen as it is now (another scale, another monitor);
    // otherwise the window takes 1280 x 800, or nearly the whole screen where that is smaller.
    const QRect screen = this->screen()->availableGeometry();
    if (m_options.headless())
        return resize(1280, 800);  // the screenshot's size, whatever the (virtual) screen
    const QSize fitting(std::min(1280, screen.width() * 19 / 20), std::min(800, screen.height() * 19 / 20));
    if (!m_settings.geometry.isEmpty() && restoreGeometry(m_settings.geometry) && screen.contains(frameGeometry()) &&
        width() >= fitting.width() / 2 && height() >= fitting.height() / 2)
        return;
    resize(fitting);
    move(screen.center() - rect().center());
}

void MainWindow::changeEvent(QEvent* event)
{
    if (event->type() == QEvent::PaletteChange)
        m_charts->applyPalette(palette());
    QMainWindow::changeEvent(event);
}

void MainWindow::closeEvent(QCloseEvent* event)
{
    saveSettingsNow();
    m_session->shutdown();  // cancels the plan and waits for the run thread
    m_allGpus->shutdown();  // the same for every GPU of an All GPUs run
    event->accept();
}

}  // namespace asyncscope

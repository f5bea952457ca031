#include "gui/app/main_window.hpp"

#include "gui/app/baseline_consent.hpp"
#include "gui/app/chart_look.hpp"
#include "gui/app/headless_runner.hpp"
#include "gui/app/record_actions.hpp"
#include "gui/app/problem_box.hpp"
#include "gui/app/run_status.hpp"
#include "gui/app/theme.hpp"
#include "gui/app/window_actions.hpp"
#include "gui/app/window_placement.hpp"
#include "gui/advice/advice_panel.hpp"
#include "gui/app/window_tabs.hpp"
#include "gui/charts/chart_view.hpp"
#include "gui/charts/comparison_view.hpp"
#include "gui/charts/difference_view.hpp"
#include "gui/config/config_panel.hpp"
#include "gui/config/panel_stack.hpp"
#include "gui/gpus/all_gpus_panel.hpp"
#include "gui/session/plan_controller.hpp"
#include "gui/session/session_model.hpp"
#include "gui/timeline/timeline_panel.hpp"

#include "engine/model/cuda_versions.hpp"

#include <QAction>
#include <QCloseEvent>
#include <QFileInfo>
#include <QMenuBar>
#include <QSplitter>
#include <QStatusBar>

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
    applyTheme(m_options.theme.value_or(m_settings.theme));  // before any widget is made: each starts in it
    setWindowTitle(QStringLiteral("AsyncScope"));
    setWindowIcon(QIcon(QStringLiteral(":/icons/asyncscope.svg")));
    buildViews();
    m_allGpus = m_tabs->addAllGpus();
    if (m_options.allGpus)
        m_allGpus->setMode(m_options.allAtOnce ? DeviceMode::AllAtOnce : DeviceMode::OneAtATime);
    m_allGpus->setBindToLocalCpus(m_options.numaBinding);  // every plan of the window, as in the CLI
    if (!m_options.tab.isEmpty())
        m_tabs->showNamed(m_options.tab);
    m_files = new FileActions(m_session, m_settings, [this] { return m_tabs->picture(); }, this);
    const auto saved = [this](const QString& message) {
        saveSettingsNow();
        m_status->showTransient(message, kTransientMs);
    };
    m_status->followFiles(*m_files);  // before the problem's box: no "Writing …" left behind it
    connect(m_files, &FileActions::problem, this, &MainWindow::showProblem);
    connect(m_files, &FileActions::notice, this, &MainWindow::showProblem);
    connect(m_files, &FileActions::done, this, saved);
    m_files->connectTabs(*m_tabs);
    m_record = new RecordActions(m_session, m_files, this);  // says how it went as the file actions do
    connect(m_allGpus, &AllGpusPanel::runRequested, this, &MainWindow::startAllGpus);
    connect(m_allGpus, &AllGpusPanel::runningChanged, this, [this](bool running) {
        if (running)
            m_tabs->setCurrentWidget(m_allGpus);
        else
            m_status->showMessage(m_allGpus->summaryText());
        updateActions();
    });
    m_actions = new WindowActions(menuBar(), this);
    wireActions();
    m_charts->applyPalette(palette());
    applyChartLook();
    GuiSettings start = m_settings;
    m_options.applyShape(start.config);
    m_panel->applySettings(start);
    if (m_options.elements)
        m_panel->showSize(*m_options.elements);
    if (m_options.runs)
        m_panel->setRuns(*m_options.runs);
    placeOnScreen(*this, m_settings.geometry, m_options.headless());

    connect(m_panel, &ConfigPanel::runRequested, this, &MainWindow::startRun);
    connect(m_panel, &ConfigPanel::cancelRequested, this, &MainWindow::cancelRun);
    connect(m_panel, &ConfigPanel::changed, this, &MainWindow::saveSettingsNow);
    connect(m_tabs, &QTabWidget::currentChanged, this, &MainWindow::updateActions);
    connect(m_session, &SessionModel::devicesAvailable, this, &MainWindow::onDevicesAvailable);
    connect(m_session, &SessionModel::discoveryFailed, this, &MainWindow::onDiscoveryFailed);
    connect(m_session, &SessionModel::reportChanged, this, &MainWindow::refreshViews);
    connect(m_session, &SessionModel::planFinished, this, &MainWindow::onPlanFinished);
    connect(m_session, &SessionModel::overlayChanged, this, [this] {
        m_charts->setOverlays(m_session->drawnOverlays());
        refreshViews();
    });
    connect(&m_session->baselines(), &BaselineController::changed, this, &MainWindow::updateActions);
    connect(m_session, &SessionModel::comparisonOpened, this, [this] {
        m_tabs->showEnded(*m_session->lastComparison(), {});
        updateActions();
    });
    // A saved series shown: the panel shows the configuration it ran with, until a run or "Use these settings".
    connect(m_session, &SessionModel::savedLoaded, this, [this](const QString& path, bool overlay) {
        if (!overlay && m_session->report().program)  // a recorded program ran no configuration of the panel's
            m_panel->showOwnSettings();
        else if (!overlay)
            m_panel->showConfiguration(m_session->report().config, QFileInfo(path).fileName());
    });
    m_consent = new BaselineConsent(m_session, this, m_options.headless());
    const FileActions::Refused refused =
        m_files->openFromCommandLine(m_options.open, m_options.overlays, m_options.baseline);
    if (m_options.headless()) {
        m_headless = new HeadlessRunner(m_options, m_session, this,
            [this] {
                m_panel->showOwnSettings();  // not a saved series' configuration the panel shows
                return m_panel->plan(m_options.comparison, m_options.sweepMinBytes, m_options.sweepMaxBytes);
            },
            [this](const QString& path, QSize pixels) {
                m_tabs->timeline()->refresh();  // the last run, whatever the views' throttle has drawn so far
                return m_tabs->timeline()->exportPicture(path, pixels);
            },
            refused.files, refused.open, this);
        connect(m_headless, &HeadlessRunner::finished, this, &MainWindow::headlessFinished);
        if (m_options.allGpus)
            m_headless->runAllGpus(m_allGpus);
    }
    addSettingsNote(*statusBar(), settingsFileProblem());
    m_status->showMessage(tr("Looking for CUDA devices…"));
    updateActions();
    m_session->discover();
}

void MainWindow::buildViews()
{
    m_panel = new ConfigPanel;  // its fields scroll at small window sizes rather than being cut
    m_tabs = new WindowTabs(m_session, *m_charts);
    auto* splitter = new QSplitter;
    splitter->addWidget(m_side = new PanelStack(m_panel, m_session->source()));  // the pipeline, or a program
    splitter->addWidget(m_tabs);
    splitter->setStretchFactor(1, 1);
    const int panelWidth = m_panel->minimumSizeHint().width();
    splitter->setSizes({ panelWidth, 4 * panelWidth });  // the charts take what is left
    setCentralWidget(splitter);
    m_status = new RunStatus(m_session);
    statusBar()->addWidget(m_status, 1);
    connect(m_status, &RunStatus::adviceRequested, this, [this] { m_tabs->showAndFocus(m_tabs->advice()); });
    connect(m_tabs->advice(), &AdvicePanel::tryRequested, this,
        [this](const SuggestedShape& shape) { startPlan(tryAdvicePlan(m_session->report().config, shape)); });
    connect(m_status, &RunStatus::baselineRequested, this, [this] {
        if (!m_consent->askAgain())  // a question closed unanswered is asked again
            m_tabs->showAndFocus(m_tabs->difference());
    });
    connect(m_session, &SessionModel::adviceChanged, this, &MainWindow::updateActions);
}

void MainWindow::wireActions()
{
    WindowActions& a = *m_actions;
    m_files->connectActions(a, [this] { return m_tabs->currentWidget() == m_tabs->comparison(); });
    m_record->connectTo(a.recordProgram, m_side->program());
    connect(a.runAllGpus, &QAction::triggered, this, &MainWindow::startAllGpus);
    connect(a.removeOverlays, &QAction::triggered, m_session, &SessionModel::clearOverlays);
    connect(a.clearBaseline, &QAction::triggered, m_session, &SessionModel::clearBaseline);
    connect(a.quit, &QAction::triggered, this, &QWidget::close);
    a.connectComparisons(this, [this](Comparison c, std::size_t low, std::size_t high) {
        startComparison(c, low, high);
    });
    connect(a.zoomIn, &QAction::triggered, this, [this] { m_tabs->currentChart()->zoomIn(); });
    connect(a.zoomOut, &QAction::triggered, this, [this] { m_tabs->currentChart()->zoomOut(); });
    connect(a.resetZoom, &QAction::triggered, m_tabs, &WindowTabs::resetZoom);
    a.connectChartLook(this, [this](const RunCharts::Look& look) {
        keepChartLook(m_settings, look);
        applyChartLook();
        saveSettingsNow();
    });
    a.connectTabs(m_tabs);
    connect(a.resetSettings, &QAction::triggered, this, &MainWindow::resetSettings);
    a.showTheme(m_options.theme.value_or(m_settings.theme));
    a.connectThemes(this, [this](Theme theme) {
        m_settings.theme = theme;
        applyTheme(theme);
        saveSettingsNow();
    });
    a.connectHelp(this, [this] { return m_session->platform(); });
}

void MainWindow::updateActions()
{
    const auto& comparison = m_session->lastComparison();
    const bool runs = !m_session->report().runs.empty();
    const bool overlays = !m_session->overlays().empty();
    const bool drawn = bool(m_tabs->picture().draw);
    const bool running = m_session->controller()->isRunning();
    m_actions->update({ running, m_session->devicesKnown(), runs, drawn, m_tabs->currentChart() != nullptr,
        comparison.has_value(), overlays, !m_session->advice().empty(), m_session->baseline() != nullptr });
    m_panel->setRunning(running);
    m_allGpus->setCanRun(!running && m_session->devicesKnown());
    m_tabs->sayWhatToDo();
}

void MainWindow::startComparison(
    std::optional<Comparison> comparison, std::size_t sweepMinBytes, std::size_t sweepMaxBytes)
{
    m_panel->showOwnSettings();  // a saved series' configuration shown is not what runs
    startPlan(m_panel->plan(comparison, sweepMinBytes, sweepMaxBytes));
}

void MainWindow::startPlan(const Result<Plan>& plan)
{
    const Status refused = plan ? m_session->start(*plan, m_allGpus->bindsToLocalCpus()) : Status(plan.error());
    if (refused)
        return showProblem(QString::fromStdString(refused->message()));
    m_tabs->resetZoom();
    m_tabs->timeline()->followLatest();
    updateActions();
    m_status->showStart(*plan, QString::fromStdString(m_session->report().device.name));
}

void MainWindow::startAllGpus()
{
    if (m_session->isRunning())
        return showProblem(tr("A run is going; cancel it before running every GPU."));
    m_panel->showOwnSettings();
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
    m_charts->setRuns(m_session->report(), m_session->source().label(), m_session->prepared().points);
    const QString& label = m_session->source().label();
    setWindowTitle(label.isEmpty() ? QStringLiteral("AsyncScope") : QStringLiteral("AsyncScope — %1").arg(label));
    updateActions();
}

void MainWindow::onDevicesAvailable(const Platform& platform)
{
    if (auto problem = m_panel->setDevices(platform, m_settings.deviceUuid, m_options.device))
        showProblem(QString::fromStdString(problem->message()));
    updateActions();
    m_status->showDevices(platform);
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
    m_status->showNoDevice(noDriver);
}

void MainWindow::onPlanFinished(const PlanReport& plan)
{
    m_tabs->showEnded(plan, m_options.tab);
    updateActions();
    showProblem(m_session->verdict().problem);
    emit planEnded();
}

void MainWindow::showProblem(const QString& text)
{
    if (!text.isEmpty() && !m_options.headless())  // headless, it is reported on standard error instead
        showProblemBox(*this, text);
}

void MainWindow::applyChartLook()
{
    const RunCharts::Look look = chartLookOf(m_settings);
    m_charts->setLook(look);
    m_actions->showChartLook(look);
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
    applyTheme(m_settings.theme);
    m_actions->showTheme(m_settings.theme);
    m_panel->applySettings(m_settings);
    applyChartLook();
    if (m_session->devicesKnown())
        m_panel->setDevices(m_session->platform(), {}, std::nullopt);
    m_status->showTransient(tr("Settings reset to defaults"), kTransientMs);
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

#include "gui/app/main_window.hpp"

#include "gui/gpus/all_gpus_panel.hpp"
#include "gui/charts/chart_view.hpp"
#include "gui/charts/comparison_view.hpp"
#include "gui/config/config_panel.hpp"
#include "gui/charts/difference_view.hpp"
#include "gui/charts/distribution_panel.hpp"
#include "gui/app/headless_runner.hpp"
#include "gui/app/shown_picture.hpp"
#include "gui/app/theme.hpp"
#include "gui/app/window_placement.hpp"
#include "gui/app/run_status.hpp"
#include "gui/session/plan_controller.hpp"
#include "gui/session/session_model.hpp"
#include "gui/charts/summary_table.hpp"
#include "gui/timeline/timeline_panel.hpp"
#include "gui/app/window_actions.hpp"

#include "engine/model/cuda_versions.hpp"

#include <QAction>
#include <QCloseEvent>
#include <QFileInfo>
#include <QMenuBar>
#include <QPushButton>
#include <QSplitter>
#include <QStatusBar>
#include <QTabBar>
#include <QTabWidget>
#include <QToolButton>

// The icons live in the static GUI library; its resources must be registered by name.
static void initResources()
{
    Q_INIT_RESOURCE(resources);
}

namespace asyncscope {

namespace {

constexpr int kTransientMs = 6000;  // how long a "Saved …" line stays in the status bar

// The run charts' styles as the settings keep them.
QString styleName(RunCharts::Style style)
{
    switch (style) {
    case RunCharts::Style::Lines: return QStringLiteral("lines");
    case RunCharts::Style::Density: return QStringLiteral("density");
    case RunCharts::Style::Automatic: break;
    }
    return QStringLiteral("automatic");
}

RunCharts::Style styleNamed(const QString& name)
{
    if (name == QLatin1String("lines"))
        return RunCharts::Style::Lines;
    if (name == QLatin1String("density"))
        return RunCharts::Style::Density;
    return RunCharts::Style::Automatic;
}

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
    m_allGpus = new AllGpusPanel(m_session->controller());
    m_tabs->addTab(m_allGpus, tr("All GPUs"));
    if (m_options.allGpus)
        m_allGpus->setMode(m_options.allAtOnce ? DeviceMode::AllAtOnce : DeviceMode::OneAtATime);
    m_allGpus->setBindToLocalCpus(m_options.numaBinding);  // every plan of the window, as in the CLI
    if (!m_options.tab.isEmpty())
        showTabNamed(m_options.tab);
    m_files = new FileActions(m_session, m_settings, [this] { return shownPicture(); }, this);
    const auto saved = [this](const QString& message) {
        saveSettingsNow();
        m_status->showTransient(message, kTransientMs);
    };
    connect(m_files, &FileActions::problem, this, &MainWindow::showProblem);
    connect(m_files, &FileActions::done, this, saved);
    connect(m_files, &FileActions::progress, m_status, &RunStatus::showMessage);
    m_files->connectPanels(m_timeline, m_distribution, m_allGpus);
    connect(m_advice, &AdvicePanel::saveRequested, m_files, &FileActions::exportAdviceInteractive);
    connect(m_difference, &DifferenceView::exportRequested, m_files, &FileActions::exportPictureInteractive);
    connect(m_allGpus, &AllGpusPanel::runRequested, this, &MainWindow::startAllGpus);
    connect(m_allGpus, &AllGpusPanel::runningChanged, this, [this](bool running) {
        if (running)
            m_tabs->setCurrentWidget(m_allGpus);
        else
            m_status->showMessage(m_allGpus->summaryText());
        updateActions();
    });
    m_charts->at(RunCharts::Time).onRunClicked([this](int run) { m_timeline->showRun(run); });
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
        m_charts->setOverlays(m_session->overlays());
        refreshViews();
    });
    connect(m_session, &SessionModel::baselineChanged, this, &MainWindow::updateActions);
    // A saved series shown: the panel shows the configuration it ran with, until a run or "Use these settings".
    connect(m_session, &SessionModel::savedLoaded, this, [this](const QString& path, bool overlay) {
        if (!overlay)
            m_panel->showConfiguration(m_session->report().config, QFileInfo(path).fileName());
    });
    connect(m_session, &SessionModel::baselineConsentNeeded, this, &MainWindow::askAcrossConfigurations);
    const FileActions::Refused refused =
        m_files->openFromCommandLine(m_options.open, m_options.overlays, m_options.baseline);
    if (m_options.headless()) {
        m_headless = new HeadlessRunner(m_options, m_session, this,
            [this] {
                m_panel->showOwnSettings();  // not a saved series' configuration the panel shows
                return m_panel->plan(m_options.comparison, m_options.sweepMinBytes, m_options.sweepMaxBytes);
            },
            [this](const QString& path, QSize pixels) {
                m_timeline->refresh();  // the last run, whatever the views' throttle has drawn so far
                return m_timeline->exportPicture(path, pixels);
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

    m_tabs = new QTabWidget;
    m_tabs->setUsesScrollButtons(true);
    // Tab goes from the tab bar into the page shown; its scroll buttons are for the mouse (the arrow keys and
    // Ctrl+Tab move between tabs).
    for (QToolButton* scroll : m_tabs->tabBar()->findChildren<QToolButton*>())
        scroll->setFocusPolicy(Qt::NoFocus);
    const QString tabNames[] = { tr("Time"), tr("Poll iterations"), tr("Stages") };
    for (int k = 0; k < RunCharts::kKindCount; ++k) {
        m_views[k] = new ChartView(m_charts->chart(RunCharts::Kind(k)));
        m_tabs->addTab(m_views[k], tabNames[k]);
        connect(m_views[k], &ChartView::resetRequested, this,
            [this, k] { m_charts->at(RunCharts::Kind(k)).resetZoom(); });
    }
    m_timeline = new TimelinePanel(m_session);
    m_tabs->addTab(m_timeline, tr("Timeline"));
    m_distribution = new DistributionPanel(m_session);
    m_tabs->addTab(m_distribution, tr("Distribution"));
    m_summary = new SummaryTable;
    m_summary->follow(m_session);
    m_tabs->addTab(m_summary, tr("Summary"));
    m_difference = new DifferenceView(m_session);
    m_tabs->addTab(m_difference, tr("Difference"));
    m_advice = new AdvicePanel;
    m_advice->follow(m_session);
    m_tabs->addTab(m_advice, tr("Advice"));
    connect(m_advice, &AdvicePanel::jumpRequested, this, &MainWindow::showFindingTarget);
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
    connect(m_status, &RunStatus::adviceRequested, this, [this] {
        m_tabs->setCurrentWidget(m_advice);
        m_advice->setFocus(Qt::OtherFocusReason);
    });
    connect(m_status, &RunStatus::baselineRequested, this, [this] {
        if (m_session->baselineState() == SessionModel::BaselineState::NeedsConsent &&
            (!m_acrossQuestion || !m_acrossQuestion->isVisible()))
            return askAcrossConfigurations(m_acrossJustSet);  // the question was closed unanswered: asked again
        m_tabs->setCurrentWidget(m_difference);
        m_difference->setFocus(Qt::OtherFocusReason);
    });
    connect(m_session, &SessionModel::adviceChanged, this, &MainWindow::updateActions);
}

void MainWindow::showFindingTarget(const AdvicePanel::Jump& jump)
{
    using To = AdvicePanel::Jump::To;
    QWidget* shown = m_summary;
    switch (jump.to) {
    case To::Runs:
        shown = m_views[RunCharts::Time];
        m_tabs->setCurrentWidget(shown);  // shown first: a chart hidden until now lays out its plot as it shows
        m_charts->at(RunCharts::Time).zoomToRuns(double(jump.first), double(jump.last));
        break;
    case To::Timeline:
        shown = m_timeline;
        if (jump.run >= 0)
            m_timeline->showRun(jump.run);
        break;
    case To::Comparison: shown = m_comparisonView; break;
    case To::Summary: break;
    }
    m_tabs->setCurrentWidget(shown);
    shown->setFocus(Qt::OtherFocusReason);  // the keyboard goes on there: + and - zoom the chart, arrows scroll
}

void MainWindow::showTabNamed(const QString& name)
{
    // "advice", "all-gpus", "poll-iterations": a tab's text in lower case, spaces as dashes.
    const QString wanted = name.toLower();
    for (int i = 0; i < m_tabs->count(); ++i) {
        QString text = m_tabs->tabText(i).toLower().remove(QLatin1Char('&'));
        if (text == wanted || text.replace(QLatin1Char(' '), QLatin1Char('-')) == wanted)
            return m_tabs->setCurrentIndex(i);
    }
}

QString MainWindow::adviceBadge() const
{
    return m_status->adviceBadge();
}

void MainWindow::wireActions()
{
    WindowActions& a = *m_actions;
    m_files->connectActions(a, [this] { return m_tabs->currentWidget() == m_comparisonView; });
    connect(a.runAllGpus, &QAction::triggered, this, &MainWindow::startAllGpus);
    connect(a.removeOverlays, &QAction::triggered, m_session, &SessionModel::clearOverlays);
    connect(a.clearBaseline, &QAction::triggered, m_session, &SessionModel::clearBaseline);
    connect(a.quit, &QAction::triggered, this, &QWidget::close);
    a.connectComparisons(this, [this](Comparison c, std::size_t low, std::size_t high) {
        startComparison(c, low, high);
    });
    connect(a.zoomIn, &QAction::triggered, this, [this] { currentChart()->zoomIn(); });
    connect(a.zoomOut, &QAction::triggered, this, [this] { currentChart()->zoomOut(); });
    connect(a.resetZoom, &QAction::triggered, this, [this] {
        for (int k = 0; k < RunCharts::kKindCount; ++k)
            m_charts->at(RunCharts::Kind(k)).resetZoom();
    });
    const std::pair<QAction*, RunCharts::Style> styles[] = { { a.chartAutomatic, RunCharts::Style::Automatic },
        { a.chartLines, RunCharts::Style::Lines }, { a.chartDensity, RunCharts::Style::Density } };
    for (const auto& [action, style] : styles) {
        connect(action, &QAction::triggered, this, [this, style = style] {
            m_settings.runChartStyle = styleName(style);
            applyChartLook();
            saveSettingsNow();
        });
    }
    connect(a.cpuOwnAxis, &QAction::toggled, this, [this](bool own) {
        if (own == m_settings.cpuOwnAxis)
            return;
        m_settings.cpuOwnAxis = own;
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
    const bool drawn = bool(shownPicture().draw);
    const bool running = m_session->controller()->isRunning();
    m_actions->update({ running, m_session->devicesKnown(), runs, drawn, currentChart() != nullptr,
        comparison.has_value(), overlays, !m_session->advice().empty(), m_session->baseline() != nullptr });
    m_panel->setRunning(running);
    m_allGpus->setCanRun(!running && m_session->devicesKnown());
}

FileActions::Picture MainWindow::shownPicture() const
{
    return pictureOfTab({ m_tabs, m_charts->look(), m_session, m_comparisonView, m_timeline, m_distribution, m_allGpus, m_difference });
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

QString MainWindow::baselineStatus() const
{
    return m_status->baselineText();
}

QString MainWindow::deviceMessage() const
{
    return m_panel->deviceMessage();
}

void MainWindow::startRun()
{
    m_panel->showOwnSettings();  // a saved series' configuration shown is not what runs
    startPlan(m_panel->plan(std::nullopt));
}

void MainWindow::startComparison(Comparison comparison, std::size_t sweepMinBytes, std::size_t sweepMaxBytes)
{
    m_panel->showOwnSettings();
    startPlan(m_panel->plan(comparison, sweepMinBytes, sweepMaxBytes));
}

void MainWindow::startPlan(const Result<Plan>& plan)
{
    const Status refused = plan ? m_session->start(*plan, m_allGpus->bindsToLocalCpus()) : Status(plan.error());
    if (refused)
        return showProblem(QString::fromStdString(refused->message()));
    for (int k = 0; k < RunCharts::kKindCount; ++k)
        m_charts->at(RunCharts::Kind(k)).resetZoom();
    m_timeline->followLatest();
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
    if (plan.comparison && plan.ranCount() > 0) {
        m_comparisonView->setComparison(plan);
        if (m_options.tab.isEmpty())
            m_tabs->setCurrentWidget(m_comparisonView);
    }
    if (!m_options.tab.isEmpty())
        showTabNamed(m_options.tab);
    updateActions();
    showProblem(m_session->verdict().problem);
    emit planEnded();
}

void MainWindow::showProblem(const QString& text)
{
    if (text.isEmpty() || m_options.headless())
        return;  // reported on standard error instead
    if (!isVisible()) {
        // Asked while the window is built (a file of the command line refused at once): a box opened over a window
        // not yet shown is lost under it. Shown once the window is, in the event loop's first turn.
        QMetaObject::invokeMethod(this, [this, text] {
            if (isVisible())
                showProblem(text);
        }, Qt::QueuedConnection);
        return;
    }
    // Non-modal, so nothing blocks the event loop (the run thread's results keep arriving).
    auto* box = new QMessageBox(QMessageBox::Warning, tr("AsyncScope"), text, QMessageBox::Ok, this);
    box->setAttribute(Qt::WA_DeleteOnClose);
    box->open();
}

void MainWindow::askAcrossConfigurations(bool justSet)
{
    m_acrossJustSet = justSet;
    if (m_acrossQuestion) {
        m_acrossQuestion->disconnect(this);  // of a series or a baseline no longer shown: its answer is not wanted
        m_acrossQuestion->close();
    }
    if (m_options.headless())
        return m_session->allowAcrossConfigurations(false);  // nobody to ask; the status line says so
    if (!isVisible()) {
        // Asked as the window is built: asked once it shows, as a problem is.
        QMetaObject::invokeMethod(this, [this, justSet] {
            if (isVisible() && m_session->baselineState() == SessionModel::BaselineState::NeedsConsent)
                askAcrossConfigurations(justSet);
        }, Qt::QueuedConnection);
        return;
    }
    const SavedRun* baseline = m_session->baseline();
    if (!baseline)
        return;
    QStringList blocking, listed;
    for (const ConfigDifference& d : m_session->baselineDifferences()) {
        const QString line = tr("%1: %2 → %3")
                                 .arg(QString::fromStdString(d.field),
                                     d.baseline.empty() ? tr("(none)") : QString::fromStdString(d.baseline),
                                     d.current.empty() ? tr("(none)") : QString::fromStdString(d.current));
        (d.blocking ? blocking : listed) << QStringLiteral("• ") + line;
    }
    QString text = tr("The baseline %1 was measured in another configuration than the series shown:\n\n%2")
                       .arg(QFileInfo(baseline->path).fileName(), blocking.join(QLatin1Char('\n')));
    if (!listed.isEmpty())
        text += tr("\n\nAlso different, which a baseline comparison allows:\n%1").arg(listed.join(QLatin1Char('\n')));
    text += tr("\n\nA difference found may be the configuration's rather than a slowdown. Compare anyway?");
    auto* box = new QMessageBox(QMessageBox::Question, tr("Compare with baseline"), text, QMessageBox::NoButton, this);
    box->setObjectName(QStringLiteral("acrossConfigurations"));
    box->setAttribute(Qt::WA_DeleteOnClose);
    QPushButton* anyway = box->addButton(tr("Compare anyway"), QMessageBox::AcceptRole);
    anyway->setObjectName(QStringLiteral("compareAnyway"));
    QPushButton* cancel = box->addButton(QMessageBox::Cancel);
    box->setDefaultButton(cancel);
    box->setEscapeButton(cancel);
    connect(box, &QMessageBox::buttonClicked, this, [this, anyway, justSet](QAbstractButton* clicked) {
        if (m_session->baselineState() != SessionModel::BaselineState::NeedsConsent)
            return;  // the series or the baseline changed meanwhile
        if (clicked == anyway)
            m_session->allowAcrossConfigurations();
        else if (justSet)
            m_session->clearBaseline();  // never compared: Cancel takes it back
        else
            m_session->declineBaseline();
    });
    m_acrossQuestion = box;
    box->open();  // non-modal to the event loop: the run thread's results keep arriving
}

void MainWindow::applyChartLook()
{
    RunCharts::Look look;
    look.style = styleNamed(m_settings.runChartStyle);
    look.cpuOwnAxis = m_settings.cpuOwnAxis;
    m_charts->setLook(look);
    const WindowActions& a = *m_actions;
    a.chartAutomatic->setChecked(look.style == RunCharts::Style::Automatic);
    a.chartLines->setChecked(look.style == RunCharts::Style::Lines);
    a.chartDensity->setChecked(look.style == RunCharts::Style::Density);
    a.cpuOwnAxis->setChecked(look.cpuOwnAxis);
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

#include "gui/main_window.hpp"

#include "gui/chart_view.hpp"
#include "gui/comparison_view.hpp"
#include "gui/run_controller.hpp"
#include "gui/summary_table.hpp"

#include "engine/cuda_error.hpp"
#include "engine/csv_report.hpp"
#include "engine/json_report.hpp"
#include "engine/size_parse.hpp"
#include "engine/statistics.hpp"

#include <QAction>
#include <QApplication>
#include <QCheckBox>
#include <QCloseEvent>
#include <QComboBox>
#include <QDialog>
#include <QDialogButtonBox>
#include <QDoubleSpinBox>
#include <QFileDialog>
#include <QFileInfo>
#include <QFormLayout>
#include <QGroupBox>
#include <QHBoxLayout>
#include <QLabel>
#include <QLineEdit>
#include <QMenuBar>
#include <QMessageBox>
#include <QProgressBar>
#include <QPushButton>
#include <QSpinBox>
#include <QSplitter>
#include <QStatusBar>
#include <QTabWidget>
#include <QVBoxLayout>

#include <algorithm>
#include <climits>
#include <fstream>
#include <iostream>

// The icons live in the static GUI library; its resources must be registered by name.
static void initResources()
{
    Q_INIT_RESOURCE(resources);
}

namespace asyncscope {

namespace {

constexpr int kRefreshIntervalMs = 100;  // charts redraw at most ten times a second, whatever the run rate

std::size_t unitBytes(SizeUnit unit)
{
    switch (unit) {
    case SizeUnit::Elements: return sizeof(int);
    case SizeUnit::KiB: return std::size_t(1) << 10;
    case SizeUnit::MiB: return std::size_t(1) << 20;
    case SizeUnit::GiB: return std::size_t(1) << 30;
    }
    return sizeof(int);
}

QString deviceLabel(const DeviceInfo& d)
{
    return QStringLiteral("%1: %2 — %3, sm %4")
        .arg(d.index)
        .arg(QString::fromStdString(d.name), QString::fromStdString(formatBytes(d.totalMemoryBytes)),
            QString::fromStdString(d.computeCapability()));
}

std::optional<QSize> askPixelSize(QWidget* parent, QSize current)
{
    QDialog dialog(parent);
    dialog.setWindowTitle(QObject::tr("Picture size"));
    auto* width = new QSpinBox;
    auto* height = new QSpinBox;
    for (QSpinBox* box : { width, height }) {
        box->setRange(16, 16384);
        box->setSuffix(QObject::tr(" px"));
    }
    width->setValue(current.width());
    height->setValue(current.height());
    auto* buttons = new QDialogButtonBox(QDialogButtonBox::Ok | QDialogButtonBox::Cancel);
    QObject::connect(buttons, &QDialogButtonBox::accepted, &dialog, &QDialog::accept);
    QObject::connect(buttons, &QDialogButtonBox::rejected, &dialog, &QDialog::reject);
    auto* form = new QFormLayout(&dialog);
    form->addRow(QObject::tr("Width:"), width);
    form->addRow(QObject::tr("Height:"), height);
    form->addRow(buttons);
    if (dialog.exec() != QDialog::Accepted)
        return std::nullopt;
    return QSize(width->value(), height->value());
}

// The size sweep's range, typed as sizes ("4KiB", "1GiB"); empty when the user cancels.
std::optional<std::pair<std::size_t, std::size_t>> askSweepRange(QWidget* parent)
{
    QDialog dialog(parent);
    dialog.setWindowTitle(QObject::tr("Size sweep"));
    auto* from = new QLineEdit(QStringLiteral("4KiB"));
    auto* to = new QLineEdit(QStringLiteral("1GiB"));
    auto* problem = new QLabel;
    problem->setWordWrap(true);
    auto* buttons = new QDialogButtonBox(QDialogButtonBox::Ok | QDialogButtonBox::Cancel);
    auto* form = new QFormLayout(&dialog);
    form->addRow(new QLabel(QObject::tr("Powers of two from the smallest size to the largest (bytes with a unit, "
                                        "or elements).")));
    form->addRow(QObject::tr("Smallest:"), from);
    form->addRow(QObject::tr("Largest:"), to);
    form->addRow(problem);
    form->addRow(buttons);
    std::pair<std::size_t, std::size_t> range;
    QObject::connect(buttons, &QDialogButtonBox::rejected, &dialog, &QDialog::reject);
    QObject::connect(buttons, &QDialogButtonBox::accepted, &dialog, [&] {
        auto low = parseElementCount(from->text().toStdString());
        auto high = parseElementCount(to->text().toStdString());
        if (!low || !high) {  // the dialog stays open with what was typed
            problem->setText(QString::fromStdString((!low ? low.error() : high.error()).message()));
            return;
        }
        range = { *low * sizeof(int), *high * sizeof(int) };
        dialog.accept();
    });
    if (dialog.exec() != QDialog::Accepted)
        return std::nullopt;
    return range;
}

}  // namespace

MainWindow::MainWindow(std::shared_ptr<Backend> backend, AppOptions options, QWidget* parent)
    : QMainWindow(parent)
    , m_options(std::move(options))
    , m_controller(new RunController(std::move(backend), this))
    , m_charts(std::make_unique<RunCharts>())
    , m_settings(loadSettings())
{
    initResources();
    setWindowTitle(QStringLiteral("AsyncScope"));
    setWindowIcon(QIcon(QStringLiteral(":/icons/asyncscope.svg")));
    buildUi();
    buildMenus();
    applySettings(m_settings);
    if (m_options.elements)
        showSize(*m_options.elements, SizeUnit::GiB);  // the largest unit that shows it exactly
    if (m_options.runs)
        m_runs->setValue(*m_options.runs);
    if (!m_options.overlay.isEmpty()) {
        m_startupProblem = applyOverlay(m_options.overlay);
        showProblem(m_startupProblem);
    }
    if (!m_settings.geometry.isEmpty())
        restoreGeometry(m_settings.geometry);
    else
        resize(1280, 800);

    m_refreshTimer.setSingleShot(true);
    m_refreshTimer.setInterval(kRefreshIntervalMs);
    connect(&m_refreshTimer, &QTimer::timeout, this, &MainWindow::refreshCharts);

    connect(m_controller, &RunController::devicesAvailable, this, &MainWindow::onDevicesAvailable);
    connect(m_controller, &RunController::discoveryFailed, this, &MainWindow::onDiscoveryFailed);
    connect(m_controller, &RunController::runAvailable, this, &MainWindow::onRunAvailable);
    connect(m_controller, &RunController::seriesFinished, this, &MainWindow::onSeriesFinished);
    connect(m_controller, &RunController::seriesFailed, this, &MainWindow::onSeriesFailed);
    connect(m_controller, &RunController::copyPeakAvailable, this, &MainWindow::onCopyPeakAvailable);
    connect(m_controller, &RunController::calibrationFailed, this, [this](const Error& error) {
        m_status->setText(tr("No copy calibration: %1").arg(QString::fromStdString(error.message())));
    });

    setRunning(false);
    m_run->setEnabled(false);
    m_status->setText(tr("Looking for CUDA devices…"));
    m_controller->discover();
}

MainWindow::~MainWindow() = default;

void MainWindow::buildUi()
{
    auto* config = new QGroupBox(tr("Pipeline"));
    auto* form = new QFormLayout(config);

    m_device = new QComboBox;
    m_device->setObjectName("device");
    m_device->setSizeAdjustPolicy(QComboBox::AdjustToContents);
    m_device->setMinimumContentsLength(24);
    m_device->addItem(tr("Looking for CUDA devices…"));
    m_device->setEnabled(false);
    form->addRow(tr("&GPU:"), m_device);
    connect(m_device, &QComboBox::currentIndexChanged, this, [this] { updateSizeLimit(); });

    m_deviceMessage = new QLabel;
    m_deviceMessage->setObjectName("deviceMessage");
    m_deviceMessage->setWordWrap(true);
    m_deviceMessage->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_deviceMessage->setStyleSheet("QLabel { background: #fdecea; color: #611a15; padding: 6px; border-radius: 4px; }");
    m_deviceMessage->hide();
    form->addRow(m_deviceMessage);

    m_size = new QSpinBox;
    m_size->setObjectName("size");
    m_size->setRange(1, INT_MAX);
    m_sizeUnit = new QComboBox;
    m_sizeUnit->setObjectName("sizeUnit");
    m_sizeUnit->addItems({ tr("elements"), tr("KiB"), tr("MiB"), tr("GiB") });
    auto* sizeRow = new QHBoxLayout;
    sizeRow->addWidget(m_size, 1);
    sizeRow->addWidget(m_sizeUnit);
    form->addRow(tr("Size:"), sizeRow);
    connect(m_sizeUnit, &QComboBox::currentIndexChanged, this, [this] { updateSizeLimit(); });

    m_value = new QSpinBox;
    m_value->setObjectName("value");
    m_value->setRange(INT_MIN, INT_MAX);
    form->addRow(tr("&Value added:"), m_value);

    m_runs = new QSpinBox;
    m_runs->setObjectName("runs");
    m_runs->setRange(1, 1000000);
    form->addRow(tr("&Runs:"), m_runs);

    m_warmup = new QSpinBox;
    m_warmup->setObjectName("warmup");
    m_warmup->setRange(0, 1000);
    form->addRow(tr("&Warm-up runs:"), m_warmup);

    m_hostMemory = new QComboBox;
    m_hostMemory->setObjectName("hostMemory");
    m_hostMemory->addItem(tr("pinned (cudaMallocHost)"), int(HostMemory::Pinned));
    m_hostMemory->addItem(tr("pageable (malloc)"), int(HostMemory::Pageable));
    form->addRow(tr("&Host memory:"), m_hostMemory);

    m_wait = new QComboBox;
    m_wait->setObjectName("wait");
    m_wait->addItem(tr("spin on cudaEventQuery"), int(WaitMode::Spin));
    m_wait->addItem(tr("blocking-sync event"), int(WaitMode::Blocking));
    form->addRow(tr("W&ait:"), m_wait);

    m_check = new QComboBox;
    m_check->setObjectName("check");
    m_check->addItem(tr("while the next run executes"), int(CheckMode::Overlapped));
    m_check->addItem(tr("after each run, as asyncAPI"), int(CheckMode::Serial));
    m_check->setToolTip(tr("When every element of a run is checked. While the next run executes, a series takes "
                           "little more time than the GPU work; after each run, the GPU idles while the CPU checks. "
                           "Either way runs take turns between two host buffers."));
    form->addRow(tr("Chec&k elements:"), m_check);

    m_stages = new QCheckBox(tr("Time each stage (events between them)"));
    m_stages->setObjectName("stages");
    form->addRow(m_stages);

    m_stopRule = new QComboBox;
    m_stopRule->setObjectName("stopRule");
    m_stopRule->addItem(tr("after the runs"), int(StopRule::Fixed));
    m_stopRule->addItem(tr("when noise is at most"), int(StopRule::Noise));
    m_noiseTarget = new QDoubleSpinBox;
    m_noiseTarget->setObjectName("noiseTarget");
    m_noiseTarget->setRange(0.05, 50.0);
    m_noiseTarget->setSingleStep(0.1);
    m_noiseTarget->setSuffix(tr(" %"));
    m_noiseTarget->setToolTip(tr("Relative standard deviation of the GPU time (at least 10 runs and 100 ms of GPU "
                                 "time; stops early if the noise settles above it, or after 15 s)"));
    auto* stopRow = new QHBoxLayout;
    stopRow->addWidget(m_stopRule, 1);
    stopRow->addWidget(m_noiseTarget);
    form->addRow(tr("Stop:"), stopRow);
    connect(m_stopRule, &QComboBox::currentIndexChanged, this,
        [this] { m_noiseTarget->setEnabled(m_stopRule->currentData().toInt() == int(StopRule::Noise)); });

    m_run = new QPushButton(tr("Run"));
    m_run->setObjectName("run");
    m_run->setDefault(true);
    m_run->setShortcut(QKeySequence(Qt::CTRL | Qt::Key_R));
    m_cancel = new QPushButton(tr("Cancel"));
    m_cancel->setObjectName("cancel");
    m_cancel->setShortcut(QKeySequence(Qt::Key_Escape));
    connect(m_run, &QPushButton::clicked, this, &MainWindow::startRun);
    connect(m_cancel, &QPushButton::clicked, this, &MainWindow::cancelRun);
    auto* buttons = new QHBoxLayout;
    buttons->addWidget(m_run);
    buttons->addWidget(m_cancel);
    form->addRow(buttons);

    auto* left = new QWidget;
    auto* leftLayout = new QVBoxLayout(left);
    leftLayout->addWidget(config);
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

    m_progress = new QProgressBar;
    m_progress->setObjectName("progress");
    m_progress->setMaximumWidth(320);
    m_progress->setFormat(tr("%v of %m runs"));
    m_status = new QLabel;
    m_status->setObjectName("status");
    statusBar()->addWidget(m_status, 1);
    statusBar()->addPermanentWidget(m_progress);
}

void MainWindow::buildMenus()
{
    QMenu* file = menuBar()->addMenu(tr("&File"));
    QAction* png = file->addAction(tr("&Export chart as PNG…"), this, [this] { exportChartInteractive("png"); });
    png->setShortcut(QKeySequence(Qt::CTRL | Qt::Key_E));
    file->addAction(tr("Export chart as &SVG…"), this, [this] { exportChartInteractive("svg"); });
    file->addAction(tr("Export data as &CSV…"), this, [this] { exportDataInteractive("csv"); });
    file->addAction(tr("Export data as &JSON…"), this, [this] { exportDataInteractive("json"); });
    file->addSeparator();
    file->addAction(tr("&Overlay saved run (JSON or CSV)…"), this, &MainWindow::openOverlayInteractive)
        ->setShortcut(QKeySequence::Open);
    file->addAction(tr("&Remove overlay"), this, [this] {
        m_overlay = {};
        m_charts->setOverlay({}, {});
        refreshCharts();
    });
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
    compare->addAction(tr("Export comparison as &CSV…"), this, [this] { exportDataInteractive("comparison.csv"); });
    compare->addAction(tr("Export comparison as &JSON…"), this, [this] { exportDataInteractive("comparison.json"); });

    QMenu* view = menuBar()->addMenu(tr("&View"));
    view->addAction(tr("&Reset zoom"), this, [this] {
        for (ChartView* v : m_views)
            v->resetZoom();
        refreshCharts();
    })->setShortcut(QKeySequence(Qt::CTRL | Qt::Key_0));

    QMenu* settings = menuBar()->addMenu(tr("&Settings"));
    settings->addAction(tr("&Reset to defaults"), this, &MainWindow::resetSettings);

    QMenu* help = menuBar()->addMenu(tr("&Help"));
    help->addAction(tr("&About AsyncScope"), this, &MainWindow::showAbout);
}

void MainWindow::applySettings(const GuiSettings& s)
{
    showSize(s.config.elements, s.sizeUnit);
    m_value->setValue(s.config.value);
    m_runs->setValue(s.config.runs);
    m_warmup->setValue(s.config.warmupRuns);
    m_hostMemory->setCurrentIndex(m_hostMemory->findData(int(s.config.hostMemory)));
    m_wait->setCurrentIndex(m_wait->findData(int(s.config.waitMode)));
    m_check->setCurrentIndex(m_check->findData(int(s.config.checkMode)));
    m_stages->setChecked(s.config.stageEvents);
    m_stopRule->setCurrentIndex(m_stopRule->findData(int(s.config.stopRule)));
    m_noiseTarget->setValue(s.config.targetNoisePercent);
    m_noiseTarget->setEnabled(s.config.stopRule == StopRule::Noise);
    updateSizeLimit();
}

void MainWindow::showSize(std::size_t elements, SizeUnit preferred)
{
    // The preferred unit if the size is a whole number of it that the spin box can hold, else the largest that is.
    const std::size_t bytes = elements * sizeof(int);
    SizeUnit shown = SizeUnit::Elements;
    for (const SizeUnit unit : { preferred, SizeUnit::GiB, SizeUnit::MiB, SizeUnit::KiB, SizeUnit::Elements }) {
        if (bytes % unitBytes(unit) == 0 && bytes / unitBytes(unit) <= std::size_t(INT_MAX)) {
            shown = unit;
            break;
        }
    }
    const QSignalBlocker blocker(m_sizeUnit);
    m_sizeUnit->setCurrentIndex(int(shown));
    m_size->setMaximum(INT_MAX);
    m_size->setValue(static_cast<int>(std::min<std::size_t>(bytes / unitBytes(shown), INT_MAX)));
    updateSizeLimit();
}

GuiSettings MainWindow::currentSettings() const
{
    GuiSettings s = m_settings;
    s.config = configFromControls();
    s.sizeUnit = SizeUnit(m_sizeUnit->currentIndex());
    s.geometry = saveGeometry();
    const int index = m_device->currentData().isValid() ? m_device->currentData().toInt() : -1;
    for (const DeviceInfo& d : m_platform.devices) {
        if (d.index == index)
            s.deviceUuid = QString::fromStdString(d.uuid);
    }
    return s;
}

PipelineConfig MainWindow::configFromControls() const
{
    PipelineConfig c = m_settings.config;
    c.device = m_device->currentData().isValid() ? m_device->currentData().toInt() : 0;
    c.elements = static_cast<std::size_t>(m_size->value()) * unitBytes(SizeUnit(m_sizeUnit->currentIndex())) /
        sizeof(int);
    c.value = m_value->value();
    c.runs = m_runs->value();
    c.warmupRuns = m_warmup->value();
    c.hostMemory = HostMemory(m_hostMemory->currentData().toInt());
    c.waitMode = WaitMode(m_wait->currentData().toInt());
    c.checkMode = CheckMode(m_check->currentData().toInt());
    c.stageEvents = m_stages->isChecked();
    c.stopRule = StopRule(m_stopRule->currentData().toInt());
    c.targetNoisePercent = m_noiseTarget->value();
    return c;
}

void MainWindow::updateSizeLimit()
{
    const std::size_t unit = unitBytes(SizeUnit(m_sizeUnit->currentIndex()));
    std::size_t limitBytes = std::size_t(INT_MAX) * unit;
    const int index = m_device->currentData().isValid() ? m_device->currentData().toInt() : -1;
    for (const DeviceInfo& d : m_platform.devices) {
        if (d.index == index)
            limitBytes = d.totalMemoryBytes;
    }
    const std::size_t limit = std::max<std::size_t>(1, std::min<std::size_t>(limitBytes / unit, INT_MAX));
    m_size->setMaximum(static_cast<int>(limit));
    m_size->setToolTip(tr("At most %1 on this GPU").arg(QString::fromStdString(formatBytes(limit * unit))));
}

bool MainWindow::runEnabled() const
{
    return m_run->isEnabled();
}

QString MainWindow::statusText() const
{
    return m_status->text();
}

QString MainWindow::deviceMessage() const
{
    return m_deviceMessage->isVisibleTo(this) ? m_deviceMessage->text() : QString();
}

void MainWindow::setRunning(bool running)
{
    m_run->setEnabled(!running && m_devicesKnown);
    m_cancel->setEnabled(running);
    for (QWidget* w : std::initializer_list<QWidget*> { m_device, m_size, m_sizeUnit, m_value, m_runs, m_warmup,
             m_hostMemory, m_wait, m_check, m_stages, m_stopRule })
        w->setEnabled(!running && (w != m_device || m_devicesKnown));
    m_noiseTarget->setEnabled(!running && m_stopRule->currentData().toInt() == int(StopRule::Noise));
    for (QAction* action : m_comparisonActions)
        action->setEnabled(!running && m_devicesKnown);
}

void MainWindow::onDevicesAvailable(const Platform& platform)
{
    m_platform = platform;
    m_devicesKnown = true;
    m_device->clear();
    for (const DeviceInfo& d : platform.devices) {
        m_device->addItem(deviceLabel(d), d.index);
        m_device->setItemData(m_device->count() - 1, QString::fromStdString(d.uuid), Qt::ToolTipRole);
    }
    int chosen = chooseDefaultDevice(platform.devices).value_or(0);
    for (const DeviceInfo& d : platform.devices) {
        if (!m_settings.deviceUuid.isEmpty() && QString::fromStdString(d.uuid) == m_settings.deviceUuid)
            chosen = d.index;
    }
    if (m_options.device) {
        auto found = findDevice(platform, *m_options.device);
        if (!found) {
            showProblem(QString::fromStdString(found.error().message()));
            if (m_options.headless())
                return finishHeadless(2, QString::fromStdString(found.error().message()));
        } else {
            chosen = *m_options.device;
        }
    }
    m_device->setCurrentIndex(m_device->findData(chosen));
    updateSizeLimit();
    setRunning(false);
    m_status->setText(tr("%n CUDA device(s), driver CUDA %1", nullptr, int(platform.devices.size()))
                          .arg(QString::fromStdString(formatCudaVersion(platform.driverVersion))));
    if (m_options.headless() && !m_startupProblem.isEmpty())
        return finishHeadless(2, m_startupProblem);
    if (m_options.comparison)
        startComparison(*m_options.comparison);
    else if (m_options.runNow || m_options.headless())
        startRun();
}

void MainWindow::onDiscoveryFailed(const Error& error)
{
    const QString message = QString::fromStdString(error.message());
    m_devicesKnown = false;
    m_device->clear();
    m_device->addItem(error.kind == ErrorKind::NoDriver ? tr("No NVIDIA driver") : tr("No CUDA device"));
    m_deviceMessage->setText(message);
    m_deviceMessage->show();
    setRunning(false);
    m_status->setText(tr("Cannot run: %1").arg(QString::fromStdString(error.detail)));
    if (m_options.headless())
        finishHeadless(1, message);
}

void MainWindow::startRun()
{
    if (m_controller->isRunning() || !m_devicesKnown)
        return;
    m_comparisonRun.reset();
    startSeries(configFromControls());
}

bool MainWindow::startSeries(const PipelineConfig& config)
{
    if (auto invalid = validate(config)) {
        showProblem(QString::fromStdString(invalid->message()));
        return false;
    }
    auto device = findDevice(m_platform, config.device);
    if (!device) {
        showProblem(QString::fromStdString(device.error().message()));
        return false;
    }
    m_report = Report {};
    m_report.config = config;
    m_report.device = *device;
    m_report.driverVersion = m_platform.driverVersion;
    m_report.runtimeVersion = m_platform.runtimeVersion;
    if (auto known = m_peaks.find(device->uuid); known != m_peaks.end())
        m_report.peak = known->second;
    else
        m_controller->calibrate(*device);  // queued ahead of the series on the run thread
    const bool fixed = config.stopRule == StopRule::Fixed;
    m_expectedRuns = fixed ? config.warmupRuns + config.runs : 0;
    m_progress->setRange(0, m_expectedRuns);  // 0..0: busy, the noise rule decides when to stop
    m_progress->setValue(0);
    for (ChartView* v : m_views)
        v->resetZoom();
    refreshCharts();
    m_runClock.start();
    if (!m_controller->start(config))
        return false;
    setRunning(true);
    m_status->setText(tr("Running %1 on %2…")
                          .arg(QString::fromStdString(formatBytes(config.bytes())),
                              QString::fromStdString(device->name)));
    return true;
}

void MainWindow::startComparison(Comparison comparison, std::size_t sweepMinBytes, std::size_t sweepMaxBytes)
{
    if (m_controller->isRunning() || !m_devicesKnown)
        return;
    const PipelineConfig base = configFromControls();
    auto variants = makeVariants(comparison, base, sweepMinBytes, sweepMaxBytes);
    if (!variants) {
        showProblem(QString::fromStdString(variants.error().message()));
        return;
    }
    // A sweep stops at half the GPU's memory, leaving room for whatever else runs on it.
    if (auto device = findDevice(m_platform, base.device)) {
        auto& v = *variants;
        v.erase(std::remove_if(v.begin(), v.end(),
                    [&](const Variant& x) { return x.config.bytes() > device->totalMemoryBytes / 2; }),
            v.end());
    }
    m_comparisonRun = ComparisonRun { *variants, 0, ComparisonReport { comparison, {}, {} } };
    startNextVariant();
}

void MainWindow::startNextVariant()
{
    const Variant& variant = m_comparisonRun->variants[m_comparisonRun->next];
    if (startSeries(variant.config))
        m_status->setText(tr("Comparison %1 of %2: %3…")
                              .arg(m_comparisonRun->next + 1)
                              .arg(m_comparisonRun->variants.size())
                              .arg(QString::fromStdString(variant.label)));
    else
        m_comparisonRun.reset();
}

void MainWindow::finishComparison()
{
    m_lastComparison = std::move(m_comparisonRun->result);
    m_comparisonRun.reset();
    m_comparisonView->setComparison(m_lastComparison);
    m_tabs->setCurrentWidget(m_comparisonView);
    m_status->setText(tr("Comparison '%1' done: %2 variants")
                          .arg(toString(m_lastComparison.comparison))
                          .arg(m_lastComparison.reports.size()));
    emit comparisonEnded();
    if (!m_options.headless())
        return;
    const QString summary = m_status->text();
    if (!m_options.screenshot.isEmpty() && !grab().save(m_options.screenshot))
        return finishHeadless(1, tr("Cannot write the screenshot %1.").arg(m_options.screenshot));
    const QString problem = exportComparisonChart(m_lastComparison, m_options.exportPng, m_options.exportSize);
    if (!problem.isEmpty())
        return finishHeadless(1, problem);
    finishHeadless(0, summary + tr("; chart saved to %1").arg(m_options.exportPng));
}

void MainWindow::onCopyPeakAvailable(const DeviceInfo& device, const CopyPeak& peak)
{
    m_peaks[device.uuid] = peak;
    if (m_report.device.uuid == device.uuid) {
        m_report.peak = peak;
        refreshCharts();
    }
}

void MainWindow::cancelRun()
{
    if (!m_controller->isRunning())
        return;
    m_controller->cancel();
    m_status->setText(tr("Cancelling…"));
}

void MainWindow::onRunAvailable(const RunResult& result)
{
    m_report.runs.push_back(result);
    m_progress->setValue(static_cast<int>(m_report.runs.size()));
    if (!m_refreshTimer.isActive())
        m_refreshTimer.start();
}

void MainWindow::refreshCharts()
{
    m_refreshTimer.stop();
    m_charts->setRuns(m_report.runs);
    m_summary->setRuns(m_report.runs, m_report.config.bytes(), m_report.peak);
    if (m_controller->isRunning() && m_runClock.isValid() && !m_report.runs.empty()) {
        const double seconds = std::max(1e-3, m_runClock.elapsed() / 1000.0);
        const QString total = m_expectedRuns > 0 ? QString::number(m_expectedRuns) : tr("until the noise target");
        m_status->setText(tr("Run %1 of %2, %3 runs/s")
                              .arg(m_report.runs.size())
                              .arg(total)
                              .arg(double(m_report.runs.size()) / seconds, 0, 'f', 1));
    }
}

void MainWindow::onSeriesFinished(const SeriesOutcome& outcome)
{
    m_report.outcome = outcome;
    refreshCharts();
    setRunning(false);
    const SeriesSummary s = summarizeRuns(m_report.runs, m_report.config.bytes());
    const bool allVerified = s.verifiedRuns == m_report.runs.size();
    m_status->setText(tr("%1 runs: median GPU time %2 ms, CPU submit time %3 ms, %4 poll iterations; %5")
                          .arg(s.measuredRuns)
                          .arg(s.gpuMs.median, 0, 'f', 3)
                          .arg(s.cpuSubmitMs.median, 0, 'f', 3)
                          .arg(s.pollIterations.median, 0, 'f', 0)
                          .arg(allVerified ? tr("every element verified")
                                           : tr("%1 runs returned wrong elements").arg(m_report.runs.size() - s.verifiedRuns)));
    if (!allVerified)
        showProblem(tr("Some runs returned wrong elements: see the exported data's first_wrong_index."));
    emit seriesEnded();
    if (m_comparisonRun) {
        const Variant& variant = m_comparisonRun->variants[m_comparisonRun->next];
        m_comparisonRun->result.labels.push_back(variant.label);
        m_comparisonRun->result.reports.push_back(m_report);
        if (++m_comparisonRun->next < m_comparisonRun->variants.size())
            startNextVariant();
        else
            finishComparison();
        return;
    }
    if (!m_options.headless())
        return;
    const QString summary = m_status->text();
    if (!m_options.screenshot.isEmpty() && !grab().save(m_options.screenshot))
        return finishHeadless(1, tr("Cannot write the screenshot %1.").arg(m_options.screenshot));
    if (!exportChartTo(m_options.exportPng, m_options.exportSize))
        return;
    finishHeadless(allVerified ? 0 : 1, summary + tr("; chart saved to %1").arg(m_options.exportPng));
}

void MainWindow::onSeriesFailed(const Error& error)
{
    refreshCharts();
    setRunning(false);
    const QString message = QString::fromStdString(error.message());
    if (error.kind == ErrorKind::Cancelled) {
        m_status->setText(tr("Cancelled after %n run(s).", nullptr, int(m_report.runs.size())));
    } else {
        m_status->setText(tr("Failed: %1").arg(message));
        showProblem(message);
    }
    emit seriesEnded();
    if (m_comparisonRun) {
        m_comparisonRun.reset();
        emit comparisonEnded();
    }
    if (m_options.headless())
        finishHeadless(error.kind == ErrorKind::Usage ? 2 : 1, message);
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

void MainWindow::finishHeadless(int exitCode, const QString& message)
{
    std::cerr << "asyncscope: " << message.toStdString() << '\n';
    emit headlessFinished(exitCode);
}

bool MainWindow::reportExport(const QString& path, const QString& problem)
{
    if (problem.isEmpty()) {
        m_status->setText(tr("Saved %1").arg(QDir::toNativeSeparators(path)));
        return true;
    }
    showProblem(problem);
    return false;
}

bool MainWindow::exportChartTo(const QString& path, QSize pixels)
{
    if (m_tabs->currentWidget() == m_comparisonView && !m_lastComparison.reports.empty())
        return reportExport(path, exportComparisonChart(m_lastComparison, path, pixels));
    const int tab = m_tabs->currentIndex();
    const auto kind = tab >= 0 && tab < RunCharts::kKindCount ? RunCharts::Kind(tab) : RunCharts::Time;
    const QString problem = exportChart(m_report, m_overlay, kind, path, pixels);
    if (!problem.isEmpty() && m_options.headless())
        finishHeadless(1, problem);
    return reportExport(path, problem);
}

bool MainWindow::exportDataTo(const QString& path)
{
    return reportExport(path, exportData(m_report, path));
}

bool MainWindow::exportComparisonTo(const QString& path)
{
    return reportExport(path,
        m_lastComparison.reports.empty() ? tr("Run a comparison first (Compare menu).")
                                         : exportComparisonData(m_lastComparison, path));
}

bool MainWindow::loadOverlay(const QString& path)
{
    const QString problem = applyOverlay(path);
    showProblem(problem);
    return problem.isEmpty();
}

QString MainWindow::applyOverlay(const QString& path)
{
    std::ifstream in(path.toStdString());
    if (!in)
        return tr("Cannot open %1.").arg(QDir::toNativeSeparators(path));
    const bool csv = QFileInfo(path).suffix().compare(QLatin1String("csv"), Qt::CaseInsensitive) == 0;
    auto saved = csv ? readCsv(in) : readJson(in);
    if (!saved)
        return tr("%1: %2").arg(QFileInfo(path).fileName(), QString::fromStdString(saved.error().detail));
    m_overlay.runs = saved->runs;
    m_overlay.label = QStringLiteral("%1 (%2)").arg(QFileInfo(path).completeBaseName(),
        QString::fromStdString(saved->device.name));
    m_charts->setOverlay(m_overlay.runs, m_overlay.label);
    refreshCharts();
    m_status->setText(tr("Overlaid %1").arg(m_overlay.label));
    return {};
}

void MainWindow::exportChartInteractive(const QString& format)
{
    const QString path = QFileDialog::getSaveFileName(this, tr("Export chart"),
        m_settings.lastFolder + "/asyncscope-chart." + format,
        format == "svg" ? tr("SVG pictures (*.svg)") : tr("PNG pictures (*.png)"));
    if (path.isEmpty())
        return;
    m_settings.lastFolder = QFileInfo(path).absolutePath();
    const auto size = askPixelSize(this, m_settings.exportSize);
    if (!size)
        return;
    m_settings.exportSize = *size;
    exportChartTo(path, *size);
}

void MainWindow::exportDataInteractive(const QString& format)
{
    // "csv", "json", or "comparison.csv" / "comparison.json" for the last comparison.
    const bool comparison = format.startsWith("comparison.");
    const QString suffix = QFileInfo(format).suffix().isEmpty() ? format : QFileInfo(format).suffix();
    const QString path = QFileDialog::getSaveFileName(this, tr("Export data"),
        m_settings.lastFolder + (comparison ? "/asyncscope-comparison." : "/asyncscope-runs.") + suffix,
        suffix == "csv" ? tr("CSV files (*.csv)") : tr("JSON files (*.json)"));
    if (path.isEmpty())
        return;
    m_settings.lastFolder = QFileInfo(path).absolutePath();
    if (comparison)
        exportComparisonTo(path);
    else
        exportDataTo(path);
}

void MainWindow::openOverlayInteractive()
{
    const QString path
        = QFileDialog::getOpenFileName(this, tr("Overlay saved run"), m_settings.lastFolder,
            tr("Saved runs (*.json *.csv);;JSON files (*.json);;CSV files (*.csv)"));
    if (path.isEmpty())
        return;
    m_settings.lastFolder = QFileInfo(path).absolutePath();
    loadOverlay(path);
}

void MainWindow::resetSettings()
{
    clearSettings();
    m_settings = defaultSettings();
    applySettings(m_settings);
    if (m_devicesKnown)
        m_device->setCurrentIndex(m_device->findData(chooseDefaultDevice(m_platform.devices).value_or(0)));
    m_status->setText(tr("Settings reset to defaults"));
}

void MainWindow::showAbout()
{
    QMessageBox::about(this, tr("About AsyncScope"),
        tr("<h3>AsyncScope %1</h3><p>See asynchronous CUDA execution: the asyncAPI pipeline's GPU time "
           "(CUDA events) against its CPU submit time (host clock), run after run.</p>"
           "<p>CUDA runtime %2 (linked statically); driver CUDA %3.</p>")
            .arg(QApplication::applicationVersion(),
                QString::fromStdString(formatCudaVersion(CUDART_VERSION)),
                QString::fromStdString(formatCudaVersion(m_platform.driverVersion))));
}

void MainWindow::closeEvent(QCloseEvent* event)
{
    if (!m_options.headless()) {  // a scripted run leaves the user's settings alone
        m_settings = currentSettings();
        saveSettings(m_settings);
    }
    m_controller->shutdown();  // cancels the series and waits for the run thread
    event->accept();
}

}  // namespace asyncscope

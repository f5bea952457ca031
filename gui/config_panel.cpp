#include "gui/config_panel.hpp"

#include "engine/model/size_parse.hpp"

#include <QCheckBox>
#include <QComboBox>
#include <QDoubleSpinBox>
#include <QFormLayout>
#include <QHBoxLayout>
#include <QLabel>
#include <QPushButton>
#include <QSpinBox>

#include <algorithm>
#include <climits>

namespace asyncscope {

namespace {

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

template <class Enum>
void selectData(QComboBox* box, Enum value)
{
    box->setCurrentIndex(box->findData(int(value)));
}

template <class Enum>
Enum dataOf(const QComboBox* box)
{
    return Enum(box->currentData().toInt());
}

}  // namespace

ConfigPanel::ConfigPanel(QWidget* parent)
    : QGroupBox(tr("Pipeline"), parent)
{
    auto* form = new QFormLayout(this);

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
        [this] { m_noiseTarget->setEnabled(dataOf<StopRule>(m_stopRule) == StopRule::Noise); });

    m_run = new QPushButton(tr("Run"));
    m_run->setObjectName("run");
    m_run->setDefault(true);
    m_run->setShortcut(QKeySequence(Qt::CTRL | Qt::Key_R));
    m_cancel = new QPushButton(tr("Cancel"));
    m_cancel->setObjectName("cancel");
    m_cancel->setShortcut(QKeySequence(Qt::Key_Escape));
    connect(m_run, &QPushButton::clicked, this, &ConfigPanel::runRequested);
    connect(m_cancel, &QPushButton::clicked, this, &ConfigPanel::cancelRequested);
    auto* buttons = new QHBoxLayout;
    buttons->addWidget(m_run);
    buttons->addWidget(m_cancel);
    form->addRow(buttons);
    setRunning(false);
}

Status ConfigPanel::setDevices(const Platform& platform, const QString& rememberedUuid, std::optional<int> requested)
{
    int chosen = chooseDefaultDevice(platform.devices).value_or(0);
    for (const DeviceInfo& d : platform.devices) {
        if (!rememberedUuid.isEmpty() && QString::fromStdString(d.uuid) == rememberedUuid)
            chosen = d.index;
    }
    Status problem;
    if (requested) {
        if (auto found = findDevice(platform, *requested))
            chosen = found->index;
        else
            problem = found.error();
    }
    m_platform = platform;
    m_devicesKnown = true;
    m_deviceMessage->hide();
    const QSignalBlocker blocker(m_device);
    m_device->clear();
    for (const DeviceInfo& d : platform.devices) {
        m_device->addItem(deviceLabel(d), d.index);
        m_device->setItemData(m_device->count() - 1, QString::fromStdString(d.uuid), Qt::ToolTipRole);
    }
    m_device->setCurrentIndex(m_device->findData(chosen));
    updateSizeLimit();
    setRunning(false);
    return problem;
}

void ConfigPanel::setNoDevices(const QString& item, const QString& message)
{
    m_platform = {};
    m_devicesKnown = false;
    m_device->clear();
    m_device->addItem(item);
    m_deviceMessage->setText(message);
    m_deviceMessage->show();
    setRunning(false);
}

QString ConfigPanel::deviceMessage() const
{
    return m_deviceMessage->isVisibleTo(this) ? m_deviceMessage->text() : QString();
}

const DeviceInfo* ConfigPanel::chosenDevice() const
{
    const QVariant index = m_device->currentData();
    for (const DeviceInfo& d : m_platform.devices) {
        if (index.isValid() && d.index == index.toInt())
            return &d;
    }
    return nullptr;
}

PipelineConfig ConfigPanel::config() const
{
    PipelineConfig c = m_base.config;
    const DeviceInfo* device = chosenDevice();
    c.device = device ? device->index : 0;
    c.elements = static_cast<std::size_t>(m_size->value()) * unitBytes(SizeUnit(m_sizeUnit->currentIndex())) /
        sizeof(int);
    c.value = m_value->value();
    c.runs = m_runs->value();
    c.warmupRuns = m_warmup->value();
    c.hostMemory = dataOf<HostMemory>(m_hostMemory);
    c.waitMode = dataOf<WaitMode>(m_wait);
    c.checkMode = dataOf<CheckMode>(m_check);
    c.stageEvents = m_stages->isChecked();
    c.stopRule = dataOf<StopRule>(m_stopRule);
    c.targetNoisePercent = m_noiseTarget->value();
    return c;
}

Result<Plan> ConfigPanel::plan(std::optional<Comparison> comparison, std::size_t sweepMinBytes,
    std::size_t sweepMaxBytes) const
{
    if (comparison)
        return comparisonPlan(*comparison, config(), sweepMinBytes, sweepMaxBytes);
    return seriesPlan(config());
}

void ConfigPanel::applySettings(const GuiSettings& s)
{
    m_base = s;
    showSize(s.config.elements, s.sizeUnit);
    m_value->setValue(s.config.value);
    m_runs->setValue(s.config.runs);
    m_warmup->setValue(s.config.warmupRuns);
    selectData(m_hostMemory, s.config.hostMemory);
    selectData(m_wait, s.config.waitMode);
    selectData(m_check, s.config.checkMode);
    m_stages->setChecked(s.config.stageEvents);
    selectData(m_stopRule, s.config.stopRule);
    m_noiseTarget->setValue(s.config.targetNoisePercent);
    setRunning(false);
}

GuiSettings ConfigPanel::settings(GuiSettings base) const
{
    base.config = config();
    base.sizeUnit = SizeUnit(m_sizeUnit->currentIndex());
    if (const DeviceInfo* device = chosenDevice())
        base.deviceUuid = QString::fromStdString(device->uuid);
    return base;
}

void ConfigPanel::showSize(std::size_t elements, SizeUnit preferred)
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

void ConfigPanel::setRuns(int runs)
{
    m_runs->setValue(runs);
}

void ConfigPanel::updateSizeLimit()
{
    const std::size_t unit = unitBytes(SizeUnit(m_sizeUnit->currentIndex()));
    const DeviceInfo* device = chosenDevice();
    const std::size_t limitBytes = device ? device->totalMemoryBytes : std::size_t(INT_MAX) * unit;
    const std::size_t limit = std::max<std::size_t>(1, std::min<std::size_t>(limitBytes / unit, INT_MAX));
    m_size->setMaximum(static_cast<int>(limit));
    m_size->setToolTip(tr("At most %1 on this GPU").arg(QString::fromStdString(formatBytes(limit * unit))));
}

void ConfigPanel::setRunning(bool running)
{
    m_run->setEnabled(!running && m_devicesKnown);
    m_cancel->setEnabled(running);
    for (QWidget* w : std::initializer_list<QWidget*> { m_size, m_sizeUnit, m_value, m_runs, m_warmup, m_hostMemory,
             m_wait, m_check, m_stages, m_stopRule })
        w->setEnabled(!running);
    m_device->setEnabled(!running && m_devicesKnown);
    m_noiseTarget->setEnabled(!running && dataOf<StopRule>(m_stopRule) == StopRule::Noise);
}

bool ConfigPanel::runEnabled() const
{
    return m_run->isEnabled();
}

}  // namespace asyncscope

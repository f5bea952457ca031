#include "gui/config/config_panel.hpp"

#include "gui/charts/kind_colours.hpp"
#include "gui/config/panel_fields.hpp"
#include "gui/config/pipeline_form.hpp"
#include "gui/config/wheel_with_focus.hpp"
#include "gui/config/workload_shape_box.hpp"

#include "engine/model/size_parse.hpp"

#include <QCheckBox>
#include <QComboBox>
#include <QDoubleSpinBox>
#include <QEvent>
#include <QGroupBox>
#include <QHBoxLayout>
#include <QLabel>
#include <QLineEdit>
#include <QPushButton>
#include <QScrollArea>
#include <QScrollBar>
#include <QSpinBox>
#include <QVBoxLayout>

namespace asyncscope {

namespace {

QString deviceLabel(const DeviceInfo& d)
{
    return QStringLiteral("%1: %2 — %3, sm %4")
        .arg(d.index)
        .arg(QString::fromStdString(d.name), QString::fromStdString(formatBytes(d.totalMemoryBytes)),
            QString::fromStdString(d.computeCapability()));
}

// "64 MiB", "1 KiB", "513": the size in the largest binary unit that holds it exactly, else in elements.
QString sizeText(std::size_t elements)
{
    const std::size_t bytes = elements * sizeof(int);
    const std::pair<std::size_t, const char*> units[] = { { std::size_t(1) << 30, "GiB" },
        { std::size_t(1) << 20, "MiB" }, { std::size_t(1) << 10, "KiB" } };
    for (const auto& [unit, name] : units) {
        if (bytes % unit == 0)
            return QStringLiteral("%1 %2").arg(qulonglong(bytes / unit)).arg(QLatin1String(name));
    }
    return QString::number(qulonglong(elements));
}

}  // namespace

ConfigPanel::ConfigPanel(QWidget* parent)
    : QGroupBox(tr("Pipeline"), parent)
{
    // The fields scroll where the window is short; Run and Cancel stay in view below them.
    auto* fields = m_form = new PipelineForm;
    connect(m_form->device, &QComboBox::currentIndexChanged, this, [this] {
        checkInput();
        emit changed();
    });
    const auto checkAndSay = [this] {
        checkInput();
        if (m_inputValid)
            emit changed();
    };
    connect(m_form->size, &QLineEdit::textEdited, this, checkAndSay);
    for (QSpinBox* box : { m_form->shape->chunks, m_form->shape->streams })
        connect(box, &QSpinBox::valueChanged, this, checkAndSay);
    for (QSpinBox* box : { m_form->value, m_form->runs, m_form->warmup })
        connect(box, &QSpinBox::valueChanged, this, &ConfigPanel::changed);
    for (QComboBox* box : { m_form->wait, m_form->check, m_form->stopRule, m_form->shape->order,
             m_form->traceSource, m_form->memory.managedAdvice })
        connect(box, &QComboBox::currentIndexChanged, this, [this] {
            setRunning(m_running);
            emit changed();
        });
    // What these choose decides which other controls apply and whether they can run together.
    for (QComboBox* box : { m_form->memory.hostMemory, m_form->memory.copy, m_form->memory.managedMigration,
             m_form->shape->submissionBox })
        connect(box, &QComboBox::currentIndexChanged, this, [this] {
            checkInput();
            emit changed();
        });
    for (QCheckBox* box : { m_form->stages, m_form->shape->preferOverlap })
        connect(box, &QCheckBox::toggled, this, &ConfigPanel::changed);
    connect(m_form->noiseTarget, &QDoubleSpinBox::valueChanged, this, &ConfigPanel::changed);

    m_run = new QPushButton(tr("Run"));
    m_run->setObjectName("run");
    m_run->setDefault(true);
    m_run->setShortcut(QKeySequence(Qt::CTRL | Qt::Key_R));
    m_run->setToolTip(tip(tr("Run the pipeline with these settings (Ctrl+R).")));
    m_cancel = new QPushButton(tr("Cancel"));
    m_cancel->setObjectName("cancel");
    m_cancel->setShortcut(QKeySequence(Qt::Key_Escape));
    m_cancel->setToolTip(tip(tr("Stop within one poll of the current run; what ran is kept (Esc).")));
    connect(m_run, &QPushButton::clicked, this, &ConfigPanel::runRequested);
    connect(m_cancel, &QPushButton::clicked, this, &ConfigPanel::cancelRequested);
    auto* scroll = new QScrollArea;
    scroll->setWidget(fields);
    scroll->setWidgetResizable(true);
    scroll->setFrameShape(QFrame::NoFrame);
    scroll->setHorizontalScrollBarPolicy(Qt::ScrollBarAlwaysOff);
    scroll->setFocusPolicy(Qt::NoFocus);  // Tab goes from control to control inside it: the area is no stop itself
    takeWheelOnlyWithFocus(fields);  // the wheel scrolls the fields; it changes a value only with its focus
    // As narrow as the fields allow, their scroll bar beside them and a little room for the choices' texts.
    scroll->setMinimumWidth(fields->minimumSizeHint().width() + scroll->verticalScrollBar()->sizeHint().width() +
        fontMetrics().averageCharWidth());
    auto* buttons = new QHBoxLayout;
    buttons->addWidget(m_run);
    buttons->addWidget(m_cancel);
    // While a saved series is shown, above the controls that show its configuration: whose it is, and a way to
    // make it the panel's own.
    m_savedBox = new QWidget;
    m_savedBox->setObjectName("savedConfiguration");
    auto* savedRow = new QVBoxLayout(m_savedBox);
    savedRow->setContentsMargins(0, 0, 0, 0);
    m_savedNote = new QLabel;
    m_savedNote->setObjectName("savedConfigurationNote");
    m_savedNote->setWordWrap(true);
    auto* useShown = new QPushButton(tr("&Use these settings"));
    useShown->setObjectName("useShownSettings");
    useShown->setToolTip(tip(tr("Makes the configuration shown your settings: Run then measures it. Until then Run "
                                "measures your own settings, which come back as it starts.")));
    connect(useShown, &QPushButton::clicked, this, &ConfigPanel::useShownConfiguration);
    savedRow->addWidget(m_savedNote);
    savedRow->addWidget(useShown, 0, Qt::AlignLeft);
    m_savedBox->hide();
    auto* column = new QVBoxLayout(this);
    column->addWidget(m_savedBox);
    column->addWidget(scroll, 1);
    column->addLayout(buttons);
    updateBanner();
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
    m_form->deviceMessage->hide();
    {
        const QSignalBlocker blocker(m_form->device);
        m_form->device->clear();
        for (const DeviceInfo& d : platform.devices) {
            m_form->device->addItem(deviceLabel(d), d.index);
            m_form->device->setItemData(m_form->device->count() - 1, QString::fromStdString(d.uuid), Qt::ToolTipRole);
        }
        m_form->device->setCurrentIndex(m_form->device->findData(chosen));
    }
    checkInput();
    setRunning(false);
    return problem;
}

void ConfigPanel::setNoDevices(const QString& item, const QString& sentence, const QString& details)
{
    m_platform = {};
    m_devicesKnown = false;
    m_form->device->clear();
    m_form->device->addItem(item);
    m_form->deviceMessage->setText(sentence);
    m_form->deviceMessage->setToolTip(tip(details));
    m_form->deviceMessage->show();
    checkInput();
    setRunning(false);
}

QString ConfigPanel::deviceMessage() const
{
    return m_form->deviceMessage->isVisibleTo(this) ? m_form->deviceMessage->text() : QString();
}

QString ConfigPanel::inputProblem() const
{
    return m_form->problems.text();
}

const DeviceInfo* ConfigPanel::chosenDevice() const
{
    const QVariant index = m_form->device->currentData();
    for (const DeviceInfo& d : m_platform.devices) {
        if (index.isValid() && d.index == index.toInt())
            return &d;
    }
    return nullptr;
}

void ConfigPanel::checkInput()
{
    auto elements = parseElementCount(m_form->size->text().toStdString());
    const DeviceInfo* device = chosenDevice();
    Status problem;
    QWidget* concerned = m_form->size;  // the control the problem is shown under
    if (!elements) {
        problem = elements.error();
    } else {
        PipelineConfig shaped;
        shaped.elements = *elements;
        shaped.chunks = m_form->shape->chunks->value();
        shaped.streams = m_form->shape->streams->value();
        if (device)
            problem = checkFitsDevice(shaped, device->totalMemoryBytes, device->name, "in all");
        if (!problem) {
            problem = validate(shaped);  // more chunks than elements, more streams than chunks
            if (problem)
                concerned = shaped.streams > shaped.chunks ? m_form->shape->streams : m_form->shape->chunks;
        }
    }
    m_inputValid = !problem;
    m_invalidReason = problem ? QString::fromStdString(problem->message()) : QString();
    m_unsupported = checkCombination(config());  // the shape's problem first: it is the one shown
    if (!problem) {
        m_elements = *elements;
        m_chunks = m_form->shape->chunks->value();
        m_streams = m_form->shape->streams->value();
    }
    m_form->size->setToolTip(tip(tr("Elements (16777216) or bytes with a unit: 64 MiB, 4 KiB, 2 GB. %1")
                               .arg(device ? tr("At most %1 on this GPU.")
                                                 .arg(QString::fromStdString(formatBytes(device->totalMemoryBytes)))
                                           : tr("The GPU, once one answers, sets the limit."))));
    // The controls checked here are valid but for the one a problem concerns: each line says only its own.
    ControlProblems& problems = m_form->problems;
    for (QWidget* control : std::initializer_list<QWidget*> {
             m_form->size, m_form->shape->chunks, m_form->shape->streams, m_form->memory.hostMemory })
        problems.setChecked(control, {});
    if (problem)
        problems.setChecked(concerned, m_invalidReason);
    else if (m_unsupported)
        problems.setChecked(m_form->memory.hostMemory, QString::fromStdString(m_unsupported->message()));
    setRunning(m_running);
}

PipelineConfig ConfigPanel::config() const
{
    PipelineConfig c = m_base.config;
    const DeviceInfo* device = chosenDevice();
    c.device = device ? device->index : 0;
    c.elements = m_elements;
    c.chunks = m_chunks;
    c.streams = m_streams;
    m_form->readInto(c);
    return c;
}

Result<Plan> ConfigPanel::plan(std::optional<Comparison> comparison, std::size_t sweepMinBytes,
    std::size_t sweepMaxBytes) const
{
    if (!m_inputValid)
        return makeError(ErrorKind::Usage, m_invalidReason.toStdString());
    if (m_unsupported && !comparison)
        return *m_unsupported;  // a comparison runs its other variants and says why such a one did not run
    if (comparison)
        return comparisonPlan(*comparison, config(), sweepMinBytes, sweepMaxBytes);
    return seriesPlan(config());
}

void ConfigPanel::applySettings(const GuiSettings& s)
{
    const GuiSettings applied = s;  // `s` may be m_own, let go of here
    m_viewing = false;
    m_own = {};
    m_savedBox->hide();
    fill(applied);
}

void ConfigPanel::showConfiguration(const PipelineConfig& config, const QString& source)
{
    const QSignalBlocker quiet(this);  // what the controls show is no change of the user's settings
    if (!m_viewing)
        m_own = settings(m_base);
    m_viewing = true;
    GuiSettings shown = m_own;
    shown.config = config;
    fill(shown);
    m_savedNote->setText(tr("Showing the configuration of %1 (read only). Run measures your own settings.")
                             .arg(source));
    m_savedBox->show();
}

void ConfigPanel::showOwnSettings()
{
    if (!m_viewing)
        return;
    const QSignalBlocker quiet(this);  // the settings as they were: nothing to save
    applySettings(m_own);
}

void ConfigPanel::useShownConfiguration()
{
    if (!m_viewing)
        return;
    m_viewing = false;
    m_own = {};
    m_savedBox->hide();
    setRunning(m_running);
    emit changed();  // the configuration shown is the user's now
}

QString ConfigPanel::savedConfigurationNote() const
{
    return m_viewing ? m_savedNote->text() : QString();
}

void ConfigPanel::fill(const GuiSettings& s)
{
    m_base = s;
    {
        // Checked once, with the size.
        const QSignalBlocker chunks(m_form->shape->chunks), streams(m_form->shape->streams);
        m_form->shape->chunks->setValue(s.config.chunks);
        m_form->shape->streams->setValue(s.config.streams);
    }
    selectData(m_form->shape->order, s.config.order);
    selectData(m_form->shape->submissionBox, s.config.submission);
    showSize(s.config.elements);
    m_form->value->setValue(s.config.value);
    m_form->runs->setValue(s.config.runs);
    m_form->warmup->setValue(s.config.warmupRuns);
    m_form->memory.show(s.config);
    m_form->shape->preferOverlap->setChecked(s.config.preferOverlap);
    selectData(m_form->wait, s.config.waitMode);
    selectData(m_form->check, s.config.checkMode);
    m_form->stages->setChecked(s.config.stageEvents);
    selectData(m_form->traceSource, s.config.traceSource);
    selectData(m_form->stopRule, s.config.stopRule);
    m_form->noiseTarget->setValue(s.config.targetNoisePercent);
    setRunning(m_running);
}

GuiSettings ConfigPanel::settings(GuiSettings base) const
{
    if (m_viewing) {
        base.config = m_own.config;  // the controls show a saved series' configuration, not the user's
        if (const DeviceInfo* device = chosenDevice())
            base.deviceUuid = QString::fromStdString(device->uuid);
        return base;
    }
    base.config = config();
    base.config.copy = m_form->memory.copyChosen();  // remembered while the memory chosen does not copy
    if (const DeviceInfo* device = chosenDevice())
        base.deviceUuid = QString::fromStdString(device->uuid);
    return base;
}

void ConfigPanel::showSize(std::size_t elements)
{
    m_form->size->setText(sizeText(elements));
    checkInput();
}

void ConfigPanel::setRuns(int runs)
{
    m_form->runs->setValue(runs);
}

void ConfigPanel::setRunning(bool running)
{
    m_running = running;
    // While a saved configuration is shown, Run measures the user's own settings, which come back first.
    m_run->setEnabled(!running && m_devicesKnown && (m_viewing || (m_inputValid && !m_unsupported)));
    m_cancel->setEnabled(running);
    m_form->setEditable(editable(), m_devicesKnown);
}

bool ConfigPanel::runEnabled() const
{
    return m_run->isEnabled();
}

void ConfigPanel::changeEvent(QEvent* event)
{
    if (event->type() == QEvent::PaletteChange)
        updateBanner();
    QGroupBox::changeEvent(event);
}

void ConfigPanel::updateBanner()
{
    m_form->showColours(isDark(palette()));  // a problem's colours from the palette: a dark banner on a dark theme
}

}  // namespace asyncscope

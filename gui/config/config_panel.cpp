#include "gui/config/config_panel.hpp"

#include "gui/charts/kind_colours.hpp"
#include "gui/config/choice_labels.hpp"

#include "engine/model/size_parse.hpp"

#include <QCheckBox>
#include <QComboBox>
#include <QDoubleSpinBox>
#include <QEvent>
#include <QFormLayout>
#include <QGroupBox>
#include <QHBoxLayout>
#include <QLabel>
#include <QLineEdit>
#include <QPushButton>
#include <QScrollArea>
#include <QScrollBar>
#include <QSpinBox>
#include <QVBoxLayout>

#include <climits>
#include <functional>

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

// Rich text wraps in a tooltip; plain text stays one line however long.
QString tip(const QString& text)
{
    return QStringLiteral("<p>%1</p>").arg(text.toHtmlEscaped());
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

// A spin box that says why it refuses a keystroke (a sign, a decimal point, a value out of range) instead of
// dropping it without a word.
class SpinBox final : public QSpinBox {
public:
    SpinBox(int low, int high, QString what, std::function<void(const QString&)> refuse)
        : m_what(std::move(what))
        , m_refuse(std::move(refuse))
    {
        setRange(low, high);
    }

protected:
    QValidator::State validate(QString& text, int& pos) const override
    {
        const QValidator::State state = QSpinBox::validate(text, pos);
        if (state == QValidator::Invalid)
            m_refuse(tr("%1; '%2' is not one.").arg(rule(), text));
        return state;
    }

    // Text that is no value yet (empty, a lone sign, out of range) when editing ends: refused, with the reason.
    void fixup(QString& text) const override
    {
        m_refuse(tr("%1, not '%2'; it stays %3.").arg(rule(), text, locale().toString(value())));
        QSpinBox::fixup(text);
    }

    QString rule() const
    {
        return tr("%1 takes whole numbers from %2 to %3")
            .arg(m_what, locale().toString(minimum()), locale().toString(maximum()));
    }

private:
    QString m_what;
    std::function<void(const QString&)> m_refuse;
};

}  // namespace

ConfigPanel::ConfigPanel(QWidget* parent)
    : QGroupBox(tr("Pipeline"), parent)
{
    // The fields scroll where the window is short; Run and Cancel stay in view below them.
    auto* fields = new QWidget;
    auto* form = new QFormLayout(fields);
    form->setRowWrapPolicy(QFormLayout::WrapLongRows);
    const auto refuse = [this](const QString& reason) { this->refuse(reason); };

    m_device = new QComboBox;
    m_device->setObjectName("device");
    m_device->setSizeAdjustPolicy(QComboBox::AdjustToMinimumContentsLengthWithIcon);
    m_device->setMinimumContentsLength(14);
    m_device->addItem(tr("Looking for CUDA devices…"));
    m_device->setEnabled(false);
    m_device->setToolTip(tip(tr("The GPU that runs the pipeline. The fastest is chosen at first; your choice is "
                                "remembered by the GPU's UUID.")));
    form->addRow(tr("&GPU:"), m_device);
    connect(m_device, &QComboBox::currentIndexChanged, this, [this] {
        checkInput();
        emit changed();
    });

    m_deviceMessage = new QLabel;
    m_deviceMessage->setObjectName("deviceMessage");
    m_deviceMessage->setWordWrap(true);
    m_deviceMessage->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_deviceMessage->hide();
    form->addRow(m_deviceMessage);

    m_size = new QLineEdit;
    m_size->setObjectName("size");
    m_size->setToolTip(tip(tr("Elements (16777216) or bytes with a unit: 64 MiB, 4 KiB, 2 GB. The host buffers "
                              "and the device buffer each hold this much.")));
    form->addRow(tr("Si&ze:"), m_size);
    connect(m_size, &QLineEdit::textEdited, this, [this] {
        checkInput();
        if (m_inputValid)
            emit changed();
    });

    m_problem = new QLabel;
    m_problem->setObjectName("inputProblem");
    m_problem->setWordWrap(true);
    m_problem->hide();
    form->addRow(m_problem);

    m_value = new SpinBox(INT_MIN, INT_MAX, tr("Value added"), refuse);
    m_value->setObjectName("value");
    m_value->setToolTip(tip(tr("What the kernel adds to every element (the sample adds 26).")));
    form->addRow(tr("Va&lue added:"), m_value);

    // The workload's shape, grouped: the classic pipeline is one chunk on one stream, submitted as stream calls.
    auto* shape = new QGroupBox(tr("Workload shape"));
    shape->setObjectName("workloadShape");
    shape->setToolTip(tip(tr("How the buffer is cut and handed to the GPU. One chunk on one stream is asyncAPI's "
                             "pipeline; more chunks on several streams let one chunk's copy overlap another's kernel "
                             "or copy in the other direction.")));
    auto* shapeForm = new QFormLayout(shape);
    shapeForm->setRowWrapPolicy(QFormLayout::WrapLongRows);
    m_chunksBox = new SpinBox(1, kMaxChunks, tr("Chunks (K)"), refuse);
    m_chunksBox->setObjectName("chunks");
    m_chunksBox->setToolTip(tip(tr("K: the buffer in this many parts, each copied to the device, incremented and "
                                   "copied back on its own. 1 is the classic pipeline. Each chunk needs at least one "
                                   "element.")));
    shapeForm->addRow(tr("Chu&nks (K):"), m_chunksBox);
    m_streamsBox = new SpinBox(1, kMaxChunks, tr("Streams (S)"), refuse);
    m_streamsBox->setObjectName("streams");
    m_streamsBox->setToolTip(tip(tr("S: the streams the chunks go to in turn, from 1 to K. Work on one stream runs in "
                                    "order; only chunks on different streams can overlap.")));
    shapeForm->addRow(tr("Str&eams (S):"), m_streamsBox);
    m_order = choiceBox<IssueOrder>("order");
    m_order->setToolTip(tip(tr("The order the calls are issued in. By chunk: each chunk's H2D, kernel and D2H, then "
                               "the next chunk's. By stage: every chunk's H2D, then every kernel, then every D2H. On "
                               "GPUs whose copy engines take work in issue order this decides what overlaps. Only "
                               "matters with more than one chunk.")));
    shapeForm->addRow(tr("&Issue order:"), m_order);
    m_submission = choiceBox<Submission>("submission");
    m_submission->setToolTip(tip(tr("Stream calls: every copy, kernel and event is one runtime call on every run, so "
                                    "CPU submit time grows with K. CUDA Graph: the run is captured once into a graph, "
                                    "instantiated and uploaded, then each run is one cudaGraphLaunch. Batched copies: "
                                    "each stream's copies one way go in one cudaMemcpyBatchAsync call, the kernels "
                                    "between them as stream calls.")));
    shapeForm->addRow(tr("Su&bmission:"), m_submission);
    m_preferOverlap = new QCheckBox(tr("&Prefer overlap with compute"));
    m_preferOverlap->setObjectName("preferOverlap");
    shapeForm->addRow(m_preferOverlap);
    form->addRow(shape);
    for (QSpinBox* box : { m_chunksBox, m_streamsBox })
        connect(box, &QSpinBox::valueChanged, this, [this] {
            checkInput();
            if (m_inputValid)
                emit changed();
        });

    m_runs = new SpinBox(1, 1000000, tr("Runs"), refuse);
    m_runs->setObjectName("runs");
    m_runs->setToolTip(tip(tr("Measured runs, after the warm-up runs.")));
    form->addRow(tr("&Runs:"), m_runs);

    m_warmup = new SpinBox(0, 1000, tr("Warm-up runs"), refuse);
    m_warmup->setObjectName("warmup");
    m_warmup->setToolTip(tip(tr("Runs before the measured ones: shown and marked, left out of the statistics. The "
                                "first run in a process pays for lazy loading.")));
    form->addRow(tr("&Warm-up runs:"), m_warmup);
    for (QSpinBox* box : { m_value, m_runs, m_warmup })
        connect(box, &QSpinBox::valueChanged, this, &ConfigPanel::changed);

    m_hostMemory = choiceBox<HostMemory>("hostMemory");
    m_hostMemory->setToolTip(tip(tr("Pinned memory lets the copies run asynchronously; with pageable memory the "
                                    "\"async\" copies hold the CPU. Point at a kind for what it is for; "
                                    "Compare › Memory runs them all.")));
    for (int i = 0; i < m_hostMemory->count(); ++i)
        m_hostMemory->setItemData(i,
            tip(QStringLiteral("%1 (%2)").arg(choicePurpose(HostMemory(m_hostMemory->itemData(i).toInt())),
                m_hostMemory->itemData(i, Qt::ToolTipRole).toString())),
            Qt::ToolTipRole);
    form->addRow(tr("Host &memory:"), m_hostMemory);
    m_copy = choiceBox<CopyMechanism>("copy");
    form->addRow(tr("Copie&s:"), m_copy);
    m_managedMigration = choiceBox<ManagedMigration>("managedMigration");
    form->addRow(tr("Manage&d migration:"), m_managedMigration);
    m_managedAdvice = choiceBox<ManagedAdvice>("managedAdvice");
    form->addRow(tr("Managed ad&vice:"), m_managedAdvice);

    m_wait = choiceBox<WaitMode>("wait");
    m_wait->setToolTip(tip(tr("Spin: poll the stop event and count the polls, as the sample does. Blocking: sleep "
                              "on a blocking-sync event, leaving the CPU free.")));
    form->addRow(tr("W&ait:"), m_wait);

    m_check = choiceBox<CheckMode>("check");
    m_check->setToolTip(tip(tr("When every element of a run is checked. While the next run executes, a series takes "
                               "little more time than the GPU work; after each run, the GPU idles while the CPU "
                               "checks. Either way runs take turns between two host buffers.")));
    form->addRow(tr("Chec&k elements:"), m_check);

    m_stages = new QCheckBox(tr("&Time each stage"));
    m_stages->setObjectName("stages");
    m_stages->setToolTip(tip(tr("Records events between the copies and the kernel, for the Stages tab and the "
                                "bandwidths. Off, only the total GPU time is measured.")));
    form->addRow(m_stages);

    m_traceSource = choiceBox<TraceSource>("traceSource");
    m_traceSource->setToolTip(tip(tr("Where the timeline's spans come from. CUDA events time the GPU work and the host "
                                     "clock the CPU work, aligned where submission begins. CUPTI records every copy, "
                                     "kernel and runtime call on one clock; where it cannot load, or another profiler "
                                     "holds it, the run keeps to events and the timeline says why.")));
    form->addRow(tr("T&imeline from:"), m_traceSource);

    m_stopRule = choiceBox<StopRule>("stopRule");
    m_stopRule->setToolTip(tip(tr("Stop after the number of runs, or once the GPU time's noise is low enough.")));
    m_noiseTarget = new QDoubleSpinBox;
    m_noiseTarget->setObjectName("noiseTarget");
    m_noiseTarget->setRange(0.05, 50.0);
    m_noiseTarget->setSingleStep(0.1);
    m_noiseTarget->setSuffix(tr(" %"));
    m_noiseTarget->setToolTip(tip(tr("Relative standard deviation of the GPU time (at least 10 runs and 100 ms of GPU "
                                     "time; stops early if the noise settles above it, or after 15 s).")));
    auto* stopRow = new QHBoxLayout;
    stopRow->addWidget(m_stopRule, 1);
    stopRow->addWidget(m_noiseTarget);
    auto* stopLabel = new QLabel(tr("St&op:"));
    stopLabel->setBuddy(m_stopRule);
    form->addRow(stopLabel, stopRow);
    for (QComboBox* box : { m_wait, m_check, m_stopRule, m_order, m_traceSource, m_managedAdvice })
        connect(box, &QComboBox::currentIndexChanged, this, [this] {
            setRunning(m_running);
            emit changed();
        });
    // What these choose decides which other controls apply and whether they can run together.
    for (QComboBox* box : { m_hostMemory, m_copy, m_managedMigration, m_submission })
        connect(box, &QComboBox::currentIndexChanged, this, [this] {
            checkInput();
            emit changed();
        });
    for (QCheckBox* box : { m_stages, m_preferOverlap })
        connect(box, &QCheckBox::toggled, this, &ConfigPanel::changed);
    connect(m_noiseTarget, &QDoubleSpinBox::valueChanged, this, &ConfigPanel::changed);

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
    // A choice's whole text ("registered (cudaHostRegister of a malloc'd buffer)") would make the panel as wide as
    // the longest: each list shows a dozen characters and elides the rest; its open list is as wide as its items.
    for (QComboBox* box : fields->findChildren<QComboBox*>()) {
        box->setSizeAdjustPolicy(QComboBox::AdjustToMinimumContentsLengthWithIcon);
        if (box != m_device)
            box->setMinimumContentsLength(12);
    }
    auto* scroll = new QScrollArea;
    scroll->setWidget(fields);
    scroll->setWidgetResizable(true);
    scroll->setFrameShape(QFrame::NoFrame);
    scroll->setHorizontalScrollBarPolicy(Qt::ScrollBarAlwaysOff);
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
    m_deviceMessage->hide();
    {
        const QSignalBlocker blocker(m_device);
        m_device->clear();
        for (const DeviceInfo& d : platform.devices) {
            m_device->addItem(deviceLabel(d), d.index);
            m_device->setItemData(m_device->count() - 1, QString::fromStdString(d.uuid), Qt::ToolTipRole);
        }
        m_device->setCurrentIndex(m_device->findData(chosen));
    }
    checkInput();
    setRunning(false);
    return problem;
}

void ConfigPanel::setNoDevices(const QString& item, const QString& sentence, const QString& details)
{
    m_platform = {};
    m_devicesKnown = false;
    m_device->clear();
    m_device->addItem(item);
    m_deviceMessage->setText(sentence);
    m_deviceMessage->setToolTip(tip(details));
    m_deviceMessage->show();
    checkInput();
    setRunning(false);
}

QString ConfigPanel::deviceMessage() const
{
    return m_deviceMessage->isVisibleTo(this) ? m_deviceMessage->text() : QString();
}

QString ConfigPanel::inputProblem() const
{
    return m_problem->isVisibleTo(this) ? m_problem->text() : QString();
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

void ConfigPanel::checkInput()
{
    auto elements = parseElementCount(m_size->text().toStdString());
    const DeviceInfo* device = chosenDevice();
    Status problem;
    if (!elements)
        problem = elements.error();
    else {
        PipelineConfig shaped;
        shaped.elements = *elements;
        shaped.chunks = m_chunksBox->value();
        shaped.streams = m_streamsBox->value();
        if (device)
            problem = checkFitsDevice(shaped, device->totalMemoryBytes, device->name, "in all");
        if (!problem)
            problem = validate(shaped);  // more chunks than elements, more streams than chunks
    }
    m_inputValid = !problem;
    m_invalidReason = problem ? QString::fromStdString(problem->message()) : QString();
    m_unsupported = checkCombination(config());  // the shape's problem first: it is the one shown
    if (!problem) {
        m_elements = *elements;
        m_chunks = m_chunksBox->value();
        m_streams = m_streamsBox->value();
    }
    m_size->setToolTip(tip(tr("Elements (16777216) or bytes with a unit: 64 MiB, 4 KiB, 2 GB. %1")
                               .arg(device ? tr("At most %1 on this GPU.")
                                                 .arg(QString::fromStdString(formatBytes(device->totalMemoryBytes)))
                                           : tr("The GPU, once one answers, sets the limit."))));
    if (problem)
        refuse(m_invalidReason);
    else if (m_unsupported)
        refuse(QString::fromStdString(m_unsupported->message()));
    else if (m_problemFromCheck)
        m_problem->hide();
    m_problemFromCheck = problem || m_unsupported.has_value();
    setRunning(m_running);
}

void ConfigPanel::refuse(const QString& reason)
{
    m_problemFromCheck = false;  // checkInput() says otherwise when the reason is its own
    m_problem->setText(reason);
    m_problem->show();
}

PipelineConfig ConfigPanel::config() const
{
    PipelineConfig c = m_base.config;
    const DeviceInfo* device = chosenDevice();
    c.device = device ? device->index : 0;
    c.elements = m_elements;
    c.value = m_value->value();
    c.runs = m_runs->value();
    c.warmupRuns = m_warmup->value();
    c.chunks = m_chunks;
    c.streams = m_streams;
    c.order = dataOf<IssueOrder>(m_order);
    c.submission = dataOf<Submission>(m_submission);
    c.hostMemory = dataOf<HostMemory>(m_hostMemory);
    // Memory that is never copied, or moves by migration, has copy engines in name only: SM copies would not run.
    const bool copies = c.hostMemory != HostMemory::Mapped && c.hostMemory != HostMemory::Managed;
    c.copy = copies ? dataOf<CopyMechanism>(m_copy) : CopyMechanism::CopyEngine;
    // The managed choices and the batch flag stay with the configuration whatever it runs: only managed memory and
    // batch submission use them, and a comparison's variants of that kind take them from here.
    c.managedMigration = dataOf<ManagedMigration>(m_managedMigration);
    c.managedAdvice = dataOf<ManagedAdvice>(m_managedAdvice);
    c.preferOverlap = m_preferOverlap->isChecked();
    c.waitMode = dataOf<WaitMode>(m_wait);
    c.checkMode = dataOf<CheckMode>(m_check);
    c.stageEvents = m_stages->isChecked();
    c.traceSource = dataOf<TraceSource>(m_traceSource);
    c.stopRule = dataOf<StopRule>(m_stopRule);
    c.targetNoisePercent = m_noiseTarget->value();
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
        const QSignalBlocker chunks(m_chunksBox), streams(m_streamsBox);  // checked once, with the size
        m_chunksBox->setValue(s.config.chunks);
        m_streamsBox->setValue(s.config.streams);
    }
    selectData(m_order, s.config.order);
    selectData(m_submission, s.config.submission);
    showSize(s.config.elements);
    m_value->setValue(s.config.value);
    m_runs->setValue(s.config.runs);
    m_warmup->setValue(s.config.warmupRuns);
    selectData(m_hostMemory, s.config.hostMemory);
    selectData(m_copy, s.config.copy);
    selectData(m_managedMigration, s.config.managedMigration);
    selectData(m_managedAdvice, s.config.managedAdvice);
    m_preferOverlap->setChecked(s.config.preferOverlap);
    selectData(m_wait, s.config.waitMode);
    selectData(m_check, s.config.checkMode);
    m_stages->setChecked(s.config.stageEvents);
    selectData(m_traceSource, s.config.traceSource);
    selectData(m_stopRule, s.config.stopRule);
    m_noiseTarget->setValue(s.config.targetNoisePercent);
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
    base.config.copy = dataOf<CopyMechanism>(m_copy);  // remembered while the memory chosen does not copy
    if (const DeviceInfo* device = chosenDevice())
        base.deviceUuid = QString::fromStdString(device->uuid);
    return base;
}

void ConfigPanel::showSize(std::size_t elements)
{
    m_size->setText(sizeText(elements));
    checkInput();
}

void ConfigPanel::setRuns(int runs)
{
    m_runs->setValue(runs);
}

void ConfigPanel::setRunning(bool running)
{
    m_running = running;
    // While a saved configuration is shown, Run measures the user's own settings, which come back first.
    m_run->setEnabled(!running && m_devicesKnown && (m_viewing || (m_inputValid && !m_unsupported)));
    m_cancel->setEnabled(running);
    const bool edit = editable();
    for (QWidget* w : std::initializer_list<QWidget*> { m_size, m_value, m_chunksBox, m_streamsBox, m_submission,
             m_runs, m_warmup, m_hostMemory, m_wait, m_check, m_stages, m_traceSource, m_stopRule })
        w->setEnabled(edit);
    m_order->setEnabled(edit && m_chunksBox->value() > 1);  // one chunk has one order
    m_device->setEnabled(edit && m_devicesKnown);
    m_noiseTarget->setEnabled(edit && dataOf<StopRule>(m_stopRule) == StopRule::Noise);
    updateApplicable();
}

void ConfigPanel::updateApplicable()
{
    const auto memory = dataOf<HostMemory>(m_hostMemory);
    const bool managed = memory == HostMemory::Managed;
    const bool copies = memory != HostMemory::Mapped && !managed;
    const bool batch = dataOf<Submission>(m_submission) == Submission::Batch;
    m_copy->setEnabled(editable() && copies);
    m_managedMigration->setEnabled(editable() && managed);
    m_managedAdvice->setEnabled(editable() && managed);
    m_preferOverlap->setEnabled(editable() && batch);
    if (copies)
        m_copy->setToolTip(tip(tr("Copy engines: cudaMemcpyAsync, the GPU's DMA engines, leaving the SMs to the "
                                  "kernels. SM copy kernel: a kernel whose threads read and write the host buffer "
                                  "over the bus through its mapped pointer: no copy engine, but SMs kept busy. Batch "
                                  "submission needs the copy engines.")));
    else
        m_copy->setToolTip(tip(managed ? tr("Managed memory is not copied: its pages migrate, by prefetches or "
                                            "page faults (Managed migration).")
                                       : tr("Mapped memory is never copied: the kernel reads and writes the host "
                                            "buffer in place, over the bus.")));
    const QString onlyManaged = tr("Only managed memory (cudaMallocManaged) migrates; choose it under Host memory "
                                   "to use this.");
    m_managedMigration->setToolTip(tip(managed
            ? tr("Prefetch: cudaMemPrefetchAsync to the GPU before the kernel and back to the host after it, where "
                 "the copies would be. On demand: no prefetches: the kernel's page faults bring the pages over, and "
                 "the host check's faults bring them back, outside the GPU time.")
            : onlyManaged));
    m_managedAdvice->setToolTip(tip(managed
            ? tr("cudaMemAdvise given to the managed buffer once, before the first run: where its pages should "
                 "preferably live, or that it is mostly read (a copy kept on each side).")
            : onlyManaged));
    m_preferOverlap->setToolTip(tip(batch
            ? tr("Sets cudaMemcpyFlagPreferOverlapWithCompute on every copy of the batch: asks the runtime for a "
                 "copy path that overlaps the kernels.")
            : tr("A flag of cudaMemcpyBatchAsync: only batch submission uses it. Choose batched copies under "
                 "Submission to use it.")));
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
    // A problem's colours from the palette, so dark themes get a dark banner with light text.
    const bool dark = isDark(palette());
    const QString colours = dark ? QStringLiteral("background: #5c1f1b; color: #fbe3e0;")
                                 : QStringLiteral("background: #fdecea; color: #611a15;");
    m_deviceMessage->setStyleSheet(QStringLiteral("QLabel { %1 padding: 6px; border-radius: 4px; }").arg(colours));
    m_problem->setStyleSheet(QStringLiteral("QLabel { color: %1; }").arg(dark ? "#ff9a8f" : "#a3160b"));
}

}  // namespace asyncscope

#include "gui/config/pipeline_form.hpp"

#include "gui/config/choice_labels.hpp"
#include "gui/config/panel_fields.hpp"
#include "gui/config/workload_shape_box.hpp"

#include <QCheckBox>
#include <QComboBox>
#include <QDoubleSpinBox>
#include <QFormLayout>
#include <QHBoxLayout>
#include <QLabel>
#include <QLineEdit>

#include <climits>

namespace asyncscope {

PipelineForm::PipelineForm(QWidget* parent)
    : QWidget(parent)
{
    const RefuseInput refuse = [this](QWidget* control, const QString& reason) { problems.setTyped(control, reason); };
    auto* form = new QFormLayout(this);
    form->setRowWrapPolicy(QFormLayout::WrapLongRows);

    device = new QComboBox;
    device->setObjectName("device");
    device->setSizeAdjustPolicy(QComboBox::AdjustToMinimumContentsLengthWithIcon);
    device->setMinimumContentsLength(14);
    device->addItem(tr("Looking for CUDA devices…"));
    device->setEnabled(false);
    device->setToolTip(tip(tr("The GPU that runs the pipeline. The fastest is chosen at first; your choice is "
                              "remembered by the GPU's UUID.")));
    form->addRow(tr("&GPU:"), device);

    deviceMessage = new QLabel;
    deviceMessage->setObjectName("deviceMessage");
    deviceMessage->setWordWrap(true);
    deviceMessage->setTextInteractionFlags(Qt::TextSelectableByMouse);
    deviceMessage->hide();
    form->addRow(deviceMessage);

    size = new QLineEdit;
    size->setObjectName("size");
    size->setToolTip(tip(tr("Elements (16777216) or bytes with a unit: 64 MiB, 4 KiB, 2 GB. The host buffers "
                            "and the device buffer each hold this much.")));
    form->addRow(tr("Si&ze:"), size);

    value = new RefusingSpinBox(INT_MIN, INT_MAX, tr("Value added"), refuse);
    value->setObjectName("value");
    value->setToolTip(tip(tr("What the kernel adds to every element (the sample adds 26).")));
    form->addRow(tr("Va&lue added:"), value);

    shape = new WorkloadShapeBox(refuse);
    form->addRow(shape);

    runs = new RefusingSpinBox(1, 1000000, tr("Runs"), refuse);
    runs->setObjectName("runs");
    runs->setToolTip(tip(tr("Measured runs, after the warm-up runs.")));
    form->addRow(tr("&Runs:"), runs);

    warmup = new RefusingSpinBox(0, 1000, tr("Warm-up runs"), refuse);
    warmup->setObjectName("warmup");
    warmup->setToolTip(tip(tr("Runs before the measured ones: shown and marked, left out of the statistics. The "
                              "first run in a process pays for lazy loading.")));
    form->addRow(tr("&Warm-up runs:"), warmup);

    memory.addRows(form);

    wait = choiceBox<WaitMode>("wait");
    wait->setToolTip(tip(tr("Spin: poll the stop event and count the polls, as the sample does. Blocking: sleep "
                            "on a blocking-sync event, leaving the CPU free.")));
    form->addRow(tr("W&ait:"), wait);

    check = choiceBox<CheckMode>("check");
    check->setToolTip(tip(tr("When every element of a run is checked. While the next run executes, a series takes "
                             "little more time than the GPU work; after each run, the GPU idles while the CPU "
                             "checks. Either way runs take turns between two host buffers.")));
    form->addRow(tr("Chec&k elements:"), check);

    stages = new QCheckBox(tr("&Time each stage"));
    stages->setObjectName("stages");
    stages->setToolTip(tip(tr("Records events between the copies and the kernel, for the Stages tab and the "
                              "bandwidths. Off, only the total GPU time is measured.")));
    form->addRow(stages);

    traceSource = choiceBox<TraceSource>("traceSource");
    traceSource->setToolTip(tip(tr("Where the timeline's spans come from. CUDA events time the GPU work and the host "
                                   "clock the CPU work, aligned where submission begins. CUPTI records every copy, "
                                   "kernel and runtime call on one clock; where it cannot load, or another profiler "
                                   "holds it, the run keeps to events and the timeline says why.")));
    form->addRow(tr("T&imeline from:"), traceSource);

    stopRule = choiceBox<StopRule>("stopRule");
    stopRule->setToolTip(tip(tr("Stop after the number of runs, or once the GPU time's noise is low enough.")));
    noiseTarget = new QDoubleSpinBox;
    noiseTarget->setObjectName("noiseTarget");
    noiseTarget->setRange(0.05, 50.0);
    noiseTarget->setSingleStep(0.1);
    noiseTarget->setSuffix(tr(" %"));
    noiseTarget->setToolTip(tip(tr("Relative standard deviation of the GPU time (at least 10 runs and 100 ms of GPU "
                                   "time; stops early if the noise settles above it, or after 15 s).")));
    auto* stopRow = new QHBoxLayout;
    stopRow->addWidget(stopRule, 1);
    stopRow->addWidget(noiseTarget);
    auto* stopLabel = new QLabel(tr("St&op:"));
    stopLabel->setBuddy(stopRule);
    form->addRow(stopLabel, stopRow);

    // A line under each control whose input can be refused.
    for (QWidget* control : std::initializer_list<QWidget*> {
             size, value, shape->chunks, shape->streams, runs, warmup, memory.hostMemory })
        problems.add(control);

    // A choice's whole text ("registered (cudaHostRegister of a malloc'd buffer)") would make the panel as wide as
    // the longest: each list shows a dozen characters and elides the rest; its open list is as wide as its items.
    for (QComboBox* box : findChildren<QComboBox*>()) {
        box->setSizeAdjustPolicy(QComboBox::AdjustToMinimumContentsLengthWithIcon);
        if (box != device)
            box->setMinimumContentsLength(12);
    }
}

void PipelineForm::readInto(PipelineConfig& c) const
{
    c.value = value->value();
    c.runs = runs->value();
    c.warmupRuns = warmup->value();
    // The managed choices and the batch flag stay with the configuration whatever it runs: only managed memory and
    // batch submission use them, and a comparison's variants of that kind take them from here.
    shape->readInto(c);
    memory.readInto(c);
    c.waitMode = dataOf<WaitMode>(wait);
    c.checkMode = dataOf<CheckMode>(check);
    c.stageEvents = stages->isChecked();
    c.traceSource = dataOf<TraceSource>(traceSource);
    c.stopRule = dataOf<StopRule>(stopRule);
    c.targetNoisePercent = noiseTarget->value();
}

void PipelineForm::setEditable(bool edit, bool devices)
{
    for (QWidget* w : std::initializer_list<QWidget*> { size, value, shape->chunks, shape->streams,
             shape->submissionBox, runs, warmup, memory.hostMemory, wait, check, stages, traceSource, stopRule })
        w->setEnabled(edit);
    shape->order->setEnabled(edit && shape->chunks->value() > 1);  // one chunk has one order
    device->setEnabled(edit && devices);
    noiseTarget->setEnabled(edit && dataOf<StopRule>(stopRule) == StopRule::Noise);
    memory.showApplicable(edit);
    shape->showApplicable(edit);
}

void PipelineForm::showColours(bool dark)
{
    const QString colours = dark ? QStringLiteral("background: #5c1f1b; color: #fbe3e0;")
                                 : QStringLiteral("background: #fdecea; color: #611a15;");
    deviceMessage->setStyleSheet(QStringLiteral("QLabel { %1 padding: 6px; border-radius: 4px; }").arg(colours));
    problems.applyPalette(palette());
}

}  // namespace asyncscope

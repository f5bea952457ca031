#include "gui/config/workload_shape_box.hpp"

#include "gui/config/choice_labels.hpp"
#include "gui/config/panel_fields.hpp"

#include <QCheckBox>
#include <QFormLayout>

namespace asyncscope {

WorkloadShapeBox::WorkloadShapeBox(const RefuseInput& refuse, QWidget* parent)
    : QGroupBox(tr("Workload shape"), parent)
{
    setObjectName("workloadShape");
    setToolTip(tip(tr("How the buffer is cut and handed to the GPU. One chunk on one stream is asyncAPI's "
                      "pipeline; more chunks on several streams let one chunk's copy overlap another's kernel "
                      "or copy in the other direction.")));
    auto* form = new QFormLayout(this);
    form->setRowWrapPolicy(QFormLayout::WrapLongRows);
    chunks = new RefusingSpinBox(1, kMaxChunks, tr("Chunks (K)"), refuse);
    chunks->setObjectName("chunks");
    chunks->setToolTip(tip(tr("K: the buffer in this many parts, each copied to the device, incremented and "
                              "copied back on its own. 1 is the classic pipeline. Each chunk needs at least one "
                              "element.")));
    form->addRow(tr("Chu&nks (K):"), chunks);
    streams = new RefusingSpinBox(1, kMaxChunks, tr("Streams (S)"), refuse);
    streams->setObjectName("streams");
    streams->setToolTip(tip(tr("S: the streams the chunks go to in turn, from 1 to K. Work on one stream runs in "
                               "order; only chunks on different streams can overlap.")));
    form->addRow(tr("Str&eams (S):"), streams);
    order = choiceBox<IssueOrder>("order");
    order->setToolTip(tip(tr("The order the calls are issued in. By chunk: each chunk's H2D, kernel and D2H, then "
                             "the next chunk's. By stage: every chunk's H2D, then every kernel, then every D2H. On "
                             "GPUs whose copy engines take work in issue order this decides what overlaps. Only "
                             "matters with more than one chunk.")));
    form->addRow(tr("&Issue order:"), order);
    submissionBox = choiceBox<Submission>("submission");
    submissionBox->setToolTip(tip(tr("Stream calls: every copy, kernel and event is one runtime call on every run, "
                                     "so CPU submit time grows with K. CUDA Graph: the run is captured once into a "
                                     "graph, instantiated and uploaded, then each run is one cudaGraphLaunch. "
                                     "Batched copies: each stream's copies one way go in one cudaMemcpyBatchAsync "
                                     "call, the kernels between them as stream calls.")));
    form->addRow(tr("Su&bmission:"), submissionBox);
    preferOverlap = new QCheckBox(tr("&Prefer overlap with compute"));
    preferOverlap->setObjectName("preferOverlap");
    form->addRow(preferOverlap);
}

Submission WorkloadShapeBox::submission() const
{
    return Submission(submissionBox->currentData().toInt());
}

void WorkloadShapeBox::readInto(PipelineConfig& c) const
{
    c.order = dataOf<IssueOrder>(order);
    c.submission = submission();
    c.preferOverlap = preferOverlap->isChecked();
}

void WorkloadShapeBox::showApplicable(bool editable)
{
    const bool batch = submission() == Submission::Batch;
    preferOverlap->setEnabled(editable && batch);
    preferOverlap->setToolTip(tip(batch
            ? tr("Sets cudaMemcpyFlagPreferOverlapWithCompute on every copy of the batch: asks the runtime for a "
                 "copy path that overlaps the kernels.")
            : tr("A flag of cudaMemcpyBatchAsync: only batch submission uses it. Choose batched copies under "
                 "Submission to use it.")));
}

}  // namespace asyncscope

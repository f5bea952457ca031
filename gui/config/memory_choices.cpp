#include "gui/config/memory_choices.hpp"

#include "gui/config/choice_labels.hpp"
#include "gui/config/panel_fields.hpp"

#include <QComboBox>
#include <QFormLayout>

namespace asyncscope {

void MemoryChoices::addRows(QFormLayout* form)
{
    hostMemory = choiceBox<HostMemory>("hostMemory");
    hostMemory->setToolTip(tip(QObject::tr("Pinned memory lets the copies run asynchronously; with pageable memory "
                                           "the \"async\" copies hold the CPU. Point at a kind for what it is for; "
                                           "Compare › Memory runs them all.")));
    for (int i = 0; i < hostMemory->count(); ++i)
        hostMemory->setItemData(i,
            tip(QStringLiteral("%1 (%2)").arg(choicePurpose(HostMemory(hostMemory->itemData(i).toInt())),
                hostMemory->itemData(i, Qt::ToolTipRole).toString())),
            Qt::ToolTipRole);
    form->addRow(QObject::tr("Host &memory:"), hostMemory);
    copy = choiceBox<CopyMechanism>("copy");
    // Alt and a menu's letter (File, Compare, View, Settings, Help) opens that menu: no control here takes one.
    form->addRow(QObject::tr("Copies b&y:"), copy);
    managedMigration = choiceBox<ManagedMigration>("managedMigration");
    form->addRow(QObject::tr("Manage&d migration:"), managedMigration);
    managedAdvice = choiceBox<ManagedAdvice>("managedAdvice");
    form->addRow(QObject::tr("Managed advice:"), managedAdvice);  // every letter of it is taken: Tab reaches it
}

void MemoryChoices::show(const PipelineConfig& c)
{
    selectData(hostMemory, c.hostMemory);
    selectData(copy, c.copy);
    selectData(managedMigration, c.managedMigration);
    selectData(managedAdvice, c.managedAdvice);
}

HostMemory MemoryChoices::memory() const
{
    return dataOf<HostMemory>(hostMemory);
}

CopyMechanism MemoryChoices::copyChosen() const
{
    return dataOf<CopyMechanism>(copy);
}

void MemoryChoices::readInto(PipelineConfig& c) const
{
    c.hostMemory = memory();
    // Memory that is never copied, or moves by migration, has copy engines in name only: SM copies would not run.
    const bool copies = c.hostMemory != HostMemory::Mapped && c.hostMemory != HostMemory::Managed;
    c.copy = copies ? copyChosen() : CopyMechanism::CopyEngine;
    c.managedMigration = dataOf<ManagedMigration>(managedMigration);
    c.managedAdvice = dataOf<ManagedAdvice>(managedAdvice);
}

void MemoryChoices::showApplicable(bool editable)
{
    const HostMemory chosen = memory();
    const bool managed = chosen == HostMemory::Managed;
    const bool copies = chosen != HostMemory::Mapped && !managed;
    copy->setEnabled(editable && copies);
    managedMigration->setEnabled(editable && managed);
    managedAdvice->setEnabled(editable && managed);
    if (copies)
        copy->setToolTip(tip(QObject::tr("Copy engines: cudaMemcpyAsync, the GPU's DMA engines, leaving the SMs to "
                                         "the kernels. SM copy kernel: a kernel whose threads read and write the host "
                                         "buffer over the bus through its mapped pointer: no copy engine, but SMs "
                                         "kept busy. Batch submission needs the copy engines.")));
    else
        copy->setToolTip(tip(managed ? QObject::tr("Managed memory is not copied: its pages migrate, by prefetches "
                                                   "or page faults (Managed migration).")
                                     : QObject::tr("Mapped memory is never copied: the kernel reads and writes the "
                                                   "host buffer in place, over the bus.")));
    const QString onlyManaged = QObject::tr("Only managed memory (cudaMallocManaged) migrates; choose it under Host "
                                            "memory to use this.");
    managedMigration->setToolTip(tip(managed
            ? QObject::tr("Prefetch: cudaMemPrefetchAsync to the GPU before the kernel and back to the host after "
                          "it, where the copies would be. On demand: no prefetches: the kernel's page faults bring "
                          "the pages over, and the host check's faults bring them back, outside the GPU time.")
            : onlyManaged));
    managedAdvice->setToolTip(tip(managed
            ? QObject::tr("cudaMemAdvise given to the managed buffer once, before the first run: where its pages "
                          "should preferably live, or that it is mostly read (a copy kept on each side).")
            : onlyManaged));
}

}  // namespace asyncscope

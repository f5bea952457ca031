#include "gui/config/choice_labels.hpp"

#include <QRegularExpression>
#include <QStringList>

#include <QObject>

namespace asyncscope {

QString choiceLabel(HostMemory value)
{
    switch (value) {
    case HostMemory::Pinned: return QObject::tr("pinned (cudaMallocHost)");
    case HostMemory::Pageable: return QObject::tr("pageable (malloc)");
    case HostMemory::WriteCombined: return QObject::tr("write-combined (cudaHostAlloc)");
    case HostMemory::Registered: return QObject::tr("registered (malloc + cudaHostRegister)");
    case HostMemory::Mapped: return QObject::tr("mapped, zero-copy");
    case HostMemory::Managed: return QObject::tr("managed (cudaMallocManaged)");
    }
    return {};
}

QString choicePurpose(HostMemory value)
{
    switch (value) {
    case HostMemory::Pinned:
        return QObject::tr("Page-locked memory the copy engines read and write directly: asynchronous copies at the "
                           "link's rate. The usual choice for buffers that are copied again and again.");
    case HostMemory::Pageable:
        return QObject::tr("Ordinary memory. The driver stages each copy through pinned buffers of its own, with the "
                           "CPU copying: slower copies, and \"async\" calls that hold the CPU.");
    case HostMemory::WriteCombined:
        return QObject::tr("Pinned and write-combined: the CPU writes it fast and reads it very slowly (uncached), "
                           "so the host check shows the cost. For buffers the CPU only fills and the GPU reads.");
    case HostMemory::Registered:
        return QObject::tr("Ordinary memory pinned in place with cudaHostRegister: copies as fast as pinned memory, "
                           "for buffers you did not allocate. Registering costs time once per buffer (timed).");
    case HostMemory::Mapped:
        return QObject::tr("Pinned and mapped into the GPU's address space, never copied: the kernel reads and "
                           "writes host memory over the bus (zero-copy). Pays off for data touched once.");
    case HostMemory::Managed:
        return QObject::tr("cudaMallocManaged: one pointer for host and GPU, the pages migrating between them, by "
                           "prefetches or on the kernel's page faults (Managed migration).");
    }
    return {};
}

QString choiceLabel(CopyMechanism value)
{
    switch (value) {
    case CopyMechanism::CopyEngine: return QObject::tr("copy engines (cudaMemcpyAsync)");
    case CopyMechanism::Sm: return QObject::tr("SM copy kernel");
    }
    return {};
}

QString choiceLabel(ManagedMigration value)
{
    switch (value) {
    case ManagedMigration::Prefetch: return QObject::tr("prefetch (cudaMemPrefetchAsync)");
    case ManagedMigration::OnDemand: return QObject::tr("on demand (page faults)");
    }
    return {};
}

QString choiceLabel(ManagedAdvice value)
{
    switch (value) {
    case ManagedAdvice::None: return QObject::tr("none");
    case ManagedAdvice::PreferDevice: return QObject::tr("prefer the device");
    case ManagedAdvice::PreferHost: return QObject::tr("prefer the host");
    case ManagedAdvice::ReadMostly: return QObject::tr("read mostly");
    }
    return {};
}

QString choiceLabel(WaitMode value)
{
    switch (value) {
    case WaitMode::Spin: return QObject::tr("spin on cudaEventQuery");
    case WaitMode::Blocking: return QObject::tr("blocking-sync event");
    }
    return {};
}

QString choiceLabel(CheckMode value)
{
    switch (value) {
    case CheckMode::Overlapped: return QObject::tr("while the next run executes");
    case CheckMode::Serial: return QObject::tr("after each run, as asyncAPI");
    }
    return {};
}

QString choiceLabel(IssueOrder value)
{
    switch (value) {
    case IssueOrder::ByChunk: return QObject::tr("by chunk");
    case IssueOrder::ByStage: return QObject::tr("by stage");
    }
    return {};
}

QString choiceLabel(Submission value)
{
    switch (value) {
    case Submission::Stream: return QObject::tr("stream calls");
    case Submission::Graph: return QObject::tr("CUDA Graph");
    case Submission::Batch: return QObject::tr("batched copies (cudaMemcpyBatchAsync)");
    }
    return {};
}

QString choiceLabel(TraceSource value)
{
    switch (value) {
    case TraceSource::Events: return QObject::tr("CUDA events");
    case TraceSource::Cupti: return QObject::tr("CUPTI, where it loads");
    }
    return {};
}

QString choiceLabel(StopRule value)
{
    switch (value) {
    case StopRule::Fixed: return QObject::tr("after the runs");
    case StopRule::Noise: return QObject::tr("when noise is at most");
    }
    return {};
}

namespace {

// A choice named as the CLI names it ("graph"), as the window labels it ("CUDA Graph"); the name itself where none is.
template <class Enum>
QString labelOf(const QString& name)
{
    const auto value = parseName<Enum>(name.toStdString());
    return value ? choiceLabel(*value) : name;
}

}  // namespace

QString windowControlsOf(const QString& text, bool program)
{
    // The CLI's options the advice names, and the window's controls that set the same. A value is taken where it is
    // one the option takes ("--chunks 16", not the "or" of "fewer --chunks or a larger --size").
    static const QRegularExpression option(QStringLiteral("--([a-z-]+)(?:[ =]([A-Za-z0-9.:]+))?"));
    QStringList controls;
    for (auto it = option.globalMatch(text); it.hasNext();) {
        const QRegularExpressionMatch m = it.next();
        const QString name = m.captured(1), value = m.captured(2);
        const QString number = !value.isEmpty() && value.front().isDigit() ? value : QString();
        QString control;
        if (name == QLatin1String("iteration") || name == QLatin1String("iterations"))
            control = value.startsWith(QLatin1String("nvtx")) ? QObject::tr("Record dialog › Iterations: NVTX range")
                                                               : QObject::tr("Record dialog › Iterations");
        else if (name == QLatin1String("duration"))
            control = QObject::tr("Record dialog › Stop after");
        else if (name == QLatin1String("compare") && value == QLatin1String("overlap"))
            control = QObject::tr("Compare › Overlap: chunks × streams");
        else if (program)
            continue;  // the pipeline panel's options set nothing of a recorded program
        else if (name == QLatin1String("chunks"))
            control = QObject::tr("Chunks (K) %1").arg(number);
        else if (name == QLatin1String("streams"))
            control = QObject::tr("Streams (S) %1").arg(number);
        else if (name == QLatin1String("size"))
            control = QObject::tr("Size");
        else if (name == QLatin1String("submit"))
            control = QObject::tr("Submission: %1").arg(labelOf<Submission>(value));
        else if (name == QLatin1String("host-memory"))
            control = QObject::tr("Host memory: %1").arg(labelOf<HostMemory>(value));
        else if (name == QLatin1String("check"))
            control = QObject::tr("Check elements: %1").arg(labelOf<CheckMode>(value));
        control = control.trimmed();
        if (!control.isEmpty() && !controls.contains(control))
            controls << control;
    }
    return controls.join(QStringLiteral("; "));
}

}  // namespace asyncscope

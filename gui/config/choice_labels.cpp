#include "gui/config/choice_labels.hpp"

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

}  // namespace asyncscope

#include "gui/timeline/span_namer.hpp"

#include "engine/model/call_names.hpp"
#include "engine/model/kernel_names.hpp"

#include <QObject>

namespace asyncscope {

namespace {

QString callRole(std::string_view name)
{
    if (isSynchronousCopy(name))
        return QObject::tr("synchronous copy or set: the host waits until it is done");
    if (isHostSynchronization(name))
        return QObject::tr("the host waits for the GPU");
    if (isPollCall(name))
        return QObject::tr("asks whether the GPU is done");
    if (isEnqueueCall(name))
        return QObject::tr("gives the GPU work (CPU submit time)");
    return QObject::tr("%1 call").arg(isDriverCall(name) ? QObject::tr("driver") : QObject::tr("runtime"));
}

}  // namespace

void SpanNamer::kernel(TimelineBlock& block)
{
    if (block.span.kind != SpanKind::Kernel || !m_program)
        return;
    const Named& n = named(block.span.name, true);
    if (n.full.isEmpty())
        return;
    block.name = n.full;
    block.label = n.label;
}

void SpanNamer::call(TimelineBlock& block)
{
    if (!m_program)
        return;
    const Named& n = named(block.span.name, false);
    if (n.full.isEmpty())
        return;
    block.name = n.full;
    block.label = n.label;
    block.role = n.role;
}

const SpanNamer::Named& SpanNamer::named(std::uint32_t number, bool kernel)
{
    const auto known = m_named.find(number);
    if (known != m_named.end())
        return known->second;
    Named n;
    const std::string_view name = spanNameIn(*m_program, number);
    if (kernel && !name.empty()) {
        const std::string plain = demangledName(name);
        n.full = QString::fromStdString(plain);
        n.label = QString::fromStdString(shortFunctionName(plain));
    } else if (!name.empty()) {
        n.full = n.label = QString::fromStdString(callBaseName(name));
        n.role = callRole(name);
    }
    return m_named.emplace(number, std::move(n)).first->second;
}

}  // namespace asyncscope

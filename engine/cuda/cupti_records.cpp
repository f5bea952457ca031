#include "engine/cuda/cupti_collector.hpp"

#include "engine/cuda/sm_copy_kernel.hpp"

#include <algorithm>

namespace asyncscope::cupti {

namespace {

std::string overheadName(CUpti_ActivityOverheadKind kind)
{
    switch (kind) {
    case CUPTI_ACTIVITY_OVERHEAD_DRIVER_COMPILER: return "driver compiler";
    case CUPTI_ACTIVITY_OVERHEAD_CUPTI_BUFFER_FLUSH: return "buffer flush";
    case CUPTI_ACTIVITY_OVERHEAD_CUPTI_INSTRUMENTATION: return "instrumentation";
    case CUPTI_ACTIVITY_OVERHEAD_CUPTI_RESOURCE: return "resource";
    case CUPTI_ACTIVITY_OVERHEAD_RUNTIME_TRIGGERED_MODULE_LOADING: return "module loading";
    case CUPTI_ACTIVITY_OVERHEAD_LAZY_FUNCTION_LOADING: return "lazy function loading";
    case CUPTI_ACTIVITY_OVERHEAD_COMMAND_BUFFER_FULL: return "command buffer full";
    case CUPTI_ACTIVITY_OVERHEAD_ACTIVITY_BUFFER_REQUEST: return "activity buffer request";
    case CUPTI_ACTIVITY_OVERHEAD_UVM_ACTIVITY_INIT: return "UVM activity init";
    default: return "kind " + std::to_string(static_cast<unsigned>(kind));
    }
}

}  // namespace

std::string Collector::overheads()
{
    std::lock_guard lock(m_mutex);
    std::string text;
    for (const auto& [kind, tally] : m_overheads) {
        text += (text.empty() ? "" : "; ") + overheadName(kind) + " x" + std::to_string(tally.first) + ", " +
            std::to_string(tally.second / 1000) + " us";
    }
    m_overheads.clear();
    return text.empty() ? std::string(m_tuning.overhead ? "none" : "not recorded") : text;
}

ApiCall Collector::callOf(CUpti_CallbackId cbid)
{
    if (auto found = m_calls.find(cbid); found != m_calls.end())
        return found->second;
    const char* name = nullptr;
    const ApiCall call = m_api.callbackName(CUPTI_CB_DOMAIN_RUNTIME_API, cbid, &name) == CUPTI_SUCCESS && name
        ? apiCallNamed(name)
        : ApiCall::Other;
    m_calls.emplace(cbid, call);
    return call;
}

void Collector::parse(std::uint8_t* buffer, std::size_t valid)
{
    std::lock_guard lock(m_mutex);
    CUpti_Activity* record = nullptr;
    while (m_api.nextRecord(buffer, valid, &record) == CUPTI_SUCCESS) {
        TraceRecord r;
        if (record->kind == CUPTI_ACTIVITY_KIND_MEMCPY) {
            const auto* copy = reinterpret_cast<const CUpti_ActivityMemcpy6*>(record);
            if (copy->copyKind == CUPTI_ACTIVITY_MEMCPY_KIND_HTOD)
                r.kind = SpanKind::H2D;
            else if (copy->copyKind == CUPTI_ACTIVITY_MEMCPY_KIND_DTOH)
                r.kind = SpanKind::D2H;
            else
                continue;
            r = { r.kind, ApiCall::None, copy->deviceId, 0, copy->correlationId, copy->graphNodeId, copy->bytes,
                copy->start, copy->end, std::max<std::uint64_t>(1, copy->copyCount), false };
        } else if (record->kind == CUPTI_ACTIVITY_KIND_CONCURRENT_KERNEL) {
            const auto* kernel = reinterpret_cast<const CUpti_ActivityKernel10*>(record);
            const bool smCopy = kernel->name && std::strstr(kernel->name, kSmCopyKernelName) != nullptr;
            r = { SpanKind::Kernel, ApiCall::None, kernel->deviceId, 0, kernel->correlationId,
                kernel->graphNodeId, 0, kernel->start, kernel->end, 1, smCopy };
        } else if (record->kind == CUPTI_ACTIVITY_KIND_UNIFIED_MEMORY_COUNTER) {
            // This process's migrations (the counters' scope), whatever its pid is called in a container.
            const auto* counter = reinterpret_cast<const CUpti_ActivityUnifiedMemoryCounter3*>(record);
            // To the device: the device is where the pages went; to the host: where they came from.
            if (counter->counterKind == CUPTI_ACTIVITY_UNIFIED_MEMORY_COUNTER_KIND_BYTES_TRANSFER_HTOD)
                r = { SpanKind::MigrateH2D, ApiCall::None, counter->dstId, 0, 0, 0, counter->value,
                    counter->start, counter->end, 1, false };
            else if (counter->counterKind == CUPTI_ACTIVITY_UNIFIED_MEMORY_COUNTER_KIND_BYTES_TRANSFER_DTOH)
                r = { SpanKind::MigrateD2H, ApiCall::None, counter->srcId, 0, 0, 0, counter->value,
                    counter->start, counter->end, 1, false };
            else
                continue;
        } else if (record->kind == CUPTI_ACTIVITY_KIND_OVERHEAD) {
            const auto* overhead = reinterpret_cast<const CUpti_ActivityOverhead3*>(record);
            auto& tally = m_overheads[overhead->overheadKind];
            ++tally.first;
            tally.second += overhead->end - overhead->start;
            continue;
        } else if (record->kind == CUPTI_ACTIVITY_KIND_RUNTIME) {
            const auto* api = reinterpret_cast<const CUpti_ActivityAPI*>(record);
            const ApiCall call = callOf(api->cbid);
            if (call == ApiCall::EventQuery)
                continue;
            r = { SpanKind::Api, call, 0, api->threadId, api->correlationId, 0, 0, api->start, api->end, 1, false };
        } else {
            continue;
        }
        m_records.push_back(r);
    }
}

void CUPTIAPI Collector::bufferCompleted(CUcontext, std::uint32_t, std::uint8_t* buffer, std::size_t, std::size_t valid)
{
    if (!buffer)
        return;
    if (valid > 0)
        instance().parse(buffer, valid);
    instance().m_buffers.give(buffer);
}

}  // namespace asyncscope::cupti

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

ApiCall Collector::callOf(std::uint32_t cbid)
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

// The records the pipeline's trace takes: copies to and from the device, kernels (the SM copy kernel marked), page
// migrations, runtime calls but its polls, and CUPTI's overheads tallied.
void Collector::parse(std::uint8_t* buffer, std::size_t valid)
{
    std::lock_guard lock(m_mutex);
    CUpti_Activity* record = nullptr;
    Activity a;
    while (m_api.nextRecord(buffer, valid, &record) == CUPTI_SUCCESS) {
        if (!decode(record, a))
            continue;
        switch (a.kind) {
        case ActivityKind::Copy:
            if (a.copyKind != CUPTI_ACTIVITY_MEMCPY_KIND_HTOD && a.copyKind != CUPTI_ACTIVITY_MEMCPY_KIND_DTOH)
                continue;
            m_records.push_back({ a.copyKind == CUPTI_ACTIVITY_MEMCPY_KIND_HTOD ? SpanKind::H2D : SpanKind::D2H,
                ApiCall::None, a.device, 0, a.correlation, a.graphNode, a.bytes, a.start, a.end, a.count, false });
            break;
        case ActivityKind::Kernel:
            m_records.push_back({ SpanKind::Kernel, ApiCall::None, a.device, 0, a.correlation, a.graphNode, 0, a.start,
                a.end, 1, std::strstr(a.name, kSmCopyKernelName) != nullptr });
            break;
        case ActivityKind::Migration:
            // This process's migrations (the counters' scope), whatever its pid is called in a container.
            if (a.copyKind == CUPTI_ACTIVITY_UNIFIED_MEMORY_COUNTER_KIND_BYTES_TRANSFER_HTOD)
                m_records.push_back({ SpanKind::MigrateH2D, ApiCall::None, a.device, 0, 0, 0, a.bytes, a.start, a.end,
                    1, false });
            else if (a.copyKind == CUPTI_ACTIVITY_UNIFIED_MEMORY_COUNTER_KIND_BYTES_TRANSFER_DTOH)
                m_records.push_back({ SpanKind::MigrateD2H, ApiCall::None, a.device, 0, 0, 0, a.bytes, a.start, a.end,
                    1, false });
            break;
        case ActivityKind::Overhead: {
            auto& tally = m_overheads[static_cast<CUpti_ActivityOverheadKind>(a.cbid)];
            ++tally.first;
            tally.second += a.end - a.start;
            break;
        }
        case ActivityKind::Runtime: {
            const ApiCall call = callOf(a.cbid);
            if (call != ApiCall::EventQuery)
                m_records.push_back({ SpanKind::Api, call, 0, a.thread, a.correlation, 0, 0, a.start, a.end, 1,
                    false });
            break;
        }
        default: break;
        }
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

// CUPTI's activity records, decoded once for every reader: the entry points looked up in a loaded CUPTI library, and
// each record CUPTI hands back as one compact Activity. The built-in pipeline's trace (engine/cuda/cupti_collector),
// the recorder's injection library (engine/inject) and the bare CUPTI library that measures CUPTI's own cost
// (tests/bench/cupti_floor.cpp) take CUPTI through this header alone. Header-only and allocation-free, with no engine
// library behind it: the injection library decodes on CUPTI's threads and in signal handlers.
#pragma once

#include <cupti.h>

#include <dlfcn.h>

#include <cstdint>
#include <type_traits>

namespace asyncscope::cupti {

// The CUPTI entry points AsyncScope uses. Their types come from the toolkit's headers; nothing is linked.
struct CuptiApi {
    decltype(&cuptiGetResultString) resultString = nullptr;
    decltype(&cuptiGetVersion) version = nullptr;
    decltype(&cuptiActivityRegisterCallbacks) registerCallbacks = nullptr;
    decltype(&cuptiActivityEnable) enable = nullptr;
    decltype(&cuptiActivityDisable) disable = nullptr;
    decltype(&cuptiActivityFlushAll) flushAll = nullptr;
    decltype(&cuptiActivityGetNextRecord) nextRecord = nullptr;
    decltype(&cuptiActivityGetNumDroppedRecords) dropped = nullptr;
    decltype(&cuptiGetTimestamp) timestamp = nullptr;
    decltype(&cuptiSetThreadIdType) setThreadIdType = nullptr;
    decltype(&cuptiGetCallbackName) callbackName = nullptr;
    decltype(&cuptiActivityFlushPeriod) flushPeriod = nullptr;
    decltype(&cuptiActivityEnableAllSyncRecords) allSyncRecords = nullptr;
    decltype(&cuptiActivityEnableCudaEventDeviceTimestamps) eventTimestamps = nullptr;
    decltype(&cuptiActivityEnableRuntimeApi) enableRuntimeApi = nullptr;  // optional: CUPTI 12.x and later
    decltype(&cuptiActivityConfigureUnifiedMemoryCounter) configureMigrations = nullptr;  // optional
};

// Looks every entry point up in `library` (dlopen's handle). Returns null when every one that is not optional was
// found, else the name of the first missing.
inline const char* lookUp(void* library, CuptiApi& api)
{
    const char* missing = nullptr;
    auto symbol = [&](auto& slot, const char* name, bool required = true) {
        slot = reinterpret_cast<std::remove_reference_t<decltype(slot)>>(::dlsym(library, name));
        if (!slot && required && !missing)
            missing = name;
    };
    symbol(api.resultString, "cuptiGetResultString");
    symbol(api.version, "cuptiGetVersion");
    symbol(api.registerCallbacks, "cuptiActivityRegisterCallbacks");
    symbol(api.enable, "cuptiActivityEnable");
    symbol(api.disable, "cuptiActivityDisable");
    symbol(api.flushAll, "cuptiActivityFlushAll");
    symbol(api.nextRecord, "cuptiActivityGetNextRecord");
    symbol(api.dropped, "cuptiActivityGetNumDroppedRecords");
    symbol(api.timestamp, "cuptiGetTimestamp");
    symbol(api.setThreadIdType, "cuptiSetThreadIdType");
    symbol(api.callbackName, "cuptiGetCallbackName");
    symbol(api.flushPeriod, "cuptiActivityFlushPeriod");
    symbol(api.allSyncRecords, "cuptiActivityEnableAllSyncRecords");
    symbol(api.eventTimestamps, "cuptiActivityEnableCudaEventDeviceTimestamps");
    symbol(api.enableRuntimeApi, "cuptiActivityEnableRuntimeApi", false);
    symbol(api.configureMigrations, "cuptiActivityConfigureUnifiedMemoryCounter", false);
    return missing;
}

// What a decoded record is.
enum class ActivityKind : std::uint8_t {
    Copy,       // a copy to, from or within a device (MEMCPY)
    Peer,       // a copy between two devices, or within one through a peer's context (MEMCPY2)
    Set,        // a memset
    Kernel,
    Sync,       // a synchronization the host or the GPU waited in
    Event,      // a CUDA event where the GPU passed it (its device timestamp)
    Stream,     // a stream as it was made
    Runtime,    // a runtime call
    Driver,     // a driver call
    Mark,       // an NVTX marker: a range's start or end, or an instant
    Device,     // a device's properties
    Migration,  // managed memory's pages moved (the unified-memory counters)
    Overhead,   // CUPTI's own work
};

enum class MarkEdge : std::uint8_t { Start, End, Instant };

// One record, whatever its kind: the fields its kind has, the rest 0. CUPTI's enumerators keep their values
// (CUpti_ActivityMemcpyKind, CUpti_ActivityMemoryKind, CUpti_ActivitySynchronizationType, CUpti_ActivityStreamFlag,
// CUpti_ActivityUnifiedMemoryCounterKind, CUpti_ActivityOverheadKind).
struct Activity {
    ActivityKind kind = ActivityKind::Copy;
    MarkEdge edge = MarkEdge::Instant;  // Mark
    std::uint8_t copyKind = 0;          // Copy, Peer; Sync: its type; Stream: its flag; Migration: its counter kind
    std::uint8_t srcKind = 0, dstKind = 0;  // Copy: the memory kinds; Set: its memory in dstKind
    std::uint32_t device = 0;     // Peer: the source; Migration: the device the pages went to or came from
    std::uint32_t dstDevice = 0;  // Peer: the destination
    std::uint32_t context = 0, stream = 0, correlation = 0;
    std::uint32_t thread = 0;     // Runtime, Driver, Mark: the calling thread
    std::uint32_t cbid = 0;       // Runtime, Driver: the call's callback id; Overhead: its kind
    std::uint32_t returnValue = 0;
    std::uint32_t id = 0;         // Mark: the range's id
    std::uint64_t start = 0, end = 0;  // ns on CUPTI's clock; Event, Mark: the moment in `start`
    std::uint64_t bytes = 0;           // Copy, Peer, Set, Migration; Device: its memory
    std::uint64_t graphNode = 0;
    std::uint64_t count = 1;      // Copy: the copies a batch record stands for; Kernel: its blocks
    std::uint64_t threadsPerBlock = 0;
    const char* name = nullptr;   // Kernel, Mark, Device: CUPTI's (valid while the buffer is)
    const CUpti_ActivityDevice5* deviceRecord = nullptr;  // Device: the rest of its properties
};

// The fields the records of work on a stream share.
template <typename Record>
void onStream(const Record& r, Activity& a)
{
    a.context = r.contextId;
    a.stream = r.streamId;
    a.correlation = r.correlationId;
    a.start = r.start;
    a.end = r.end;
}

// Decodes one record; false for a kind AsyncScope does not read (or an event CUPTI did not time on the device).
inline bool decode(const CUpti_Activity* record, Activity& a)
{
    a = Activity {};
    switch (record->kind) {
    case CUPTI_ACTIVITY_KIND_MEMCPY: {
        const auto* r = reinterpret_cast<const CUpti_ActivityMemcpy6*>(record);
        a.kind = ActivityKind::Copy;
        a.device = a.dstDevice = r->deviceId;
        onStream(*r, a);
        a.bytes = r->bytes;
        a.copyKind = r->copyKind;
        a.srcKind = r->srcKind;
        a.dstKind = r->dstKind;
        a.graphNode = r->graphNodeId;
        a.count = r->copyCount > 0 ? r->copyCount : 1;
        return true;
    }
    case CUPTI_ACTIVITY_KIND_MEMCPY2: {
        const auto* r = reinterpret_cast<const CUpti_ActivityMemcpyPtoP4*>(record);
        a.kind = ActivityKind::Peer;
        a.device = r->srcDeviceId;
        a.dstDevice = r->dstDeviceId;
        onStream(*r, a);
        a.bytes = r->bytes;
        a.copyKind = r->copyKind;
        a.graphNode = r->graphNodeId;
        return true;
    }
    case CUPTI_ACTIVITY_KIND_MEMSET: {
        const auto* r = reinterpret_cast<const CUpti_ActivityMemset4*>(record);
        a.kind = ActivityKind::Set;
        a.device = a.dstDevice = r->deviceId;
        onStream(*r, a);
        a.bytes = r->bytes;
        a.dstKind = std::uint8_t(r->memoryKind);
        a.graphNode = r->graphNodeId;
        return true;
    }
    case CUPTI_ACTIVITY_KIND_CONCURRENT_KERNEL:
    case CUPTI_ACTIVITY_KIND_KERNEL: {
        const auto* r = reinterpret_cast<const CUpti_ActivityKernel10*>(record);
        a.kind = ActivityKind::Kernel;
        a.device = a.dstDevice = r->deviceId;
        onStream(*r, a);
        a.graphNode = r->graphNodeId;
        a.count = std::uint64_t(r->gridX) * r->gridY * r->gridZ;
        a.threadsPerBlock = std::uint64_t(r->blockX) * r->blockY * r->blockZ;
        a.name = r->name ? r->name : "";
        return true;
    }
    case CUPTI_ACTIVITY_KIND_SYNCHRONIZATION: {
        const auto* r = reinterpret_cast<const CUpti_ActivitySynchronization2*>(record);
        a.kind = ActivityKind::Sync;
        onStream(*r, a);
        a.copyKind = std::uint8_t(r->type);
        return true;
    }
    case CUPTI_ACTIVITY_KIND_CUDA_EVENT: {
        const auto* r = reinterpret_cast<const CUpti_ActivityCudaEvent2*>(record);
        if (r->deviceTimestamp == 0)
            return false;  // not timed on the device
        a.kind = ActivityKind::Event;
        a.device = r->deviceId;
        a.context = r->contextId;
        a.stream = r->streamId;
        a.correlation = r->correlationId;
        a.start = a.end = r->deviceTimestamp;
        return true;
    }
    case CUPTI_ACTIVITY_KIND_STREAM: {
        const auto* r = reinterpret_cast<const CUpti_ActivityStream*>(record);
        a.kind = ActivityKind::Stream;
        a.context = r->contextId;
        a.stream = r->streamId;
        a.copyKind = std::uint8_t(r->flag);
        return true;
    }
    case CUPTI_ACTIVITY_KIND_RUNTIME:
    case CUPTI_ACTIVITY_KIND_DRIVER: {
        const auto* r = reinterpret_cast<const CUpti_ActivityAPI*>(record);
        a.kind = record->kind == CUPTI_ACTIVITY_KIND_DRIVER ? ActivityKind::Driver : ActivityKind::Runtime;
        a.thread = r->threadId;
        a.correlation = r->correlationId;
        a.start = r->start;
        a.end = r->end;
        a.cbid = r->cbid;
        a.returnValue = r->returnValue;
        return true;
    }
    case CUPTI_ACTIVITY_KIND_MARKER: {
        const auto* r = reinterpret_cast<const CUpti_ActivityMarker2*>(record);
        a.kind = ActivityKind::Mark;
        a.edge = (r->flags & CUPTI_ACTIVITY_FLAG_MARKER_START) ? MarkEdge::Start
            : (r->flags & CUPTI_ACTIVITY_FLAG_MARKER_END)       ? MarkEdge::End
                                                                : MarkEdge::Instant;
        a.thread = r->objectKind == CUPTI_ACTIVITY_OBJECT_THREAD ? r->objectId.pt.threadId : 0;
        a.id = r->id;
        a.start = a.end = r->timestamp;
        a.name = r->name ? r->name : "";
        return true;
    }
    case CUPTI_ACTIVITY_KIND_DEVICE: {
        const auto* r = reinterpret_cast<const CUpti_ActivityDevice5*>(record);
        a.kind = ActivityKind::Device;
        a.device = r->id;
        a.bytes = r->globalMemorySize;
        a.name = r->name ? r->name : "";
        a.deviceRecord = r;
        return true;
    }
    case CUPTI_ACTIVITY_KIND_UNIFIED_MEMORY_COUNTER: {
        const auto* r = reinterpret_cast<const CUpti_ActivityUnifiedMemoryCounter3*>(record);
        a.kind = ActivityKind::Migration;
        a.copyKind = std::uint8_t(r->counterKind);
        // To the device: the device is where the pages went; to the host: where they came from.
        const bool toDevice = r->counterKind == CUPTI_ACTIVITY_UNIFIED_MEMORY_COUNTER_KIND_BYTES_TRANSFER_HTOD;
        a.device = toDevice ? r->dstId : r->srcId;
        a.start = r->start;
        a.end = r->end;
        a.bytes = r->value;
        return true;
    }
    case CUPTI_ACTIVITY_KIND_OVERHEAD: {
        const auto* r = reinterpret_cast<const CUpti_ActivityOverhead3*>(record);
        a.kind = ActivityKind::Overhead;
        a.cbid = std::uint32_t(r->overheadKind);
        a.start = r->start;
        a.end = r->end;
        return true;
    }
    default: return false;
    }
}

}  // namespace asyncscope::cupti

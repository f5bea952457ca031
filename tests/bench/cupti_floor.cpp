// The floor any CUPTI tool pays, for the recorder's overhead (tests/gpu/record_overhead.sh): an injection library
// that, named in a program's CUDA_INJECTION64_PATH, subscribes to the very activity kinds the recorder's injection
// library subscribes to (engine/inject/record_injection.cpp), with its buffer size, flush period and event and
// synchronisation settings, and only counts the records CUPTI hands it: nothing is read field by field, written or
// sent. What a program pays under it is CUPTI's own cost; what it pays beyond that under `asyncscope-cli record` is
// the recorder's. CUPTI is loaded from the library ASYNCSCOPE_RECORD_CUPTI names, as the recorder's library does. At
// exit each process that initialised CUDA flushes CUPTI's buffers and prints "cupti-floor: N records" on standard
// error (and how many CUPTI dropped, if any). CUPTI's entry points are looked up as the recorder's are
// (engine/cuda/cupti_activity.hpp).
#include "engine/cuda/cupti_activity.hpp"
#include "engine/inject/recorded_activity.hpp"

#include <cupti.h>

#include <dlfcn.h>
#include <unistd.h>

#include <atomic>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <initializer_list>

namespace {

using asyncscope::inject::kAlignment;
using asyncscope::inject::kBufferBytes;

asyncscope::cupti::CuptiApi g_cupti;  // looked up in the library ASYNCSCOPE_RECORD_CUPTI names
pid_t g_pid = 0;
std::atomic<bool> g_started { false };
std::atomic<std::uint64_t> g_records { 0 };
std::atomic<std::uint64_t> g_dropped { 0 };

void warn(const char* what, CUptiResult result)
{
    const char* text = nullptr;
    if (g_cupti.resultString)
        g_cupti.resultString(result, &text);
    std::fprintf(stderr, "cupti-floor: %s: %s\n", what, text ? text : "unknown CUPTI error");
}

void CUPTIAPI bufferRequested(std::uint8_t** buffer, std::size_t* size, std::size_t* maxRecords)
{
    *buffer = static_cast<std::uint8_t*>(std::aligned_alloc(kAlignment, kBufferBytes));
    *size = *buffer ? kBufferBytes : 0;
    *maxRecords = 0;
}

// Walks the buffer's records, as any tool must to read them, and only counts them.
void CUPTIAPI bufferCompleted(CUcontext context, std::uint32_t streamId, std::uint8_t* buffer, std::size_t,
    std::size_t valid)
{
    if (!buffer)
        return;
    std::uint64_t records = 0;
    CUpti_Activity* record = nullptr;
    while (valid > 0 && g_cupti.nextRecord(buffer, valid, &record) == CUPTI_SUCCESS)
        ++records;
    g_records.fetch_add(records, std::memory_order_relaxed);
    std::size_t dropped = 0;
    if (g_cupti.dropped(context, streamId, &dropped) == CUPTI_SUCCESS && dropped > 0)
        g_dropped.fetch_add(dropped, std::memory_order_relaxed);
    std::free(buffer);
}

// At exit: every record still in CUPTI's buffers, then the count.
void reportAtExit()
{
    if (::getpid() != g_pid)
        return;  // a child forked without exec: the count is its parent's
    g_cupti.flushAll(CUPTI_ACTIVITY_FLAG_FLUSH_FORCED);
    std::fprintf(stderr, "cupti-floor: %llu records\n", static_cast<unsigned long long>(g_records.load()));
    if (const std::uint64_t dropped = g_dropped.load(); dropped > 0)
        std::fprintf(stderr, "cupti-floor: %llu records dropped\n", static_cast<unsigned long long>(dropped));
}

// Loads CUPTI from `path` as the recorder's injection library does; null when it is loaded, else why not.
const char* loadCupti(const char* path)
{
    void* library = ::dlopen(path, RTLD_NOW | RTLD_LOCAL);
    if (!library) {
        const char* why = ::dlerror();
        return why ? why : "it cannot be loaded";
    }
    return asyncscope::cupti::lookUp(library, g_cupti) ? "an entry point is missing" : nullptr;
}

}  // namespace

// Called by the CUDA driver as the program initialises CUDA. 1 tells the driver it went well: a floor that cannot
// start says why on standard error, and the program runs on uncounted.
extern "C" __attribute__((visibility("default"))) int InitializeInjection(void)
{
    if (g_started.exchange(true))
        return 1;
    const char* library = std::getenv("ASYNCSCOPE_RECORD_CUPTI");
    if (!library || !*library) {
        std::fprintf(stderr, "cupti-floor: ASYNCSCOPE_RECORD_CUPTI names no CUPTI library: nothing is counted\n");
        return 1;
    }
    if (const char* why = loadCupti(library)) {
        std::fprintf(stderr, "cupti-floor: CUPTI could not be loaded from %s: %s\n", library, why);
        return 1;
    }
    g_pid = ::getpid();
    if (const CUptiResult r = g_cupti.registerCallbacks(bufferRequested, bufferCompleted); r != CUPTI_SUCCESS) {
        warn("cuptiActivityRegisterCallbacks", r);
        return 1;
    }
    for (const CUpti_ActivityKind kind : asyncscope::inject::kRecordedKinds) {
        if (const CUptiResult r = g_cupti.enable(kind); r != CUPTI_SUCCESS)
            warn("cuptiActivityEnable", r);
    }
    if (const CUptiResult r = g_cupti.eventTimestamps(1); r != CUPTI_SUCCESS)
        warn("cuptiActivityEnableCudaEventDeviceTimestamps", r);
    if (const CUptiResult r = g_cupti.allSyncRecords(0); r != CUPTI_SUCCESS)
        warn("cuptiActivityEnableAllSyncRecords", r);
    g_cupti.flushPeriod(asyncscope::inject::kFlushPeriodMs);
    std::atexit(reportAtExit);
    return 1;
}

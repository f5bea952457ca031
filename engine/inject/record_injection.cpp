// The injection library of `asyncscope-cli record`: the CUDA driver loads it into a program through
// CUDA_INJECTION64_PATH and calls InitializeInjection as the program initialises CUDA. In a process whose environment
// names the recorder's socket (ASYNCSCOPE_RECORD_SOCKET) it connects to it, subscribes to CUPTI's activity records
// and sends each as one line of the record stream (engine/record/record_stream.hpp); anywhere else it does nothing.
// The program's own threads never wait on the recorder but at exit, where what is left is handed over: CUPTI's
// worker thread sends the records as its buffers fill and every 100 ms. A process that dies of a signal hands over
// what CUPTI holds from its signal handler, then dies of the signal as it would have. Each process has a connection
// of its own (a program that forks and runs CUDA in its children is recorded process by process; a child forked
// after the recording started connects anew, so that its end is seen). Small on purpose: no engine library, no
// exceptions; everything else is the recorder's.
#include "engine/inject/injection_state.hpp"

#include <cupti.h>

#include <dlfcn.h>
#include <pthread.h>
#include <signal.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <unistd.h>

#include <atomic>
#include <cerrno>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <ctime>
#include <iterator>
#include <mutex>

namespace {

using namespace asyncscope::inject;
using asyncscope::cupti::Activity;
using asyncscope::cupti::ActivityKind;
using asyncscope::cupti::MarkEdge;

// A call's name from its record's domain: a runtime call's begins "cuda" (or "__cuda", the runtime's own entry
// points), a driver call's "cu" but never "cuda", which is how the recorder tells the two apart. A name that cannot be
// looked up, or that would be read as the other domain's, is written as the domain's unknown call.
const char* apiName(ActivityKind kind, std::uint32_t cbid)
{
    const bool driver = kind == ActivityKind::Driver;
    const char* unknown = driver ? "cuUnknown" : "cudaUnknown";
    const char* name = nullptr;
    const CUpti_CallbackDomain domain = driver ? CUPTI_CB_DOMAIN_DRIVER_API : CUPTI_CB_DOMAIN_RUNTIME_API;
    if (g_cupti.callbackName(domain, cbid, &name) != CUPTI_SUCCESS || !name)
        return unknown;
    const bool runtimeShaped = std::strncmp(name, "cuda", 4) == 0 || std::strncmp(name, "__cuda", 6) == 0;
    const bool driverShaped = std::strncmp(name, "cu", 2) == 0 && std::strncmp(name, "cuda", 4) != 0;
    return (driver ? driverShaped : runtimeShaped) ? name : unknown;
}

// Whether a call asks whether the GPU is done (cudaEventQuery, cudaStreamQuery, and the driver's cuEventQuery,
// cuStreamQuery within them or called by the program): a program that polls makes millions. Looked up once per
// domain and callback id: the two domains number their calls apart.
bool isPoll(ActivityKind kind, std::uint32_t cbid)
{
    static std::atomic<signed char> runtime[CUPTI_RUNTIME_TRACE_CBID_SIZE] {};  // 0 not looked up, 1 a poll, -1 not
    static std::atomic<signed char> driver[CUPTI_DRIVER_TRACE_CBID_SIZE] {};
    const bool isDriver = kind == ActivityKind::Driver;
    if (cbid >= (isDriver ? std::size(driver) : std::size(runtime)))
        return false;
    std::atomic<signed char>& known = isDriver ? driver[cbid] : runtime[cbid];
    signed char answer = known.load(std::memory_order_relaxed);
    if (answer == 0) {
        const char* name = apiName(kind, cbid);
        const bool poll = isDriver
            ? std::strncmp(name, "cuEventQuery", 12) == 0 || std::strncmp(name, "cuStreamQuery", 13) == 0
            : std::strncmp(name, "cudaEventQuery", 14) == 0 || std::strncmp(name, "cudaStreamQuery", 15) == 0;
        answer = poll ? 1 : -1;
        known.store(answer, std::memory_order_relaxed);
    }
    return answer > 0;
}

// A runtime or driver call's line; `calls` back-to-back ones from its start to `end`.
void writeCall(Batch& batch, const Activity& r, std::uint64_t end, std::uint64_t calls)
{
    LineWriter& line = batch.line().word("api").number(g_pid).number(r.thread).number(r.correlation)
        .number(r.start).number(end).number(r.returnValue).number(calls);
    writeName(line, apiName(r.kind, r.cbid));
    line.end();
}

// Back-to-back polls of one thread in one domain with the same answer, sent as one `api` line when the thread's next
// call of that domain differs or the buffer ends: a poll loop costs a line, not a line per poll. The domains are kept
// apart, for a runtime poll's records and those of the driver poll within it come in turns.
class Polls {
public:
    // Takes the call into a pending run of polls, or returns false (having sent its thread's pending run of the
    // domain, so that the thread's lines of a domain stay in order).
    bool take(Batch& batch, const Activity& r)
    {
        Pending* mine = find(r.thread, r.kind);
        const bool poll = isPoll(r.kind, r.cbid);
        if (mine && (!poll || mine->first.cbid != r.cbid || mine->first.returnValue != r.returnValue)) {
            send(batch, *mine);
            mine = nullptr;
        }
        if (!poll)
            return false;
        if (mine) {
            mine->end = r.end;
            ++mine->calls;
            return true;
        }
        Pending* slot = unused();
        if (!slot)
            send(batch, *(slot = &m_pending[0]));
        *slot = Pending { r, r.end, 1, true };
        return true;
    }
    void sendAll(Batch& batch)
    {
        for (Pending& p : m_pending)
            if (p.used)
                send(batch, p);
    }

private:
    struct Pending {
        Activity first;
        std::uint64_t end = 0;
        std::uint64_t calls = 0;
        bool used = false;
    };
    Pending* find(std::uint32_t thread, ActivityKind kind)
    {
        for (Pending& p : m_pending)
            if (p.used && p.first.thread == thread && p.first.kind == kind)
                return &p;
        return nullptr;
    }
    Pending* unused()
    {
        for (Pending& p : m_pending)
            if (!p.used)
                return &p;
        return nullptr;
    }
    static void send(Batch& batch, Pending& p)
    {
        writeCall(batch, p.first, p.end, p.calls);
        p.used = false;
    }

    Pending m_pending[16] {};
};

// The driver's version, from the driver the program has loaded (a runtime linked statically loads it privately, so
// it is asked by its own handle, never loaded anew); 0 where it cannot be asked.
std::uint32_t driverVersion()
{
    using GetVersion = int (*)(int*);
    void* driver = ::dlopen("libcuda.so.1", RTLD_LAZY | RTLD_NOLOAD);
    const auto get = reinterpret_cast<GetVersion>(::dlsym(driver ? driver : RTLD_DEFAULT, "cuDriverGetVersion"));
    int version = 0;
    const std::uint32_t found = get && get(&version) == 0 && version > 0 ? std::uint32_t(version) : 0;
    if (driver)
        ::dlclose(driver);  // the reference NOLOAD took
    return found;
}

void CUPTIAPI bufferRequested(std::uint8_t** buffer, std::size_t* size, std::size_t* maxRecords)
{
    *buffer = static_cast<std::uint8_t*>(std::aligned_alloc(kAlignment, kBufferBytes));
    *size = *buffer ? kBufferBytes : 0;
    *maxRecords = 0;
}

// One record as one line; records of kinds not asked for are skipped.
void writeRecord(Batch& batch, Polls& polls, const Activity& r)
{
    switch (r.kind) {
    case ActivityKind::Copy:
        batch.line().word("copy").number(g_pid).number(r.device).number(r.context).number(r.stream)
            .number(r.correlation).number(r.start).number(r.end).number(r.bytes).number(r.copyKind).number(r.srcKind)
            .number(r.dstKind).number(r.graphNode).number(r.count).end();
        break;
    case ActivityKind::Peer:  // between two devices, or within one by a peer's context
        batch.line().word("peer").number(g_pid).number(r.device).number(r.dstDevice).number(r.context)
            .number(r.stream).number(r.correlation).number(r.start).number(r.end).number(r.bytes).number(r.copyKind)
            .number(r.graphNode).end();
        break;
    case ActivityKind::Set:
        batch.line().word("set").number(g_pid).number(r.device).number(r.context).number(r.stream)
            .number(r.correlation).number(r.start).number(r.end).number(r.bytes).number(r.dstKind)
            .number(r.graphNode).end();
        break;
    case ActivityKind::Kernel: {
        LineWriter& line = batch.line().word("kernel").number(g_pid).number(r.device).number(r.context)
            .number(r.stream).number(r.correlation).number(r.start).number(r.end).number(r.graphNode).number(r.count)
            .number(r.threadsPerBlock);
        writeName(line, r.name);
        line.end();
        break;
    }
    case ActivityKind::Sync:
        batch.line().word("sync").number(g_pid).number(r.context).number(r.stream).number(r.correlation)
            .number(r.start).number(r.end).number(r.copyKind).end();
        break;
    case ActivityKind::Event:
        batch.line().word("event").number(g_pid).number(r.device).number(r.context).number(r.stream)
            .number(r.correlation).number(r.start).end();
        break;
    case ActivityKind::Stream:
        batch.line().word("stream").number(g_pid).number(r.context).number(r.stream).number(r.copyKind).end();
        break;
    case ActivityKind::Runtime:
    case ActivityKind::Driver:
        if (!polls.take(batch, r))
            writeCall(batch, r, r.end, 1);
        break;
    case ActivityKind::Mark: {
        const char* edge = r.edge == MarkEdge::Start ? "start" : r.edge == MarkEdge::End ? "end" : "instant";
        LineWriter& line = batch.line().word("mark").number(g_pid).number(r.thread).number(r.id).word(edge)
            .number(r.start);
        writeName(line, r.name);
        line.end();
        break;
    }
    case ActivityKind::Device: {
        const CUpti_ActivityDevice5& d = *r.deviceRecord;
        char uuid[33];
        for (int i = 0; i < 16; ++i)
            std::snprintf(uuid + 2 * i, 3, "%02x", unsigned(static_cast<unsigned char>(d.uuid.bytes[i])));
        batch.line().word("device").number(g_pid).number(r.device).number(d.computeCapabilityMajor)
            .number(d.computeCapabilityMinor).number(r.bytes).number(d.numMultiprocessors).number(d.numMemcpyEngines)
            .number(d.coreClockRate).number(driverVersion()).word(uuid).text(r.name).end();
        break;
    }
    default: break;
    }
}

void CUPTIAPI bufferCompleted(CUcontext context, std::uint32_t streamId, std::uint8_t* buffer, std::size_t,
    std::size_t valid)
{
    if (!buffer)
        return;
    {
        Batch batch;
        Polls polls;
        CUpti_Activity* record = nullptr;
        Activity activity;
        while (valid > 0 && g_cupti.nextRecord(buffer, valid, &record) == CUPTI_SUCCESS)
            if (asyncscope::cupti::decode(record, activity))
                writeRecord(batch, polls, activity);
        polls.sendAll(batch);
        std::size_t dropped = 0;
        if (g_cupti.dropped(context, streamId, &dropped) == CUPTI_SUCCESS && dropped > 0)
            batch.line().word("dropped").number(g_pid).number(dropped).end();
    }
    std::free(buffer);
}

// Loads CUPTI from `path` into g_cupti; null when it is loaded, else why not.
const char* loadCupti(const char* path)
{
    if (!path)
        return "no library was named";
    void* library = ::dlopen(path, RTLD_NOW | RTLD_LOCAL);
    if (!library) {
        const char* why = ::dlerror();
        return why ? why : "it cannot be loaded";
    }
    const char* missing = asyncscope::cupti::lookUp(library, g_cupti);
    return missing ? "an entry point is missing" : nullptr;
}

}  // namespace

// Called by the CUDA driver in every process that initialises CUDA with this library named: in one the recorder did
// not start, it returns at once. 1 tells the driver it went well (a recording that cannot start says why on the
// socket, and the program runs on unrecorded). Once per process image: a child forked after it ran has its parent's
// copy of g_started, and the fork handler decides for it; one forked before initialises here by itself.
extern "C" __attribute__((visibility("default"))) int InitializeInjection(void)
{
    const char* path = std::getenv(asyncscope::record::kSocketVariable);
    if (!path || !*path || g_started.exchange(true))
        return 1;
    if (std::strlen(path) >= sizeof g_address.sun_path)
        return 1;
    g_address.sun_family = AF_UNIX;
    std::strcpy(g_address.sun_path, path);
    if (!connectToRecorder())
        return 1;
    const char* library = std::getenv(asyncscope::record::kCuptiVariable);
    if (const char* why = loadCupti(library)) {
        Batch batch;
        batch.line().word("note").number(g_pid).text("CUPTI could not be loaded from ")
            .text(library ? library : "(no library named)").text(": ").text(why).end();
        return 1;
    }
    // Records come in the layouts of the CUPTI this library was built with; another API version may lay them out
    // otherwise, so it is not read.
    if (std::uint32_t version = 0; g_cupti.version(&version) != CUPTI_SUCCESS || version != CUPTI_API_VERSION) {
        char versions[96];
        std::snprintf(versions, sizeof versions, " has API version %u, not the %u this recorder reads", version,
            unsigned(CUPTI_API_VERSION));
        Batch batch;
        batch.line().word("note").number(g_pid).text("CUPTI at ").text(library).text(versions)
            .text(": nothing was recorded").end();
        return 1;
    }
    if (const CUptiResult r = g_cupti.registerCallbacks(bufferRequested, bufferCompleted); r != CUPTI_SUCCESS) {
        warn("cuptiActivityRegisterCallbacks", r);  // another subscriber (Nsight Systems, a sanitizer) has CUPTI
        return 1;
    }
    for (const CUpti_ActivityKind kind : kRecordedKinds) {
        if (const CUptiResult r = g_cupti.enable(kind); r != CUPTI_SUCCESS)
            warn("cuptiActivityEnable", r);
    }
    // Where the GPU passed each event the program recorded: its own timing points, which an iteration's GPU time
    // spans as the program's cudaEventElapsedTime does.
    if (const CUptiResult r = g_cupti.eventTimestamps(1); r != CUPTI_SUCCESS)
        warn("cuptiActivityEnableCudaEventDeviceTimestamps", r);
    // A poll that found the GPU busy is one record each otherwise (thousands an iteration for a polling program);
    // the runtime call's record already counts them.
    if (const CUptiResult r = g_cupti.allSyncRecords(0); r != CUPTI_SUCCESS)
        warn("cuptiActivityEnableAllSyncRecords", r);
    // CUPTI's clock beside the host's monotonic one (the recorder's steady clock), read back to back: what places the
    // recorder's own readings (the machine's state) among this process's records.
    if (std::uint64_t cuptiNs = 0; g_cupti.timestamp(&cuptiNs) == CUPTI_SUCCESS) {
        timespec now {};
        ::clock_gettime(CLOCK_MONOTONIC, &now);
        Batch batch;
        batch.line().word("clock").number(g_pid).number(cuptiNs)
            .number(std::uint64_t(now.tv_sec) * 1000000000u + std::uint64_t(now.tv_nsec)).end();
    }
    if (const CUptiResult r = g_cupti.flushPeriod(kFlushPeriodMs); r != CUPTI_SUCCESS)
        warn("cuptiActivityFlushPeriod", r);
    g_recording = true;
    if (std::atexit(handOverAtExit) != 0)
        warnErrno("atexit", ENOMEM);
    if (const int failed = ::pthread_atfork(beforeFork, afterForkInParent, afterForkInChild); failed != 0)
        warnErrno("pthread_atfork", failed);
    installSignalHandlers();
    return 1;
}

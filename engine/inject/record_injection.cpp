// The injection library of `asyncscope-cli record`: the CUDA driver loads it into a program through
// CUDA_INJECTION64_PATH and calls InitializeInjection as the program initialises CUDA. In a process whose environment
// names the recorder's socket (ASYNCSCOPE_RECORD_SOCKET) it connects to it, subscribes to CUPTI's activity records
// and sends each as one line of the record stream (engine/record/record_stream.hpp); anywhere else it does nothing.
// The program's own threads never wait on the recorder but at exit, where what is left is handed over: CUPTI's
// worker thread sends the records as its buffers fill and every 100 ms. Each process has a connection of its own (a
// program that forks and runs CUDA in its children is recorded process by process). Small on purpose: no engine
// library, no exceptions, no signal handlers; everything else is the recorder's.
#include "engine/record/record_stream.hpp"

#include <cupti.h>

#include <dlfcn.h>
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

using asyncscope::record::LineWriter;

// The CUPTI entry points used, looked up in the library the recorder named (ASYNCSCOPE_RECORD_CUPTI).
struct Cupti {
    decltype(&cuptiActivityRegisterCallbacks) registerCallbacks = nullptr;
    decltype(&cuptiActivityEnable) enable = nullptr;
    decltype(&cuptiActivityFlushAll) flushAll = nullptr;
    decltype(&cuptiActivityFlushPeriod) flushPeriod = nullptr;
    decltype(&cuptiActivityGetNextRecord) nextRecord = nullptr;
    decltype(&cuptiActivityGetNumDroppedRecords) dropped = nullptr;
    decltype(&cuptiGetCallbackName) callbackName = nullptr;
    decltype(&cuptiGetResultString) resultString = nullptr;
    decltype(&cuptiGetVersion) version = nullptr;
    decltype(&cuptiActivityEnableAllSyncRecords) allSyncRecords = nullptr;
    decltype(&cuptiActivityEnableCudaEventDeviceTimestamps) eventTimestamps = nullptr;
    decltype(&cuptiGetTimestamp) timestamp = nullptr;
};

constexpr std::size_t kBufferBytes = std::size_t(4) << 20;
constexpr std::size_t kAlignment = 8;

Cupti g_cupti;
int g_socket = -1;
std::uint32_t g_pid = 0;
std::mutex g_write;  // one writer at a time: lines are sent whole
std::atomic<bool> g_started { false };

// Sends `length` bytes of whole lines; a full socket waits (CUPTI's thread, or the exit). A recorder that is gone
// ends the recording quietly (no SIGPIPE: MSG_NOSIGNAL), and the program goes on without it.
void send(const char* data, std::size_t length)
{
    std::lock_guard lock(g_write);
    while (length > 0 && g_socket >= 0) {
        const ssize_t sent = ::send(g_socket, data, length, MSG_NOSIGNAL);
        if (sent < 0 && errno == EINTR)
            continue;
        if (sent <= 0) {
            ::close(g_socket);
            g_socket = -1;
            return;
        }
        data += sent;
        length -= std::size_t(sent);
    }
}

// Lines gathered into one piece, sent when full or when the batch ends.
class Batch {
public:
    LineWriter& line()
    {
        if (m_line.length() > 0)
            take();
        return m_line;
    }
    ~Batch()
    {
        take();
        flush();
    }

private:
    void take()
    {
        const std::size_t length = m_line.length();
        if (length == 0)
            return;
        if (m_used + length > sizeof m_piece)
            flush();
        std::memcpy(m_piece + m_used, m_line.data(), length);
        m_used += length;
        m_line.clear();
    }
    void flush()
    {
        if (m_used > 0)
            send(m_piece, m_used);
        m_used = 0;
    }

    char m_piece[std::size_t(64) << 10];
    std::size_t m_used = 0;
    LineWriter m_line;
};

void warn(const char* what, CUptiResult result)
{
    const char* text = nullptr;
    if (g_cupti.resultString)
        g_cupti.resultString(result, &text);
    Batch batch;
    batch.line().word("note").number(g_pid).text(what).text(": ").text(text ? text : "unknown CUPTI error").end();
}

const char* apiName(CUpti_CallbackId cbid)
{
    const char* name = nullptr;
    if (g_cupti.callbackName(CUPTI_CB_DOMAIN_RUNTIME_API, cbid, &name) != CUPTI_SUCCESS || !name)
        return "unknown";
    return name;
}

// Whether a call asks whether the GPU is done (cudaEventQuery, cudaStreamQuery): a program that polls makes millions.
bool isPoll(CUpti_CallbackId cbid)
{
    static std::atomic<signed char> known[2048] {};  // 0 not looked up, 1 a poll, -1 not
    if (cbid >= std::size(known))
        return false;
    signed char answer = known[cbid].load(std::memory_order_relaxed);
    if (answer == 0) {
        const char* name = apiName(cbid);
        answer = std::strncmp(name, "cudaEventQuery", 14) == 0 || std::strncmp(name, "cudaStreamQuery", 15) == 0 ? 1 : -1;
        known[cbid].store(answer, std::memory_order_relaxed);
    }
    return answer > 0;
}

// A runtime call's line; `calls` back-to-back ones from its start to `end`.
void writeCall(Batch& batch, const CUpti_ActivityAPI& r, std::uint64_t end, std::uint64_t calls)
{
    batch.line().word("api").number(g_pid).number(r.threadId).number(r.correlationId).number(r.start).number(end)
        .number(r.returnValue).number(calls).text(apiName(r.cbid)).end();
}

// Back-to-back polls of one thread with the same answer, sent as one `api` line when the thread's next call differs
// or the buffer ends: a poll loop costs a line, not a line per poll.
class Polls {
public:
    // Takes the call into a pending run of polls, or returns false (having sent its thread's pending run, so that the
    // thread's lines stay in order).
    bool take(Batch& batch, const CUpti_ActivityAPI& r)
    {
        Pending* mine = find(r.threadId);
        const bool poll = isPoll(r.cbid);
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
        CUpti_ActivityAPI first;
        std::uint64_t end = 0;
        std::uint64_t calls = 0;
        bool used = false;
    };
    Pending* find(std::uint32_t thread)
    {
        for (Pending& p : m_pending)
            if (p.used && p.first.threadId == thread)
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

    Pending m_pending[8] {};
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
void writeRecord(Batch& batch, Polls& polls, const CUpti_Activity* record)
{
    switch (record->kind) {
    case CUPTI_ACTIVITY_KIND_MEMCPY: {
        const auto* r = reinterpret_cast<const CUpti_ActivityMemcpy6*>(record);
        batch.line().word("copy").number(g_pid).number(r->deviceId).number(r->contextId).number(r->streamId)
            .number(r->correlationId).number(r->start).number(r->end).number(r->bytes).number(r->copyKind)
            .number(r->srcKind).number(r->dstKind).number(r->graphNodeId).number(r->copyCount).end();
        break;
    }
    case CUPTI_ACTIVITY_KIND_MEMSET: {
        const auto* r = reinterpret_cast<const CUpti_ActivityMemset4*>(record);
        batch.line().word("set").number(g_pid).number(r->deviceId).number(r->contextId).number(r->streamId)
            .number(r->correlationId).number(r->start).number(r->end).number(r->bytes).number(r->memoryKind)
            .number(r->graphNodeId).end();
        break;
    }
    case CUPTI_ACTIVITY_KIND_CONCURRENT_KERNEL: {
        const auto* r = reinterpret_cast<const CUpti_ActivityKernel10*>(record);
        batch.line().word("kernel").number(g_pid).number(r->deviceId).number(r->contextId).number(r->streamId)
            .number(r->correlationId).number(r->start).number(r->end).number(r->graphNodeId)
            .number(std::uint64_t(r->gridX) * r->gridY * r->gridZ).number(std::uint64_t(r->blockX) * r->blockY * r->blockZ)
            .text(r->name ? r->name : "").end();
        break;
    }
    case CUPTI_ACTIVITY_KIND_SYNCHRONIZATION: {
        const auto* r = reinterpret_cast<const CUpti_ActivitySynchronization2*>(record);
        batch.line().word("sync").number(g_pid).number(r->contextId).number(r->streamId).number(r->correlationId)
            .number(r->start).number(r->end).number(std::uint32_t(r->type)).end();
        break;
    }
    case CUPTI_ACTIVITY_KIND_CUDA_EVENT: {
        const auto* r = reinterpret_cast<const CUpti_ActivityCudaEvent2*>(record);
        if (r->deviceTimestamp != 0)
            batch.line().word("event").number(g_pid).number(r->deviceId).number(r->contextId).number(r->streamId)
                .number(r->correlationId).number(r->deviceTimestamp).end();
        break;
    }
    case CUPTI_ACTIVITY_KIND_STREAM: {
        const auto* r = reinterpret_cast<const CUpti_ActivityStream*>(record);
        batch.line().word("stream").number(g_pid).number(r->contextId).number(r->streamId)
            .number(std::uint32_t(r->flag)).end();
        break;
    }
    case CUPTI_ACTIVITY_KIND_RUNTIME: {
        const auto* r = reinterpret_cast<const CUpti_ActivityAPI*>(record);
        if (!polls.take(batch, *r))
            writeCall(batch, *r, r->end, 1);
        break;
    }
    case CUPTI_ACTIVITY_KIND_MARKER: {
        const auto* r = reinterpret_cast<const CUpti_ActivityMarker2*>(record);
        const char* kind = (r->flags & CUPTI_ACTIVITY_FLAG_MARKER_START) ? "start"
            : (r->flags & CUPTI_ACTIVITY_FLAG_MARKER_END)                 ? "end"
                                                                          : "instant";
        const std::uint32_t thread = r->objectKind == CUPTI_ACTIVITY_OBJECT_THREAD ? r->objectId.pt.threadId : 0;
        batch.line().word("mark").number(g_pid).number(thread).number(r->id).word(kind).number(r->timestamp)
            .text(r->name ? r->name : "").end();
        break;
    }
    case CUPTI_ACTIVITY_KIND_DEVICE: {
        const auto* r = reinterpret_cast<const CUpti_ActivityDevice5*>(record);
        char uuid[33];
        for (int i = 0; i < 16; ++i)
            std::snprintf(uuid + 2 * i, 3, "%02x", unsigned(static_cast<unsigned char>(r->uuid.bytes[i])));
        batch.line().word("device").number(g_pid).number(r->id).number(r->computeCapabilityMajor)
            .number(r->computeCapabilityMinor).number(r->globalMemorySize).number(r->numMultiprocessors)
            .number(r->numMemcpyEngines).number(r->coreClockRate).number(driverVersion()).word(uuid)
            .text(r->name ? r->name : "").end();
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
        while (valid > 0 && g_cupti.nextRecord(buffer, valid, &record) == CUPTI_SUCCESS)
            writeRecord(batch, polls, record);
        polls.sendAll(batch);
        std::size_t dropped = 0;
        if (g_cupti.dropped(context, streamId, &dropped) == CUPTI_SUCCESS && dropped > 0)
            batch.line().word("dropped").number(g_pid).number(dropped).end();
    }
    std::free(buffer);
}

// At exit: every record still in CUPTI's buffers, then the line that says the process ended there.
void handOverAtExit()
{
    if (std::uint32_t(::getpid()) != g_pid)
        return;  // a child forked without exec: its parent's recording is not its own
    g_cupti.flushAll(CUPTI_ACTIVITY_FLAG_FLUSH_FORCED);
    Batch batch;
    batch.line().word("exit").number(g_pid).end();
}

template <typename F>
bool look(void* library, const char* name, F& into)
{
    into = reinterpret_cast<F>(::dlsym(library, name));
    return into != nullptr;
}

bool loadCupti(const char* path)
{
    void* library = ::dlopen(path, RTLD_NOW | RTLD_LOCAL);
    if (!library)
        return false;
    return look(library, "cuptiActivityRegisterCallbacks", g_cupti.registerCallbacks) &&
        look(library, "cuptiActivityEnable", g_cupti.enable) && look(library, "cuptiActivityFlushAll", g_cupti.flushAll) &&
        look(library, "cuptiActivityFlushPeriod", g_cupti.flushPeriod) &&
        look(library, "cuptiActivityGetNextRecord", g_cupti.nextRecord) &&
        look(library, "cuptiActivityGetNumDroppedRecords", g_cupti.dropped) &&
        look(library, "cuptiGetCallbackName", g_cupti.callbackName) &&
        look(library, "cuptiGetResultString", g_cupti.resultString) && look(library, "cuptiGetVersion", g_cupti.version) &&
        look(library, "cuptiActivityEnableAllSyncRecords", g_cupti.allSyncRecords) &&
        look(library, "cuptiActivityEnableCudaEventDeviceTimestamps", g_cupti.eventTimestamps) &&
        look(library, "cuptiGetTimestamp", g_cupti.timestamp);
}

}  // namespace

// Called by the CUDA driver in every process that initialises CUDA with this library named: in one the recorder did
// not start, it returns at once. 1 tells the driver it went well (a recording that cannot start says why on the
// socket, and the program runs on unrecorded).
extern "C" __attribute__((visibility("default"))) int InitializeInjection(void)
{
    const char* path = std::getenv(asyncscope::record::kSocketVariable);
    if (!path || !*path || g_started.exchange(true))
        return 1;
    sockaddr_un address {};
    if (std::strlen(path) >= sizeof address.sun_path)
        return 1;
    address.sun_family = AF_UNIX;
    std::strcpy(address.sun_path, path);
    g_socket = ::socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);
    if (g_socket < 0)
        return 1;
    if (::connect(g_socket, reinterpret_cast<const sockaddr*>(&address), sizeof address) != 0) {
        ::close(g_socket);  // the recorder is gone
        g_socket = -1;
        return 1;
    }
    g_pid = std::uint32_t(::getpid());
    {
        Batch batch;
        char exe[1024] = {};
        const ssize_t length = ::readlink("/proc/self/exe", exe, sizeof exe - 1);
        batch.line().word(asyncscope::record::kMagic).number(asyncscope::record::kVersion).end();
        batch.line().word("process").number(g_pid).number(std::uint32_t(::getppid())).text(length > 0 ? exe : "").end();
    }
    const char* library = std::getenv(asyncscope::record::kCuptiVariable);
    if (!library || !loadCupti(library)) {
        const char* why = ::dlerror();
        Batch batch;
        batch.line().word("note").number(g_pid).text("CUPTI could not be loaded from ")
            .text(library ? library : "(no library named)").text(": ").text(why ? why : "an entry point is missing")
            .end();
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
    for (const CUpti_ActivityKind kind : { CUPTI_ACTIVITY_KIND_DEVICE, CUPTI_ACTIVITY_KIND_MEMCPY,
             CUPTI_ACTIVITY_KIND_MEMSET, CUPTI_ACTIVITY_KIND_CONCURRENT_KERNEL, CUPTI_ACTIVITY_KIND_SYNCHRONIZATION,
             CUPTI_ACTIVITY_KIND_RUNTIME, CUPTI_ACTIVITY_KIND_MARKER, CUPTI_ACTIVITY_KIND_CUDA_EVENT,
             CUPTI_ACTIVITY_KIND_STREAM }) {
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
    g_cupti.flushPeriod(100);
    std::atexit(handOverAtExit);
    return 1;
}

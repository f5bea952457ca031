#include "engine/cuda/cupti_trace.hpp"

#include "engine/cuda/sm_copy_kernel.hpp"
#include "engine/model/cupti_library.hpp"
#include "engine/model/trace_records.hpp"

#include <cuda_runtime_api.h>
#include <cupti.h>
#include <dlfcn.h>
#include <sys/syscall.h>
#include <unistd.h>

#include <algorithm>
#include <array>
#include <chrono>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <map>
#include <mutex>
#include <string>
#include <thread>
#include <unordered_map>
#include <vector>

namespace asyncscope {

namespace {

// The CUPTI entry points AsyncScope uses, looked up in the loaded library. Their types come from the toolkit's
// headers; nothing is linked.
struct CuptiApi {
    decltype(&cuptiGetResultString) resultString = nullptr;
    decltype(&cuptiActivityRegisterCallbacks) registerCallbacks = nullptr;
    decltype(&cuptiActivityEnable) enable = nullptr;
    decltype(&cuptiActivityDisable) disable = nullptr;
    decltype(&cuptiActivityFlushAll) flushAll = nullptr;
    decltype(&cuptiActivityGetNextRecord) nextRecord = nullptr;
    decltype(&cuptiGetTimestamp) timestamp = nullptr;
    decltype(&cuptiSetThreadIdType) setThreadIdType = nullptr;
    decltype(&cuptiGetCallbackName) callbackName = nullptr;
    decltype(&cuptiActivityEnableRuntimeApi) enableRuntimeApi = nullptr;  // optional: CUPTI 12.x and later
    decltype(&cuptiActivityConfigureUnifiedMemoryCounter) configureMigrations = nullptr;  // optional
};

constexpr std::array kRecordedKinds { CUPTI_ACTIVITY_KIND_MEMCPY, CUPTI_ACTIVITY_KIND_CONCURRENT_KERNEL,
    CUPTI_ACTIVITY_KIND_RUNTIME };
// Small buffers, kept and handed out again: every run ends with a flush that hands back the buffer CUPTI was filling,
// so CUPTI asks for a buffer inside the next run's first runtime call, and a fresh multi-megabyte allocation there
// (its pages faulted in as CUPTI fills it) would delay that run's first operation. A run that records more asks for
// more.
constexpr std::size_t kBufferBytes = std::size_t(256) << 10;
constexpr std::size_t kBuffersKept = 16;
constexpr std::size_t kRecordAlignment = 8;

// Buffers for CUPTI, touched once when made so that handing one out costs no page faults.
class BufferPool {
public:
    ~BufferPool()
    {
        for (std::uint8_t* buffer : m_free)
            std::free(buffer);
    }

    std::uint8_t* take()
    {
        {
            std::lock_guard lock(m_mutex);
            if (!m_free.empty()) {
                std::uint8_t* buffer = m_free.back();
                m_free.pop_back();
                return buffer;
            }
        }
        return make();
    }

    void give(std::uint8_t* buffer)
    {
        {
            std::lock_guard lock(m_mutex);
            if (m_free.size() < kBuffersKept) {
                m_free.push_back(buffer);
                return;
            }
        }
        std::free(buffer);
    }

    // Makes buffers ahead of the first run, outside anything timed.
    void fill(std::size_t count)
    {
        for (std::size_t i = 0; i < count; ++i) {
            if (std::uint8_t* buffer = make())
                give(buffer);
        }
    }

private:
    static std::uint8_t* make()
    {
        auto* buffer = static_cast<std::uint8_t*>(std::aligned_alloc(kRecordAlignment, kBufferBytes));
        if (buffer)
            std::memset(buffer, 0, kBufferBytes);
        return buffer;
    }

    std::mutex m_mutex;
    std::vector<std::uint8_t*> m_free;
};

// How the collector flushes, and what it says of CUPTI's own cost. Each run's records are collected with a plain
// flush, which hands back the buffers whose records are all complete; a forced flush, which hands back every buffer,
// comes only when records are still missing after 10 ms. A forced flush after every run made the next run's first
// GPU operation start a few tenths of a millisecond late: on an H200, GPU time with CUPTI was 1.12 x that of events
// alone for the classic pipeline and 1.18 x at K = 16, S = 4, against 1.005 x and 1.04 x with the plain flush. For
// measuring that cost (asyncscope_bench_trace_source), from the environment:
//   ASYNCSCOPE_CUPTI_FLUSH=forced   a forced flush after every run;
//   ASYNCSCOPE_CUPTI_OVERHEAD=1     CUPTI's overhead records tallied by kind (CuptiTrace::overheads()).
struct Tuning {
    bool forcedFlush = false;
    bool overhead = false;

    static Tuning fromEnvironment()
    {
        auto said = [](const char* name, const char* value) {
            const char* set = std::getenv(name);
            return set && std::strcmp(set, value) == 0;
        };
        return { said("ASYNCSCOPE_CUPTI_FLUSH", "forced"), said("ASYNCSCOPE_CUPTI_OVERHEAD", "1") };
    }
};

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

// Process-wide: CUPTI has one set of activity callbacks per process, so every trace shares one collector.
class Collector {
public:
    static Collector& instance()
    {
        static Collector collector;
        return collector;
    }

    // Loads the library (once) and starts recording (for the first user). The error says what went wrong.
    Status acquire()
    {
        std::lock_guard lock(m_use);
        if (!m_loaded) {
            if (auto failed = load())
                return failed;
        }
        if (m_users == 0) {
            m_tuning = Tuning::fromEnvironment();
            if (auto failed = startRecording())
                return failed;
        }
        ++m_users;
        return std::nullopt;
    }

    void release()
    {
        std::lock_guard lock(m_use);
        if (--m_users > 0)
            return;
        for (CUpti_ActivityKind kind : kRecordedKinds)
            m_api.disable(kind);
        if (m_migrations)
            m_api.disable(CUPTI_ACTIVITY_KIND_UNIFIED_MEMORY_COUNTER);
        m_migrations = false;
        if (m_tuning.overhead)
            m_api.disable(CUPTI_ACTIVITY_KIND_OVERHEAD);
        m_api.flushAll(CUPTI_ACTIVITY_FLAG_FLUSH_FORCED);
        std::lock_guard records(m_mutex);
        m_records.clear();
    }

    std::uint64_t now() const
    {
        std::uint64_t ns = 0;
        m_api.timestamp(&ns);
        return ns;
    }

    // Flushes until `gpuExpected` GPU records of the run in `window` are in, and with `migrations` at least one page
    // migration where the counters are recorded and no forced flush has found none yet (or until a short while has
    // passed), then takes the run's records (engine/model/trace_records: its thread's calls in the window, the
    // device's operations those calls started and its page migrations in the window). Every other record of the
    // device or the thread is dropped: its run is over.
    RunRecords take(const TraceWindow& window, std::size_t gpuExpected, bool migrations)
    {
        const bool waitForMigrations = migrations && migrationsRecorded();
        const auto start = std::chrono::steady_clock::now();
        const auto forcedAfter = start + std::chrono::milliseconds(m_tuning.forcedFlush ? 0 : 10);
        const auto deadline = start + std::chrono::milliseconds(50);
        for (;;) {
            const bool forced = std::chrono::steady_clock::now() >= forcedAfter;
            m_api.flushAll(forced ? CUPTI_ACTIVITY_FLAG_FLUSH_FORCED : 0);
            // A run may migrate nothing (its pages stayed where they were): after a forced flush, none are coming.
            if (complete(window, gpuExpected, waitForMigrations && !forced) ||
                std::chrono::steady_clock::now() > deadline)
                break;
            std::this_thread::sleep_for(std::chrono::microseconds(200));
        }
        std::lock_guard lock(m_mutex);
        RunRecords run = runRecords(m_records, window);
        auto mine = [&](const TraceRecord& r) {
            return r.kind == SpanKind::Api ? r.thread == window.thread : r.device == window.device;
        };
        m_records.erase(std::remove_if(m_records.begin(), m_records.end(), mine), m_records.end());
        return run;
    }

    // Whether page migrations are recorded, and if not, why.
    bool migrationsRecorded()
    {
        std::lock_guard lock(m_use);
        return m_migrations;
    }
    std::string migrationNote()
    {
        std::lock_guard lock(m_use);
        return m_migrationNote;
    }

    // The overhead records since the last call, tallied by kind, as one line.
    std::string overheads()
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

private:
    Collector() = default;

    Status fail(const std::string& what, CUptiResult result) const
    {
        const char* text = nullptr;
        if (m_api.resultString)
            m_api.resultString(result, &text);
        std::string message = what + ": " + (text ? text : "CUPTI error " + std::to_string(result));
        if (result == CUPTI_ERROR_MULTIPLE_SUBSCRIBERS_NOT_SUPPORTED)
            message += " (another profiler, such as Nsight Systems or compute-sanitizer, holds CUPTI)";
        return makeError(ErrorKind::Cuda, message);
    }

    // The CUPTI of the runtime this build links: CUDART_VERSION is the static runtime's own.
    static std::vector<std::string> candidates()
    {
        CuptiSearch search;
        search.cudartVersion = CUDART_VERSION;
        if (const char* chosen = std::getenv("ASYNCSCOPE_CUPTI"))
            search.chosen = chosen;
        std::error_code error;
        const auto exe = std::filesystem::read_symlink("/proc/self/exe", error);
        if (!error)
            search.executableDir = exe.parent_path().string();
        const std::array<const char*, 3> roots { std::getenv("CUDA_HOME"), std::getenv("CUDA_PATH"),
            "/usr/local/cuda" };
        for (const char* root : roots)
            search.toolkitRoots.emplace_back(root ? root : "");
        return cuptiCandidates(search);
    }

    Status load()
    {
        std::string tried;
        for (const std::string& path : candidates()) {
            m_library = dlopen(path.c_str(), RTLD_NOW | RTLD_LOCAL);
            if (m_library)
                break;
            tried += (tried.empty() ? "" : ", ") + path;
        }
        if (!m_library)
            return makeError(ErrorKind::Cuda, cuptiSoname(CUDART_VERSION) + " was not found (looked for " + tried + ")",
                "Install the CUDA toolkit's CUPTI, or set ASYNCSCOPE_CUPTI to the library's path.");
        bool complete = true;
        auto symbol = [&](auto& slot, const char* name, bool required = true) {
            slot = reinterpret_cast<std::remove_reference_t<decltype(slot)>>(dlsym(m_library, name));
            complete = complete && (slot || !required);
        };
        symbol(m_api.resultString, "cuptiGetResultString");
        symbol(m_api.registerCallbacks, "cuptiActivityRegisterCallbacks");
        symbol(m_api.enable, "cuptiActivityEnable");
        symbol(m_api.disable, "cuptiActivityDisable");
        symbol(m_api.flushAll, "cuptiActivityFlushAll");
        symbol(m_api.nextRecord, "cuptiActivityGetNextRecord");
        symbol(m_api.timestamp, "cuptiGetTimestamp");
        symbol(m_api.setThreadIdType, "cuptiSetThreadIdType");
        symbol(m_api.callbackName, "cuptiGetCallbackName");
        symbol(m_api.enableRuntimeApi, "cuptiActivityEnableRuntimeApi", false);
        symbol(m_api.configureMigrations, "cuptiActivityConfigureUnifiedMemoryCounter", false);
        if (!complete)
            return makeError(ErrorKind::Cuda, "the CUPTI library found lacks functions AsyncScope needs");
        if (CUptiResult r = m_api.setThreadIdType(CUPTI_ACTIVITY_THREAD_ID_TYPE_SYSTEM); r != CUPTI_SUCCESS)
            return fail("CUPTI could not start", r);
        if (CUptiResult r = m_api.registerCallbacks(&bufferRequested, &bufferCompleted); r != CUPTI_SUCCESS)
            return fail("CUPTI could not start", r);
        m_loaded = true;
        return std::nullopt;
    }

    Status startRecording()
    {
        m_buffers.fill(4);
        for (std::size_t i = 0; i < kRecordedKinds.size(); ++i) {
            if (CUptiResult r = m_api.enable(kRecordedKinds[i]); r != CUPTI_SUCCESS) {
                for (std::size_t j = 0; j < i; ++j)
                    m_api.disable(kRecordedKinds[j]);
                return fail("CUPTI could not start recording", r);
            }
        }
        // The poll loop calls cudaEventQuery thousands of times a run: recording each would flood the buffers.
        if (m_api.enableRuntimeApi)
            m_api.enableRuntimeApi(CUPTI_RUNTIME_TRACE_CBID_cudaEventQuery_v3020, 0);
        if (m_tuning.overhead)
            m_api.enable(CUPTI_ACTIVITY_KIND_OVERHEAD);  // a diagnosis only: it may be refused
        recordMigrations();
        return std::nullopt;
    }

    // Managed memory's page migrations to and from the device, from the unified-memory counters, where CUPTI allows
    // them (some platforms and multi-GPU systems without peer access do not): a refusal is noted, and the rest of
    // the trace goes on without them.
    void recordMigrations()
    {
        m_migrations = false;
        if (!m_api.configureMigrations) {
            m_migrationNote = "page migrations not recorded: this CUPTI lacks the unified-memory counters";
            return;
        }
        CUpti_ActivityUnifiedMemoryCounterConfig counters[2] {};
        const CUpti_ActivityUnifiedMemoryCounterKind kinds[2] {
            CUPTI_ACTIVITY_UNIFIED_MEMORY_COUNTER_KIND_BYTES_TRANSFER_HTOD,
            CUPTI_ACTIVITY_UNIFIED_MEMORY_COUNTER_KIND_BYTES_TRANSFER_DTOH };
        for (int i = 0; i < 2; ++i) {
            counters[i].scope = CUPTI_ACTIVITY_UNIFIED_MEMORY_COUNTER_SCOPE_PROCESS_SINGLE_DEVICE;
            counters[i].kind = kinds[i];
            counters[i].deviceId = 0;
            counters[i].enable = 1;
        }
        CUptiResult r = m_api.configureMigrations(counters, 2);
        if (r == CUPTI_SUCCESS)
            r = m_api.enable(CUPTI_ACTIVITY_KIND_UNIFIED_MEMORY_COUNTER);
        if (r != CUPTI_SUCCESS) {
            m_migrationNote = "page migrations not recorded: " + fail("CUPTI's unified-memory counters", r)->detail;
            return;
        }
        m_migrations = true;
        m_migrationNote.clear();
    }

    // Whether the run's records are in: `gpuExpected` copies and kernels, and a page migration if `migrations`.
    bool complete(const TraceWindow& window, std::size_t gpuExpected, bool migrations)
    {
        std::lock_guard lock(m_mutex);
        const RunRecords run = runRecords(m_records, window);
        return run.operations.size() >= gpuExpected && (!migrations || !run.migrations.empty());
    }

    ApiCall callOf(CUpti_CallbackId cbid)
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

    void parse(std::uint8_t* buffer, std::size_t valid)
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

    static void CUPTIAPI bufferRequested(std::uint8_t** buffer, std::size_t* size, std::size_t* maxRecords)
    {
        *buffer = instance().m_buffers.take();
        *size = *buffer ? kBufferBytes : 0;
        *maxRecords = 0;
    }

    static void CUPTIAPI bufferCompleted(CUcontext, std::uint32_t, std::uint8_t* buffer, std::size_t, std::size_t valid)
    {
        if (!buffer)
            return;
        if (valid > 0)
            instance().parse(buffer, valid);
        instance().m_buffers.give(buffer);
    }

    BufferPool m_buffers;
    std::mutex m_use;  // loading, starting, stopping
    void* m_library = nullptr;  // kept loaded for the process's life: CUPTI does not support unloading
    bool m_loaded = false;
    int m_users = 0;
    Tuning m_tuning;
    bool m_migrations = false;     // the unified-memory counters are recorded
    std::string m_migrationNote;   // why not, where they are not
    std::map<CUpti_ActivityOverheadKind, std::pair<std::uint64_t, std::uint64_t>> m_overheads;  // count, ns
    CuptiApi m_api;

    std::mutex m_mutex;  // the records and the call names, filled from CUPTI's callbacks on any thread
    std::vector<TraceRecord> m_records;
    std::unordered_map<CUpti_CallbackId, ApiCall> m_calls;
};

std::uint32_t currentThread()
{
    return static_cast<std::uint32_t>(::syscall(SYS_gettid));
}

}  // namespace

Result<std::unique_ptr<CuptiTrace>> CuptiTrace::start(int device)
{
    if (auto failed = Collector::instance().acquire())
        return *failed;
    return std::unique_ptr<CuptiTrace>(new CuptiTrace(device, currentThread()));
}

CuptiTrace::CuptiTrace(int device, std::uint32_t thread)
    : m_device(device)
    , m_thread(thread)
{
}

CuptiTrace::~CuptiTrace()
{
    Collector::instance().release();
}

std::string CuptiTrace::overheads()
{
    return Collector::instance().overheads();
}

std::uint64_t CuptiTrace::now() const
{
    return Collector::instance().now();
}

std::vector<Span> CuptiTrace::take(std::uint64_t fromNs, std::uint64_t toNs, const std::vector<ChunkRange>& chunks,
    const PipelineConfig& config)
{
    const TraceWindow window { static_cast<std::uint32_t>(m_device), m_thread, fromNs, toNs };
    const bool migrations = config.hostMemory == HostMemory::Managed;
    const RunRecords run = Collector::instance().take(window, expectedOperations(config, chunks.size()), migrations);
    return tracedSpans(run, m_device, fromNs, chunks, config.streams);
}

std::string CuptiTrace::migrationNote() const
{
    return Collector::instance().migrationNote();
}

}  // namespace asyncscope

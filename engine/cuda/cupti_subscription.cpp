#include "engine/cuda/cupti_collector.hpp"

#include "engine/model/cupti_library.hpp"

#include <cuda_runtime_api.h>
#include <dlfcn.h>

#include <filesystem>

namespace asyncscope::cupti {

Status Collector::acquire()
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

void Collector::release()
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

Status Collector::fail(const std::string& what, CUptiResult result) const
{
    const char* text = nullptr;
    if (m_api.resultString)
        m_api.resultString(result, &text);
    std::string message = what + ": " + (text ? text : "CUPTI error " + std::to_string(result));
    if (result == CUPTI_ERROR_MULTIPLE_SUBSCRIBERS_NOT_SUPPORTED)
        message += " (another profiler, such as Nsight Systems or compute-sanitizer, holds CUPTI)";
    return makeError(ErrorKind::Cuda, message);
}

std::vector<std::string> Collector::candidates()
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

Status Collector::load()
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
    if (const char* missing = lookUp(m_library, m_api))
        return makeError(ErrorKind::Cuda, std::string("the CUPTI library found lacks ") + missing + ", which AsyncScope needs");
    if (CUptiResult r = m_api.setThreadIdType(CUPTI_ACTIVITY_THREAD_ID_TYPE_SYSTEM); r != CUPTI_SUCCESS)
        return fail("CUPTI could not start", r);
    if (CUptiResult r = m_api.registerCallbacks(&bufferRequested, &bufferCompleted); r != CUPTI_SUCCESS)
        return fail("CUPTI could not start", r);
    m_loaded = true;
    return std::nullopt;
}

Status Collector::startRecording()
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

void Collector::recordMigrations()
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

}  // namespace asyncscope::cupti

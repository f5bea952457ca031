// CUPTI's activity records, collected for the process (engine/cuda/cupti_trace.hpp): the buffers handed to CUPTI, and
// the one Collector every trace shares. CUPTI's entry points and its records' decoding are cupti_activity.hpp's, as
// for the recorder's injection library. Its parts: loading CUPTI and
// subscribing to its records (cupti_subscription.cpp), decoding the records CUPTI hands back (cupti_records.cpp), and
// a run's records taken for its trace (cupti_trace.cpp).
#pragma once

#include "engine/cuda/cupti_activity.hpp"
#include "engine/model/error.hpp"
#include "engine/model/trace_records.hpp"

#include <cupti.h>

#include <array>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <map>
#include <mutex>
#include <string>
#include <unordered_map>
#include <utility>
#include <vector>

namespace asyncscope::cupti {

inline constexpr std::array kRecordedKinds { CUPTI_ACTIVITY_KIND_MEMCPY, CUPTI_ACTIVITY_KIND_CONCURRENT_KERNEL,
    CUPTI_ACTIVITY_KIND_RUNTIME };
// Small buffers, kept and handed out again: every run ends with a flush that hands back the buffer CUPTI was filling,
// so CUPTI asks for a buffer inside the next run's first runtime call, and a fresh multi-megabyte allocation there
// (its pages faulted in as CUPTI fills it) would delay that run's first operation. A run that records more asks for
// more.
inline constexpr std::size_t kBufferBytes = std::size_t(256) << 10;
inline constexpr std::size_t kBuffersKept = 16;
inline constexpr std::size_t kRecordAlignment = 8;

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

// Process-wide: CUPTI has one set of activity callbacks per process, so every trace shares one collector.
class Collector {
public:
    static Collector& instance()
    {
        static Collector collector;
        return collector;
    }

    // Loads the library (once) and starts recording (for the first user). The error says what went wrong.
    Status acquire();
    void release();

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
    RunRecords take(const TraceWindow& window, std::size_t gpuExpected, bool migrations);

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
    std::string overheads();

private:
    Collector() = default;

    // Loading CUPTI and subscribing to its records (cupti_subscription.cpp).
    Status fail(const std::string& what, CUptiResult result) const;
    // The CUPTI of the runtime this build links: CUDART_VERSION is the static runtime's own.
    static std::vector<std::string> candidates();
    Status load();
    Status startRecording();
    // Managed memory's page migrations to and from the device, from the unified-memory counters, where CUPTI allows
    // them (some platforms and multi-GPU systems without peer access do not): a refusal is noted, and the rest of
    // the trace goes on without them.
    void recordMigrations();

    // Whether the run's records are in: `gpuExpected` copies and kernels, and a page migration if `migrations`.
    bool complete(const TraceWindow& window, std::size_t gpuExpected, bool migrations);

    // CUPTI's callbacks: a buffer handed out (cupti_trace.cpp), a buffer's records decoded (cupti_records.cpp).
    static void CUPTIAPI bufferRequested(std::uint8_t** buffer, std::size_t* size, std::size_t* maxRecords);
    static void CUPTIAPI bufferCompleted(
        CUcontext, std::uint32_t, std::uint8_t* buffer, std::size_t, std::size_t valid);
    ApiCall callOf(std::uint32_t cbid);
    void parse(std::uint8_t* buffer, std::size_t valid);

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
    std::unordered_map<std::uint32_t, ApiCall> m_calls;
};

}  // namespace asyncscope::cupti

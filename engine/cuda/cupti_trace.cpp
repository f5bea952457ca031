#include "engine/cuda/cupti_trace.hpp"

#include "engine/cuda/cupti_collector.hpp"

#include <sys/syscall.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <thread>

namespace asyncscope {

namespace cupti {

RunRecords Collector::take(const TraceWindow& window, std::size_t gpuExpected, bool migrations)
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

bool Collector::complete(const TraceWindow& window, std::size_t gpuExpected, bool migrations)
{
    std::lock_guard lock(m_mutex);
    const RunRecords run = runRecords(m_records, window);
    return run.operations.size() >= gpuExpected && (!migrations || !run.migrations.empty());
}

void CUPTIAPI Collector::bufferRequested(std::uint8_t** buffer, std::size_t* size, std::size_t* maxRecords)
{
    *buffer = instance().m_buffers.take();
    *size = *buffer ? kBufferBytes : 0;
    *maxRecords = 0;
}

}  // namespace cupti

using cupti::Collector;

namespace {

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

// CUPTI's Activity API as an optional trace source. libcupti is loaded at run time (from the CUDA toolkit, beside
// the executable, or where ASYNCSCOPE_CUPTI points), never linked: without it, or where another profiler holds it
// (Nsight Systems, compute-sanitizer), start() says why and the pipeline keeps to its CUDA events.
#pragma once

#include "engine/model/config.hpp"
#include "engine/model/error.hpp"
#include "engine/model/run_result.hpp"

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

namespace asyncscope {

class CuptiTrace {
public:
    // Loads libcupti once per process and starts recording copies, kernels, runtime calls and, where CUPTI allows
    // its unified-memory counters, managed memory's page migrations; recording stops when the last CuptiTrace ends.
    // The calling thread is the one whose runtime calls take() returns.
    static Result<std::unique_ptr<CuptiTrace>> start(int device);
    ~CuptiTrace();
    CuptiTrace(const CuptiTrace&) = delete;
    CuptiTrace& operator=(const CuptiTrace&) = delete;

    // CUPTI's clock, in ns: the clock of every record.
    std::uint64_t now() const;

    // The records of one finished run of `config` as spans in ms from `fromNs`: this thread's runtime calls between
    // `fromNs` and `toNs` (cudaEventQuery polls left out: the run's wait span covers them), and the device's copies
    // and kernels that those calls started, matched by correlation id. Copies and kernels are matched to chunks in the
    // order they were issued (or captured, for a graph): chunk c of `chunks` on stream c % streams, as the pipeline
    // issues them (engine/model/trace_records); SM copy kernels as their chunk's copies, a batch call's copies as its
    // stream's, prefetches as copies where CUPTI saw them so, and the device's page migrations in the window as spans
    // of the migration kinds. Runs without copies (mapped memory, managed memory migrating on demand) wait for no copy
    // records; a managed run waits a little for its migrations.
    std::vector<Span> take(std::uint64_t fromNs, std::uint64_t toNs, const std::vector<ChunkRange>& chunks,
        const PipelineConfig& config);

    // Why page migrations are not recorded (CUPTI refused its unified-memory counters); empty where they are.
    std::string migrationNote() const;

    // CUPTI's overhead records since the last call, tallied by kind, as one line: recorded where the environment
    // asks for them (ASYNCSCOPE_CUPTI_OVERHEAD=1; cupti_trace.cpp lists the settings that measure CUPTI's cost).
    static std::string overheads();

private:
    CuptiTrace(int device, std::uint32_t thread);
    int m_device;
    std::uint32_t m_thread;
};

}  // namespace asyncscope

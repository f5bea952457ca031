// One configuration of the asyncAPI pipeline, its buffers allocated once and run as often as asked:
// H2D copy -> increment kernel -> D2H copy, timed by events while the CPU polls. The classic shape runs on one
// stream; a chunked one splits the buffer into chunks spread over several streams, and graph submission captures
// the whole run into a CUDA Graph once and launches it with one call per run. The host buffers are of any
// HostMemory kind: the copies go by the copy engines or an SM copy kernel, managed memory's by prefetches, and
// mapped memory and managed memory migrating on demand have none (the kernel works on the host buffer in place).
#pragma once

#include "engine/model/config.hpp"
#include "engine/model/error.hpp"
#include "engine/model/run_result.hpp"

#include <atomic>
#include <cstdint>
#include <memory>
#include <optional>
#include <string>

namespace asyncscope {

enum class MemoryCheck { Enforce, Skip };

class PipelineSession {
public:
    // Sets the device on the calling thread and allocates. Every later call must come from the same thread.
    // MemoryCheck::Skip leaves the free-memory check to cudaMalloc itself. A combination the device or the system
    // cannot run (checkCombination, checkHostAccess, a graph that cannot be made from other than pinned memory) is
    // ErrorKind::Unsupported with the reason.
    static Result<std::unique_ptr<PipelineSession>> open(const PipelineConfig& config,
        MemoryCheck memoryCheck = MemoryCheck::Enforce);

    ~PipelineSession();
    PipelineSession(const PipelineSession&) = delete;
    PipelineSession& operator=(const PipelineSession&) = delete;

    // One step of a series: re-initialises the device buffer where there is one (0xFF bytes), submits a run from a
    // host buffer whose elements all hold one known value (zero at first, then what the buffer's last run brought
    // back), waits for it and times it. The run expects that value plus the configured value back
    // (RunResult::expectedValue). `timed` is that run, its elements not yet checked. With CheckMode::Serial the step
    // then checks it and returns it in `checked` too. With CheckMode::Overlapped it starts checking it on helper
    // threads, to finish during the next step, and `checked` is the run before it (none on the first step).
    // `cancel`, when set, is checked in the poll loop; a cancelled run returns ErrorKind::Cancelled.
    struct Step {
        RunResult timed;
        std::optional<RunResult> checked;
    };
    Result<Step> step(int index, bool warmup, const std::atomic<bool>* cancel = nullptr);

    // Waits for a check still running (Overlapped) and returns its run; empty when there is none. Call it when a
    // series ends, however it ends, so no run that was timed is lost.
    std::optional<RunResult> flush();

    // One run, checked, whatever the check mode (step() and, when overlapped, flush()). Meant for single runs: a run
    // still pending from an earlier step() is dropped.
    Result<RunResult> run(int index, bool warmup, const std::atomic<bool>* cancel = nullptr);

    // Changes the value the kernel adds from the next run on. With graph submission the captured graphs are updated
    // in place (cudaGraphExecUpdate) or, where the runtime refuses that, instantiated again; this says which.
    // Not while a run is still being checked (flush() first).
    enum class ValueChange { NoGraph, Updated, Reinstantiated };
    Result<ValueChange> setValue(int value);

    // Registered host memory: cudaHostRegister of both host buffers when the session opened, in ms together, and
    // the bytes registered. Empty and 0 for the other kinds.
    std::optional<double> hostRegisterMs() const;
    std::uint64_t hostRegisteredBytes() const;
    // Unregisters both host buffers (cudaHostUnregister), timed: ms together; 0 for the kinds that are not registered.
    // Call it when the series ends, after flush(): a registered session runs no more runs after it.
    Result<double> unregisterHost();

    const PipelineConfig& config() const;
    // With CUPTI asked for as the trace source: why it did not start (the runs then carry event spans only).
    const std::string& traceNote() const;

private:
    struct Resources;
    explicit PipelineSession(std::unique_ptr<Resources> resources);
    void restart(std::size_t buffer);  // zeroes a host buffer whose content is no longer known
    std::unique_ptr<Resources> m;
};

}  // namespace asyncscope

// One configuration of the asyncAPI pipeline, its buffers allocated once and run as often as asked:
// H2D copy -> increment kernel -> D2H copy, timed by events on one stream while the CPU polls.
#pragma once

#include "engine/config.hpp"
#include "engine/error.hpp"
#include "engine/run_result.hpp"

#include <atomic>
#include <memory>

namespace asyncscope {

enum class MemoryCheck { Enforce, Skip };

class PipelineSession {
public:
    // Sets the device on the calling thread and allocates. Every later call must come from the same thread.
    // MemoryCheck::Skip leaves the free-memory check to cudaMalloc itself.
    static Result<std::unique_ptr<PipelineSession>> open(const PipelineConfig& config,
        MemoryCheck memoryCheck = MemoryCheck::Enforce);

    ~PipelineSession();
    PipelineSession(const PipelineSession&) = delete;
    PipelineSession& operator=(const PipelineSession&) = delete;

    // Re-initialises the buffers (host 0, device 0xFF bytes), then submits, waits, times and verifies one run.
    // `cancel`, when set, is checked in the poll loop; a cancelled run returns ErrorKind::Cancelled.
    Result<RunResult> run(int index, bool warmup, const std::atomic<bool>* cancel = nullptr);

    const PipelineConfig& config() const;

private:
    struct Resources;
    explicit PipelineSession(std::unique_ptr<Resources> resources);
    std::unique_ptr<Resources> m;
};

}  // namespace asyncscope

// What one run of the pipeline measured.
#pragma once

#include <cstdint>

namespace asyncscope {

struct RunResult {
    int index = 0;                // 0-based, counting warm-up runs
    bool warmup = false;          // warm-up runs are kept and shown but left out of statistics
    double gpuMs = 0.0;           // start event to stop event (cudaEventElapsedTime)
    double cpuSubmitMs = 0.0;     // host steady clock around the submit region
    std::uint64_t pollIterations = 0;  // cudaEventQuery(stop) == cudaErrorNotReady count (spin wait)
    double waitMs = 0.0;          // host wall time from end of submit until the stop event completed
    double waitCpuMs = 0.0;       // CPU time this thread used while waiting
    bool stagesTimed = false;     // the three stage times below are valid
    double h2dMs = 0.0;
    double kernelMs = 0.0;
    double d2hMs = 0.0;
    int expectedValue = 0;        // what every element should come back as: its value before the run + the value
    bool verified = false;        // every element came back equal to expectedValue
    std::int64_t firstWrongIndex = -1;  // -1 when verified
    int firstWrongValue = 0;
};

}  // namespace asyncscope

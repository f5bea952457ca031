// A recorded program's iterations as runs: what repeats in it, each repetition a RunResult as the built-in pipeline's
// runs are, so that every view, statistic and writer takes them.
// - By NVTX: each range of a name is an iteration (by default the outermost name that repeats); the runtime calls
//   its process began within the range are its calls.
// - By synchronization: an iteration ends where the host waits for the GPU (cudaDeviceSynchronize,
//   cudaStreamSynchronize, cudaEventSynchronize, or a loop of cudaEventQuery or cudaStreamQuery that found the GPU
//   busy and then done); its calls are those its process began since the last such wait ended, that wait included.
// The GPU operations of an iteration are those its calls issued (matched by correlation id). Between two waits, an
// iteration begins with its first call that gives the GPU work (an operation or an event): the calls before it
// (reading the last iteration's results, freeing, creating the context) are the host's time between iterations and
// are left out; an NVTX range begins where it does. A run's GPU time is its first operation's start to its last one's
// end, widened to the CUDA events its calls recorded where the GPU passed them (a program that times itself with
// events measures between those); its CPU submit time the time spent in its calls other than the waits and polls;
// its waits (Wait spans) the time spent in those (a poll loop: from its first busy answer to its end). Its spans are
// its copies to and from the device and its kernels, each on its stream (numbered 0, 1, … by first use within the
// run); `traced` adds every runtime call as an Api span. Times in ms from the iteration's beginning.
#pragma once

#include "engine/model/error.hpp"
#include "engine/model/program_info.hpp"
#include "engine/model/run_result.hpp"
#include "engine/record/recording.hpp"

#include <string>
#include <string_view>
#include <vector>

namespace asyncscope {

struct IterationRule {
    enum class By { Auto, Nvtx, Sync };
    By by = By::Auto;  // Auto: the outermost repeated NVTX range where there is one, else synchronizations
    std::string range;  // By::Nvtx: the range's name; empty: the outermost repeated one
};

// "auto", "sync", "nvtx" or "nvtx:NAME"; anything else is a usage error saying what is taken.
Result<IterationRule> parseIterationRule(std::string_view text);

struct RecordedRuns {
    std::vector<RunResult> runs;
    std::uint64_t originNs = 0;  // CUPTI's clock where the first run starts: the runs' startMs count from it
    std::uint32_t originPid = 0;  // the process the first run's calls are of
    std::string how;                 // "NVTX range 'step'", "host synchronizations", "the whole recording"
    std::vector<std::string> notes;  // what the runs leave out or could not tell, one sentence each
    ProgramCopies copies;            // the runs' copies from pageable memory and synchronous calls
};

// A runtime call's name without its version and stream suffixes: "cudaMemcpyAsync" for "cudaMemcpyAsync_ptsz_v7000".
std::string callBaseName(std::string_view name);
// Whether the call is one where the host waits for the GPU: an iteration's end.
bool isHostSynchronization(std::string_view name);
// Whether the call copies or sets memory and returns only when that is done (cudaMemcpy, cudaMemcpy2D, cudaMemset…):
// the host waits in it, and on the legacy default stream every other stream waits too.
bool isSynchronousCopy(std::string_view name);

RecordedRuns splitIterations(const Recording& recording, const IterationRule& rule);

}  // namespace asyncscope

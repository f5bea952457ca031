// What a recorded call is to the matcher (engine/record/iterations): its name without suffixes, whether the runtime or
// the driver made it, and its role in an iteration: a launch or enqueue (CPU submit time), a wait for the GPU (a
// synchronize, a synchronous copy), a poll, or another call (allocations, queries: neither).
#pragma once

#include "engine/model/run_result.hpp"

#include <cstdint>
#include <string>
#include <string_view>
#include <unordered_map>

namespace asyncscope {

// A runtime or driver call's name without its version and stream suffixes: "cudaMemcpyAsync" for
// "cudaMemcpyAsync_ptsz_v7000", "cuMemcpyHtoDAsync" for "cuMemcpyHtoDAsync_v2".
std::string callBaseName(std::string_view name);
// Whether the call is a driver API call (cuLaunchKernel) rather than a runtime one (cudaLaunchKernel).
bool isDriverCall(std::string_view name);
// Whether the call is one where the host waits for the GPU until it is done: an iteration's end.
bool isHostSynchronization(std::string_view name);
// Whether the call copies or sets memory and returns only when that is done (cudaMemcpy, cudaMemset, cuMemcpyHtoD,
// cuMemsetD32…): the host waits in it, and on the legacy default stream every other stream waits too.
bool isSynchronousCopy(std::string_view name);
// Whether the call launches or enqueues GPU work: a launch, an asynchronous copy or memset, an event record, a stream
// wait, a graph launch. Its time is CPU submit time.
bool isEnqueueCall(std::string_view name);

// Whether the call asks whether the GPU is done without waiting (cudaEventQuery, cuStreamQuery…): a loop of them
// that finds the GPU busy, then done, is a wait.
bool isPollCall(std::string_view name);

// A call's role in an iteration.
enum class CallRole : std::uint8_t { Other, Enqueue, Wait, SyncCopy, Poll };
struct CallName {
    CallRole role = CallRole::Other;
    bool driver = false;
    bool perThread = false;  // a per-thread default stream build's call (…_ptsz, …_ptds)
    ApiCall call = ApiCall::Other;
};

// Each name worked out once: a recording names a few dozen calls millions of times.
class CallNames {
public:
    // `name` must outlive this table (the recording's names do).
    const CallName& of(std::string_view name);

private:
    std::unordered_map<std::string_view, CallName> m_names;
};

}  // namespace asyncscope

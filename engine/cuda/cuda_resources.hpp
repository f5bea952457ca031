// Owning handles for CUDA objects, so every path out of a function frees what it made.
#pragma once

#include <cuda_runtime_api.h>

#include <memory>

namespace asyncscope {

// Destructors cannot report errors; a failure to free at teardown leaves nothing to act on.
struct DeviceFree {
    void operator()(void* p) const noexcept { static_cast<void>(cudaFree(p)); }
};
struct PinnedFree {
    void operator()(void* p) const noexcept { static_cast<void>(cudaFreeHost(p)); }
};
struct EventDestroy {
    void operator()(cudaEvent_t e) const noexcept { static_cast<void>(cudaEventDestroy(e)); }
};
struct StreamDestroy {
    void operator()(cudaStream_t s) const noexcept { static_cast<void>(cudaStreamDestroy(s)); }
};

struct GraphDestroy {
    void operator()(cudaGraph_t g) const noexcept { static_cast<void>(cudaGraphDestroy(g)); }
};
struct GraphExecDestroy {
    void operator()(cudaGraphExec_t g) const noexcept { static_cast<void>(cudaGraphExecDestroy(g)); }
};

using DeviceInts = std::unique_ptr<int, DeviceFree>;
using PinnedInts = std::unique_ptr<int, PinnedFree>;
using Event = std::unique_ptr<CUevent_st, EventDestroy>;
using Stream = std::unique_ptr<CUstream_st, StreamDestroy>;
using Graph = std::unique_ptr<CUgraph_st, GraphDestroy>;
using GraphExec = std::unique_ptr<CUgraphExec_st, GraphExecDestroy>;

}  // namespace asyncscope

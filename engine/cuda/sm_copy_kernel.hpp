// The SM copy: a kernel whose threads copy n ints from `src` to `dst`, either of which may be host memory reached
// through its mapped device pointer. This is how a copy runs without the copy engines (nvbandwidth's "sm" copies).
#pragma once

#include <cuda_runtime_api.h>

#include <cstddef>

namespace asyncscope {

// Enqueues the copy on `stream`. Both pointers 16-byte aligned: each thread moves 16 bytes at a time; otherwise 4.
// `maxBlocks` (0: no limit) caps the grid, whose threads then stride over the rest: two copies capped to half the
// device each run side by side rather than one after the other. Returns the launch status.
cudaError_t launchSmCopy(
    int* dst, const int* src, std::size_t n, int threadsPerBlock, cudaStream_t stream, std::size_t maxBlocks = 0);

// The kernel's name as CUPTI and Nsight report it, to tell SM copies from the increment kernel in a trace.
inline constexpr const char* kSmCopyKernelName = "smCopyKernel";

}  // namespace asyncscope

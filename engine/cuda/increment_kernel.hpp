// The pipeline's kernel: data[i] += value for every i < n, wrapping at 32 bits as incremented() does
// (engine/model/increment.hpp).
#pragma once

#include "engine/model/increment.hpp"

#include <cuda_runtime_api.h>

#include <cstddef>

namespace asyncscope {

// Enqueues the kernel on `stream` with `threadsPerBlock` threads per block and enough blocks to give every
// element a thread (capped at the grid limit; a grid-stride loop covers the rest). Returns the launch status.
cudaError_t launchIncrement(int* data, int value, std::size_t n, int threadsPerBlock, cudaStream_t stream);

}  // namespace asyncscope

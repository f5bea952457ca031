#include "engine/cuda/increment_kernel.hpp"

#include <algorithm>

namespace asyncscope {

namespace {

__global__ void incrementKernel(int* data, int value, std::size_t n)
{
    const std::size_t stride = static_cast<std::size_t>(gridDim.x) * blockDim.x;
    for (std::size_t i = static_cast<std::size_t>(blockIdx.x) * blockDim.x + threadIdx.x; i < n; i += stride)
        data[i] = static_cast<int>(static_cast<unsigned>(data[i]) + static_cast<unsigned>(value));  // wraps, no UB
}

constexpr std::size_t kMaxGridX = 2147483647u;

}  // namespace

cudaError_t launchIncrement(int* data, int value, std::size_t n, int threadsPerBlock, cudaStream_t stream)
{
    if (n == 0 || threadsPerBlock <= 0)
        return cudaErrorInvalidValue;
    const std::size_t threads = static_cast<std::size_t>(threadsPerBlock);
    const std::size_t blocks = std::min(kMaxGridX, (n + threads - 1) / threads);
    incrementKernel<<<static_cast<unsigned>(blocks), static_cast<unsigned>(threads), 0, stream>>>(data, value, n);
    return cudaGetLastError();
}

}  // namespace asyncscope

#include "engine/cuda/cuda_error.hpp"

namespace asyncscope {

static_assert(codes::kMemoryAllocation == cudaErrorMemoryAllocation);
static_assert(codes::kInsufficientDriver == cudaErrorInsufficientDriver);
static_assert(codes::kNoDevice == cudaErrorNoDevice);
static_assert(codes::kInvalidDevice == cudaErrorInvalidDevice);

CudaVersions queryCudaVersions()
{
    CudaVersions versions;
    if (cudaDriverGetVersion(&versions.driver) != cudaSuccess)
        versions.driver = 0;
    if (cudaRuntimeGetVersion(&versions.runtime) != cudaSuccess)
        versions.runtime = CUDART_VERSION;
    return versions;
}

Error cudaFailure(const char* api, cudaError_t status)
{
    // The runtime also keeps a failed call's status as the thread's "last error", which the next kernel launch
    // check would read back. This error is reported now, so take it out of that slot. (Sticky errors that break
    // the context stay reported by every later call.)
    static_cast<void>(cudaGetLastError());
    return classifyCudaError(api, static_cast<int>(status), cudaGetErrorName(status), cudaGetErrorString(status),
        queryCudaVersions());
}

}  // namespace asyncscope


// Turning a cudaError_t into an Error with advice for the user (the mapping itself is engine/model/cuda_versions).
#pragma once

#include "engine/model/cuda_versions.hpp"

#include <cuda_runtime_api.h>

namespace asyncscope {

// Reads names and versions from the runtime and classifies `status`.
Error cudaFailure(const char* api, cudaError_t status);

CudaVersions queryCudaVersions();

}  // namespace asyncscope

// Evaluates a CUDA runtime call; on failure returns its Error from the enclosing function.
#define ASYNCSCOPE_CUDA_TRY(call)                                                   \
    do {                                                                            \
        const cudaError_t asyncscopeStatus_ = (call);                               \
        if (asyncscopeStatus_ != cudaSuccess)                                       \
            return ::asyncscope::cudaFailure(#call, asyncscopeStatus_);             \
    } while (false)

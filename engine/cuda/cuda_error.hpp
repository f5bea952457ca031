// Turning a cudaError_t into an Error with advice for the user.
#pragma once

#include "engine/model/error.hpp"

#include <cuda_runtime_api.h>

namespace asyncscope {

// Versions as the CUDA runtime reports them (e.g. 13000); 0 for "no driver".
struct CudaVersions {
    int driver = 0;
    int runtime = 0;
};

// Pure mapping, testable without a GPU: which kind of error this is and what to tell the user.
Error classifyCudaError(const char* api, int code, const char* codeName, const char* text, CudaVersions versions);

// Reads names and versions from the runtime and classifies `status`.
Error cudaFailure(const char* api, cudaError_t status);

CudaVersions queryCudaVersions();

// "13.0" from 13000.
std::string formatCudaVersion(int version);

// "version 580 or newer (for CUDA 13.0)": the NVIDIA driver a CUDA runtime version needs.
std::string minimumDriver(int runtimeVersion);

// One plain sentence for a person at the window: what the state means and what to do, without API or error
// names (those stay in Error::message()). Missing driver, old driver and no GPU each have their own.
std::string plainSentence(const Error& error);

}  // namespace asyncscope

// Evaluates a CUDA runtime call; on failure returns its Error from the enclosing function.
#define ASYNCSCOPE_CUDA_TRY(call)                                                   \
    do {                                                                            \
        const cudaError_t asyncscopeStatus_ = (call);                               \
        if (asyncscopeStatus_ != cudaSuccess)                                       \
            return ::asyncscope::cudaFailure(#call, asyncscopeStatus_);             \
    } while (false)

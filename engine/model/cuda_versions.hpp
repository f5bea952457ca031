// CUDA's versions and errors as values, without the CUDA runtime: what a cudaError means for the user, which driver a
// runtime needs, "13.0" from 13000. The calls that read them from the runtime are in engine/cuda/cuda_error.hpp.
#pragma once

#include "engine/model/error.hpp"

#include <string>

namespace asyncscope {

// The CUDA runtime this build links (CUDART_VERSION of its toolkit, e.g. 13000), set by the build.
inline constexpr int kBuiltCudaRuntime = ASYNCSCOPE_CUDART_VERSION;

// Versions as the CUDA runtime reports them (e.g. 13000); 0 for "no driver".
struct CudaVersions {
    int driver = 0;
    int runtime = 0;
};

// The cudaError_t values the mapping tells apart (engine/cuda/cuda_error.cpp checks them against the runtime's).
namespace codes {
inline constexpr int kMemoryAllocation = 2;
inline constexpr int kInsufficientDriver = 35;
inline constexpr int kNoDevice = 100;
inline constexpr int kInvalidDevice = 101;
}  // namespace codes

// Pure mapping, testable without a GPU: which kind of error this is and what to tell the user.
Error classifyCudaError(const char* api, int code, const char* codeName, const char* text, CudaVersions versions);

// "13.0" from 13000.
std::string formatCudaVersion(int version);

// "version 580 or newer (for CUDA 13.0)": the NVIDIA driver a CUDA runtime version needs.
std::string minimumDriver(int runtimeVersion);

// One plain sentence for a person at the window: what the state means and what to do, without API or error
// names (those stay in Error::message()). Missing driver, old driver and no GPU each have their own.
std::string plainSentence(const Error& error);

}  // namespace asyncscope

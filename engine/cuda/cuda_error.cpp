#include "engine/cuda/cuda_error.hpp"

#include <string>

namespace asyncscope {

namespace {

std::string apiName(const char* call)
{
    // "cudaMalloc(&p, n)" -> "cudaMalloc"
    std::string name(call ? call : "");
    const auto paren = name.find('(');
    return paren == std::string::npos ? name : name.substr(0, paren);
}

}  // namespace

std::string formatCudaVersion(int version)
{
    if (version <= 0)
        return "none";
    return std::to_string(version / 1000) + "." + std::to_string((version % 1000) / 10);
}

Error classifyCudaError(const char* api, int code, const char* codeName, const char* text, CudaVersions versions)
{
    Error error;
    error.api = apiName(api);
    error.code = code;
    error.codeName = codeName ? codeName : "";
    error.detail = text ? text : "";

    switch (code) {
    case cudaErrorInsufficientDriver:
        if (versions.driver == 0) {
            error.kind = ErrorKind::NoDriver;
            error.advice = "No NVIDIA driver was found: install the NVIDIA driver (" +
                formatCudaVersion(versions.runtime) + " or newer) and make sure libcuda.so.1 can be loaded.";
        } else {
            error.kind = ErrorKind::DriverTooOld;
            error.advice = "The NVIDIA driver supports CUDA " + formatCudaVersion(versions.driver) +
                " but AsyncScope needs " + formatCudaVersion(versions.runtime) + ": update the NVIDIA driver.";
        }
        break;
    case cudaErrorNoDevice:
        error.kind = ErrorKind::NoDevice;
        error.advice = "The driver sees no CUDA GPU: check that one is installed, visible to this user and not "
                       "hidden by CUDA_VISIBLE_DEVICES.";
        break;
    case cudaErrorInvalidDevice:
        error.kind = ErrorKind::Usage;
        error.advice = "Choose a device from the list (asyncscope-cli --list-devices).";
        break;
    case cudaErrorMemoryAllocation:
        error.kind = ErrorKind::OutOfMemory;
        error.advice = "Choose a smaller size or free memory used by other programs.";
        break;
    default:
        error.kind = ErrorKind::Cuda;
        break;
    }
    return error;
}

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

#include "engine/model/cuda_versions.hpp"

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

std::string minimumDriver(int runtimeVersion)
{
    // NVIDIA's minimum Linux driver for each CUDA major version (CUDA Toolkit release notes, table 3).
    const int major = runtimeVersion / 1000;
    const char* driver = major >= 13 ? "580" : major == 12 ? "525" : major == 11 ? "450" : nullptr;
    const std::string cuda = "CUDA " + formatCudaVersion(runtimeVersion);
    return driver ? std::string("version ") + driver + " or newer (for " + cuda + ")" : "one that supports " + cuda;
}

std::string plainSentence(const Error& error)
{
    const std::string cuda = formatCudaVersion(kBuiltCudaRuntime);
    switch (error.kind) {
    case ErrorKind::NoDriver:
        return "This computer has no NVIDIA driver, so nothing can run here. Install NVIDIA driver " +
            minimumDriver(kBuiltCudaRuntime) + "; saved runs open without one (File menu).";
    case ErrorKind::DriverTooOld:
        return "The NVIDIA driver is too old for CUDA " + cuda + ". Update it to " +
            minimumDriver(kBuiltCudaRuntime) + ".";
    case ErrorKind::NoDevice:
        return "The NVIDIA driver sees no GPU. Check that one is installed and not hidden by CUDA_VISIBLE_DEVICES.";
    default:
        return error.message();
    }
}

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
    case codes::kInsufficientDriver:
        if (versions.driver == 0) {
            error.kind = ErrorKind::NoDriver;
            error.advice = "No NVIDIA driver was found: install the NVIDIA driver, " + minimumDriver(versions.runtime) +
                ", and make sure libcuda.so.1 can be loaded.";
        } else {
            error.kind = ErrorKind::DriverTooOld;
            error.advice = "The NVIDIA driver supports CUDA " + formatCudaVersion(versions.driver) +
                " but AsyncScope needs " + formatCudaVersion(versions.runtime) + ": update the NVIDIA driver to " +
                minimumDriver(versions.runtime) + ".";
        }
        break;
    case codes::kNoDevice:
        error.kind = ErrorKind::NoDevice;
        error.advice = "The driver sees no CUDA GPU: check that one is installed, visible to this user and not "
                       "hidden by CUDA_VISIBLE_DEVICES.";
        break;
    case codes::kInvalidDevice:
        error.kind = ErrorKind::Usage;
        error.advice = "Choose a device from the list (asyncscope-cli --list-devices).";
        break;
    case codes::kMemoryAllocation:
        error.kind = ErrorKind::OutOfMemory;
        error.advice = "Choose a smaller size or free memory used by other programs.";
        break;
    default:
        error.kind = ErrorKind::Cuda;
        break;
    }
    return error;
}

}  // namespace asyncscope

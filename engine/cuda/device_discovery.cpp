#include "engine/cuda/device_discovery.hpp"

#include "engine/cuda/cuda_error.hpp"
#include "engine/model/size_parse.hpp"

#include <cstdio>

namespace asyncscope {

namespace {

std::string formatUuid(const cudaUUID_t& uuid)
{
    const auto* b = reinterpret_cast<const unsigned char*>(uuid.bytes);
    char text[64];
    std::snprintf(text, sizeof text, "GPU-%02x%02x%02x%02x-%02x%02x-%02x%02x-%02x%02x-%02x%02x%02x%02x%02x%02x", b[0],
        b[1], b[2], b[3], b[4], b[5], b[6], b[7], b[8], b[9], b[10], b[11], b[12], b[13], b[14], b[15]);
    return text;
}

Result<int> attribute(cudaDeviceAttr attr, int device)
{
    int value = 0;
    ASYNCSCOPE_CUDA_TRY(cudaDeviceGetAttribute(&value, attr, device));
    return value;
}

Result<DeviceInfo> describeDevice(int index)
{
    cudaDeviceProp prop {};
    ASYNCSCOPE_CUDA_TRY(cudaGetDeviceProperties(&prop, index));
    DeviceInfo info;
    info.index = index;
    info.name = prop.name;
    info.computeMajor = prop.major;
    info.computeMinor = prop.minor;
    info.multiprocessors = prop.multiProcessorCount;
    info.totalMemoryBytes = prop.totalGlobalMem;
    info.asyncEngineCount = prop.asyncEngineCount;
    info.uuid = formatUuid(prop.uuid);

    char busId[32] = {};
    ASYNCSCOPE_CUDA_TRY(cudaDeviceGetPCIBusId(busId, sizeof busId, index));
    info.pciBusId = busId;

    auto clock = attribute(cudaDevAttrClockRate, index);
    if (!clock)
        return clock.error();
    info.clockKHz = *clock;
    auto mode = attribute(cudaDevAttrComputeMode, index);
    if (!mode)
        return mode.error();
    info.computeProhibited = *mode == cudaComputeModeProhibited;
    return info;
}

}  // namespace

Result<Platform> discoverPlatform()
{
    Platform platform;
    const CudaVersions versions = queryCudaVersions();
    platform.driverVersion = versions.driver;
    platform.runtimeVersion = versions.runtime;

    int count = 0;
    ASYNCSCOPE_CUDA_TRY(cudaGetDeviceCount(&count));
    if (count == 0)
        return cudaFailure("cudaGetDeviceCount", cudaErrorNoDevice);
    for (int i = 0; i < count; ++i) {
        auto info = describeDevice(i);
        if (!info)
            return info.error();
        platform.devices.push_back(std::move(*info));
    }
    return platform;
}

}  // namespace asyncscope

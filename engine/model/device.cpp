#include "engine/model/device.hpp"

#include "engine/model/size_parse.hpp"

namespace asyncscope {

std::string DeviceInfo::computeCapability() const
{
    return std::to_string(computeMajor) + "." + std::to_string(computeMinor);
}

std::string DeviceInfo::summary() const
{
    return std::to_string(index) + ": " + name + " (sm " + computeCapability() + ", " +
        std::to_string(multiprocessors) + " SMs, " + formatBytes(totalMemoryBytes) + ")";
}

int coresPerMultiprocessor(int major, int minor)
{
    switch (major) {
    case 3: return 192;
    case 5: return 128;
    case 6: return minor == 0 ? 64 : 128;
    case 7: return 64;
    case 8: return minor == 0 ? 64 : 128;
    default: return major > 8 ? 128 : 64;
    }
}

std::optional<int> chooseDefaultDevice(const std::vector<DeviceInfo>& devices)
{
    std::optional<int> best;
    double bestThroughput = -1.0;
    for (const auto& device : devices) {
        if (device.computeProhibited)
            continue;
        const double throughput = static_cast<double>(device.multiprocessors) *
            coresPerMultiprocessor(device.computeMajor, device.computeMinor) * device.clockKHz;
        if (throughput > bestThroughput) {
            bestThroughput = throughput;
            best = device.index;
        }
    }
    return best;
}

Result<DeviceInfo> findDevice(const Platform& platform, int index)
{
    for (const auto& device : platform.devices) {
        if (device.index == index)
            return device;
    }
    std::string known;
    for (const auto& device : platform.devices)
        known += (known.empty() ? "" : ", ") + device.summary();
    const auto count = platform.devices.size();
    return makeError(ErrorKind::Usage,
        "there is no CUDA device " + std::to_string(index) + "; this machine has " + std::to_string(count) +
            (count == 1 ? " device: " : " devices: ") + known,
        "Choose one of those indices.");
}

}  // namespace asyncscope

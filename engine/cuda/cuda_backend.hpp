// The Backend that runs on CUDA: discovery (with each device's place in the host, from sysfs), the pipeline's series,
// the cached copy calibration.
#pragma once

#include "engine/cuda/copy_calibration.hpp"
#include "engine/cuda/device_discovery.hpp"
#include "engine/cuda/series_runner.hpp"
#include "engine/host/sysfs_topology.hpp"
#include "engine/run/backend.hpp"

namespace asyncscope {

class CudaBackend final : public Backend {
public:
    explicit CudaBackend(std::string sysfsRoot = kSysfsRoot)
        : m_sysfsRoot(std::move(sysfsRoot))
    {
    }

    Result<Platform> discover() override
    {
        auto platform = discoverPlatform();
        if (platform) {
            for (DeviceInfo& device : platform->devices)
                device.topology = readTopology(device.pciBusId, m_sysfsRoot);
        }
        return platform;
    }
    using Backend::run;
    Result<SeriesOutcome> run(const PipelineConfig& config, const std::atomic<bool>& cancel, const RunSink& sink,
        const SeriesReady& ready) override
    {
        return runSeries(config, cancel, sink, ready);
    }
    Result<CopyPeak> copyPeak(const DeviceInfo& device, CopyPath path) override
    {
        return cachedCopyPeak(device, defaultCacheDir(), path);
    }

private:
    std::string m_sysfsRoot;
};

}  // namespace asyncscope

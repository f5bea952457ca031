// The engine as the applications see it: discover devices, run a series. The GUI talks to this interface
// so its tests can substitute a fake; the CLI and the app use CudaBackend.
#pragma once

#include "engine/copy_calibration.hpp"
#include "engine/device_discovery.hpp"
#include "engine/series_runner.hpp"

namespace asyncscope {

class Backend {
public:
    virtual ~Backend() = default;
    virtual Result<Platform> discover() = 0;
    virtual Result<SeriesOutcome> run(const PipelineConfig& config, const std::atomic<bool>& cancel,
        const RunSink& sink) = 0;
    // This host's pinned copy peak for the device, calibrated once and cached.
    virtual Result<CopyPeak> copyPeak(const DeviceInfo& device) = 0;
};

class CudaBackend final : public Backend {
public:
    Result<Platform> discover() override { return discoverPlatform(); }
    Result<SeriesOutcome> run(const PipelineConfig& config, const std::atomic<bool>& cancel,
        const RunSink& sink) override
    {
        return runSeries(config, cancel, sink);
    }
    Result<CopyPeak> copyPeak(const DeviceInfo& device) override { return cachedCopyPeak(device, defaultCacheDir()); }
};

}  // namespace asyncscope

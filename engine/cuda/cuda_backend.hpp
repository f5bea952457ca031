// The Backend that runs on CUDA: discovery, the pipeline's series, the cached copy calibration.
#pragma once

#include "engine/cuda/copy_calibration.hpp"
#include "engine/cuda/device_discovery.hpp"
#include "engine/run/backend.hpp"

namespace asyncscope {

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

// The engine as a plan runner sees it: discover devices, calibrate a device's copies, run a series. The CUDA
// implementation is CudaBackend; tests substitute fakes.
#pragma once

#include "engine/model/copy_peak.hpp"
#include "engine/model/device.hpp"
#include "engine/run/stop_condition.hpp"

namespace asyncscope {

class Backend {
public:
    virtual ~Backend() = default;
    virtual Result<Platform> discover() = 0;
    // Runs one series, handing each run to `sink` on the calling thread, and calling `ready` (where given) once the
    // series is ready to run, before its first run. A configuration that does not fit the device's or the host's
    // memory fails with ErrorKind::TooLarge (or OutOfMemory) before any run, without calling `ready`.
    virtual Result<SeriesOutcome> run(const PipelineConfig& config, const std::atomic<bool>& cancel,
        const RunSink& sink, const SeriesReady& ready) = 0;
    Result<SeriesOutcome> run(const PipelineConfig& config, const std::atomic<bool>& cancel, const RunSink& sink)
    {
        return run(config, cancel, sink, {});
    }
    // This host's copy peak for the device along `path`, calibrated once and cached; ErrorKind::Unsupported where
    // the device cannot take that path (the variant then runs without a bound).
    virtual Result<CopyPeak> copyPeak(const DeviceInfo& device, CopyPath path) = 0;
};

}  // namespace asyncscope

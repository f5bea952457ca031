#include "gui/run_worker.hpp"

namespace asyncscope {

void registerMetaTypes()
{
    qRegisterMetaType<PipelineConfig>();
    qRegisterMetaType<RunResult>();
    qRegisterMetaType<Platform>();
    qRegisterMetaType<Error>();
    qRegisterMetaType<SeriesOutcome>();
    qRegisterMetaType<DeviceInfo>();
    qRegisterMetaType<CopyPeak>();
}

RunWorker::RunWorker(std::shared_ptr<Backend> backend, std::shared_ptr<std::atomic<bool>> cancel)
    : m_backend(std::move(backend))
    , m_cancel(std::move(cancel))
{
}

void RunWorker::discover()
{
    auto platform = m_backend->discover();
    if (platform)
        emit devicesAvailable(*platform);
    else
        emit discoveryFailed(platform.error());
}

void RunWorker::calibrate(const DeviceInfo& device)
{
    auto peak = m_backend->copyPeak(device);
    if (peak)
        emit copyPeakAvailable(device, *peak);
    else
        emit calibrationFailed(peak.error());
}

void RunWorker::run(const PipelineConfig& config)
{
    auto outcome = m_backend->run(config, *m_cancel, [this](const RunResult& result) { emit runAvailable(result); });
    if (outcome)
        emit seriesFinished(*outcome);
    else
        emit seriesFailed(outcome.error());
}

}  // namespace asyncscope

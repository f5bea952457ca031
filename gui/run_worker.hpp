// Lives on the run thread and owns everything CUDA: discovery and series run there, never on the GUI thread.
#pragma once

#include "gui/metatypes.hpp"

#include "engine/backend.hpp"

#include <QObject>

#include <atomic>
#include <memory>

namespace asyncscope {

class RunWorker : public QObject {
    Q_OBJECT
public:
    RunWorker(std::shared_ptr<Backend> backend, std::shared_ptr<std::atomic<bool>> cancel);

public slots:
    void discover();
    void run(const asyncscope::PipelineConfig& config);
    void calibrate(const asyncscope::DeviceInfo& device);

signals:
    void devicesAvailable(const asyncscope::Platform& platform);
    void discoveryFailed(const asyncscope::Error& error);
    void runAvailable(const asyncscope::RunResult& result);
    void seriesFinished(const asyncscope::SeriesOutcome& outcome);
    void seriesFailed(const asyncscope::Error& error);
    void copyPeakAvailable(const asyncscope::DeviceInfo& device, const asyncscope::CopyPeak& peak);
    void calibrationFailed(const asyncscope::Error& error);

private:
    std::shared_ptr<Backend> m_backend;
    std::shared_ptr<std::atomic<bool>> m_cancel;
};

}  // namespace asyncscope

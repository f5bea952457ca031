// Lives on the run thread and owns everything CUDA: discovery and plans run there, never on the GUI thread.
#pragma once

#include "gui/session/metatypes.hpp"

#include "engine/run/backend.hpp"

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
    void run(const asyncscope::Plan& plan, const asyncscope::Platform& platform);

signals:
    void devicesAvailable(const asyncscope::Platform& platform);
    void discoveryFailed(const asyncscope::Error& error);
    void variantStarting(int index, const asyncscope::VariantResult& variant);
    void runAvailable(int index, const asyncscope::RunResult& result);
    void variantEnded(int index, const asyncscope::VariantResult& variant);
    void calibrationFailed(const asyncscope::Error& error);
    void planFinished(const asyncscope::PlanReport& report);

private:
    std::shared_ptr<Backend> m_backend;
    std::shared_ptr<std::atomic<bool>> m_cancel;
};

}  // namespace asyncscope

// Owns the run thread (WorkerThread) and its worker. The GUI thread asks; results come back as queued signals, one
// per run.
#pragma once

#include "gui/session/metatypes.hpp"
#include "gui/session/worker_thread.hpp"

#include "engine/run/backend.hpp"

#include <memory>

namespace asyncscope {

class RunWorker;

class RunController : public WorkerThread {
    Q_OBJECT
public:
    explicit RunController(std::shared_ptr<Backend> backend, QObject* parent = nullptr);

    void discover();
    // Starts a plan on the run thread; refused (false) while one is running. cancel() stops it within one poll of
    // the current run.
    bool start(const Plan& plan, const Platform& platform);

signals:
    void devicesAvailable(const asyncscope::Platform& platform);
    void discoveryFailed(const asyncscope::Error& error);
    void variantStarting(int index, const asyncscope::VariantResult& variant);
    void runAvailable(int index, const asyncscope::RunResult& result);
    void variantEnded(int index, const asyncscope::VariantResult& variant);
    void calibrationFailed(const asyncscope::Error& error);
    void planFinished(const asyncscope::PlanReport& report);  // however it ended: done, failed or cancelled

private:
    RunWorker* m_worker;  // lives on the run thread; deleted when it finishes
};

}  // namespace asyncscope

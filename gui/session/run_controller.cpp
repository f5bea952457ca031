#include "gui/session/run_controller.hpp"

#include "gui/session/run_worker.hpp"

namespace asyncscope {

RunController::RunController(std::shared_ptr<Backend> backend, QObject* parent)
    : WorkerThread(QStringLiteral("AsyncScope run"), parent)
    , m_worker(new RunWorker(std::move(backend), cancelFlag()))
{
    registerMetaTypes();
    connect(m_worker, &RunWorker::devicesAvailable, this, &RunController::devicesAvailable);
    connect(m_worker, &RunWorker::discoveryFailed, this, &RunController::discoveryFailed);
    connect(m_worker, &RunWorker::variantStarting, this, &RunController::variantStarting);
    connect(m_worker, &RunWorker::runAvailable, this, &RunController::runAvailable);
    connect(m_worker, &RunWorker::variantEnded, this, &RunController::variantEnded);
    connect(m_worker, &RunWorker::calibrationFailed, this, &RunController::calibrationFailed);
    connect(m_worker, &RunWorker::planFinished, this, [this](const PlanReport& report) {
        workEnded();
        emit planFinished(report);
    });
    adopt(m_worker);
}

void RunController::discover()
{
    invoke([worker = m_worker] { worker->discover(); });
}

bool RunController::start(const Plan& plan, const Platform& platform)
{
    return startWork([worker = m_worker, plan, platform] { worker->run(plan, platform); });
}

}  // namespace asyncscope

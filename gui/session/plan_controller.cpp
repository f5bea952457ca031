#include "gui/session/plan_controller.hpp"

#include "gui/session/plan_worker.hpp"

namespace asyncscope {

PlanController::PlanController(std::shared_ptr<Backend> backend, QObject* parent)
    : WorkerThread(QStringLiteral("AsyncScope run"), parent)
    , m_worker(new PlanWorker(std::move(backend), cancelFlag()))
{
    registerMetaTypes();
    // Queued whatever thread emits: the run thread, or a device's worker thread.
    constexpr auto queued = Qt::QueuedConnection;
    connect(m_worker, &PlanWorker::devicesAvailable, this, &PlanController::devicesAvailable, queued);
    connect(m_worker, &PlanWorker::discoveryFailed, this, &PlanController::discoveryFailed, queued);
    connect(m_worker, &PlanWorker::deviceStarting, this, &PlanController::deviceStarting, queued);
    connect(m_worker, &PlanWorker::variantStarting, this, &PlanController::variantStarting, queued);
    connect(m_worker, &PlanWorker::runsAvailable, this, &PlanController::runsAvailable, queued);
    connect(m_worker, &PlanWorker::variantEnded, this, &PlanController::variantEnded, queued);
    connect(m_worker, &PlanWorker::calibrationFailed, this, &PlanController::calibrationFailed, queued);
    connect(m_worker, &PlanWorker::deviceEnded, this, &PlanController::deviceEnded, queued);
    connect(m_worker, &PlanWorker::hostFinished, this, [this](const HostReport& host) {
        workEnded();
        emit hostFinished(host);
    }, queued);
    adopt(m_worker);
}

void PlanController::discover()
{
    invoke([worker = m_worker] { worker->discover(); });
}

bool PlanController::start(const DevicePlan& plan, const Platform& platform, Delivery delivery)
{
    const bool batches = delivery == Delivery::Batches;
    return startWork([worker = m_worker, plan, platform, batches] { worker->run(plan, platform, batches); });
}

}  // namespace asyncscope

#include "gui/session/plan_controller.hpp"

#include "gui/session/plan_worker.hpp"

#include <type_traits>

namespace asyncscope {

template <class... Args>
void PlanController::relay(void (PlanWorker::*from)(Args...), void (PlanController::*to)(Args...))
{
    // Queued whatever thread emits: the run thread, or a device's worker thread.
    bool batch = false;
    if constexpr (std::is_same_v<decltype(to), decltype(&PlanController::runsAvailable)>)
        batch = to == &PlanController::runsAvailable;
    connect(m_worker, from, this, [this, to, batch](Args... args) {
        queue({ [this, to, args...] { emit (this->*to)(args...); }, batch });
    }, Qt::QueuedConnection);
}

PlanController::PlanController(std::shared_ptr<Backend> backend, QObject* parent)
    : WorkerThread(QStringLiteral("AsyncScope run"), parent)
    , m_worker(new PlanWorker(std::move(backend), cancelFlag()))
{
    registerMetaTypes();
    relay(&PlanWorker::devicesAvailable, &PlanController::devicesAvailable);
    relay(&PlanWorker::discoveryFailed, &PlanController::discoveryFailed);
    relay(&PlanWorker::deviceStarting, &PlanController::deviceStarting);
    relay(&PlanWorker::variantStarting, &PlanController::variantStarting);
    relay(&PlanWorker::runsAvailable, &PlanController::runsAvailable);
    relay(&PlanWorker::variantEnded, &PlanController::variantEnded);
    relay(&PlanWorker::calibrationFailed, &PlanController::calibrationFailed);
    relay(&PlanWorker::deviceEnded, &PlanController::deviceEnded);
    connect(m_worker, &PlanWorker::hostFinished, this, [this](const HostReport& host) {
        queue({ [this, host] {
                   workEnded();
                   emit hostFinished(host);
               },
            false });
    }, Qt::QueuedConnection);
    adopt(m_worker);
}

void PlanController::queue(Due due)
{
    m_due.push_back(std::move(due));
    deliver();
}

void PlanController::deliver()
{
    // Signals queued from the worker all arrive in one pass over the posted events; a batch handed on costs the
    // window a copy of its runs and a read of them by the views. One batch a turn lets the timers, the input and
    // the painting queued behind it come first.
    if (m_deliveryPosted)
        return;
    m_deliveryPosted = true;
    QMetaObject::invokeMethod(this, [this] {
        m_deliveryPosted = false;
        bool batch = false;
        while (!m_due.empty() && !batch) {
            const Due next = std::move(m_due.front());
            m_due.pop_front();
            batch = next.batch;
            next.call();
        }
        if (!m_due.empty())
            deliver();
    }, Qt::QueuedConnection);
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

void PlanController::setMachineProbe(std::shared_ptr<MachineProbe> probe)
{
    // On the run thread, in order with the plans: the one running keeps the probe it started with.
    invoke([worker = m_worker, probe = std::move(probe)] { worker->setMachineProbe(probe); });
}

}  // namespace asyncscope

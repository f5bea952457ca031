#include "gui/session/plan_controller.hpp"

#include "gui/session/plan_worker.hpp"


namespace asyncscope {

PlanController::PlanController(std::shared_ptr<Backend> backend, QObject* parent)
    : WorkerThread(QStringLiteral("AsyncScope run"), parent)
    , m_worker(new PlanWorker(std::move(backend), cancelFlag(),
          [this](std::function<void(PlanController&)> signal, bool batch) {
              // Queued to this object's thread whatever thread tells: the run thread, or a device's worker thread.
              QMetaObject::invokeMethod(this, [this, signal = std::move(signal), batch] {
                  queue({ [this, signal] { signal(*this); }, batch });
              }, Qt::QueuedConnection);
          }))
{
    registerMetaTypes();
    adopt(m_worker);
}

void PlanController::finish(const HostReport& host)
{
    workEnded();
    emit hostFinished(host);
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

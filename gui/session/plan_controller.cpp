#include "gui/session/plan_controller.hpp"

#include "gui/session/plan_worker.hpp"

#include "engine/host/nvml_probe.hpp"

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
    , m_machine(std::make_shared<NvmlProbe>())
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
    // The probe goes with the plan: one set later serves the next plan, never the one running.
    return startWork([worker = m_worker, plan, platform, batches, machine = m_machine] {
        worker->run(plan, platform, batches, machine.get());
    });
}

}  // namespace asyncscope

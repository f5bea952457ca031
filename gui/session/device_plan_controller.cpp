#include "gui/session/device_plan_controller.hpp"

#include "engine/run/device_plan_runner.hpp"

namespace asyncscope {

namespace {

// Hands each device's end to the worker's signal; Qt queues it to the GUI thread whichever thread emits it.
class EndedSink final : public DevicePlanSink {
public:
    explicit EndedSink(DevicePlanWorker& worker)
        : m_worker(worker)
    {
    }
    void deviceEnded(const DeviceResult& result) override { emit m_worker.deviceEnded(result); }

private:
    DevicePlanWorker& m_worker;
};

}  // namespace

DevicePlanController::DevicePlanController(std::shared_ptr<Backend> backend, QObject* parent)
    : WorkerThread(QStringLiteral("AsyncScope GPUs"), parent)
    , m_worker(new DevicePlanWorker(std::move(backend), cancelFlag()))
{
    registerMetaTypes();
    qRegisterMetaType<DeviceResult>();
    qRegisterMetaType<HostReport>();
    connect(m_worker, &DevicePlanWorker::deviceEnded, this, &DevicePlanController::deviceEnded, Qt::QueuedConnection);
    connect(m_worker, &DevicePlanWorker::hostFinished, this, [this](const HostReport& host) {
        workEnded();
        emit hostFinished(host);
    }, Qt::QueuedConnection);
    adopt(m_worker);
}

bool DevicePlanController::start(const DevicePlan& plan, const Platform& platform)
{
    return startWork([worker = m_worker, plan, platform] { worker->run(plan, platform); });
}

DevicePlanWorker::DevicePlanWorker(std::shared_ptr<Backend> backend, std::shared_ptr<std::atomic<bool>> cancel)
    : m_backend(std::move(backend))
    , m_cancel(std::move(cancel))
{
}

void DevicePlanWorker::run(const DevicePlan& plan, const Platform& platform)
{
    EndedSink sink(*this);
    emit hostFinished(runDevicePlan(*m_backend, platform, plan, *m_cancel, sink));
}

}  // namespace asyncscope

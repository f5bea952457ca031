#include "gui/device_plan_controller.hpp"

#include "engine/run/device_plan_runner.hpp"

#include <QDebug>

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
    : QObject(parent)
    , m_thread(new QThread)
    , m_cancel(std::make_shared<std::atomic<bool>>(false))
{
    registerMetaTypes();
    qRegisterMetaType<DeviceResult>();
    qRegisterMetaType<HostReport>();
    m_thread->setObjectName("AsyncScope GPUs");
    m_worker = new DevicePlanWorker(std::move(backend), m_cancel);
    m_worker->moveToThread(m_thread);
    connect(m_thread, &QThread::finished, m_worker, &QObject::deleteLater);
    connect(m_worker, &DevicePlanWorker::deviceEnded, this, &DevicePlanController::deviceEnded, Qt::QueuedConnection);
    connect(m_worker, &DevicePlanWorker::hostFinished, this, [this](const HostReport& host) {
        m_running = false;
        emit hostFinished(host);
    }, Qt::QueuedConnection);
    m_thread->start();
}

DevicePlanController::~DevicePlanController()
{
    if (shutdown()) {
        delete m_thread;
        return;
    }
    // A device did not return within the bound (a hung GPU): a running QThread cannot be destroyed, so the thread
    // and its worker are left to end with the process.
    qWarning("AsyncScope: the GPUs' run thread did not stop in time; leaving it to finish on its own");
}

bool DevicePlanController::start(const DevicePlan& plan, const Platform& platform)
{
    if (m_running || !m_worker || !m_thread->isRunning())
        return false;
    m_running = true;
    m_cancel->store(false);
    QMetaObject::invokeMethod(
        m_worker, [worker = m_worker.data(), plan, platform] { worker->run(plan, platform); }, Qt::QueuedConnection);
    return true;
}

void DevicePlanController::cancel()
{
    m_cancel->store(true);
}

bool DevicePlanController::shutdown(unsigned long timeoutMs)
{
    cancel();
    m_thread->quit();
    return m_thread->wait(QDeadlineTimer(static_cast<qint64>(timeoutMs)));
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

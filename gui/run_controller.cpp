#include "gui/run_controller.hpp"

#include "gui/run_worker.hpp"

#include <QDebug>

namespace asyncscope {

RunController::RunController(std::shared_ptr<Backend> backend, QObject* parent)
    : QObject(parent)
    , m_thread(new QThread)
    , m_cancel(std::make_shared<std::atomic<bool>>(false))
{
    registerMetaTypes();
    m_thread->setObjectName("AsyncScope run");
    m_worker = new RunWorker(std::move(backend), m_cancel);
    m_worker->moveToThread(m_thread);
    connect(m_thread, &QThread::finished, m_worker, &QObject::deleteLater);

    connect(m_worker, &RunWorker::devicesAvailable, this, &RunController::devicesAvailable);
    connect(m_worker, &RunWorker::discoveryFailed, this, &RunController::discoveryFailed);
    connect(m_worker, &RunWorker::variantStarting, this, &RunController::variantStarting);
    connect(m_worker, &RunWorker::runAvailable, this, &RunController::runAvailable);
    connect(m_worker, &RunWorker::variantEnded, this, &RunController::variantEnded);
    connect(m_worker, &RunWorker::calibrationFailed, this, &RunController::calibrationFailed);
    connect(m_worker, &RunWorker::planFinished, this, [this](const PlanReport& report) {
        m_running = false;
        emit planFinished(report);
    });
    m_thread->start();
}

RunController::~RunController()
{
    if (shutdown()) {
        delete m_thread;
        return;
    }
    // The GPU did not return within the bound (a hung device). Destroying a running QThread would crash, so the
    // thread and its worker are left to end with the process.
    qWarning("AsyncScope: the run thread did not stop in time; leaving it to finish on its own");
}

void RunController::discover()
{
    if (m_worker && m_thread->isRunning())
        QMetaObject::invokeMethod(m_worker, &RunWorker::discover, Qt::QueuedConnection);
}

bool RunController::start(const Plan& plan, const Platform& platform)
{
    if (m_running || !m_worker || !m_thread->isRunning())
        return false;
    m_running = true;
    m_cancel->store(false);
    QMetaObject::invokeMethod(
        m_worker, [worker = m_worker.data(), plan, platform] { worker->run(plan, platform); }, Qt::QueuedConnection);
    return true;
}

void RunController::cancel()
{
    m_cancel->store(true);
}

bool RunController::shutdown(unsigned long timeoutMs)
{
    cancel();
    m_thread->quit();
    return m_thread->wait(QDeadlineTimer(static_cast<qint64>(timeoutMs)));
}

}  // namespace asyncscope

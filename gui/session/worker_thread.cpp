#include "gui/session/worker_thread.hpp"

#include <QDebug>
#include <QDeadlineTimer>

namespace asyncscope {

WorkerThread::WorkerThread(const QString& name, QObject* parent)
    : QObject(parent)
    , m_thread(new QThread)
    , m_cancel(std::make_shared<std::atomic<bool>>(false))
{
    m_thread->setObjectName(name);
}

WorkerThread::~WorkerThread()
{
    if (shutdown()) {
        delete m_thread;
        return;
    }
    qWarning("AsyncScope: the thread \"%s\" did not stop in time; leaving it to finish on its own",
        qPrintable(m_thread->objectName()));
}

void WorkerThread::adopt(QObject* worker)
{
    m_worker = worker;
    worker->moveToThread(m_thread);
    connect(m_thread, &QThread::finished, worker, &QObject::deleteLater);
    m_thread->start();
}

bool WorkerThread::invoke(std::function<void()> call)
{
    if (!m_worker || !m_thread->isRunning())
        return false;
    QMetaObject::invokeMethod(m_worker, std::move(call), Qt::QueuedConnection);
    return true;
}

bool WorkerThread::startWork(std::function<void()> work)
{
    if (m_running)
        return false;
    m_cancel->store(false);
    m_running = invoke(std::move(work));
    return m_running;
}

void WorkerThread::cancel()
{
    m_cancel->store(true);
}

bool WorkerThread::shutdown(unsigned long timeoutMs)
{
    cancel();
    m_thread->quit();
    return m_thread->wait(QDeadlineTimer(static_cast<qint64>(timeoutMs)));
}

}  // namespace asyncscope

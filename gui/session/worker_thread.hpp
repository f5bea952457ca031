// A thread of its own for work the GUI thread asks for: it owns the QThread and the worker object living on it, the
// cancel flag the work polls, and whether work is under way. Closing cancels and waits (bounded) for the thread; one
// that will not stop (a hung GPU) is left to end with the process, never destroyed while it runs. PlanController
// is the kind the window runs its plans on.
#pragma once

#include <QObject>
#include <QPointer>
#include <QThread>

#include <atomic>
#include <functional>
#include <memory>

namespace asyncscope {

class WorkerThread : public QObject {
    Q_OBJECT
public:
    ~WorkerThread() override;  // cancels and waits (bounded) for the thread

    bool isRunning() const { return m_running; }
    // Asks the work under way to stop: it polls the flag between (or within) its runs.
    void cancel();
    // Cancels, stops the thread and waits up to `timeoutMs`. True when the thread has ended.
    bool shutdown(unsigned long timeoutMs = 10000);

protected:
    // The thread is named `name` (as debuggers and `top -H` show it).
    WorkerThread(const QString& name, QObject* parent);

    // Moves `worker` onto the thread, which deletes it when it finishes, and starts the thread. Once, from the
    // constructor of the kind.
    void adopt(QObject* worker);
    // Calls `call` on the thread; false when the thread has gone.
    bool invoke(std::function<void()> call);
    // Starts `work` on the thread, under way until workEnded(); refused (false) while other work is.
    bool startWork(std::function<void()> work);
    void workEnded() { m_running = false; }
    const std::shared_ptr<std::atomic<bool>>& cancelFlag() const { return m_cancel; }

private:
    QThread* m_thread;  // on the heap: a thread that will not stop is left running, never destroyed
    QPointer<QObject> m_worker;
    std::shared_ptr<std::atomic<bool>> m_cancel;
    bool m_running = false;
};

}  // namespace asyncscope

// Owns the run thread and its worker. The GUI thread asks; results come back as queued signals, one per run.
#pragma once

#include "gui/metatypes.hpp"

#include "engine/run/backend.hpp"

#include <QObject>
#include <QPointer>
#include <QThread>

#include <atomic>
#include <memory>

namespace asyncscope {

class RunWorker;

class RunController : public QObject {
    Q_OBJECT
public:
    explicit RunController(std::shared_ptr<Backend> backend, QObject* parent = nullptr);
    ~RunController() override;  // cancels and waits (bounded) for the run thread

    void discover();
    // Starts a plan on the run thread; refused (false) while one is running.
    bool start(const Plan& plan, const Platform& platform);
    // Asks the running plan to stop: within one poll of the current run.
    void cancel();
    bool isRunning() const { return m_running; }

    // Cancels, stops the thread and waits up to `timeoutMs`. True when the thread has ended.
    bool shutdown(unsigned long timeoutMs = 10000);

signals:
    void devicesAvailable(const asyncscope::Platform& platform);
    void discoveryFailed(const asyncscope::Error& error);
    void variantStarting(int index, const asyncscope::VariantResult& variant);
    void runAvailable(int index, const asyncscope::RunResult& result);
    void variantEnded(int index, const asyncscope::VariantResult& variant);
    void calibrationFailed(const asyncscope::Error& error);
    void planFinished(const asyncscope::PlanReport& report);  // however it ended: done, failed or cancelled

private:
    QThread* m_thread;              // on the heap: a thread that will not stop is left running, never destroyed
    QPointer<RunWorker> m_worker;   // lives on m_thread; deleted when the thread finishes
    std::shared_ptr<std::atomic<bool>> m_cancel;
    bool m_running = false;
};

}  // namespace asyncscope

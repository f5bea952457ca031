// Runs a plan over several GPUs (engine/run/device_plan_runner.hpp) off the GUI thread, as RunController runs one
// device's plan: a run thread of its own calls runDevicePlan, which starts a worker thread per device; what they
// report comes back to the GUI thread as queued signals. One cancel stops every device.
#pragma once

#include "gui/metatypes.hpp"

#include "engine/run/backend.hpp"
#include "engine/run/device_plan.hpp"

#include <QObject>
#include <QPointer>
#include <QThread>

#include <atomic>
#include <memory>

Q_DECLARE_METATYPE(asyncscope::DeviceResult)
Q_DECLARE_METATYPE(asyncscope::HostReport)

namespace asyncscope {

class DevicePlanWorker;

class DevicePlanController : public QObject {
    Q_OBJECT
public:
    explicit DevicePlanController(std::shared_ptr<Backend> backend, QObject* parent = nullptr);
    ~DevicePlanController() override;  // cancels and waits (bounded) for the run thread

    // Starts the plan on the run thread; refused (false) while one is running.
    bool start(const DevicePlan& plan, const Platform& platform);
    // Asks every device to stop: within one poll of each device's current run.
    void cancel();
    bool isRunning() const { return m_running; }
    // Cancels, stops the thread and waits up to `timeoutMs`. True when the thread has ended.
    bool shutdown(unsigned long timeoutMs = 10000);

signals:
    void deviceEnded(const asyncscope::DeviceResult& result);
    void hostFinished(const asyncscope::HostReport& host);  // however it ended: done, failed or cancelled

private:
    QThread* m_thread;  // on the heap: a thread that will not stop is left running, never destroyed
    QPointer<DevicePlanWorker> m_worker;
    std::shared_ptr<std::atomic<bool>> m_cancel;
    bool m_running = false;
};

// Lives on the controller's run thread.
class DevicePlanWorker : public QObject {
    Q_OBJECT
public:
    DevicePlanWorker(std::shared_ptr<Backend> backend, std::shared_ptr<std::atomic<bool>> cancel);

public slots:
    void run(const asyncscope::DevicePlan& plan, const asyncscope::Platform& platform);

signals:
    // Emitted from the devices' worker threads, several at once with DeviceMode::AllAtOnce: connected queued.
    void deviceEnded(const asyncscope::DeviceResult& result);
    void hostFinished(const asyncscope::HostReport& host);

private:
    std::shared_ptr<Backend> m_backend;
    std::shared_ptr<std::atomic<bool>> m_cancel;
};

}  // namespace asyncscope

// Runs a plan over several GPUs (engine/run/device_plan_runner.hpp) off the GUI thread, as RunController runs one
// device's plan: a run thread of its own calls runDevicePlan, which starts a worker thread per device; what they
// report comes back to the GUI thread as queued signals. One cancel stops every device.
#pragma once

#include "gui/session/metatypes.hpp"
#include "gui/session/worker_thread.hpp"

#include "engine/run/backend.hpp"
#include "engine/run/device_plan.hpp"

#include <atomic>
#include <memory>

Q_DECLARE_METATYPE(asyncscope::DeviceResult)
Q_DECLARE_METATYPE(asyncscope::HostReport)

namespace asyncscope {

class DevicePlanWorker;

class DevicePlanController : public WorkerThread {
    Q_OBJECT
public:
    explicit DevicePlanController(std::shared_ptr<Backend> backend, QObject* parent = nullptr);

    // Starts the plan on the run thread; refused (false) while one is running. cancel() stops every device within
    // one poll of its current run.
    bool start(const DevicePlan& plan, const Platform& platform);

signals:
    void deviceEnded(const asyncscope::DeviceResult& result);
    void hostFinished(const asyncscope::HostReport& host);  // however it ended: done, failed or cancelled

private:
    DevicePlanWorker* m_worker;  // lives on the run thread; deleted when it finishes
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

// The window's one run thread (WorkerThread) and its worker: device discovery, and every plan the window runs — a
// series, a comparison, the All GPUs run — through the CLI's runner (runDevicePlan), bound to the GPU's local CPUs
// as asked. The GUI thread asks; what happens comes back as queued signals, the runs in batches.
#pragma once

#include "gui/session/metatypes.hpp"
#include "gui/session/worker_thread.hpp"

#include "engine/run/backend.hpp"
#include "engine/run/device_plan.hpp"

#include <memory>

namespace asyncscope {

class PlanWorker;

class PlanController : public WorkerThread {
    Q_OBJECT
public:
    // How a plan's runs come back.
    enum class Delivery {
        Batches,    // runsAvailable() in batches as they are made; the variants and the host's record hold none
        PerDevice,  // each device's runs in its record (deviceEnded): the All GPUs tab's side-by-side
    };

    explicit PlanController(std::shared_ptr<Backend> backend, QObject* parent = nullptr);

    void discover();
    // Starts the plan on the run thread; refused (false) while one is running. cancel() stops every device within
    // one poll of its current run.
    bool start(const DevicePlan& plan, const Platform& platform, Delivery delivery);

signals:
    void devicesAvailable(const asyncscope::Platform& platform);
    void discoveryFailed(const asyncscope::Error& error);
    // A device's worker thread started, bound to its local CPUs or not (`binding` says which, or why not).
    void deviceStarting(const asyncscope::DeviceInfo& device, const asyncscope::CpuBinding& binding);
    // Delivery::Batches only: each variant's start and end (with no runs), and the runs between, in order.
    void variantStarting(int device, int index, const asyncscope::VariantResult& variant);
    void runsAvailable(int device, int index, const asyncscope::RunBatch& runs);
    void variantEnded(int device, int index, const asyncscope::VariantResult& variant);
    void calibrationFailed(const asyncscope::Error& error);
    void deviceEnded(const asyncscope::DeviceResult& result);
    void hostFinished(const asyncscope::HostReport& host);  // however it ended: done, failed or cancelled

private:
    PlanWorker* m_worker;  // lives on the run thread; deleted when it finishes
};

}  // namespace asyncscope

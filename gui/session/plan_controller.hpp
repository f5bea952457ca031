// The window's one run thread (WorkerThread) and its worker: device discovery, and every plan the window runs — a
// series, a comparison, the All GPUs run — through the CLI's runner (runDevicePlan), bound to the GPU's local CPUs
// as asked. The GUI thread asks; what happens comes back as queued signals, the runs in batches. Those signals are
// handed on in the order they came, one batch per turn of the GUI thread's event loop: a run thread that makes runs
// faster than the window takes them (a million a second) leaves the window's drawing behind, never its input and
// painting, which come between any two batches.
#pragma once

#include "gui/session/metatypes.hpp"
#include "gui/session/worker_thread.hpp"

#include "engine/host/machine_probe.hpp"
#include "engine/run/backend.hpp"
#include "engine/run/device_plan.hpp"

#include <deque>
#include <functional>
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
    // Every plan started after this reads the machine's state around each series (the advice's interference, clocks
    // and link rules) through `probe` in place of NVML, which the run thread loads at its first plan otherwise; null:
    // the state is not read. Tests give a fake.
    void setMachineProbe(std::shared_ptr<MachineProbe> probe);

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
    friend class PlanWorker;

    struct Due {
        std::function<void()> call;
        bool batch;  // a batch of runs: the last thing handed on in a turn of the event loop
    };

    // The plan's end: the thread takes other work again, and hostFinished() tells.
    void finish(const HostReport& host);
    void queue(Due due);
    // Emits what came, in order, up to and with the first batch of runs; what is left waits for the next turn of the
    // event loop.
    void deliver();

    PlanWorker* m_worker;  // lives on the run thread; deleted when it finishes
    std::deque<Due> m_due;  // what came from the worker and is not handed on yet
    bool m_deliveryPosted = false;
};

}  // namespace asyncscope

// Lives on the run thread and owns everything CUDA: discovery and plans run there (and on the devices' threads the
// runner starts), never on the GUI thread. Runs are handed over in batches of at most kBatchRuns runs: a batch
// leaves when it is full or kBatchInterval after the last one left (a run that comes later than that goes at once),
// and the runs left go before each variant's end. It reads the machine's state around every series through one probe,
// made once, on the run thread, when the first plan starts (NVML's initialisation can take a while on a large host).
// What happens it tells its PlanController as calls that emit the controller's signals (declared there, once).
#pragma once

#include "gui/session/metatypes.hpp"

#include "engine/host/machine_probe.hpp"
#include "engine/run/backend.hpp"
#include "engine/run/device_plan.hpp"

#include <QObject>

#include <atomic>
#include <chrono>
#include <functional>
#include <memory>

namespace asyncscope {

class PlanController;

class PlanWorker : public QObject {
    Q_OBJECT
public:
    static constexpr std::chrono::milliseconds kBatchInterval { 50 };
    static constexpr std::size_t kBatchRuns = 8192;

    // Hands `signal` (a call that emits one of the controller's signals) over to the controller, in order, from
    // whichever thread it is made on: the run thread, or a device's worker thread. `batch`: it carries runs.
    using Tell = std::function<void(std::function<void(PlanController&)> signal, bool batch)>;

    PlanWorker(std::shared_ptr<Backend> backend, std::shared_ptr<std::atomic<bool>> cancel, Tell tell);

    void discover();
    // `batches`: runs come as runsAvailable() and the runner keeps none; otherwise each device's record holds its.
    void run(const DevicePlan& plan, const Platform& platform, bool batches);
    // What reads the machine's state around each series from now on, in place of NVML; null: nothing does.
    void setMachineProbe(std::shared_ptr<MachineProbe> probe);

    void tell(std::function<void(PlanController&)> signal, bool batch = false) const
    {
        m_tell(std::move(signal), batch);
    }

private:
    std::shared_ptr<Backend> m_backend;
    std::shared_ptr<std::atomic<bool>> m_cancel;
    Tell m_tell;
    std::shared_ptr<MachineProbe> m_machine;
    bool m_machineChosen = false;  // by setMachineProbe(), or NVML's made at the first plan
};

}  // namespace asyncscope

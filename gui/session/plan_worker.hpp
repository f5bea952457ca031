// Lives on the run thread and owns everything CUDA: discovery and plans run there (and on the devices' threads the
// runner starts), never on the GUI thread. Runs are handed over in batches of at most kBatchRuns runs: a batch
// leaves when it is full or kBatchInterval after the last one left (a run that comes later than that goes at once),
// and the runs left go before each variant's end. It reads the machine's state around every series through one probe,
// made once, on the run thread, when the first plan starts (NVML's initialisation can take a while on a large host).
#pragma once

#include "gui/session/metatypes.hpp"

#include "engine/host/machine_probe.hpp"
#include "engine/run/backend.hpp"
#include "engine/run/device_plan.hpp"

#include <QObject>

#include <atomic>
#include <chrono>
#include <memory>

namespace asyncscope {

class PlanWorker : public QObject {
    Q_OBJECT
public:
    static constexpr std::chrono::milliseconds kBatchInterval { 50 };
    static constexpr std::size_t kBatchRuns = 8192;

    PlanWorker(std::shared_ptr<Backend> backend, std::shared_ptr<std::atomic<bool>> cancel);

    void discover();
    // `batches`: runs come as runsAvailable() and the runner keeps none; otherwise each device's record holds its.
    void run(const DevicePlan& plan, const Platform& platform, bool batches);
    // What reads the machine's state around each series from now on, in place of NVML; null: nothing does.
    void setMachineProbe(std::shared_ptr<MachineProbe> probe);

signals:
    // Emitted from the devices' threads, several at once with DeviceMode::AllAtOnce: connected queued.
    void devicesAvailable(const asyncscope::Platform& platform);
    void discoveryFailed(const asyncscope::Error& error);
    void deviceStarting(const asyncscope::DeviceInfo& device, const asyncscope::CpuBinding& binding);
    void variantStarting(int device, int index, const asyncscope::VariantResult& variant);
    void runsAvailable(int device, int index, const asyncscope::RunBatch& runs);
    void variantEnded(int device, int index, const asyncscope::VariantResult& variant);
    void calibrationFailed(const asyncscope::Error& error);
    void deviceEnded(const asyncscope::DeviceResult& result);
    void hostFinished(const asyncscope::HostReport& host);

private:
    std::shared_ptr<Backend> m_backend;
    std::shared_ptr<std::atomic<bool>> m_cancel;
    std::shared_ptr<MachineProbe> m_machine;
    bool m_machineChosen = false;  // by setMachineProbe(), or NVML's made at the first plan
};

}  // namespace asyncscope

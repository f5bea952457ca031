#include "gui/session/plan_worker.hpp"

#include "gui/session/plan_controller.hpp"

#include "engine/host/nvml_probe.hpp"
#include "engine/model/memory_return.hpp"
#include "engine/model/series_summarizer.hpp"
#include "engine/run/device_plan_runner.hpp"

#include <map>
#include <mutex>

namespace asyncscope {

namespace {

// Turns the runner's calls into the controller's signals, gathering each device's runs into batches, each with the
// summary of its variant's runs so far: summarised here, on the run thread, not on the GUI thread.
class BatchingSink final : public DevicePlanSink {
public:
    BatchingSink(PlanWorker& worker, bool batches)
        : m_worker(worker)
        , m_batches(batches)
    {
    }

    void deviceStarting(const DeviceInfo& device, const CpuBinding& binding) override
    {
        m_worker.tell([device, binding](PlanController& c) { emit c.deviceStarting(device, binding); });
    }
    void variantStarting(int device, std::size_t index, const VariantResult& v) override
    {
        if (!m_batches)
            return;
        {
            std::unique_lock lock(m_mutex);
            Pending& p = m_pending[device];
            const PipelineConfig& c = v.report.config;
            p.summarizer.reset(c, v.report.peak);
            if (c.stopRule == StopRule::Fixed)
                p.summarizer.reserve(std::size_t(c.runs));
        }
        m_worker.tell([device, index, v](PlanController& c) { emit c.variantStarting(device, int(index), v); });
    }
    void runAvailable(int device, std::size_t index, const RunResult& run) override
    {
        if (!m_batches)
            return;
        std::unique_lock lock(m_mutex);
        Pending& p = m_pending[device];
        if (p.runs && p.variant != index)
            flush(device, p);
        if (!p.runs) {
            p.runs = std::make_shared<Batch>();
            p.variant = index;
        }
        p.runs->runs.push_back(run);
        p.summarizer.add(p.runs->runs, p.runs->runs.size() - 1);
        // A run that comes a batch interval after the last batch left goes at once (a slow series' runs show as
        // they come); runs that come faster wait for the interval, or for the batch to fill.
        if (p.runs->runs.size() >= PlanWorker::kBatchRuns ||
            std::chrono::steady_clock::now() - p.lastFlush >= PlanWorker::kBatchInterval)
            flush(device, p);
    }
    void variantEnded(int device, std::size_t index, const VariantResult& v) override
    {
        if (!m_batches)
            return;
        flushDevice(device);
        m_worker.tell([device, index, v](PlanController& c) { emit c.variantEnded(device, int(index), v); });
    }
    void calibrationFailed(int, const Error& error) override
    {
        m_worker.tell([error](PlanController& c) { emit c.calibrationFailed(error); });
    }
    void deviceEnded(const DeviceResult& result) override
    {
        flushDevice(result.device.index);
        m_worker.tell([result](PlanController& c) { emit c.deviceEnded(result); });
    }

private:
    struct Pending {
        RunBatch runs;
        SeriesSummarizer summarizer;  // of the variant's runs
        std::size_t variant = 0;
        std::chrono::steady_clock::time_point lastFlush;  // when the last batch left; long ago before the first
    };

    void flushDevice(int device)
    {
        std::unique_lock lock(m_mutex);
        if (auto found = m_pending.find(device); found != m_pending.end())
            flush(device, found->second);
    }
    // Under m_mutex: a device's signals leave in the order its runs came.
    void flush(int device, Pending& p)
    {
        if (p.runs && !p.runs->runs.empty()) {
            p.runs->summary = p.summarizer.summary();
            m_worker.tell(
                [device, variant = int(p.variant), runs = p.runs](PlanController& c) {
                    emit c.runsAvailable(device, variant, runs);
                },
                true);
            p.lastFlush = std::chrono::steady_clock::now();
        }
        p.runs.reset();
    }

    PlanWorker& m_worker;
    const bool m_batches;
    std::mutex m_mutex;
    std::map<int, Pending> m_pending;  // by device index
};

}  // namespace

PlanWorker::PlanWorker(std::shared_ptr<Backend> backend, std::shared_ptr<std::atomic<bool>> cancel, Tell tell)
    : m_backend(std::move(backend))
    , m_cancel(std::move(cancel))
    , m_tell(std::move(tell))
{
}

void PlanWorker::discover()
{
    auto platform = m_backend->discover();
    if (platform)
        tell([platform = *platform](PlanController& c) { emit c.devicesAvailable(platform); });
    else
        tell([error = platform.error()](PlanController& c) { emit c.discoveryFailed(error); });
}

void PlanWorker::run(const DevicePlan& plan, const Platform& platform, bool batches)
{
    if (!m_machineChosen) {
        // Never fails: where NVML cannot be used, the probe keeps why, and each series' advice says so.
        m_machine = std::make_shared<NvmlProbe>();
        m_machineChosen = true;
    }
    HostReport host;
    {
        BatchingSink sink(*this, batches);
        RunnerOptions options;
        options.machine = m_machine.get();
        options.keepRuns = !batches;  // batched runs belong to the receiver: the runner keeps no second copy
        host = runDevicePlan(*m_backend, platform, plan, *m_cancel, sink, options);
    }
    returnFreedMemory();  // the summaries' sorted columns, gone with the sink: 56 bytes a run
    tell([host = std::move(host)](PlanController& c) { c.finish(host); });
}

void PlanWorker::setMachineProbe(std::shared_ptr<MachineProbe> probe)
{
    m_machine = std::move(probe);
    m_machineChosen = true;
}

}  // namespace asyncscope

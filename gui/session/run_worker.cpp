#include "gui/session/run_worker.hpp"

#include "engine/run/plan_runner.hpp"

namespace asyncscope {

namespace {

// Turns the plan runner's calls into the worker's signals, queued to the GUI thread.
class SignalSink final : public PlanSink {
public:
    explicit SignalSink(RunWorker& worker)
        : m_worker(worker)
    {
    }
    void variantStarting(std::size_t index, const VariantResult& v) override
    {
        emit m_worker.variantStarting(int(index), v);
    }
    void runAvailable(std::size_t index, const RunResult& run) override { emit m_worker.runAvailable(int(index), run); }
    void variantEnded(std::size_t index, const VariantResult& v) override { emit m_worker.variantEnded(int(index), v); }
    void calibrationFailed(const Error& error) override { emit m_worker.calibrationFailed(error); }

private:
    RunWorker& m_worker;
};

}  // namespace

RunWorker::RunWorker(std::shared_ptr<Backend> backend, std::shared_ptr<std::atomic<bool>> cancel)
    : m_backend(std::move(backend))
    , m_cancel(std::move(cancel))
{
}

void RunWorker::discover()
{
    auto platform = m_backend->discover();
    if (platform)
        emit devicesAvailable(*platform);
    else
        emit discoveryFailed(platform.error());
}

void RunWorker::run(const Plan& plan, const Platform& platform)
{
    SignalSink sink(*this);
    emit planFinished(runPlan(*m_backend, platform, plan, *m_cancel, sink));
}

}  // namespace asyncscope

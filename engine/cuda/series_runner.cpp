#include "engine/cuda/series_runner.hpp"

#include "engine/cuda/pipeline.hpp"

#include <chrono>

namespace asyncscope {

Result<SeriesOutcome> runSeries(const PipelineConfig& config, const std::atomic<bool>& cancel, const RunSink& sink,
    const SeriesReady& ready)
{
    auto opened = PipelineSession::open(config);
    if (!opened)
        return opened.error();
    PipelineSession& session = **opened;
    if (ready)
        ready();

    // Every way out delivers the run whose check may still be running, so no timed run is lost.
    auto finish = [&](auto outcome) -> Result<SeriesOutcome> {
        if (auto last = session.flush())
            sink(*last);
        return outcome;
    };
    // Runs one step and delivers the run it finished checking; returns the run it timed.
    auto step = [&](int index, bool warmup) -> Result<RunResult> {
        if (cancel.load())
            return makeError(ErrorKind::Cancelled, "cancelled before run " + std::to_string(index));
        auto done = session.step(index, warmup, &cancel);
        if (!done)
            return done.error();
        if (done->checked)
            sink(*done->checked);
        return done->timed;
    };

    int index = 0;
    for (; index < config.warmupRuns; ++index) {
        if (auto timed = step(index, true); !timed)
            return finish(timed.error());
    }
    StopCondition stop(config);
    const auto begin = std::chrono::steady_clock::now();
    for (;; ++index) {
        auto timed = step(index, false);
        if (!timed)
            return finish(timed.error());
        stop.add(timed->gpuMs);
        const double elapsedS = std::chrono::duration<double>(std::chrono::steady_clock::now() - begin).count();
        if (auto reason = stop.reached(elapsedS)) {
            SeriesOutcome outcome;
            outcome.measuredRuns = stop.count();
            outcome.reason = *reason;
            outcome.noisePercent = stop.noisePercent();
            outcome.traceNote = session.traceNote();
            if (auto last = session.flush())
                sink(*last);
            // Registered memory: the registration is its own quantity, never inside a run's times.
            if (auto registered = session.hostRegisterMs()) {
                auto unregistered = session.unregisterHost();
                if (!unregistered)
                    return unregistered.error();
                outcome.hostRegisterMs = *registered;
                outcome.hostUnregisterMs = *unregistered;
                outcome.hostRegisteredBytes = session.hostRegisteredBytes();
            }
            return outcome;
        }
    }
}

}  // namespace asyncscope

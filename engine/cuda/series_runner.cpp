#include "engine/cuda/series_runner.hpp"

#include "engine/cuda/pipeline.hpp"

#include <algorithm>
#include <chrono>
#include <optional>

namespace asyncscope {

namespace {

// The measured runs block `block` of `config.blocks` holds: the run count shared out, the first blocks one more.
int blockRuns(const PipelineConfig& config, int block)
{
    const int blocks = std::max(1, config.blocks);
    return config.runs / blocks + (block < config.runs % blocks ? 1 : 0);
}

}  // namespace

Result<SeriesOutcome> runSeries(const PipelineConfig& config, const std::atomic<bool>& cancel, const RunSink& sink,
    const SeriesReady& ready)
{
    const int blocks = config.stopRule == StopRule::Fixed ? std::max(1, config.blocks) : 1;
    SeriesOutcome outcome;
    StopCondition all(config);  // every measured run of every block: the series' count and noise
    int index = 0;
    std::int64_t firstClockNs = 0;
    for (int block = 0; block < blocks; ++block) {
        // Each block opens its own session: buffers, streams, events and graphs made again, the last block's freed.
        auto opened = PipelineSession::open(config);
        if (!opened)
            return opened.error();
        PipelineSession& session = **opened;
        if (ready && block == 0)
            ready();
        // A run of a later block starts where it started on the series' clock, and says which block it is of.
        const RunSink blockSink = [&](const RunResult& run) {
            if (firstClockNs == 0)
                firstClockNs = run.hostClockNs;
            if (block == 0) {
                sink(run);
                return;
            }
            RunResult placed = run;
            placed.block = block;
            if (placed.hostClockNs != 0 && firstClockNs != 0)
                placed.startMs = double(placed.hostClockNs - firstClockNs) / 1e6;
            sink(placed);
        };

        // Every way out delivers the run whose check may still be running, so no timed run is lost.
        auto finish = [&](auto result) -> Result<SeriesOutcome> {
            if (auto last = session.flush())
                blockSink(*last);
            return result;
        };
        // Runs one step and delivers the run it finished checking; returns the run it timed.
        auto step = [&](bool warmup) -> Result<RunResult> {
            if (cancel.load())
                return makeError(ErrorKind::Cancelled, "cancelled before run " + std::to_string(index));
            auto done = session.step(index, warmup, &cancel);
            if (!done)
                return done.error();
            if (done->checked)
                blockSink(*done->checked);
            return done->timed;
        };

        for (int w = 0; w < config.warmupRuns; ++w, ++index) {
            if (auto timed = step(true); !timed)
                return finish(timed.error());
        }
        PipelineConfig blockConfig = config;
        if (blocks > 1)
            blockConfig.runs = blockRuns(config, block);
        StopCondition stop(blockConfig);
        const auto begin = std::chrono::steady_clock::now();
        std::optional<StopReason> reason;
        for (; !reason; ++index) {
            auto timed = step(false);
            if (!timed)
                return finish(timed.error());
            stop.add(timed->gpuMs);
            all.add(timed->gpuMs);
            const double elapsedS = std::chrono::duration<double>(std::chrono::steady_clock::now() - begin).count();
            reason = stop.reached(elapsedS);
        }
        outcome.reason = *reason;
        if (block == 0)
            outcome.traceNote = session.traceNote();
        if (auto last = session.flush())
            blockSink(*last);
        // Registered memory: the registration is its own quantity, never inside a run's times.
        if (auto registered = session.hostRegisterMs()) {
            auto unregistered = session.unregisterHost();
            if (!unregistered)
                return unregistered.error();
            outcome.hostRegisterMs = outcome.hostRegisterMs.value_or(0.0) + *registered;
            outcome.hostUnregisterMs = outcome.hostUnregisterMs.value_or(0.0) + *unregistered;
            outcome.hostRegisteredBytes = session.hostRegisteredBytes();
        }
    }
    outcome.measuredRuns = all.count();
    outcome.noisePercent = all.noisePercent();
    return outcome;
}

}  // namespace asyncscope

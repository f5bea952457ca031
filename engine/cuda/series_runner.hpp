// A series on CUDA: open one pipeline session, run the warm-up runs, then the measured runs until the stop rule says
// so (engine/run/stop_condition). With registered host memory the outcome holds the registration and unregistration
// of the host buffers, timed.
#pragma once

#include "engine/run/stop_condition.hpp"

namespace asyncscope {

// Cancellation is checked inside every poll loop and between runs; a cancelled series returns
// ErrorKind::Cancelled after the runs already delivered. `ready`, when given, is called once the session is open.
Result<SeriesOutcome> runSeries(const PipelineConfig& config, const std::atomic<bool>& cancel, const RunSink& sink,
    const SeriesReady& ready = {});

}  // namespace asyncscope

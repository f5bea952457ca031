// Walking a series' runs on the timeline: from the run shown to the previous or next one, or to the slowest, the
// fastest or the median of the measured runs (warm-ups left out; by GPU time). A recorded program's runs are its
// iterations; a walk may keep to one thread's (a lane: ProgramInfo::threads).
#pragma once

#include "engine/model/run_store.hpp"

#include <optional>

namespace asyncscope {

enum class RunStep { Previous, Next, Slowest, Fastest, Median };

// The RunResult::index of the run a step from `shown` (an index; empty: none shown) leads to in `runs`; empty where
// there is none (no runs; no measured run for slowest, fastest and median; before the first or after the last).
// Previous and next walk every run in the series' order, warm-ups included; the median is the lower middle one.
// With `lane`, only the runs of that thread are walked to (from a shown run of any thread: the nearest before or
// after it).
std::optional<int> runAfterStep(
    const RunStore& runs, std::optional<int> shown, RunStep step, std::optional<int> lane = std::nullopt);

// The thread (lane) run i of a recorded program is of: its CPU submit span's stream; 0 where it has none.
int laneOfRun(const RunStore& runs, std::size_t i);

}  // namespace asyncscope

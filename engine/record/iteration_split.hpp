// What IterationSplitter (engine/record/iterations) keeps of each process between the passes over its records: the
// rule decided, its threads (lanes), and the runs split off so far, compactly. Internal to engine/record: the passes
// (iterations.cpp) fill it, iteration_runs.cpp makes it the runs of a report.
#pragma once

#include "engine/model/run_store.hpp"
#include "engine/record/iteration_piece.hpp"

#include <cstdint>
#include <map>
#include <string>
#include <vector>

namespace asyncscope::iteration {

struct ProcessSplit {
    // How iterations are found, once decided: by the NVTX range `range`, or (range empty) by synchronizations.
    bool decided = false;
    std::string range;
    // Notes owed: the rule asked for NVTX and none was marked or repeated; ranges of `range` that never ended.
    bool noRanges = false, noneRepeats = false, noneNamed = false;
    std::size_t unendedRanges = 0;

    // Its threads that call CUDA, numbered in the order their first call came; per thread, whether it waits other
    // than in synchronous copies and memsets (which then end none of its iterations), and whether a wait of its own
    // ended one of its iterations (an iteration left open at the end is then unfinished).
    std::map<std::uint32_t, std::uint32_t> laneOf;  // thread: lane
    std::vector<std::uint32_t> threads;             // lane: thread
    std::vector<bool> waits, ended;
    bool waited = false;  // a call of the process waited for the GPU

    // The runs split off, in the order they were: each one's beginning (CUPTI's clock), lane, whether it ran a
    // kernel and whether a wait ended it (false: the recording ended it).
    RunStore runs;
    std::vector<std::uint64_t> t0;
    std::vector<std::uint32_t> lane;
    std::vector<bool> kernel, unfinished;

    PieceTally tally;
    std::size_t untimed = 0, unmatched = 0;
    // The spans its runs keep, against the budget; the runs past it, kept as their totals alone.
    std::size_t spans = 0, spanBudget = 0, summarized = 0;
    // Runs over more streams than a report holds (kMaxStreams), or more ms of one kind of GPU work (kMaxTimeMs):
    // kept as their totals alone.
    std::size_t wide = 0;
};

}  // namespace asyncscope::iteration

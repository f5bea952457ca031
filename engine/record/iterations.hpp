// A recorded program's iterations as runs: what repeats in it, each repetition a RunResult as the built-in pipeline's
// runs are, so that every view, statistic and writer takes them. Iterations are found thread by thread: each host
// thread of each process that calls CUDA (a lane) has its own.
// - By NVTX: each range of a name is an iteration (by default the outermost name that repeats); its calls are those
//   the range's thread began within it (those of any thread of its process where the range's thread made none).
// - By synchronization: an iteration of a thread ends where that thread waits for the GPU: cudaDeviceSynchronize,
//   cudaStreamSynchronize, cudaEventSynchronize (or the driver's cuCtxSynchronize, cuStreamSynchronize,
//   cuEventSynchronize), a loop of event or stream queries that found the GPU busy and then done, or a synchronous
//   copy to the host (cudaMemcpy, cuMemcpyDtoH…), where the host waits for the GPU's results. Other synchronous copies
//   and memsets are waits too, but end an iteration only in a thread that waits no other way. Another thread's wait
//   ends nothing of this one's.
// The driver calls a runtime call makes are part of it (CUPTI records both): only the driver calls a program makes
// itself (Triton, CuPy, Numba and JAX issue their work so) are calls of their own. The GPU operations of an
// iteration are those its calls issued (matched by process and correlation id). Between two waits, an iteration
// begins with its first call that gives the GPU work (an operation or an event): the calls before it (reading the
// last iteration's results, freeing, creating the context) are the host's time between iterations and are left out;
// an NVTX range begins where it does. A run's GPU time is its first operation's start to its last one's end, or where
// its thread recorded CUDA events before it issued the work and after, from the last of those before to the first
// after, where the GPU passed them (what a program that times itself with events measures); its CPU submit time the time spent in calls that launch or enqueue GPU work (launches, asynchronous
// copies and memsets, event records, stream waits, graph launches); its waits (Wait spans) the time spent in
// synchronizations, synchronous copies and poll loops (from a loop's first busy answer to its end); other calls
// (allocations, frees, queries) are neither. Its spans are its copies to and from the device and its kernels, each on
// its stream (numbered 0, 1, … by first use within the run), and its CPU spans on its lane (the thread's number in
// RecordedRuns::threads); `traced` adds every call as an Api span. Times in ms from the iteration's beginning; a
// run's startMs from the earliest run's beginning, so never below 0.
//
// Split as the records come (IterationSplitter): an iteration is split off as soon as its records are all in (those
// of a process's iteration that ended kSettleNs before its latest record: CUPTI hands records over at least every
// 100 ms), its records dropped and its run kept compactly, so that a long program's recording takes memory for its
// runs, not for every record. The choices that need the whole recording are made on what has come: auto and nvtx
// take the outermost repeated range of the records at hand once a range repeats (waiting while ranges are marked but
// none repeats yet); a thread's synchronous copies stop ending its iterations once it has waited otherwise. A thread
// that never waits, and a range that never ends, keep their records until the recording ends.
#pragma once

#include "engine/model/error.hpp"
#include "engine/model/program_info.hpp"
#include "engine/model/run_result.hpp"
#include "engine/model/run_store.hpp"
#include "engine/model/call_names.hpp"
#include "engine/record/recording.hpp"

#include <map>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace asyncscope {

struct IterationRule {
    enum class By { Auto, Nvtx, Sync };
    By by = By::Auto;  // Auto: the outermost repeated NVTX range where there is one, else synchronizations
    std::string range;  // By::Nvtx: the range's name; empty: the outermost repeated one
};

// "auto", "sync", "nvtx" or "nvtx:NAME"; anything else is a usage error saying what is taken.
Result<IterationRule> parseIterationRule(std::string_view text);

struct RecordedRuns {
    RunStore runs;                // in the order they began, over every lane
    std::uint64_t originNs = 0;   // CUPTI's clock where the first run starts: the runs' startMs count from it
    std::uint32_t originPid = 0;  // the process the first run's calls are of
    std::string how;                 // "NVTX range 'step'", "host synchronizations", "the whole recording"
    std::vector<std::string> notes;  // what the runs leave out or could not tell, one sentence each
    ProgramCopies copies;            // the runs' copies from pageable memory and synchronous calls
    // The lanes: a run's CPU spans' `stream` is its thread's place here. Only threads with runs are listed.
    std::vector<ProgramThread> threads;
    std::vector<std::string> names;  // the names the runs' spans give by number (ProgramInfo::names)
};

// The thread a recorded run's calls are of: its place in RecordedRuns::threads (and a report's program threads), as
// its CPU spans carry it; 0 for a run without them.
int threadPlaceOf(const RunResult& run);

namespace iteration {
struct ProcessSplit;
class SpanNames;
}

// A process's iteration is split off once its latest record is this much later than the iteration's end.
inline constexpr std::uint64_t kSettleNs = 300'000'000;
// The spans the runs of one process keep (about 0.9 GB of them): past it, a run keeps its totals alone (its GPU time,
// CPU submit time and waits as one span each), and the report says how many.
inline constexpr std::size_t kMaxKeptSpans = std::size_t(64) << 20;

// Splits a recording's iterations as its records come (RecordingReader::splitAsRead).
class IterationSplitter {
public:
    // `spanBudget`: kMaxKeptSpans but in tests.
    explicit IterationSplitter(IterationRule rule, std::size_t spanBudget = kMaxKeptSpans);
    ~IterationSplitter();
    IterationSplitter(const IterationSplitter&) = delete;
    IterationSplitter& operator=(const IterationSplitter&) = delete;

    // Splits off every iteration of `recording` whose records are all in, and takes those records out of it. With
    // `everything` (the recording is over) every record is taken, and the iterations left open are ended there.
    void take(Recording& recording, bool everything);
    // The runs of process `pid`, or of every process together where none is named; `recording` is what is left of it
    // (its processes, notes and counts). Once take(…, true) has been called; the runs are handed over, not copied:
    // each process's are given once.
    RecordedRuns runsOf(const Recording& recording, std::optional<std::uint32_t> pid = std::nullopt);

private:
    IterationRule m_rule;
    std::size_t m_spanBudget;
    std::size_t m_heldAfterPass = 0;  // the records the last pass left at hand
    std::map<std::uint32_t, std::unique_ptr<iteration::ProcessSplit>> m_processes;
    std::unique_ptr<iteration::SpanNames> m_names;  // every process's
};

// The iterations of process `pid`, or of every process together where none is named, of a whole recording.
RecordedRuns splitIterations(
    const Recording& recording, const IterationRule& rule, std::optional<std::uint32_t> pid = std::nullopt);

// The processes that ran GPU work, in the order their streams began (a program's own first): each is a series of
// its own.
std::vector<std::uint32_t> processesWithWork(const Recording& recording);

}  // namespace asyncscope

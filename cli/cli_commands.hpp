// The commands of asyncscope-cli, as runCli (cli/cli_app.hpp) picks them: a merge of result files (cli_merge.cpp), a
// comparison of two saved series (cli_baseline.cpp), or a plan run on one device or several (cli_run.cpp).
#pragma once

#include "cli/cli_app.hpp"

#include "engine/model/advice.hpp"
#include "engine/run/device_plan_runner.hpp"

#include <atomic>
#include <optional>
#include <ostream>
#include <string>
#include <vector>

namespace asyncscope::cli {

// This process's place in a Slurm job, for the records it writes.
std::optional<SlurmTask> slurmTaskHere();

// Discovery failed: with --output the host's record still says so (%d is "none"), so that a fleet's merge shows the
// host; the exit status is the error's.
int reportDiscoveryFailure(const CliOptions& options, const Error& error, std::ostream& out, std::ostream& err);

// Runs nothing: the result files --merge names, read and set side by side in one table (with a row for each host
// --expect-hosts names that left no record).
int runMerge(const CliOptions& options, std::ostream& out, std::ostream& err);

// Two saved series: nothing runs.
int runBaselineFiles(const CliOptions& options, std::ostream& out, std::ostream& err);

// The configurations differ where the user did not allow it: the differences, and what to do.
Error differentConfigurations(const std::vector<ConfigDifference>& differences);

// A series that cannot be compared, or a file that cannot be read: refused input, told apart from a failed gate.
int refuseInput(const std::string& why, std::ostream& err);

// One side of a baseline comparison: the series, its assessment (assessSeries) and its name for people.
struct ComparedSeries {
    const Report& report;
    const Assessment& assessed;
    std::string name;
};

// Writes the comparison of `current` with `baseline` where --output says, and returns the exit status: 1 when the
// gate failed; 2 when the configurations differ and that was not allowed, when a series holds too few measured runs
// to compare, or when a gate was asked for and none of its quantities is in both series.
int writeBaselineComparison(
    const CliOptions& options, const ComparedSeries& baseline, const ComparedSeries& current, std::ostream& out,
    std::ostream& err);

// --runs auto: `plan` (one series of one block) run again and again, each time as the next block, until the
// comparison of the blocks so far with the baseline is decided (verdictDecided, from two blocks on) or
// options.autoMostBlocks blocks have run. Each block's progress is said on `err`. The blocks' runs together, as one
// series of as many blocks, in the first round's report; a round that fails or cannot run ends it.
HostReport runUntilDecided(const CliOptions& options, Backend& backend, const Platform& platform,
    const DevicePlan& plan, const std::atomic<bool>& cancel, DevicePlanSink& sink, const RunnerOptions& runner,
    std::ostream& err);

// The plan the options ask for, on the devices they name of `platform`, run and reported (runCli once the devices
// are discovered).
int runPlan(const CliOptions& options, Backend& backend, const Platform& platform, const std::atomic<bool>& cancel,
    std::ostream& out, std::ostream& err, MachineProbe* machine);

}  // namespace asyncscope::cli

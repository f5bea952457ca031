// asyncscope-cli's work once its command line is parsed: discover, build the plan, run it through the engine's plan
// runner, print. Separate from main() so tests can drive it with a fake backend and their own streams.
#pragma once

#include "cli/cli_options.hpp"

#include "engine/host/machine_probe.hpp"
#include "engine/run/backend.hpp"

#include <atomic>
#include <optional>
#include <ostream>

namespace asyncscope {

constexpr int kExitOk = 0;
// A CUDA error, a wrong element, a cancel, an unwritable report, a failed baseline gate, a node with no record.
constexpr int kExitFailure = 1;
// A bad request: options, a device that is not there, a size that does not fit; and refused input: a file that cannot
// be read or is refused, a series with too few measured runs to compare, a gate with nothing to look at.
constexpr int kExitUsage = 2;
// asyncscope-cli record: the program recorded exited with a status other than 0 or was killed by a signal (not by the
// recorder's --duration or Ctrl+C). Its report is written all the same; no baseline gate passes on it.
constexpr int kExitProgramFailed = 4;

// A record's place in a Slurm job from the job's environment (SLURM_JOB_ID, SLURMD_NODENAME, SLURM_PROCID); empty
// outside a job.
std::optional<SlurmTask> slurmTaskOf(const char* job, const char* node, const char* task);

// Prints `error` on `err` as one line and returns its exit code.
int reportFailure(const Error& error, std::ostream& err);

// Runs what `options` ask for: a merge of result files, the device list, or a plan on one device or several. The
// report goes to the files --output names (opened, their folders created, before anything runs) or else to `out`
// (checked after writing); progress and problems to `err`. Where discovery fails, --output still gets the host's
// record of the error. `machine` reads the machine's state around each series for the advice; null: not read (the
// advice then says which rules it could not check).
int runCli(const CliOptions& options, Backend& backend, const std::atomic<bool>& cancel, std::ostream& out,
    std::ostream& err, MachineProbe* machine = nullptr);

}  // namespace asyncscope

// asyncscope-cli's command line: parsed with CLI11 into a pipeline configuration and output choices.
#pragma once

#include "engine/io/man_options.hpp"
#include "engine/run/device_plan.hpp"
#include "engine/run/plan.hpp"
#include "engine/model/baseline.hpp"
#include "engine/model/config.hpp"
#include "engine/model/error.hpp"
#include "engine/model/report.hpp"

#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace asyncscope {

struct CliOptions {
    PipelineConfig config;     // config.device: the device given as one index
    bool deviceGiven = false;  // otherwise the default device is chosen after discovery
    DeviceSelection devices;   // --device: best, all, one index or a list
    DeviceMode deviceMode = DeviceMode::OneAtATime;  // with several devices
    bool numaBinding = true;   // each device's worker thread on the GPU's local CPUs
    bool listDevices = false;
    ReportFormat format = ReportFormat::Text;
    // Empty: standard output. A pattern: %h the host's short name, %d the device index (a file per device), %% a %.
    std::string outputPath;
    std::string tracePath;                // also write a Chrome trace (Perfetto UI, chrome://tracing) here; empty: none
    std::optional<Comparison> comparison;  // run the variants of a comparison instead of one series
    std::size_t sweepMinBytes = kSweepMinBytes;
    std::size_t sweepMaxBytes = kSweepMaxBytes;
    std::optional<std::string> helpText;  // --help or --version: print this and exit 0
    std::vector<std::string> mergeFiles;  // --merge: read these result files and print one table; nothing runs
    // With --merge: hosts (or Slurm nodes) that should have left a record; one that left none gets a row saying so.
    std::vector<std::string> expectHosts;
    // --baseline A [B]: compare B (or the series this runs) with the series saved in A.
    std::vector<std::string> baselineFiles;
    // With one baseline file: the series read from it, whose configuration the run takes where the command line
    // does not say otherwise.
    std::shared_ptr<const Report> baseline;
    BaselineSettings baselineSettings;
    bool allowDifferent = false;  // compare across configurations
    std::string savePath;         // with a baseline and a run: also keep the run's series here (JSON)
    // Run the shape the advice suggests after the series, on the same device, and report the two as an overlap
    // comparison with the model's prediction beside what the shape achieved.
    bool tryAdvice = false;
    // --runs auto (with one baseline file): measure block after block, each of config.runs runs, until the
    // comparison's verdict is decided or autoMostBlocks blocks have run (--blocks gives it).
    bool autoRuns = false;
    int autoMostBlocks = 20;
};

// Usage errors come back as ErrorKind::Usage with CLI11's or our own message. With one --baseline file the file is
// read here (a file that cannot be read is its reader's error) and its configuration becomes the defaults.
Result<CliOptions> parseCommandLine(int argc, const char* const argv[]);

// Every option --help lists, in its order, with the same text and defaults: the man page's OPTIONS section.
std::vector<ManOption> cliManOptions();

}  // namespace asyncscope

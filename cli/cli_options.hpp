// asyncscope-cli's command line: parsed with CLI11 into a pipeline configuration and output choices.
#pragma once

#include "engine/run/plan.hpp"
#include "engine/model/config.hpp"
#include "engine/model/error.hpp"
#include "engine/model/report.hpp"

#include <optional>
#include <string>

namespace asyncscope {

struct CliOptions {
    PipelineConfig config;
    bool deviceGiven = false;  // otherwise the default device is chosen after discovery
    bool listDevices = false;
    ReportFormat format = ReportFormat::Text;
    std::string outputPath;               // empty: standard output
    std::string tracePath;                // also write a Chrome trace (Perfetto UI, chrome://tracing) here; empty: none
    std::optional<Comparison> comparison;  // run the variants of a comparison instead of one series
    std::size_t sweepMinBytes = kSweepMinBytes;
    std::size_t sweepMaxBytes = kSweepMaxBytes;
    std::optional<std::string> helpText;  // --help or --version: print this and exit 0
};

// Usage errors come back as ErrorKind::Usage with CLI11's or our own message.
Result<CliOptions> parseCommandLine(int argc, const char* const argv[]);

}  // namespace asyncscope

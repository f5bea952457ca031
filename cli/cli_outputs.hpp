// Where asyncscope-cli's reports go (cli/cli_app.hpp): standard output or the files --output names, and each kind
// of report written in the format asked for.
#pragma once

#include "cli/cli_options.hpp"

#include "engine/io/atomic_output_file.hpp"
#include "engine/model/advice.hpp"
#include "engine/run/side_by_side.hpp"

#include <map>
#include <memory>
#include <ostream>
#include <string>
#include <vector>

namespace asyncscope::cli {

// Where the report goes: standard output, or the files --output names, opened before anything runs. Each file gets
// its name only once finish() wrote it completely; one that is not finished (an early return, a process killed)
// leaves no file of that name.
class Outputs {
public:
    explicit Outputs(std::ostream& standard);

    // Opens the file for `device` ("none" where no device ran; ignored by a pattern without %d).
    Status open(const std::string& pattern, const std::string& host, const std::string& device);

    // The stream for `device`; standard output when no file was opened.
    std::ostream& at(const std::string& device);

    // Flushes everything; an Io error when a write failed, with the system's words for why where it gave them.
    Status finish();

private:
    std::ostream& m_standard;
    std::map<std::string, std::string> m_paths;                        // device -> path
    std::map<std::string, std::unique_ptr<AtomicOutputFile>> m_files;  // path -> file
};

// The writers take what was made of the series once (engine/model/advice: assessSeries, assessPlan, assessHost).
void writeSeries(std::ostream& out, ReportFormat format, const Report& report, const Assessment& assessed);
void writeComparison(
    std::ostream& out, ReportFormat format, const PlanReport& plan, const std::vector<Assessment>& assessed);

// A host's record in the chosen format, showing `rows` (flagged against the whole host) in the table.
void writeHost(std::ostream& out, ReportFormat format, const HostReport& host,
    const std::vector<std::vector<Assessment>>& assessed, const std::vector<SideBySideRow>& rows);

// Writes the trace of what ran to `file`, opened before the plan started; a failed write is an Io error. With
// nothing to show, no file is left rather than an empty one.
Status writeTrace(
    AtomicOutputFile& file, bool series, const PlanReport& result, const std::vector<Assessment>& assessed);

// Writes the series this command ran to --save as a JSON report.
Status saveSeries(const std::string& path, const Report& report, const Assessment& assessed);

}  // namespace asyncscope::cli

#include "cli/cli_outputs.hpp"

#include "cli/output_pattern.hpp"

#include "engine/io/chrome_trace.hpp"
#include "engine/io/csv/csv_report.hpp"
#include "engine/io/host_record_json.hpp"
#include "engine/io/json/json_report.hpp"
#include "engine/io/side_by_side_report.hpp"
#include "engine/io/text_report.hpp"

#include <utility>

namespace asyncscope::cli {

Outputs::Outputs(std::ostream& standard)
    : m_standard(standard)
{
}

Status Outputs::open(const std::string& pattern, const std::string& host, const std::string& device)
{
    const std::string path = expandOutputPattern(pattern, host, device);
    m_paths[device] = path;
    if (m_files.count(path))
        return std::nullopt;
    auto file = AtomicOutputFile::open(path);
    if (!file)
        return file.error();
    m_files[path] = std::move(*file);
    return std::nullopt;
}

std::ostream& Outputs::at(const std::string& device)
{
    if (m_files.empty())
        return m_standard;
    const auto named = m_paths.find(device);
    return m_files.at(named != m_paths.end() ? named->second : m_paths.begin()->second)->stream();
}

Status Outputs::finish()
{
    m_standard.flush();
    Status failed;
    if (!m_standard)
        failed = makeError(ErrorKind::Io, "writing the report failed", "Check free disk space.");
    for (auto& [path, file] : m_files) {
        Status written = file->commit("the report");
        if (written && !failed)
            failed = std::move(written);
    }
    return failed;
}

void writeSeries(std::ostream& out, ReportFormat format, const Report& report, const Assessment& assessed)
{
    switch (format) {
    case ReportFormat::Text: out << formatSummaryText(report, assessed); break;
    case ReportFormat::Csv: writeCsv(out, report); break;
    case ReportFormat::Json: writeJson(out, report, assessed); break;
    }
}

void writeComparison(
    std::ostream& out, ReportFormat format, const PlanReport& plan, const std::vector<Assessment>& assessed)
{
    switch (format) {
    case ReportFormat::Text: out << formatComparisonText(plan, assessed); break;
    case ReportFormat::Csv: writeComparisonCsv(out, plan, assessed); break;
    case ReportFormat::Json: writeComparisonJson(out, plan, assessed); break;
    }
}

void writeHost(std::ostream& out, ReportFormat format, const HostReport& host,
    const std::vector<std::vector<Assessment>>& assessed, const std::vector<SideBySideRow>& rows)
{
    switch (format) {
    case ReportFormat::Text: out << formatHostReportText(host, assessed, rows); break;
    case ReportFormat::Csv: writeSideBySideCsv(out, rows); break;
    case ReportFormat::Json: writeHostRecordJson(out, host, assessed); break;
    }
}

Status writeTrace(
    AtomicOutputFile& file, bool series, const PlanReport& result, const std::vector<Assessment>& assessed)
{
    const bool ran = series ? !result.variants.front().report.runs.empty() : result.ranCount() > 0;
    if (!ran) {
        file.discard();
        return std::nullopt;
    }
    if (series)
        writeChromeTrace(file.stream(), result.variants.front().report, assessed.front());
    else
        writeChromeTrace(file.stream(), result, assessed);
    return file.commit("the trace");
}

Status saveSeries(const std::string& path, const Report& report, const Assessment& assessed)
{
    auto file = AtomicOutputFile::open(path);
    if (!file)
        return file.error();
    writeJson((*file)->stream(), report, assessed);
    return (*file)->commit("the series");
}

}  // namespace asyncscope::cli

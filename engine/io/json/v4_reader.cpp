// Format 4: the header on line 1, then one run object a line.
#include "engine/io/bounded_json.hpp"
#include "engine/io/json/document_reader.hpp"
#include "engine/io/json/header_blocks.hpp"
#include "engine/io/json/line_readers.hpp"
#include "engine/io/json/run_lines.hpp"

#include <algorithm>

namespace asyncscope::json_read {

using nlohmann::json;

Result<Report> readJsonLines(std::istream& in, const json& header, std::string rest, const ReadControl& control,
    ReadMeter& meter)
{
    const json_header::WhereOf line1 = [](std::string_view) { return std::string("line 1"); };
    if (!header.contains("format"))
        return fieldError("", "line 1", notAReport("missing"));
    if (header.at("format") != kReportFormatName)
        return fieldError("", "line 1", notAReport(quotedJson(header.at("format"))));
    json_fields::Layout layout;
    try {
        json_header::formatVersion(header);
        layout = json_header::layoutFrom(header);
    } catch (const json_header::BadField& e) {
        return json_header::headerError(e, line1);
    }
    auto report = json_header::readHeader(header, line1);
    if (!report)
        return report;
    // Room for every run at once, from the first run line's length (and no more than the file can hold).
    const std::size_t lineEnd = rest.find('\n');
    if (control.totalBytes > 0 && lineEnd != std::string::npos)
        report->runs.reserve(runsToReserve(control.totalBytes, lineEnd + 1));
    if (auto problem = readRunLines(in, meter, layout, LineShape::JsonLines, std::move(rest), 2, *report))
        return *problem;
    // A file cut where a line ends reads as whole lines: only the header's count of runs tells.
    if (report->runs.empty())
        return makeError(ErrorKind::Io, "the file ends after its header (line 1) and holds no runs: it is cut short");
    if (report->outcome) {
        std::size_t measured = 0;
        for (std::size_t i = 0; i < report->runs.size(); ++i)
            measured += report->runs.warmup(i) ? 0 : 1;
        const std::size_t said = std::size_t(report->outcome->measuredRuns);
        if (measured < said)
            return makeError(ErrorKind::Io, "the file ends after " + std::to_string(measured) + " of the " +
                    std::to_string(said) + " measured runs its header counts (its last run on line " +
                    std::to_string(report->runs.size() + 1) + "): it is cut short");
        if (measured > said)
            return makeError(ErrorKind::Io, "the file holds " + std::to_string(measured) + " measured runs and its "
                    "header (line 1) counts " + std::to_string(said) + ": outcome.measured_runs is " +
                    std::to_string(said) + "; accepted: the measured runs the file holds");
    }
    return report;
}

}  // namespace asyncscope::json_read

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
    if (auto problem = checkMeasuredRuns(*report, report->runs.size() + 1))
        return *problem;
    return report;
}

}  // namespace asyncscope::json_read

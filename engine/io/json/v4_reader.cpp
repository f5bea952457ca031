// Format 4: the header on line 1, then one run object a line.
#include "engine/io/json/header_blocks.hpp"
#include "engine/io/json/line_readers.hpp"
#include "engine/io/json/run_lines.hpp"

#include <algorithm>

namespace asyncscope::json_read {

using nlohmann::json;

Result<Report> readJsonLines(std::istream& in, const json& header, std::string rest, const ReadControl& control,
    ReadMeter& meter)
{
    if (!header.contains("format") || header.at("format") != kReportFormatName)
        return makeError(ErrorKind::Io, "the file is JSON but not an AsyncScope report");
    json_fields::Layout layout;
    try {
        json_header::formatVersion(header);
        layout = json_header::layoutFrom(header);
    } catch (const json_header::BadField& e) {
        return makeError(ErrorKind::Io, "line 1: " + std::string(e.what()));
    }
    auto report = json_header::readHeader(header);
    if (!report)
        return makeError(ErrorKind::Io, "line 1: " + report.error().detail);
    // Room for every run at once, from the first run line's length.
    const std::size_t lineEnd = rest.find('\n');
    if (control.totalBytes > 0 && lineEnd != std::string::npos && lineEnd > 0)
        report->runs.reserve(std::size_t(std::min<std::uintmax_t>(control.totalBytes / (lineEnd + 1) + 16, 1u << 28)));
    if (auto problem = readRunLines(in, meter, layout, LineShape::JsonLines, std::move(rest), 2, *report))
        return *problem;
    return report;
}

}  // namespace asyncscope::json_read

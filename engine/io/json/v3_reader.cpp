// Format 3 as its writer laid it out (and format 4 inside a record, laid out alike): the header indented, then
// `  "runs": [`, one run a line, `  ]` and `}`.
#include "engine/io/bounded_json.hpp"
#include "engine/io/json/document_reader.hpp"
#include "engine/io/json/header_blocks.hpp"
#include "engine/io/json/line_readers.hpp"
#include "engine/io/json/run_lines.hpp"

#include <algorithm>
#include <string_view>

namespace asyncscope::json_read {

using nlohmann::json;

namespace {

constexpr std::string_view kRunsLine = ",\n  \"runs\": [\n";

}  // namespace

std::optional<LaidOutDocument> laidOutDocument(const std::string& first)
{
    const std::size_t at = first.find(kRunsLine);
    if (at == std::string::npos)
        return std::nullopt;
    LaidOutDocument document;
    document.runsBegin = at + kRunsLine.size();
    // The first run: a whole one on a line of its own.
    const std::size_t lineEnd = first.find('\n', document.runsBegin);
    const std::size_t lineBegin = first.find_first_not_of(' ', document.runsBegin);
    if (lineEnd == std::string::npos || lineBegin >= lineEnd)
        return std::nullopt;
    std::string_view line = std::string_view(first).substr(lineBegin, lineEnd - lineBegin);
    if (!line.empty() && line.back() == ',')
        line.remove_suffix(1);
    if ((line.front() != '[' && line.front() != '{') || !json::accept(line))
        return std::nullopt;
    const std::string headerText = first.substr(0, at) + "\n}";  // the runs cut off
    BoundedJson parsed =
        parseBounded(headerText, {}, TreeLimits { json_header::kBlocksRead, treeBytesLimit(headerText.size()), {} });
    if (parsed.tooDeep || parsed.tooBig || nulByteAt(headerText))
        return std::nullopt;  // the document reader names the field and its line
    document.header = std::move(parsed.value);
    const json& header = document.header;
    if (!header.is_object() || !header.contains("format") || header.at("format") != kReportFormatName ||
        !header.contains("format_version") || !header.at("format_version").is_number_integer() ||
        header.at("format_version").get<std::int64_t>() < 3)
        return std::nullopt;
    return document;
}

Result<Report> readLaidOutDocument(std::istream& in, const LaidOutDocument& document, std::string first,
    const ReadControl& control, ReadMeter& meter)
{
    // A header field's place: the line its block's key begins (the writer puts each on a line of its own).
    const std::string_view header = std::string_view(first).substr(0, document.runsBegin);
    const json_header::WhereOf where = [header](std::string_view key) {
        std::size_t at = key.empty() ? std::string_view::npos : header.find("\n  \"" + std::string(key) + "\":");
        if (at == std::string_view::npos)
            return "the header (lines 1 to " + std::to_string(std::count(header.begin(), header.end(), '\n')) + ")";
        return "line " + std::to_string(std::count(header.begin(), header.begin() + std::ptrdiff_t(at), '\n') + 2);
    };
    auto report = json_header::readHeader(document.header, where);
    if (!report)
        return report;
    json_fields::Layout layout;
    try {
        layout = json_header::layoutFrom(document.header);
    } catch (const json_header::BadField& e) {
        return json_header::headerError(e, where);
    }
    // Room for every run at once, from the first run line's length (and no more than the file can hold).
    const std::size_t firstLine = first.find('\n', document.runsBegin) - document.runsBegin + 1;
    if (control.totalBytes > 0)
        report->runs.reserve(runsToReserve(control.totalBytes, firstLine));
    const std::size_t lineNumber =
        std::size_t(std::count(first.begin(), first.begin() + std::ptrdiff_t(document.runsBegin), '\n')) + 1;
    if (auto problem = readRunLines(in, meter, layout, LineShape::DocumentLines, first.substr(document.runsBegin),
            lineNumber, *report))
        return *problem;
    // Format 3 cut where a run line ends is cut short as format 4 is: its header counts its measured runs. (A series
    // kept inside a host's record, format 4 laid out alike, holds the runs the record kept.)
    if (document.header.at("format_version").get<std::int64_t>() == 3) {
        if (auto problem = checkMeasuredRuns(*report, lineNumber + report->runs.size() - 1))
            return *problem;
    }
    return report;
}

}  // namespace asyncscope::json_read

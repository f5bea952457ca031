// Format 3 as its writer laid it out (and format 4 inside a record, laid out alike): the header indented, then
// `  "runs": [`, one run a line, `  ]` and `}`.
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
    document.header = json::parse(first.substr(0, at) + "\n}", nullptr, false);  // the runs cut off
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
    auto report = json_header::readHeader(document.header);
    if (!report)
        return report;
    json_fields::Layout layout;
    try {
        layout = json_header::layoutFrom(document.header);
    } catch (const json_header::BadField& e) {
        return makeError(ErrorKind::Io, e.what());
    }
    // Room for every run at once, from the first run line's length.
    const std::size_t firstLine = first.find('\n', document.runsBegin) - document.runsBegin + 1;
    if (control.totalBytes > 0)
        report->runs.reserve(std::size_t(std::min<std::uintmax_t>(control.totalBytes / firstLine + 16, 1u << 28)));
    const std::size_t lineNumber =
        std::size_t(std::count(first.begin(), first.begin() + std::ptrdiff_t(document.runsBegin), '\n')) + 1;
    if (auto problem = readRunLines(in, meter, layout, LineShape::DocumentLines, first.substr(document.runsBegin),
            lineNumber, *report))
        return *problem;
    return report;
}

}  // namespace asyncscope::json_read

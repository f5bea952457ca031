// Formats 1 and 2, and a report of any version laid out otherwise than its writer did (indented all through, on one
// line, keys sorted): one pass of nlohmann's SAX parser over the whole document (report_sax.cpp), then its header
// read and its runs checked against it.
#include "engine/io/json/document_reader.hpp"

#include "engine/io/bounded_json.hpp"
#include "engine/io/json/header_blocks.hpp"
#include "engine/io/json/report_sax.hpp"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <string_view>

namespace asyncscope::json_read {

using nlohmann::json;
using namespace json_fields;

namespace {

// Lays out the spans of the runs that gave version 1's durations, now that the device and the size are known.
void layOutDurations(const Report& report, ReadRuns& read)
{
    for (auto& [at, d] : read.durations) {
        d.bytes = report.config.bytes();
        read.runs[at].spans = serialSpans(report.device.index, d);
    }
}

}  // namespace

Result<Report> readDocument(std::istream& in, std::string first, ReadMeter& meter)
{
    StreamSource source(in, std::move(first), meter);
    ParsedDocument sax = parseDocument(source);
    if (meter.cancelled())
        return cancelled();
    if (const std::string nul = source.nulPlace(); !nul.empty())
        return makeError(ErrorKind::Io, nul + ": " + kNulByte);
    if (!sax.error.empty())
        return makeError(ErrorKind::Io, sax.error);
    const json& header = sax.header;
    if (!header.contains("format"))
        return fieldError("", "line 1", notAReport("missing"));
    if (header.at("format") != kReportFormatName)
        return fieldError("", sax.whereOf("format"), notAReport(quotedJson(header.at("format"))));
    auto read = json_header::readHeader(header, [&sax](std::string_view key) { return sax.whereOf(key); });
    if (!read)
        return read;
    if (!sax.sawRuns)
        return fieldError("", "", { "runs", "missing", "a list of runs" });
    if (sax.assumedFields && header.contains("fields"))
        return makeError(ErrorKind::Io, sax.whereOf("fields") +
                ": \"fields\" comes after the runs it describes; it must come before");
    ReadRuns& runs = sax.runs;
    if (!sax.checkedRuns) {
        for (std::size_t i = 0; i < runs.runs.size(); ++i) {
            if (auto bad = checkRun(runs.runs[i], read->config))
                return fieldError("", "run " + std::to_string(i) + " (line " + std::to_string(runs.lines[i]) + ")",
                    *bad);
        }
    }
    for (std::size_t i = 1; i < runs.runs.size(); ++i) {
        if (auto bad = checkBlockOrder(runs.runs[i].block, runs.runs[i - 1].block))
            return fieldError("", "run " + std::to_string(i) + " (line " + std::to_string(runs.lines[i]) + ")", *bad);
    }
    layOutDurations(*read, runs);
    read->runs.reserve(runs.runs.size());
    for (RunResult& run : runs.runs)
        read->runs.push_back(std::move(run));
    return read;
}

std::optional<std::string> nulByteAt(std::string_view text, std::size_t firstLine)
{
    const std::size_t at = text.find('\0');
    if (at == std::string_view::npos)
        return std::nullopt;
    const std::string_view before = text.substr(0, at);
    const std::size_t lineStart = before.rfind('\n') == std::string_view::npos ? 0 : before.rfind('\n') + 1;
    return "line " + std::to_string(firstLine + std::size_t(std::count(before.begin(), before.end(), '\n'))) +
        ", column " + std::to_string(at - lineStart + 1);
}

Status checkMeasuredRuns(const Report& report, std::size_t lastRunLine)
{
    if (!report.outcome)
        return std::nullopt;
    std::size_t measured = 0;
    for (std::size_t i = 0; i < report.runs.size(); ++i)
        measured += report.runs.warmup(i) ? 0 : 1;
    const std::size_t said = std::size_t(report.outcome->measuredRuns);
    if (measured < said)
        return makeError(ErrorKind::Io, "the file ends after " + std::to_string(measured) + " of the " +
                std::to_string(said) + " measured runs its header counts (its last run on line " +
                std::to_string(lastRunLine) + "): it is cut short");
    if (measured > said)
        return makeError(ErrorKind::Io, "the file holds " + std::to_string(measured) + " measured runs and its "
                "header counts " + std::to_string(said) + ": outcome.measured_runs is " + std::to_string(said) +
                "; accepted: the measured runs the file holds");
    return std::nullopt;
}

Error cancelled()
{
    return makeError(ErrorKind::Cancelled, "reading was cancelled");
}

FieldProblem notAReport(std::string found)
{
    return { "format", std::move(found), std::string("\"") + kReportFormatName + "\": an AsyncScope report" };
}

}  // namespace asyncscope::json_read

// The one entry point of the JSON readers: which layout the file has, from its first bytes.
#include "engine/io/json/json_report.hpp"

#include "engine/io/bounded_json.hpp"
#include "engine/io/input_file.hpp"
#include "engine/io/json/document_reader.hpp"
#include "engine/io/json/header_blocks.hpp"
#include "engine/io/json/line_readers.hpp"
#include "engine/model/record_rules.hpp"

#include <nlohmann/json.hpp>

namespace asyncscope {

using nlohmann::json;

namespace {

constexpr std::size_t kFirstBlock = std::size_t(1) << 20;  // a header is a few kB
// … unless it holds the machine's readings: as many as a header may hold (kMaxMachineSamplesRead, each with its
// processes) take about 40 MB. A first line longer than this is no format-4 header.
constexpr std::size_t kMaxHeaderBytes = std::size_t(64) << 20;

// A span's name is a place in the program's names: a report whose spans name one past them is refused.
Result<Report> namesChecked(Result<Report> read)
{
    if (!read)
        return read;
    const std::size_t names = read->program ? read->program->names.size() : 0;
    const std::uint32_t most = read->runs.mostName();
    if (most <= names)
        return read;
    return fieldError("", "runs",
        { "spans' name", std::to_string(most),
            "a place in program.names, which holds " + std::to_string(names) + (names == 1 ? " name" : " names") });
}

Result<Report> readAnyLayout(std::istream& in, const ReadControl& control)
{
    ReadMeter meter(control);
    if (!meter.advance(0))
        return json_read::cancelled();
    std::string first;
    std::size_t got = readMore(in, first, kFirstBlock);
    if (!meter.advance(got))
        return json_read::cancelled();
    if (first.find_first_not_of(" \t\r\n") == std::string::npos)
        return makeError(ErrorKind::Io, "the file is empty");
    // A format-4 header holding a long series' machine readings runs on past the first block: read on to the end of
    // its line, as far as a line may go.
    bool ended = got < kFirstBlock;
    while (!ended && first.find('\n', first.size() - got) == std::string::npos && first.size() < kMaxHeaderBytes) {
        got = readMore(in, first, kFirstBlock);
        if (!meter.advance(got))
            return json_read::cancelled();
        ended = got < kFirstBlock;
    }

    // Format 4: line 1 is an object on its own, and no runs in it. Only the blocks a header is read for are built.
    const std::size_t lineEnd = first.find('\n');
    if (lineEnd != std::string::npos || ended) {
        const std::string_view line = std::string_view(first).substr(0, lineEnd);
        if (const auto nul = json_read::nulByteAt(line))
            return makeError(ErrorKind::Io, *nul + ": " + json_read::kNulByte);
        const TreeLimits limits { json_header::kBlocksRead, treeBytesLimit(line.size()), { "runs" } };
        BoundedJson parsed = parseBounded(line, {}, limits);
        if (parsed.tooDeep)
            return fieldError("", "line 1", *parsed.tooDeep);
        if (parsed.tooBig)
            return fieldError("", "line 1", *parsed.tooBig);
        const json& header = parsed.value;
        if (header.is_object() && parsed.passed.empty()) {
            std::string rest = lineEnd == std::string::npos ? std::string() : first.substr(lineEnd + 1);
            return json_read::readJsonLines(in, header, std::move(rest), control, meter);
        }
    }
    // Format 3 (or 4 in a record) as its writer laid it out: the runs a line each.
    if (const auto document = json_read::laidOutDocument(first))
        return json_read::readLaidOutDocument(in, *document, std::move(first), control, meter);
    // Any other layout, and formats 1 and 2.
    return json_read::readDocument(in, std::move(first), meter);
}

}  // namespace

Result<Report> readJson(std::istream& in, const ReadControl& control)
{
    return namesChecked(readAnyLayout(in, control));
}

}  // namespace asyncscope

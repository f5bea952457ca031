// The readers of reports laid out one run a line: format 4 (JSON Lines) and a document with one run a line (format
// 3, and format 4 inside a record). readJson picks one of them, or the document reader, by the file's first bytes.
#pragma once

#include "engine/io/read_control.hpp"
#include "engine/model/report.hpp"

#include <nlohmann/json.hpp>

#include <istream>
#include <optional>
#include <string>

namespace asyncscope::json_read {

// Format 4: `header` is line 1, parsed; `rest` what was read past it.
Result<Report> readJsonLines(std::istream& in, const nlohmann::json& header, std::string rest,
    const ReadControl& control, ReadMeter& meter);

// Where `first` (the stream's first bytes) begins a document as the writers lay it out (header indented, then
// `  "runs": [` and a whole run on each line), its header and where its first run line begins.
struct LaidOutDocument {
    nlohmann::json header;
    std::size_t runsBegin = 0;
};
std::optional<LaidOutDocument> laidOutDocument(const std::string& first);

// Format 3 (and 4 in a record) as laid out: the runs a line each from `first`'s runsBegin.
Result<Report> readLaidOutDocument(std::istream& in, const LaidOutDocument& document, std::string first,
    const ReadControl& control, ReadMeter& meter);

}  // namespace asyncscope::json_read

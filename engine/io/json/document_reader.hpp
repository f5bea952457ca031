// Reading a report that is one JSON document, whatever its layout: formats 1 and 2 always, formats 3 and 4 where a
// tool re-laid them out. And what the other readers share: reading more of the stream, the cancelled error.
#pragma once

#include "engine/io/read_control.hpp"
#include "engine/model/record_rules.hpp"
#include "engine/model/report.hpp"

#include <cstddef>
#include <istream>
#include <optional>
#include <string>
#include <string_view>

namespace asyncscope::json_read {

// `first` is what was read of `in` already. Any layout, any version: one pass of nlohmann's SAX parser over the
// whole stream, holding only the runs.
Result<Report> readDocument(std::istream& in, std::string first, ReadMeter& meter);

// Where the first NUL byte of `text` is, as a message names it: "line 3, column 7", counting `text`'s lines from
// `firstLine`; nothing where it holds none. No JSON text holds one (a string's must be escaped), and nlohmann's parser
// takes one for the end of its input: whatever followed it would go unread.
std::optional<std::string> nulByteAt(std::string_view text, std::size_t firstLine = 1);
inline constexpr const char* kNulByte = "a NUL byte, which no JSON text holds: the file is not a report as written";

Error cancelled();

// The runs `report` holds against the measured runs its header's outcome counts, where it has one: fewer is a file cut
// short after a whole run (its last on line `lastRunLine`), more a run given twice or a count that is not the file's.
Status checkMeasuredRuns(const Report& report, std::size_t lastRunLine);

// The problem of a document whose "format" is `found` ("missing", "\"other\"", "a list"): not a report.
FieldProblem notAReport(std::string found);

}  // namespace asyncscope::json_read

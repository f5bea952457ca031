// The runs of a report laid out one a line, read a block at a time and parsed on every core: format 4's lines, and
// the lines of runs inside a document as format 3 (and format 4 inside a record) writes them.
#pragma once

#include "engine/io/json/report_fields.hpp"
#include "engine/io/read_control.hpp"
#include "engine/model/report.hpp"

#include <cstddef>
#include <cstdint>
#include <istream>
#include <string>

namespace asyncscope::json_read {

enum class LineShape {
    JsonLines,      // one run a line to the end of the file; blank lines are passed over
    DocumentLines,  // "    run," a line, up to a line "  ]" and then only the document's closing brace
};

// Reads the runs from `rest` (what was read of the stream past the header, beginning at line `firstLine`, counted
// from 1) and the remaining stream, onto the end of report.runs in order. Errors name the run (counted from 0) and
// the line: "run 51234 (line 51235): end_ms missing in span 3".
Status readRunLines(std::istream& in, ReadMeter& meter, const json_fields::Layout& layout, LineShape shape,
    std::string rest, std::size_t firstLine, Report& report);

// How many runs to reserve room for in a file of `fileBytes` whose first run line takes `firstLineBytes`: as many as
// lines that long would fill it, but never more than lines of a real run's least length would (a short first line
// must not size the store beyond what the file can hold).
std::size_t runsToReserve(std::uintmax_t fileBytes, std::size_t firstLineBytes);

// How many threads parse the runs: the cores, up to 8.
std::size_t runLineThreads();

}  // namespace asyncscope::json_read

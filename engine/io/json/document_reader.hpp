// Reading a report that is one JSON document, whatever its layout: formats 1 and 2 always, formats 3 and 4 where a
// tool re-laid them out. And what the other readers share: reading more of the stream, the cancelled error.
#pragma once

#include "engine/io/read_control.hpp"
#include "engine/model/record_rules.hpp"
#include "engine/model/report.hpp"

#include <cstddef>
#include <istream>
#include <string>

namespace asyncscope::json_read {

// `first` is what was read of `in` already. Any layout, any version: one pass of nlohmann's SAX parser over the
// whole stream, holding only the runs.
Result<Report> readDocument(std::istream& in, std::string first, ReadMeter& meter);

// Reads up to `bytes` more from `in` onto the end of `buffer`; how many came.
std::size_t readMore(std::istream& in, std::string& buffer, std::size_t bytes);

Error cancelled();

// The problem of a document whose "format" is `found` ("missing", "\"other\"", "a list"): not a report.
FieldProblem notAReport(std::string found);

}  // namespace asyncscope::json_read

// One pass of nlohmann's SAX parser over a report that is one JSON document, whatever its layout: the document's
// other fields become a small DOM (only the blocks a header is read for), the runs are read one by one.
#pragma once

#include "engine/io/json/document_runs.hpp"
#include "engine/io/json/stream_source.hpp"

#include <nlohmann/json.hpp>

#include <cstddef>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace asyncscope::json_read {

struct ParsedDocument {
    nlohmann::json header;  // the header's blocks a reader reads (json_header::kBlocksRead)
    ReadRuns runs;
    // What is wrong, with its place: "run 3 (line 12): gpu_time_ms is -1; accepted: …"; empty where nothing is. The
    // parse stops at the first problem.
    std::string error;
    bool sawRuns = false;
    bool assumedFields = false;  // runs or spans given as arrays before the document said what their fields are
    bool checkedRuns = false;    // the runs were checked against the header's configuration as they were read
    std::vector<std::pair<std::string, std::size_t>> keyLines;  // the line each header block begins on

    // Where the header's block `key` begins: "line 4"; the document's first line for one it does not hold.
    std::string whereOf(std::string_view key) const;
};

ParsedDocument parseDocument(StreamSource& source);

}  // namespace asyncscope::json_read

// One run line parsed through simdjson: an object of named fields (format 4) or an array of the fields the header's
// "fields" names (format 3), its spans arrays of the span fields named there (or objects, as format 2 wrote them).
#pragma once

#include "engine/io/json/report_fields.hpp"
#include "engine/model/config.hpp"
#include "engine/model/run_result.hpp"

#include <cstddef>
#include <memory>
#include <string>
#include <string_view>

namespace asyncscope::json_read {

// Bytes a line must be followed by in memory (any bytes: the parser may read them, never uses them).
constexpr std::size_t kLinePadding = 64;
// A run line longer than this is not one a report holds: a run of 4096 chunks with CUPTI's spans and api calls
// takes about 1 MB. (simdjson's buffers for a line take about 14 times the line: a reader's memory stays within
// four times its file and 64 MiB only with lines this short.)
constexpr std::size_t kMaxLineBytes = std::size_t(4) << 20;
// A line this long or longer is parsed by a parser the helpers of a read share, one line at a time (simdjson's buffers
// for a line take about 14 times the line).
constexpr std::size_t kShortLineBytes = std::size_t(64) << 10;
// Likewise spans in a run (4096 chunks give about 12 000, twice that traced).
constexpr std::size_t kMaxSpansPerRun = std::size_t(1) << 17;
// Deeper than a run nests (a span in a list of spans in the run): garbage.
constexpr std::size_t kMaxRunDepth = 8;

class RunParser {
public:
    // Runs of a series run with `config`: each run read is checked against it (checkRun).
    RunParser(const json_fields::Layout& layout, const PipelineConfig& config);
    ~RunParser();
    RunParser(RunParser&&) noexcept;
    RunParser& operator=(RunParser&&) noexcept;

    // Parses `line` (kLinePadding readable bytes after its end) into `run`; one thread at a time. False with `error`
    // saying what is wrong ("gpu_time_ms is not a number", "end_ms missing in span 3", "not valid JSON: …",
    // "gpu_time_ms is -1; accepted: …"). `continues`: the line goes on with the spans of the run before it
    // (json_fields::kMoreSpansKey): `run` holds its index and those spans alone.
    bool parse(std::string_view line, RunResult& run, std::string& error, bool& continues);

private:
    struct Impl;
    std::unique_ptr<Impl> m_impl;
};

}  // namespace asyncscope::json_read

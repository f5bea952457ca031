// The runs of a report's document as the SAX reader meets them, field by field: each run's and each span's fields
// read through their rows (run_fields.hpp), version 1's durations kept to be laid out as spans once the header is
// read. A problem is worded without its place: the reader adds the run and the line.
#pragma once

#include "engine/io/json/run_fields.hpp"
#include "engine/model/config.hpp"
#include "engine/model/run_result.hpp"

#include <cstddef>
#include <cstdint>
#include <string>
#include <utility>
#include <vector>

namespace asyncscope::json_read {

// The runs read, and those that gave version 1's durations in place of spans (their spans are laid out once the
// device and the size are known).
struct ReadRuns {
    std::vector<RunResult> runs;
    std::vector<std::pair<std::size_t, SerialDurations>> durations;
    std::vector<std::size_t> lines;  // each run's last line, where the runs came before the configuration
};

class DocumentRuns {
public:
    ReadRuns& result() { return m_out; }
    std::size_t count() const { return m_out.runs.size(); }  // the runs read whole
    // What is wrong where a call below returned false: "gpu_time_ms is not a number".
    const std::string& problem() const { return m_problem; }
    // The span being read: "span 3: ", "traced span 3: ".
    std::string spanPlace() const { return json_fields::spanPlace(m_spanIndex, m_traced); }

    void beginRun();
    bool field(json_fields::RunKey key, const json_fields::FieldValue& value);
    // The run's list of spans under `key` (spans or traced_spans) begins; false where the run gave it before.
    bool beginSpans(json_fields::RunKey key);
    void beginSpan();
    bool spanField(json_fields::SpanField field, const json_fields::FieldValue& value);
    bool endSpan();
    // The run is read whole: checked against `config` where there is one (checkRun), else its last line `line` kept
    // for the message of a check once the configuration is read.
    bool endRun(const PipelineConfig* config, std::size_t line);

private:
    bool fail(std::string text);

    RunResult m_run;
    std::uint32_t m_seen = 0;
    SerialDurations m_v1;
    std::vector<Span> m_spans, m_tracedSpans;
    Span m_span;
    std::uint32_t m_spanSeen = 0;
    std::size_t m_spanIndex = 0;
    bool m_traced = false;
    ReadRuns m_out;
    std::string m_problem;
};

}  // namespace asyncscope::json_read

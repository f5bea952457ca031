// The names a JSON report gives its runs' and spans' fields, in every format version, and the layout of the arrays
// that hold them: the one table the writer and the readers share.
#pragma once

#include "engine/model/report.hpp"

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace asyncscope {

// Version 4 is JSON Lines: a header object on the first line, then one run object a line. Version 3 was one
// document, each run on a line as an array; version 2 one document of objects; version 1 one without spans.
constexpr int kReportFormatVersion = 4;
constexpr const char* kReportFormatName = "asyncscope-report";
constexpr const char* kComparisonFormatName = "asyncscope-comparison";

namespace json_fields {

// A run's fields. Version 4 writes the first twelve as an object's keys in this order (traced_spans only where the
// run has traced spans); version 3 as an array in the order "fields": {"run": …} names them; version 2 as an object;
// version 1 had no spans but the last five fields.
enum class RunKey : std::uint8_t {
    Run, Warmup, StartMs, GpuMs, Polls, WaitCpuMs, Expected, Verified, FirstWrongIndex, FirstWrongValue, Spans,
    Traced, CpuSubmitMs, WaitMs, H2dMs, KernelMs, D2hMs, Unknown
};
constexpr const char* kRunKeyNames[] = { "run", "warmup", "start_ms", "gpu_time_ms", "poll_iterations", "wait_cpu_ms",
    "expected_value", "verified", "first_wrong_index", "first_wrong_value", "spans", "traced_spans",
    "cpu_submit_time_ms", "wait_ms", "h2d_ms", "kernel_ms", "d2h_ms" };
constexpr std::size_t kWrittenRunFields = std::size_t(RunKey::Traced) + 1;

// A span's fields. Versions 3 and 4 write a span as an array of those "fields": {"span": …} names: kind, begin_ms,
// end_ms always, the others only where some span of the report has them other than 0 (call: where there are api
// spans, and then on api spans only, last). A field an array leaves out is 0. Version 2 wrote span objects.
enum class SpanField : std::uint8_t { Kind, Device, Stream, Chunk, Bytes, BeginMs, EndMs, Call, Unknown };
constexpr const char* kSpanFieldNames[] = { "kind", "device", "stream", "chunk", "bytes", "begin_ms", "end_ms",
    "call" };
constexpr std::size_t kSpanFieldCount = sizeof kSpanFieldNames / sizeof kSpanFieldNames[0];

// The fields a report's arrays hold, in order.
struct Layout {
    std::vector<RunKey> run;
    std::vector<SpanField> span;

    // Every run field written and every span field: what a version 3 file without "fields" means.
    static Layout full();
    bool has(SpanField f) const;
};

// The span fields `report` needs: what any of its spans has other than 0.
Layout layoutOf(const Report& report);

RunKey runKeyOf(std::string_view name);      // RunKey::Unknown for a name no version wrote
SpanField spanFieldOf(std::string_view name);  // SpanField::Unknown likewise

// "true or false", "a whole number", "a number", "a list of spans": what a run's field must be, for messages.
const char* expectedOf(RunKey key);

std::vector<std::string> runFieldNames(const Layout& layout);
std::vector<std::string> spanFieldNames(const Layout& layout);

}  // namespace json_fields
}  // namespace asyncscope

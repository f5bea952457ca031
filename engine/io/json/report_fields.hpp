// The runs' and spans' fields of a JSON report, in every format version (run_fields.hpp has their names and rules),
// and the layout of the arrays that hold them.
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

// A run's fields, in the order of their rows in run_fields.hpp (which holds their names and rules). Version 4 writes
// the first twelve as an object's keys in this order (traced_spans only where the run has traced spans); version 3
// as an array in the order "fields": {"run": …} names them; version 2 as an object; version 1 had no spans but the
// last five fields. Block, the run's block (RunResult::block), is version 4's alone: written last, and only where it
// is not 0, so a series of one block reads and writes as before and a file without it is one block.
enum class RunKey : std::uint8_t {
    Run, Warmup, StartMs, GpuMs, Polls, WaitCpuMs, Expected, Verified, FirstWrongIndex, FirstWrongValue, Spans,
    Traced, CpuSubmitMs, WaitMs, H2dMs, KernelMs, D2hMs, Block, Unknown
};
constexpr std::size_t kWrittenRunFields = std::size_t(RunKey::Traced) + 1;

// A span's fields, likewise. Versions 3 and 4 write a span as an array of those "fields": {"span": …} names: kind,
// begin_ms, end_ms always, the others only where some span of the report has them other than 0 (call: where there
// are api spans, and then on api spans only, last). A field an array leaves out is 0. Version 2 wrote span objects.
enum class SpanField : std::uint8_t { Kind, Device, Stream, Chunk, Bytes, BeginMs, EndMs, Call, Name, Unknown };
constexpr std::size_t kSpanFieldCount = std::size_t(SpanField::Unknown);

// A run with more spans than one line takes goes on over lines of its own right after it, each with at most
// kSpansPerLine spans of each list (a line then stays well within a reader's line limit at any span's length):
// {"run":N,"more_spans":[…],"more_traced_spans":[…]}, the run's number and the spans that follow, in order.
constexpr std::size_t kSpansPerLine = 16384;
constexpr const char* kMoreSpansKey = "more_spans";
constexpr const char* kMoreTracedKey = "more_traced_spans";

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

std::vector<std::string> runFieldNames(const Layout& layout);
std::vector<std::string> spanFieldNames(const Layout& layout);

}  // namespace json_fields
}  // namespace asyncscope

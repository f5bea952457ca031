// The fields of a run and of a span as JSON reports give them: one row a field (its name, what it must be, whether a
// run or a span without it is refused, how a value read goes into the run, and how format 4's writer writes it), as
// the CSV column table has one row a column. Both run readers hand each scalar over as a FieldValue and read it
// through its row: simdjson's (run lines, run_parser.cpp) and the SAX document reader's (report_sax.cpp). Adding a
// run's or a span's field is one row here and its name in report_fields.hpp's enum.
#pragma once

#include "engine/io/json/report_fields.hpp"
#include "engine/model/run_result.hpp"
#include "engine/model/run_store.hpp"

#include <array>
#include <cstddef>
#include <cstdint>
#include <limits>
#include <string>
#include <string_view>

namespace asyncscope::json_fields {

// One scalar of a run or a span as a reader hands it over, whichever parser read it. A list or an object where a
// scalar stands is a Container. A text is a view into the parser's buffer, valid while the field is read.
struct FieldValue {
    enum Kind : std::uint8_t { Null, Flag, Int, Unsigned, Float, Text, Container };
    Kind kind = Null;
    bool flag = false;
    union {
        std::int64_t i = 0;  // Int
        std::uint64_t u;     // Unsigned
        double d;            // Float
    };
    std::string_view text;

    // A number; null reads as NaN (what the writer writes for a value JSON cannot hold).
    bool toNumber(double& out) const
    {
        switch (kind) {
        case Int: out = double(i); return true;
        case Unsigned: out = double(u); return true;
        case Float: out = d; return true;
        case Null: out = std::numeric_limits<double>::quiet_NaN(); return true;
        default: return false;
        }
    }
    // A whole number that T holds.
    template <class T>
    bool toWhole(T& out) const
    {
        if (kind == Int && i >= std::int64_t(std::numeric_limits<T>::min()) &&
            (i < 0 || std::uint64_t(i) <= std::uint64_t(std::numeric_limits<T>::max()))) {
            out = T(i);
            return true;
        }
        if (kind == Unsigned && u <= std::uint64_t(std::numeric_limits<T>::max())) {
            out = T(u);
            return true;
        }
        return false;
    }
    bool toFlag(bool& out) const
    {
        if (kind != Flag)
            return false;
        out = flag;
        return true;
    }
};

// What a run's field holds.
enum class RunFieldKind : std::uint8_t {
    Value,     // a scalar of the run
    SpanList,  // spans, traced_spans: a list the reader walks itself
    Duration,  // version 1's stage times: read by the document reader only (formats 1 and 2), never written
};

struct RunFieldRule {
    const char* name;
    const char* expected;  // what the field must be, as "gpu_time_ms is not a number" says
    bool required;         // a run without it is refused: "gpu_time_ms missing"
    RunFieldKind kind;
    // Takes `value` into the run (or version 1's durations); false where it is not what `expected` says. None for
    // the span lists.
    bool (*read)(const FieldValue& value, RunResult& run, SerialDurations& durations);
    // Appends the value of run `i` as format 4 writes it (the writer writes the key). None for the span lists and
    // version 1's durations.
    void (*write)(std::string& out, const RunStore& runs, std::size_t i);
};

// What a span's field read from a value gives.
enum class SpanRead : std::uint8_t {
    Taken,
    NotExpected,  // not what `expected` says
    NotNamed,     // a text that names none of the field's names
};

struct SpanFieldRule {
    const char* name;
    const char* expected;  // "a name", "a whole number", "a number"
    bool required;         // a span without it is refused: "end_ms missing in span 3"
    SpanRead (*read)(const FieldValue& value, Span& span);
    std::string (*names)();  // the names a named field takes (acceptedNames), for NotNamed; none for numbers
    // Appends a comma and the value as versions 3 and 4 write it; nothing where the span leaves the field out (call,
    // on a span that is not an api call).
    void (*write)(std::string& out, const Span& span);
};

constexpr std::size_t kRunFieldCount = std::size_t(RunKey::Unknown);

// The rows, in RunKey's and SpanField's order.
extern const std::array<RunFieldRule, kRunFieldCount> kRunFields;
extern const std::array<SpanFieldRule, kSpanFieldCount> kSpanFields;

inline const RunFieldRule& ruleOf(RunKey key) { return kRunFields[std::size_t(key)]; }
inline const SpanFieldRule& ruleOf(SpanField field) { return kSpanFields[std::size_t(field)]; }

// A field's bit in a reader's set of the fields it has seen.
constexpr std::uint32_t bit(RunKey key) { return 1u << unsigned(key); }
constexpr std::uint32_t bit(SpanField field) { return 1u << unsigned(field); }

// The required fields' bits.
extern const std::uint32_t kRequiredRunFields;
extern const std::uint32_t kRequiredSpanFields;

// The first required field (in the table's order) a run or a span lacks; null where it has them all.
const char* firstMissing(std::uint32_t seen, bool span);
inline const char* missingRunField(std::uint32_t seen)
{
    return (seen & kRequiredRunFields) == kRequiredRunFields ? nullptr : firstMissing(seen, false);
}
inline const char* missingSpanField(std::uint32_t seen)
{
    return (seen & kRequiredSpanFields) == kRequiredSpanFields ? nullptr : firstMissing(seen, true);
}

// The readers' messages, with no place: "gpu_time_ms is not a number".
std::string notExpected(RunKey key);
// "span 3: " or "traced span 3: ".
std::string spanPlace(std::size_t index, bool traced);
// What `read` said of `value` in span `index`: "span 3: bytes is not a whole number", "span 3: kind 'x' is not …".
std::string spanProblem(SpanField field, SpanRead read, const FieldValue& value, std::size_t index, bool traced);
// "end_ms missing in traced span 3".
std::string missingInSpan(const char* field, std::size_t index, bool traced);
// "gpu_time_ms is given twice; accepted: each field once": a field a run or a span gives again, which would otherwise
// take the place of the first.
std::string givenTwice(std::string_view name);
// "spans holds more than 131072 spans: more than a run has".
std::string tooManySpans(bool traced, std::size_t most);

}  // namespace asyncscope::json_fields

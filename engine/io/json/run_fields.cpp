#include "engine/io/json/run_fields.hpp"

#include "engine/model/program_info.hpp"
#include "engine/model/record_rules.hpp"

#include <charconv>
#include <cmath>
#include <optional>
#include <type_traits>
#include <utility>
#include <vector>

namespace asyncscope::json_fields {

namespace {

constexpr const char* kWhole = "a whole number";
constexpr const char* kNumber = "a number";
constexpr const char* kFlag = "true or false";
constexpr const char* kSpans = "a list of spans";
constexpr const char* kName = "a name";
constexpr const char* kNameNumber = "0 (none) or a place from 1 to 65536 in program.names";

// ---- the writer's values

template <class T>
void appendWhole(std::string& out, T v)
{
    char digits[24];
    out.append(digits, std::to_chars(digits, digits + sizeof digits, v).ptr);
}

// The shortest text that reads back as the same double; null for what JSON cannot hold, as nlohmann writes it.
void appendNumber(std::string& out, double v)
{
    if (!std::isfinite(v)) {
        out += "null";
        return;
    }
    char digits[32];
    out.append(digits, std::to_chars(digits, digits + sizeof digits, v).ptr);
}

// An enum's name, quoted (the enums' names need no escaping).
void appendName(std::string& out, const char* name)
{
    out += '"';
    out += name;
    out += '"';
}

// ---- a run's fields

template <auto Field>
bool readWhole(const FieldValue& v, RunResult& r, SerialDurations&)
{
    return v.toWhole(r.*Field);
}

template <auto Field>
bool readNumber(const FieldValue& v, RunResult& r, SerialDurations&)
{
    return v.toNumber(r.*Field);
}

template <auto Field>
bool readFlag(const FieldValue& v, RunResult& r, SerialDurations&)
{
    return v.toFlag(r.*Field);
}

template <auto Field>
bool readDuration(const FieldValue& v, RunResult&, SerialDurations& d)
{
    return v.toNumber(d.*Field);
}

template <auto Column>
void writeWhole(std::string& out, const RunStore& runs, std::size_t i)
{
    appendWhole(out, (runs.*Column)(i));
}

template <auto Column>
void writeNumber(std::string& out, const RunStore& runs, std::size_t i)
{
    appendNumber(out, (runs.*Column)(i));
}

template <auto Column>
void writeFlag(std::string& out, const RunStore& runs, std::size_t i)
{
    out += (runs.*Column)(i) ? "true" : "false";
}

constexpr RunFieldRule value(const char* name, const char* expected, bool required,
    bool (*read)(const FieldValue&, RunResult&, SerialDurations&), void (*write)(std::string&, const RunStore&, std::size_t))
{
    return { name, expected, required, RunFieldKind::Value, read, write };
}

constexpr RunFieldRule spanList(const char* name, bool required)
{
    return { name, kSpans, required, RunFieldKind::SpanList, nullptr, nullptr };
}

constexpr RunFieldRule duration(const char* name, bool (*read)(const FieldValue&, RunResult&, SerialDurations&))
{
    return { name, kNumber, false, RunFieldKind::Duration, read, nullptr };
}

// ---- a span's fields

template <auto Field>
SpanRead spanWhole(const FieldValue& v, Span& s)
{
    return v.toWhole(s.*Field) ? SpanRead::Taken : SpanRead::NotExpected;
}

template <auto Field>
SpanRead spanNumber(const FieldValue& v, Span& s)
{
    return v.toNumber(s.*Field) ? SpanRead::Taken : SpanRead::NotExpected;
}

// An enum's value by its name, the names' lengths counted once (parseName counts them at every call).
template <class Enum>
std::optional<Enum> valueNamed(std::string_view name)
{
    static const auto table = [] {
        std::vector<std::pair<std::string_view, Enum>> t;
        for (const auto& [value, text] : EnumNames<Enum>::entries)
            t.emplace_back(text, value);
        return t;
    }();
    for (const auto& [text, value] : table) {
        if (text == name)
            return value;
    }
    return std::nullopt;
}

template <auto Field>
SpanRead spanName(const FieldValue& v, Span& s)
{
    if (v.kind != FieldValue::Text)
        return SpanRead::NotExpected;
    using Enum = std::remove_reference_t<decltype(s.*Field)>;
    const auto named = valueNamed<Enum>(v.text);
    if (!named)
        return SpanRead::NotNamed;
    s.*Field = *named;
    return SpanRead::Taken;
}

template <auto Field>
void writeSpanWhole(std::string& out, const Span& s)
{
    out += ',';
    appendWhole(out, s.*Field);
}

template <auto Field>
void writeSpanNumber(std::string& out, const Span& s)
{
    out += ',';
    appendNumber(out, s.*Field);
}

void writeKind(std::string& out, const Span& s)
{
    out += ',';
    appendName(out, nameOf(s.kind));
}

void writeCall(std::string& out, const Span& s)
{
    if (s.kind != SpanKind::Api)
        return;  // only api spans name the call
    out += ',';
    appendName(out, nameOf(s.call));
}

SpanRead readSpanName(const FieldValue& v, Span& s)
{
    std::uint64_t name = 0;
    if (!v.toWhole(name) || name > kMaxProgramNames)
        return SpanRead::NotExpected;
    s.name = std::uint32_t(name);
    return SpanRead::Taken;
}

// Every span where the layout holds it (0 where the span names nothing): the call, after it, is left out of spans
// that are no calls.
void writeSpanName(std::string& out, const Span& s)
{
    out += ',';
    appendWhole(out, s.name);
}

constexpr SpanFieldRule spanWholeField(const char* name, SpanRead (*read)(const FieldValue&, Span&),
    void (*write)(std::string&, const Span&))
{
    return { name, kWhole, false, read, nullptr, write };
}

}  // namespace

// clang-format off
constexpr std::array<RunFieldRule, kRunFieldCount> kRunFields = { {
    value("run", kWhole, true, readWhole<&RunResult::index>, writeWhole<&RunStore::index>),
    value("warmup", kFlag, true, readFlag<&RunResult::warmup>, writeFlag<&RunStore::warmup>),
    value("start_ms", kNumber, false, readNumber<&RunResult::startMs>, writeNumber<&RunStore::startMs>),
    value("gpu_time_ms", kNumber, true, readNumber<&RunResult::gpuMs>, writeNumber<&RunStore::gpuMs>),
    value("poll_iterations", kWhole, true, readWhole<&RunResult::pollIterations>,
        writeWhole<&RunStore::pollIterations>),
    value("wait_cpu_ms", kNumber, false, readNumber<&RunResult::waitCpuMs>, writeNumber<&RunStore::waitCpuMs>),
    value("expected_value", kWhole, false, readWhole<&RunResult::expectedValue>,
        writeWhole<&RunStore::expectedValue>),
    value("verified", kFlag, true, readFlag<&RunResult::verified>, writeFlag<&RunStore::verified>),
    value("first_wrong_index", kWhole, false, readWhole<&RunResult::firstWrongIndex>,
        writeWhole<&RunStore::firstWrongIndex>),
    value("first_wrong_value", kWhole, false, readWhole<&RunResult::firstWrongValue>,
        writeWhole<&RunStore::firstWrongValue>),
    // Required of every run of formats 2 to 4; the document reader takes version 1's durations in their place.
    spanList("spans", false),
    spanList("traced_spans", false),
    duration("cpu_submit_time_ms", readDuration<&SerialDurations::submitMs>),
    duration("wait_ms", readDuration<&SerialDurations::waitMs>),
    duration("h2d_ms", readDuration<&SerialDurations::h2dMs>),
    duration("kernel_ms", readDuration<&SerialDurations::kernelMs>),
    duration("d2h_ms", readDuration<&SerialDurations::d2hMs>),
    value("block", kWhole, false, readWhole<&RunResult::block>, writeWhole<&RunStore::block>),
} };

constexpr std::array<SpanFieldRule, kSpanFieldCount> kSpanFields = { {
    { "kind", kName, true, spanName<&Span::kind>, acceptedNames<SpanKind>, writeKind },
    spanWholeField("device", spanWhole<&Span::device>, writeSpanWhole<&Span::device>),
    spanWholeField("stream", spanWhole<&Span::stream>, writeSpanWhole<&Span::stream>),
    spanWholeField("chunk", spanWhole<&Span::chunk>, writeSpanWhole<&Span::chunk>),
    spanWholeField("bytes", spanWhole<&Span::bytes>, writeSpanWhole<&Span::bytes>),
    { "begin_ms", kNumber, true, spanNumber<&Span::beginMs>, nullptr, writeSpanNumber<&Span::beginMs> },
    { "end_ms", kNumber, true, spanNumber<&Span::endMs>, nullptr, writeSpanNumber<&Span::endMs> },
    { "call", kName, false, spanName<&Span::call>, acceptedNames<ApiCall>, writeCall },
    { "name", kNameNumber, false, readSpanName, nullptr, writeSpanName },
} };
// clang-format on

namespace {

template <class Rules>
constexpr std::uint32_t requiredOf(const Rules& rules)
{
    std::uint32_t bits = 0;
    for (std::size_t f = 0; f < rules.size(); ++f)
        bits |= rules[f].required ? 1u << f : 0u;
    return bits;
}

template <class Rules>
const char* firstMissingOf(const Rules& rules, std::uint32_t seen)
{
    for (std::size_t f = 0; f < rules.size(); ++f) {
        if (rules[f].required && !(seen & (1u << f)))
            return rules[f].name;
    }
    return nullptr;
}

}  // namespace

constexpr std::uint32_t kRequiredRunFields = requiredOf(kRunFields);
constexpr std::uint32_t kRequiredSpanFields = requiredOf(kSpanFields);

const char* firstMissing(std::uint32_t seen, bool span)
{
    return span ? firstMissingOf(kSpanFields, seen) : firstMissingOf(kRunFields, seen);
}

std::string notExpected(RunKey key)
{
    return std::string(ruleOf(key).name) + " is not " + ruleOf(key).expected;
}

std::string givenTwice(std::string_view name)
{
    return std::string(name) + " is given twice; accepted: each field once";
}

std::string spanPlace(std::size_t index, bool traced)
{
    return std::string(traced ? "traced span " : "span ") + std::to_string(index) + ": ";
}

std::string spanProblem(SpanField field, SpanRead read, const FieldValue& value, std::size_t index, bool traced)
{
    const SpanFieldRule& rule = ruleOf(field);
    if (read == SpanRead::NotNamed)
        return spanPlace(index, traced) + rule.name + " '" + quotedValue(value.text) + "' is not " + rule.names();
    return spanPlace(index, traced) + rule.name + " is not " + rule.expected;
}

std::string missingInSpan(const char* field, std::size_t index, bool traced)
{
    return std::string(field) + " missing in " + (traced ? "traced span " : "span ") + std::to_string(index);
}

std::string tooManySpans(bool traced, std::size_t most)
{
    return std::string(traced ? "traced_spans" : "spans") + " holds more than " + std::to_string(most) +
        " spans: more than a run has";
}

}  // namespace asyncscope::json_fields

#include "engine/io/json/report_fields.hpp"

#include "engine/io/json/run_fields.hpp"

#include <algorithm>
#include <array>
#include <iterator>
#include <tuple>
#include <utility>

namespace asyncscope::json_fields {

Layout Layout::full()
{
    Layout l;
    for (std::size_t i = 0; i < kWrittenRunFields; ++i)
        l.run.push_back(RunKey(i));
    for (std::size_t i = 0; i < kSpanFieldCount; ++i)
        l.span.push_back(SpanField(i));
    return l;
}

bool Layout::has(SpanField f) const
{
    return std::find(span.begin(), span.end(), f) != span.end();
}

Layout layoutOf(const Report& report)
{
    bool device = false, stream = false, chunk = false, bytes = false, call = false, name = false;
    for (std::size_t i = 0; i < report.runs.size(); ++i) {
        for (const RunStore::SpanView& list : { report.runs.spans(i), report.runs.traced(i) }) {
            for (const Span s : list) {
                device |= s.device != 0;
                stream |= s.stream != 0;
                chunk |= s.chunk != 0;
                bytes |= s.bytes != 0;
                call |= s.kind == SpanKind::Api;
                name |= s.name != 0;
            }
        }
    }
    Layout l = Layout::full();
    l.span = { SpanField::Kind };
    for (const auto& [used, field] : { std::pair { device, SpanField::Device }, std::pair { stream, SpanField::Stream },
             std::pair { chunk, SpanField::Chunk }, std::pair { bytes, SpanField::Bytes } }) {
        if (used)
            l.span.push_back(field);
    }
    l.span.push_back(SpanField::BeginMs);
    l.span.push_back(SpanField::EndMs);
    if (name)  // before the call, which spans that are no calls leave out
        l.span.push_back(SpanField::Name);
    if (call)
        l.span.push_back(SpanField::Call);
    return l;
}

namespace {

// The rows' names as views, their lengths counted once: a lookup per field of a million runs adds up.
template <class Rules>
auto viewsOf(const Rules& rules)
{
    std::array<std::string_view, std::tuple_size_v<Rules>> views;
    for (std::size_t i = 0; i < views.size(); ++i)
        views[i] = rules[i].name;
    return views;
}

template <std::size_t N>
std::size_t indexOf(const std::array<std::string_view, N>& views, std::string_view name)
{
    return std::size_t(std::find(views.begin(), views.end(), name) - views.begin());  // N when it is none of them
}

}  // namespace

RunKey runKeyOf(std::string_view name)
{
    static const auto views = viewsOf(kRunFields);
    return RunKey(indexOf(views, name));
}

SpanField spanFieldOf(std::string_view name)
{
    static const auto views = viewsOf(kSpanFields);
    return SpanField(indexOf(views, name));
}

std::vector<std::string> runFieldNames(const Layout& layout)
{
    std::vector<std::string> names;
    for (const RunKey k : layout.run)
        names.emplace_back(ruleOf(k).name);
    return names;
}

std::vector<std::string> spanFieldNames(const Layout& layout)
{
    std::vector<std::string> names;
    for (const SpanField f : layout.span)
        names.emplace_back(ruleOf(f).name);
    return names;
}

}  // namespace asyncscope::json_fields

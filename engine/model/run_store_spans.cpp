#include "engine/model/run_store.hpp"

#include "engine/model/run_store_detail.hpp"

#include <algorithm>
#include <cmath>
#include <cstring>
#include <limits>
#include <stdexcept>
#include <string>

namespace asyncscope {

using namespace run_store_detail;

// --- spans, read in place ---

Span RunStore::SpanView::operator[](std::size_t k) const
{
    return m_store->spanAt(*m_columns, m_first + k);
}

SpanKind RunStore::SpanView::kind(std::size_t k) const
{
    return m_store->m_shapes[m_columns->shape[m_first + k]].kind;
}

double RunStore::SpanView::beginMs(std::size_t k) const
{
    const std::size_t at = m_first + k;
    return m_store->decode(m_columns->begin[at], m_columns->tags[at] & 3u);
}

double RunStore::SpanView::endMs(std::size_t k) const
{
    const std::size_t at = m_first + k;
    return m_store->decode(m_columns->end[at], std::uint8_t(m_columns->tags[at] >> 2));
}

std::vector<Span> RunStore::SpanView::toVector() const
{
    std::vector<Span> spans;
    spans.reserve(m_count);
    for (std::size_t k = 0; k < m_count; ++k)
        spans.push_back((*this)[k]);
    return spans;
}

// --- the span columns ---

std::size_t RunStore::SpanColumns::bytesUsed() const
{
    return capacityBytes(shape) + capacityBytes(begin) + capacityBytes(end) + capacityBytes(tags) +
        capacityBytes(runEnd);
}

void RunStore::SpanColumns::clear()
{
    shape.clear();
    begin.clear();
    end.clear();
    tags.clear();
    runEnd.clear();
}

void RunStore::SpanColumns::shrinkToFit()
{
    shape.shrink_to_fit();
    begin.shrink_to_fit();
    end.shrink_to_fit();
    tags.shrink_to_fit();
    runEnd.shrink_to_fit();
}

void RunStore::SpanColumns::truncateRuns(std::size_t runs)
{
    const std::size_t spans = runs == 0 ? 0 : std::size_t(runEnd[runs - 1]);
    shape.resize(spans);
    begin.resize(spans);
    end.resize(spans);
    tags.resize(spans);
    runEnd.resize(runs);
}

std::size_t RunStore::ShapeHash::operator()(const Shape& s) const
{
    std::uint64_t h = std::uint64_t(s.kind) | std::uint64_t(s.call) << 8 | std::uint64_t(s.name) << 16;
    auto mix = [&h](std::uint64_t v) {
        h ^= v + 0x9E3779B97F4A7C15ull + (h << 6) + (h >> 2);
    };
    mix(std::uint64_t(std::uint32_t(s.device)));
    mix(std::uint64_t(std::uint32_t(s.stream)));
    mix(std::uint64_t(std::uint32_t(s.chunk)));
    mix(s.bytes);
    return std::size_t(h);
}

// --- storing ---

void RunStore::growSpans(SpanColumns& columns, std::size_t needed, std::size_t runsAfter)
{
    if (needed <= columns.shape.capacity())
        return;
    std::size_t target = std::max(needed, columns.shape.capacity() + columns.shape.capacity() / 4);
    // Room for the runs reserve() announced, at the spans per run seen so far: a series' runs are alike. (At least a
    // quarter more, so that runs with ever more spans do not move the columns at every run.)
    if (m_runCapacity > runsAfter && runsAfter > 0) {
        const double perRun = double(needed) / double(runsAfter);
        target = std::max(target, std::size_t(std::ceil(perRun * double(m_runCapacity))));
    }
    columns.shape.reserve(target);
    columns.begin.reserve(target);
    columns.end.reserve(target);
    columns.tags.reserve(target);
}

std::uint32_t RunStore::shapeOf(const Shape& shape, const SpanColumns& columns, std::size_t runsBefore, std::size_t k)
{
    // The span at the same place in the run before nearly always has the same shape.
    if (runsBefore > 0 && k < columns.countOf(runsBefore - 1)) {
        const std::uint32_t candidate = columns.shape[columns.firstOf(runsBefore - 1) + k];
        if (m_shapes[candidate] == shape)
            return candidate;
    }
    const auto found = m_shapeNumbers.find(shape);
    if (found != m_shapeNumbers.end())
        return found->second;
    const std::uint32_t number = checkedNumber(m_shapes.size(), "distinct span shapes");
    m_shapes.push_back(shape);
    m_shapeNumbers.emplace(shape, number);
    return number;
}

std::uint32_t RunStore::encode(double ms, std::uint8_t& tag)
{
    if (std::isnan(ms) || std::fabs(ms) <= double(std::numeric_limits<float>::max()) || std::isinf(ms)) {
        const float f = static_cast<float>(ms);
        if (sameBits(double(f), ms)) {
            std::uint32_t bits = 0;
            std::memcpy(&bits, &f, sizeof bits);
            tag = kFloat;
            return bits;
        }
    }
    if (ms >= 0.0 && ms <= double(kMaxNumber) / 1e6) {
        const long long ns = std::llround(ms * 1e6);
        if (ns >= 0 && ns <= (long long)kMaxNumber && sameBits(double(ns) / 1e6, ms)) {
            tag = kWholeNs;
            return static_cast<std::uint32_t>(ns);
        }
    }
    tag = kExact;
    const std::uint32_t number = checkedNumber(m_exact.size(), "span times that are neither floats nor whole ns");
    m_exact.push_back(ms);
    return number;
}

double RunStore::decode(std::uint32_t value, std::uint8_t tag) const
{
    switch (tag) {
    case kFloat: {
        float f = 0.0f;
        std::memcpy(&f, &value, sizeof f);
        return double(f);
    }
    case kWholeNs: return double(value) / 1e6;
    default: return m_exact[value];
    }
}

void RunStore::pushSpans(SpanColumns& columns, const std::vector<Span>& spans, std::size_t runsBefore)
{
    const std::size_t first = columns.spanCount();
    growSpans(columns, first + spans.size(), runsBefore + 1);
    const std::size_t exactBefore = m_exact.size();
    try {
        for (std::size_t k = 0; k < spans.size(); ++k) {
            const Span& s = spans[k];
            const std::uint32_t shape =
                shapeOf({ s.kind, s.call, s.name, s.device, s.stream, s.chunk, s.bytes }, columns, runsBefore, k);
            std::uint8_t beginTag = 0, endTag = 0;
            const std::uint32_t begin = encode(s.beginMs, beginTag);
            const std::uint32_t end = encode(s.endMs, endTag);
            columns.shape.push_back(shape);
            columns.begin.push_back(begin);
            columns.end.push_back(end);
            columns.tags.push_back(std::uint8_t(beginTag | endTag << 2));
        }
        columns.runEnd.push_back(columns.spanCount());
    } catch (...) {
        columns.truncateRuns(runsBefore);
        m_exact.resize(exactBefore);
        throw;
    }
}

// --- reading ---

Span RunStore::spanAt(const SpanColumns& columns, std::size_t k) const
{
    const Shape& shape = m_shapes[columns.shape[k]];
    Span s;
    s.kind = shape.kind;
    s.call = shape.call;
    s.name = shape.name;
    s.device = shape.device;
    s.stream = shape.stream;
    s.chunk = shape.chunk;
    s.bytes = shape.bytes;
    s.beginMs = decode(columns.begin[k], columns.tags[k] & 3u);
    s.endMs = decode(columns.end[k], std::uint8_t(columns.tags[k] >> 2));
    return s;
}

RunStore::SpanView RunStore::spans(std::size_t i) const
{
    return { this, &m_spans, m_spans.firstOf(i), m_spans.countOf(i) };
}

RunStore::SpanView RunStore::traced(std::size_t i) const
{
    return { this, &m_traced, m_traced.firstOf(i), m_traced.countOf(i) };
}

std::uint32_t RunStore::mostName() const
{
    std::uint32_t most = 0;
    for (const Shape& shape : m_shapes)
        most = std::max(most, shape.name);
    return most;
}

bool RunStore::has(std::size_t i, SpanKind kind) const
{
    const std::size_t first = m_spans.firstOf(i), last = std::size_t(m_spans.runEnd[i]);
    for (std::size_t k = first; k < last; ++k) {
        if (m_shapes[m_spans.shape[k]].kind == kind)
            return true;
    }
    return false;
}

double RunStore::totalMs(std::size_t i, SpanKind kind) const
{
    double ms = 0.0;
    const std::size_t first = m_spans.firstOf(i), last = std::size_t(m_spans.runEnd[i]);
    for (std::size_t k = first; k < last; ++k) {
        if (m_shapes[m_spans.shape[k]].kind == kind) {
            const std::uint8_t tags = m_spans.tags[k];
            ms += decode(m_spans.end[k], std::uint8_t(tags >> 2)) - decode(m_spans.begin[k], tags & 3u);
        }
    }
    return ms;
}

std::uint64_t RunStore::totalBytes(std::size_t i, SpanKind kind) const
{
    std::uint64_t bytes = 0;
    const std::size_t first = m_spans.firstOf(i), last = std::size_t(m_spans.runEnd[i]);
    for (std::size_t k = first; k < last; ++k) {
        const Shape& shape = m_shapes[m_spans.shape[k]];
        if (shape.kind == kind)
            bytes += shape.bytes;
    }
    return bytes;
}

// --- changing ---

void RunStore::setSpans(std::size_t i, const std::vector<Span>& spans)
{
    if (i >= size())
        throw std::out_of_range("run " + std::to_string(i) + " of a series of " + std::to_string(size()));
    rebuildSpans(&RunStore::m_spans, { { i, spans } });
}

void RunStore::setSpans(const std::vector<std::pair<std::size_t, std::vector<Span>>>& spansByRun)
{
    for (const auto& [i, spans] : spansByRun) {
        if (i >= size())
            throw std::out_of_range("run " + std::to_string(i) + " of a series of " + std::to_string(size()));
    }
    rebuildSpans(&RunStore::m_spans, spansByRun);
}

void RunStore::rebuildSpans(SpanColumns RunStore::*which,
    const std::vector<std::pair<std::size_t, std::vector<Span>>>& byRun)
{
    SpanColumns& columns = this->*which;
    // As many spans as before in each run changed: in place.
    const bool inPlace = std::all_of(byRun.begin(), byRun.end(),
        [&columns](const auto& change) { return columns.countOf(change.first) == change.second.size(); });
    if (inPlace) {
        for (const auto& [i, spans] : byRun) {
            const std::size_t first = columns.firstOf(i);
            for (std::size_t k = 0; k < spans.size(); ++k) {
                const Span& s = spans[k];
                std::uint8_t beginTag = 0, endTag = 0;
                columns.shape[first + k] =
                    shapeOf({ s.kind, s.call, s.name, s.device, s.stream, s.chunk, s.bytes }, columns, 0, k);
                columns.begin[first + k] = encode(s.beginMs, beginTag);
                columns.end[first + k] = encode(s.endMs, endTag);
                columns.tags[first + k] = std::uint8_t(beginTag | endTag << 2);
            }
        }
        return;
    }
    std::vector<const std::pair<std::size_t, std::vector<Span>>*> order;
    order.reserve(byRun.size());
    std::size_t spanCount = columns.spanCount();
    for (const auto& change : byRun) {
        order.push_back(&change);
        spanCount = spanCount - columns.countOf(change.first) + change.second.size();
    }
    std::sort(order.begin(), order.end(), [](const auto* a, const auto* b) { return a->first < b->first; });
    SpanColumns rebuilt;
    rebuilt.shape.reserve(spanCount);
    rebuilt.begin.reserve(spanCount);
    rebuilt.end.reserve(spanCount);
    rebuilt.tags.reserve(spanCount);
    rebuilt.runEnd.reserve(columns.runEnd.capacity());
    auto next = order.begin();
    for (std::size_t run = 0; run < columns.runEnd.size(); ++run) {
        if (next != order.end() && (*next)->first == run) {
            pushSpans(rebuilt, (*next)->second, run);
            ++next;
            continue;
        }
        const std::size_t first = columns.firstOf(run), last = std::size_t(columns.runEnd[run]);
        rebuilt.shape.insert(rebuilt.shape.end(), columns.shape.begin() + first, columns.shape.begin() + last);
        rebuilt.begin.insert(rebuilt.begin.end(), columns.begin.begin() + first, columns.begin.begin() + last);
        rebuilt.end.insert(rebuilt.end.end(), columns.end.begin() + first, columns.end.begin() + last);
        rebuilt.tags.insert(rebuilt.tags.end(), columns.tags.begin() + first, columns.tags.begin() + last);
        rebuilt.runEnd.push_back(rebuilt.spanCount());
    }
    columns = std::move(rebuilt);
}

}  // namespace asyncscope

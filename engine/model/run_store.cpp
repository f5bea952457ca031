#include "engine/model/run_store.hpp"

#include <algorithm>
#include <cmath>
#include <cstring>
#include <limits>
#include <stdexcept>
#include <string>

namespace asyncscope {

namespace {

constexpr std::uint32_t kMaxNumber = std::numeric_limits<std::uint32_t>::max();

template <class T, class A>
std::size_t capacityBytes(const std::vector<T, A>& v)
{
    return v.capacity() * sizeof(T);
}

bool sameBits(double a, double b)
{
    return std::memcmp(&a, &b, sizeof a) == 0;
}

std::uint32_t checkedNumber(std::size_t n, const char* what)
{
    if (n >= kMaxNumber)
        throw std::length_error(std::string("a series holds at most 2^32 - 1 ") + what);
    return static_cast<std::uint32_t>(n);
}

bool sameSpan(const Span& a, const Span& b)
{
    return a.kind == b.kind && a.call == b.call && a.device == b.device && a.stream == b.stream &&
        a.chunk == b.chunk && a.bytes == b.bytes && sameBits(a.beginMs, b.beginMs) && sameBits(a.endMs, b.endMs);
}

}  // namespace

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
    std::uint64_t h = std::uint64_t(s.kind) | std::uint64_t(s.call) << 8;
    auto mix = [&h](std::uint64_t v) {
        h ^= v + 0x9E3779B97F4A7C15ull + (h << 6) + (h >> 2);
    };
    mix(std::uint64_t(std::uint32_t(s.device)));
    mix(std::uint64_t(std::uint32_t(s.stream)));
    mix(std::uint64_t(std::uint32_t(s.chunk)));
    mix(s.bytes);
    return std::size_t(h);
}

// --- building ---

RunStore::RunStore(std::initializer_list<RunResult> runs)
{
    reserve(runs.size());
    for (const RunResult& r : runs)
        push_back(r);
}

RunStore::RunStore(const std::vector<RunResult>& runs)
{
    reserve(runs.size());
    for (const RunResult& r : runs)
        push_back(r);
}

void RunStore::reserve(std::size_t runs)
{
    m_runCapacity = std::max(m_runCapacity, runs);
    m_index.reserve(runs);
    m_flags.reserve(runs);
    m_startMs.reserve(runs);
    m_hostClockNs.reserve(runs);
    m_gpuMs.reserve(runs);
    m_pollIterations.reserve(runs);
    m_waitCpuMs.reserve(runs);
    m_expectedValue.reserve(runs);
    m_firstWrongIndex.reserve(runs);
    m_firstWrongValue.reserve(runs);
    m_spans.runEnd.reserve(runs);
    m_traced.runEnd.reserve(runs);
}

void RunStore::clear()
{
    m_index.clear();
    m_flags.clear();
    m_startMs.clear();
    m_hostClockNs.clear();
    m_gpuMs.clear();
    m_pollIterations.clear();
    m_waitCpuMs.clear();
    m_expectedValue.clear();
    m_firstWrongIndex.clear();
    m_firstWrongValue.clear();
    m_spans.clear();
    m_traced.clear();
    m_shapes.clear();
    m_shapeNumbers.clear();
    m_exact.clear();
}

void RunStore::shrink_to_fit()
{
    m_index.shrink_to_fit();
    m_flags.shrink_to_fit();
    m_startMs.shrink_to_fit();
    m_hostClockNs.shrink_to_fit();
    m_gpuMs.shrink_to_fit();
    m_pollIterations.shrink_to_fit();
    m_waitCpuMs.shrink_to_fit();
    m_expectedValue.shrink_to_fit();
    m_firstWrongIndex.shrink_to_fit();
    m_firstWrongValue.shrink_to_fit();
    m_spans.shrinkToFit();
    m_traced.shrinkToFit();
    m_shapes.shrink_to_fit();
    m_exact.shrink_to_fit();
    m_runCapacity = size();
}

void RunStore::push_back(const RunResult& run)
{
    const std::size_t before = size();
    checkedNumber(before, "runs");
    // A quarter more room at a time, not double: a series' memory stays within 1.25 times what its runs need.
    if (before == m_index.capacity())
        reserve(std::max<std::size_t>(16, before + before / 4));
    // The spans first: they are what can throw, and the run's fields are then added all or not at all.
    pushSpans(m_spans, run.spans, before);
    try {
        pushSpans(m_traced, run.traced, before);
    } catch (...) {
        m_spans.truncateRuns(before);
        throw;
    }
    m_index.push_back(run.index);
    m_flags.push_back(std::uint8_t((run.warmup ? kWarmup : 0) | (run.verified ? kVerified : 0)));
    m_startMs.push_back(run.startMs);
    m_hostClockNs.push_back(run.hostClockNs);
    m_gpuMs.push_back(run.gpuMs);
    m_pollIterations.push_back(run.pollIterations);
    m_waitCpuMs.push_back(run.waitCpuMs);
    m_expectedValue.push_back(run.expectedValue);
    m_firstWrongIndex.push_back(run.firstWrongIndex);
    m_firstWrongValue.push_back(run.firstWrongValue);
}

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
                shapeOf({ s.kind, s.call, s.device, s.stream, s.chunk, s.bytes }, columns, runsBefore, k);
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

void RunStore::append(const RunStore& runs)
{
    append(runs, 0, runs.size());
}

void RunStore::append(const RunStore& runs, std::size_t first, std::size_t last)
{
    if (first > last || last > runs.size())
        throw std::out_of_range("runs " + std::to_string(first) + " to " + std::to_string(last) + " of a series of " +
            std::to_string(runs.size()));
    if (&runs == this) {
        const RunStore copy = runs;
        append(copy, first, last);
        return;
    }
    const std::size_t before = size(), count = last - first;
    checkedNumber(before + count, "runs");
    reserve(before + count);
    // Their shape numbers in this store's table.
    std::vector<std::uint32_t> shapeNumber;
    shapeNumber.reserve(runs.m_shapes.size());
    for (const Shape& shape : runs.m_shapes) {
        const auto found = m_shapeNumbers.find(shape);
        if (found != m_shapeNumbers.end()) {
            shapeNumber.push_back(found->second);
        } else {
            shapeNumber.push_back(checkedNumber(m_shapes.size(), "distinct span shapes"));
            m_shapes.push_back(shape);
            m_shapeNumbers.emplace(shape, shapeNumber.back());
        }
    }
    const auto copySpans = [&](SpanColumns& to, const SpanColumns& from) {
        const std::size_t offset = to.spanCount();
        const std::size_t firstSpan = count ? from.firstOf(first) : 0, lastSpan = count ? from.runEnd[last - 1] : 0;
        growSpans(to, offset + lastSpan - firstSpan, before + count);
        for (std::size_t k = firstSpan; k < lastSpan; ++k) {
            std::uint32_t begin = from.begin[k], end = from.end[k];
            const std::uint8_t tags = from.tags[k];
            if ((tags & 3u) == kExact) {
                m_exact.push_back(runs.m_exact[begin]);
                begin = checkedNumber(m_exact.size() - 1, "span times that are neither floats nor whole ns");
            }
            if ((tags >> 2) == kExact) {
                m_exact.push_back(runs.m_exact[end]);
                end = checkedNumber(m_exact.size() - 1, "span times that are neither floats nor whole ns");
            }
            to.shape.push_back(shapeNumber[from.shape[k]]);
            to.begin.push_back(begin);
            to.end.push_back(end);
            to.tags.push_back(tags);
        }
        for (std::size_t run = first; run < last; ++run)
            to.runEnd.push_back(from.runEnd[run] - firstSpan + offset);
    };
    copySpans(m_spans, runs.m_spans);
    copySpans(m_traced, runs.m_traced);
    const auto extend = [first, last](auto& to, const auto& from) {
        to.insert(to.end(), from.begin() + std::ptrdiff_t(first), from.begin() + std::ptrdiff_t(last));
    };
    extend(m_index, runs.m_index);
    extend(m_flags, runs.m_flags);
    extend(m_startMs, runs.m_startMs);
    extend(m_hostClockNs, runs.m_hostClockNs);
    extend(m_gpuMs, runs.m_gpuMs);
    extend(m_pollIterations, runs.m_pollIterations);
    extend(m_waitCpuMs, runs.m_waitCpuMs);
    extend(m_expectedValue, runs.m_expectedValue);
    extend(m_firstWrongIndex, runs.m_firstWrongIndex);
    extend(m_firstWrongValue, runs.m_firstWrongValue);
}

void RunStore::pop_back()
{
    const std::size_t runs = size() - 1;
    m_spans.truncateRuns(runs);
    m_traced.truncateRuns(runs);
    m_index.pop_back();
    m_flags.pop_back();
    m_startMs.pop_back();
    m_hostClockNs.pop_back();
    m_gpuMs.pop_back();
    m_pollIterations.pop_back();
    m_waitCpuMs.pop_back();
    m_expectedValue.pop_back();
    m_firstWrongIndex.pop_back();
    m_firstWrongValue.pop_back();
}

void RunStore::resize(std::size_t runs)
{
    while (size() > runs)
        pop_back();
    if (runs > size())
        reserve(runs);
    while (size() < runs)
        push_back(RunResult {});
}

// --- reading ---

Span RunStore::spanAt(const SpanColumns& columns, std::size_t k) const
{
    const Shape& shape = m_shapes[columns.shape[k]];
    Span s;
    s.kind = shape.kind;
    s.call = shape.call;
    s.device = shape.device;
    s.stream = shape.stream;
    s.chunk = shape.chunk;
    s.bytes = shape.bytes;
    s.beginMs = decode(columns.begin[k], columns.tags[k] & 3u);
    s.endMs = decode(columns.end[k], std::uint8_t(columns.tags[k] >> 2));
    return s;
}

const RunResult RunStore::operator[](std::size_t i) const
{
    RunResult r;
    r.index = m_index[i];
    r.warmup = warmup(i);
    r.verified = verified(i);
    r.startMs = m_startMs[i];
    r.hostClockNs = m_hostClockNs[i];
    r.gpuMs = m_gpuMs[i];
    r.pollIterations = m_pollIterations[i];
    r.waitCpuMs = m_waitCpuMs[i];
    r.expectedValue = m_expectedValue[i];
    r.firstWrongIndex = m_firstWrongIndex[i];
    r.firstWrongValue = m_firstWrongValue[i];
    r.spans = spans(i).toVector();
    r.traced = traced(i).toVector();
    return r;
}

const RunResult RunStore::at(std::size_t i) const
{
    if (i >= size())
        throw std::out_of_range("run " + std::to_string(i) + " of a series of " + std::to_string(size()));
    return (*this)[i];
}

std::vector<RunResult> RunStore::toVector() const
{
    std::vector<RunResult> runs;
    runs.reserve(size());
    for (std::size_t i = 0; i < size(); ++i)
        runs.push_back((*this)[i]);
    return runs;
}

RunStore::SpanView RunStore::spans(std::size_t i) const
{
    return { this, &m_spans, m_spans.firstOf(i), m_spans.countOf(i) };
}

RunStore::SpanView RunStore::traced(std::size_t i) const
{
    return { this, &m_traced, m_traced.firstOf(i), m_traced.countOf(i) };
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

void RunStore::set(std::size_t i, const RunResult& run)
{
    if (i >= size())
        throw std::out_of_range("run " + std::to_string(i) + " of a series of " + std::to_string(size()));
    if (i + 1 == size()) {
        pop_back();
        push_back(run);
        return;
    }
    rebuildSpans(&RunStore::m_spans, { { i, run.spans } });
    rebuildSpans(&RunStore::m_traced, { { i, run.traced } });
    m_index[i] = run.index;
    m_flags[i] = std::uint8_t((run.warmup ? kWarmup : 0) | (run.verified ? kVerified : 0));
    m_startMs[i] = run.startMs;
    m_hostClockNs[i] = run.hostClockNs;
    m_gpuMs[i] = run.gpuMs;
    m_pollIterations[i] = run.pollIterations;
    m_waitCpuMs[i] = run.waitCpuMs;
    m_expectedValue[i] = run.expectedValue;
    m_firstWrongIndex[i] = run.firstWrongIndex;
    m_firstWrongValue[i] = run.firstWrongValue;
}

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
                    shapeOf({ s.kind, s.call, s.device, s.stream, s.chunk, s.bytes }, columns, 0, k);
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

// --- accounting and comparing ---

std::size_t RunStore::bytesUsed() const
{
    // A node of the shape table: the key and number, the next pointer and the cached hash.
    const std::size_t node = sizeof(std::pair<const Shape, std::uint32_t>) + 2 * sizeof(void*);
    return sizeof(*this) + capacityBytes(m_index) + capacityBytes(m_flags) + capacityBytes(m_startMs) +
        capacityBytes(m_hostClockNs) + capacityBytes(m_gpuMs) + capacityBytes(m_pollIterations) +
        capacityBytes(m_waitCpuMs) + capacityBytes(m_expectedValue) + capacityBytes(m_firstWrongIndex) +
        capacityBytes(m_firstWrongValue) + m_spans.bytesUsed() + m_traced.bytesUsed() + capacityBytes(m_shapes) +
        m_shapeNumbers.bucket_count() * sizeof(void*) + m_shapeNumbers.size() * node + capacityBytes(m_exact);
}

bool operator==(const RunStore& a, const RunStore& b)
{
    if (a.size() != b.size())
        return false;
    const auto sameDoubles = [](const BigVector<double>& x, const BigVector<double>& y) {
        return std::equal(x.begin(), x.end(), y.begin(), y.end(), sameBits);
    };
    if (a.m_index != b.m_index || a.m_flags != b.m_flags || !sameDoubles(a.m_startMs, b.m_startMs) ||
        a.m_hostClockNs != b.m_hostClockNs || !sameDoubles(a.m_gpuMs, b.m_gpuMs) ||
        a.m_pollIterations != b.m_pollIterations || !sameDoubles(a.m_waitCpuMs, b.m_waitCpuMs) ||
        a.m_expectedValue != b.m_expectedValue || a.m_firstWrongIndex != b.m_firstWrongIndex ||
        a.m_firstWrongValue != b.m_firstWrongValue || a.m_spans.runEnd != b.m_spans.runEnd ||
        a.m_traced.runEnd != b.m_traced.runEnd)
        return false;
    for (const auto which : { &RunStore::m_spans, &RunStore::m_traced }) {
        const RunStore::SpanColumns& x = a.*which;
        const RunStore::SpanColumns& y = b.*which;
        for (std::size_t k = 0; k < x.spanCount(); ++k) {
            if (!sameSpan(a.spanAt(x, k), b.spanAt(y, k)))
                return false;
        }
    }
    return true;
}

}  // namespace asyncscope

#include "engine/model/run_store.hpp"

#include "engine/model/run_store_detail.hpp"

#include <algorithm>
#include <stdexcept>
#include <string>

namespace asyncscope {

using namespace run_store_detail;

std::uint32_t run_store_detail::checkedNumber(std::size_t n, const char* what)
{
    if (n >= kMaxNumber)
        throw std::length_error(std::string("a series holds at most 2^32 - 1 ") + what);
    return static_cast<std::uint32_t>(n);
}

namespace {

bool sameSpan(const Span& a, const Span& b)
{
    return a.kind == b.kind && a.call == b.call && a.device == b.device && a.stream == b.stream &&
        a.chunk == b.chunk && a.bytes == b.bytes && sameBits(a.beginMs, b.beginMs) && sameBits(a.endMs, b.endMs);
}

}  // namespace

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
    m_block.reserve(runs);
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
    m_block.clear();
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
    m_block.shrink_to_fit();
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
    m_block.push_back(run.block);
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
    extend(m_block, runs.m_block);
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
    m_block.pop_back();
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

const RunResult RunStore::operator[](std::size_t i) const
{
    RunResult r;
    r.index = m_index[i];
    r.block = m_block[i];
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
    m_block[i] = run.block;
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

void RunStore::setPlace(std::size_t i, int index, bool warmup, double startMs)
{
    if (i >= size())
        throw std::out_of_range("run " + std::to_string(i) + " of a series of " + std::to_string(size()));
    m_index[i] = index;
    m_flags[i] = std::uint8_t((m_flags[i] & ~kWarmup) | (warmup ? kWarmup : 0));
    m_startMs[i] = startMs;
}

// --- accounting and comparing ---

std::size_t RunStore::bytesUsed() const
{
    // A node of the shape table: the key and number, the next pointer and the cached hash.
    const std::size_t node = sizeof(std::pair<const Shape, std::uint32_t>) + 2 * sizeof(void*);
    return sizeof(*this) + capacityBytes(m_index) + capacityBytes(m_block) + capacityBytes(m_flags) +
        capacityBytes(m_startMs) + capacityBytes(m_hostClockNs) + capacityBytes(m_gpuMs) +
        capacityBytes(m_pollIterations) + capacityBytes(m_waitCpuMs) + capacityBytes(m_expectedValue) +
        capacityBytes(m_firstWrongIndex) + capacityBytes(m_firstWrongValue) + m_spans.bytesUsed() +
        m_traced.bytesUsed() + capacityBytes(m_shapes) +
        m_shapeNumbers.bucket_count() * sizeof(void*) + m_shapeNumbers.size() * node + capacityBytes(m_exact);
}

bool operator==(const RunStore& a, const RunStore& b)
{
    if (a.size() != b.size())
        return false;
    const auto sameDoubles = [](const BigVector<double>& x, const BigVector<double>& y) {
        return std::equal(x.begin(), x.end(), y.begin(), y.end(), sameBits);
    };
    if (a.m_index != b.m_index || a.m_block != b.m_block || a.m_flags != b.m_flags ||
        !sameDoubles(a.m_startMs, b.m_startMs) || a.m_hostClockNs != b.m_hostClockNs ||
        !sameDoubles(a.m_gpuMs, b.m_gpuMs) ||
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

// The runs of one series, stored compactly: each run's scalar fields as columns, and every run's spans packed into
// one shared set of columns that the runs point into by offset. A classic run (six spans) takes about 155 bytes here
// against some 450 as a RunResult with its two vectors, and a series of a million runs a few dozen allocations.
//
// Exact: every value reads back bit for bit as it was pushed (the writers print doubles in their shortest
// round-trip form, so anything less would change the files). A span's begin and end are kept in 32 bits when that is
// exact: as a float when the value is one (CUDA events time in float ms), as whole nanoseconds when the value is n/1e6
// for an n below 2^32 (the host clock and CUPTI tick in ns; 4.29 s from the run's start); any other value goes whole
// into a side table of doubles. A span's kind, call, device, stream, chunk and bytes are one "shape": a series holds
// few distinct shapes (a classic run's six spans have the same shapes in every run), so a span keeps a 32-bit number
// into the series' table of shapes.
//
// It reads like a std::vector<RunResult> whose elements come back by value (operator[], at(), front(), back() and the
// iterators build a RunResult); the column accessors (gpuMs(i), totalMs(i, kind), spans(i), ...) read one field of
// one run without building one, for the loops over every run. Changes go through set()/setSpans().
#pragma once

#include "engine/model/big_vector.hpp"
#include "engine/model/run_result.hpp"

#include <cstddef>
#include <cstdint>
#include <initializer_list>
#include <iterator>
#include <unordered_map>
#include <utility>
#include <vector>

namespace asyncscope {

class RunStore {
    struct SpanColumns;

public:
    // The spans of one run (or its traced spans), read in place: each comes back by value.
    class SpanView {
    public:
        class const_iterator {
        public:
            using iterator_category = std::input_iterator_tag;
            using value_type = Span;
            using difference_type = std::ptrdiff_t;
            using pointer = void;
            using reference = Span;

            const_iterator() = default;
            const_iterator(const RunStore* store, const SpanColumns* columns, std::size_t at)
                : m_store(store)
                , m_columns(columns)
                , m_at(at)
            {
            }
            Span operator*() const { return m_store->spanAt(*m_columns, m_at); }
            const_iterator& operator++()
            {
                ++m_at;
                return *this;
            }
            const_iterator operator++(int)
            {
                const_iterator was = *this;
                ++m_at;
                return was;
            }
            bool operator==(const const_iterator& o) const { return m_at == o.m_at; }
            bool operator!=(const const_iterator& o) const { return m_at != o.m_at; }

        private:
            const RunStore* m_store = nullptr;
            const SpanColumns* m_columns = nullptr;
            std::size_t m_at = 0;  // in the series' spans
        };

        std::size_t size() const { return m_count; }
        bool empty() const { return m_count == 0; }
        Span operator[](std::size_t k) const;
        SpanKind kind(std::size_t k) const;
        double beginMs(std::size_t k) const;
        double endMs(std::size_t k) const;
        double ms(std::size_t k) const { return endMs(k) - beginMs(k); }
        // Iterators that stay valid while the store is unchanged, the view gone or not.
        const_iterator begin() const { return { m_store, m_columns, m_first }; }
        const_iterator end() const { return { m_store, m_columns, m_first + m_count }; }
        std::vector<Span> toVector() const;

    private:
        friend class RunStore;
        SpanView(const RunStore* store, const SpanColumns* columns, std::size_t first, std::size_t count)
            : m_store(store)
            , m_columns(columns)
            , m_first(first)
            , m_count(count)
        {
        }
        const RunStore* m_store;
        const SpanColumns* m_columns;
        std::size_t m_first;
        std::size_t m_count;
    };

    // Walks the runs, each materialised as a RunResult when dereferenced.
    class const_iterator {
    public:
        using iterator_category = std::random_access_iterator_tag;
        using value_type = RunResult;
        using difference_type = std::ptrdiff_t;
        using pointer = void;
        using reference = const RunResult;

        const_iterator() = default;
        const_iterator(const RunStore* store, std::size_t at)
            : m_store(store)
            , m_at(at)
        {
        }
        const RunResult operator*() const { return (*m_store)[m_at]; }
        const RunResult operator[](difference_type n) const
        {
            return (*m_store)[std::size_t(difference_type(m_at) + n)];
        }
        std::size_t position() const { return m_at; }
        const_iterator& operator++()
        {
            ++m_at;
            return *this;
        }
        const_iterator operator++(int)
        {
            const_iterator was = *this;
            ++m_at;
            return was;
        }
        const_iterator& operator--()
        {
            --m_at;
            return *this;
        }
        const_iterator operator--(int)
        {
            const_iterator was = *this;
            --m_at;
            return was;
        }
        const_iterator& operator+=(difference_type n)
        {
            m_at = std::size_t(difference_type(m_at) + n);
            return *this;
        }
        const_iterator& operator-=(difference_type n) { return *this += -n; }
        friend const_iterator operator+(const_iterator i, difference_type n) { return i += n; }
        friend const_iterator operator+(difference_type n, const_iterator i) { return i += n; }
        friend const_iterator operator-(const_iterator i, difference_type n) { return i -= n; }
        friend difference_type operator-(const const_iterator& a, const const_iterator& b)
        {
            return difference_type(a.m_at) - difference_type(b.m_at);
        }
        bool operator==(const const_iterator& o) const { return m_at == o.m_at; }
        bool operator!=(const const_iterator& o) const { return m_at != o.m_at; }
        bool operator<(const const_iterator& o) const { return m_at < o.m_at; }
        bool operator>(const const_iterator& o) const { return m_at > o.m_at; }
        bool operator<=(const const_iterator& o) const { return m_at <= o.m_at; }
        bool operator>=(const const_iterator& o) const { return m_at >= o.m_at; }

    private:
        const RunStore* m_store = nullptr;
        std::size_t m_at = 0;
    };
    using value_type = RunResult;
    using size_type = std::size_t;
    using iterator = const_iterator;

    RunStore() = default;
    RunStore(std::initializer_list<RunResult> runs);
    explicit RunStore(const std::vector<RunResult>& runs);

    std::size_t size() const { return m_index.size(); }
    bool empty() const { return m_index.empty(); }
    std::size_t capacity() const { return m_index.capacity(); }  // runs held without moving the columns
    // Room for `runs` runs; the spans' columns then grow to what that many runs like the first ones need. Without
    // it the columns grow by a quarter at a time.
    void reserve(std::size_t runs);
    void clear();
    void shrink_to_fit();
    void push_back(const RunResult& run);
    void append(const RunStore& runs);
    void append(const RunStore& runs, std::size_t first, std::size_t last);  // its runs [first, last)
    void pop_back();
    void resize(std::size_t runs);  // new runs are RunResult {}

    // A run built from the columns. Const, so that `runs[i].gpuMs = x` or `runs[i].spans.push_back(s)`, which would
    // change a copy, do not compile: set() or update() change a run.
    const RunResult operator[](std::size_t i) const;
    const RunResult at(std::size_t i) const;  // throws std::out_of_range past the end, as std::vector::at
    const RunResult front() const { return (*this)[0]; }
    const RunResult back() const { return (*this)[size() - 1]; }
    const_iterator begin() const { return { this, 0 }; }
    const_iterator end() const { return { this, size() }; }
    const_iterator cbegin() const { return begin(); }
    const_iterator cend() const { return end(); }
    std::vector<RunResult> toVector() const;

    // One field of run i, read in place.
    int index(std::size_t i) const { return m_index[i]; }
    int block(std::size_t i) const { return m_block[i]; }
    bool warmup(std::size_t i) const { return (m_flags[i] & kWarmup) != 0; }
    bool verified(std::size_t i) const { return (m_flags[i] & kVerified) != 0; }
    double startMs(std::size_t i) const { return m_startMs[i]; }
    std::int64_t hostClockNs(std::size_t i) const { return m_hostClockNs[i]; }
    double gpuMs(std::size_t i) const { return m_gpuMs[i]; }
    std::uint64_t pollIterations(std::size_t i) const { return m_pollIterations[i]; }
    double waitCpuMs(std::size_t i) const { return m_waitCpuMs[i]; }
    int expectedValue(std::size_t i) const { return m_expectedValue[i]; }
    std::int64_t firstWrongIndex(std::size_t i) const { return m_firstWrongIndex[i]; }
    int firstWrongValue(std::size_t i) const { return m_firstWrongValue[i]; }
    SpanView spans(std::size_t i) const;
    SpanView traced(std::size_t i) const;
    // As RunResult's members of the same names, over run i's spans.
    bool has(std::size_t i, SpanKind kind) const;
    double totalMs(std::size_t i, SpanKind kind) const;
    std::uint64_t totalBytes(std::size_t i, SpanKind kind) const;
    // The highest Span::name of the spans stored (0: none is named), read from the few shapes they share.
    std::uint32_t mostName() const;
    bool stagesTimed(std::size_t i) const { return has(i, SpanKind::H2D); }
    double cpuSubmitMs(std::size_t i) const { return totalMs(i, SpanKind::Submit); }
    double waitMs(std::size_t i) const { return totalMs(i, SpanKind::Wait); }

    // Replaces run i. Cheap when its spans are as many as before (or it is the last run); otherwise the spans of the
    // runs after it move.
    void set(std::size_t i, const RunResult& run);
    // A run's place in its series alone (its index, whether it is a warm-up, its start), its spans untouched.
    void setPlace(std::size_t i, int index, bool warmup, double startMs);
    // Calls change(run) with run i, then stores what it made of it.
    template <class Change>
    void update(std::size_t i, Change&& change)
    {
        RunResult run = at(i);
        change(run);
        set(i, run);
    }
    void setSpans(std::size_t i, const std::vector<Span>& spans);
    // Replaces the spans of several runs (any order, each run once) with one pass over the store.
    void setSpans(const std::vector<std::pair<std::size_t, std::vector<Span>>>& spansByRun);

    // The memory the store holds, by its columns' capacities (not their sizes) and its tables' nodes.
    std::size_t bytesUsed() const;

    friend bool operator==(const RunStore& a, const RunStore& b);
    friend bool operator!=(const RunStore& a, const RunStore& b) { return !(a == b); }

private:
    static constexpr std::uint8_t kWarmup = 1, kVerified = 2;

    // What a span is apart from its times.
    struct Shape {
        SpanKind kind;
        ApiCall call;
        std::uint32_t name;
        int device;
        int stream;
        int chunk;
        std::uint64_t bytes;
        bool operator==(const Shape& o) const
        {
            return kind == o.kind && call == o.call && name == o.name && device == o.device && stream == o.stream && chunk == o.chunk &&
                bytes == o.bytes;
        }
    };
    struct ShapeHash {
        std::size_t operator()(const Shape& s) const;
    };

    // One set of spans (the runs' spans, or their traced spans): span k of the whole series has shape[k], its times
    // in begin[k] and end[k] as tags[k] says (two bits each), and run i's spans end at runEnd[i].
    struct SpanColumns {
        BigVector<std::uint32_t> shape;
        BigVector<std::uint32_t> begin;
        BigVector<std::uint32_t> end;
        BigVector<std::uint8_t> tags;
        BigVector<std::uint64_t> runEnd;

        std::size_t firstOf(std::size_t run) const { return run == 0 ? 0 : std::size_t(runEnd[run - 1]); }
        std::size_t countOf(std::size_t run) const { return std::size_t(runEnd[run]) - firstOf(run); }
        std::size_t spanCount() const { return shape.size(); }
        std::size_t bytesUsed() const;
        void clear();
        void shrinkToFit();
        void truncateRuns(std::size_t runs);
        bool operator==(const SpanColumns& o) const;
    };

    enum TimeTag : std::uint8_t { kFloat = 0, kWholeNs = 1, kExact = 2 };

    void pushSpans(SpanColumns& columns, const std::vector<Span>& spans, std::size_t runsBefore);
    void growSpans(SpanColumns& columns, std::size_t needed, std::size_t runsAfter);
    std::uint32_t shapeOf(const Shape& shape, const SpanColumns& columns, std::size_t runsBefore, std::size_t k);
    std::uint32_t encode(double ms, std::uint8_t& tag);
    double decode(std::uint32_t value, std::uint8_t tag) const;
    Span spanAt(const SpanColumns& columns, std::size_t k) const;
    void rebuildSpans(
        SpanColumns RunStore::*which, const std::vector<std::pair<std::size_t, std::vector<Span>>>& byRun);

    BigVector<int> m_index;
    BigVector<int> m_block;
    BigVector<std::uint8_t> m_flags;
    BigVector<double> m_startMs;
    BigVector<std::int64_t> m_hostClockNs;
    BigVector<double> m_gpuMs;
    BigVector<std::uint64_t> m_pollIterations;
    BigVector<double> m_waitCpuMs;
    BigVector<int> m_expectedValue;
    BigVector<std::int64_t> m_firstWrongIndex;
    BigVector<int> m_firstWrongValue;
    SpanColumns m_spans;
    SpanColumns m_traced;
    std::vector<Shape> m_shapes;
    std::unordered_map<Shape, std::uint32_t, ShapeHash> m_shapeNumbers;
    BigVector<double> m_exact;   // span times no 32-bit form holds exactly
    std::size_t m_runCapacity = 0;  // what reserve() asked for
};

}  // namespace asyncscope

#include "engine/host_check.hpp"

#include <algorithm>
#include <cstdint>
#include <cstring>
#include <thread>
#include <utility>
#include <vector>

#if defined(__SSE2__)
#include <emmintrin.h>
#endif

namespace asyncscope {

namespace {

constexpr std::size_t kElementsPerWorker = std::size_t(1) << 21;  // 8 MiB of int per thread at least
constexpr std::size_t kMaxWorkers = 8;

using Range = std::pair<std::size_t, std::size_t>;

// [0, n) cut into contiguous ranges, one per worker; small buffers stay on the calling thread.
std::vector<Range> partition(std::size_t n)
{
    const std::size_t hardware = std::max(1u, std::thread::hardware_concurrency());
    const std::size_t workers = std::min({ std::max<std::size_t>(1, n / kElementsPerWorker), hardware, kMaxWorkers });
    const std::size_t part = (n + workers - 1) / workers;
    std::vector<Range> ranges;
    for (std::size_t begin = 0; begin < n; begin += part)
        ranges.emplace_back(begin, std::min(n, begin + part));
    return ranges;
}

// Calls fn(i) for every range index i, range 0 on the calling thread and the rest on their own threads.
template <class Fn>
void forEachRange(std::size_t count, const Fn& fn)
{
    std::vector<std::thread> threads;
    for (std::size_t i = 1; i < count; ++i)
        threads.emplace_back([&fn, i] { fn(i); });
    if (count > 0)
        fn(0);
    for (auto& thread : threads)
        thread.join();
}

// Zeroes with streaming (non-temporal) stores where the CPU has them: the zeros go to memory instead of sitting in
// the CPU caches as dirty lines, which the next host-to-device copy would have to pull out of them; so clearing the
// buffer outside the timed region does not slow the copy inside it.
void clearRange(int* data, Range range)
{
#if defined(__SSE2__)
    std::size_t i = range.first;
    for (; i < range.second && reinterpret_cast<std::uintptr_t>(data + i) % 16 != 0; ++i)
        data[i] = 0;
    const __m128i zero = _mm_setzero_si128();
    for (; i + 4 <= range.second; i += 4)
        _mm_stream_si128(reinterpret_cast<__m128i*>(data + i), zero);
    for (; i < range.second; ++i)
        data[i] = 0;
    _mm_sfence();
#else
    std::memset(data + range.first, 0, (range.second - range.first) * sizeof(int));
#endif
}

std::int64_t firstMismatchIn(const int* data, Range range, int expected)
{
    constexpr std::size_t block = 4096;
    for (std::size_t start = range.first; start < range.second; start += block) {
        const std::size_t stop = std::min(range.second, start + block);
        unsigned differs = 0;  // branch-free scan the compiler can vectorise; rescan only a bad block
        for (std::size_t i = start; i < stop; ++i)
            differs |= static_cast<unsigned>(data[i] ^ expected);
        if (differs == 0)
            continue;
        for (std::size_t i = start; i < stop; ++i) {
            if (data[i] != expected)
                return static_cast<std::int64_t>(i);
        }
    }
    return -1;
}

}  // namespace

void clearHost(int* data, std::size_t n)
{
    const auto ranges = partition(n);
    forEachRange(ranges.size(), [&](std::size_t i) { clearRange(data, ranges[i]); });
}

std::int64_t findFirstMismatch(const int* data, std::size_t n, int expected)
{
    const auto ranges = partition(n);
    std::vector<std::int64_t> found(ranges.size(), -1);
    forEachRange(ranges.size(), [&](std::size_t i) { found[i] = firstMismatchIn(data, ranges[i], expected); });
    for (const std::int64_t index : found) {
        if (index >= 0)
            return index;  // ranges are in order, so the first hit is the lowest index
    }
    return -1;
}

}  // namespace asyncscope

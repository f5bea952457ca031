#include "engine/host_check.hpp"

#include <algorithm>

#if defined(__SSE2__)
#include <emmintrin.h>
#endif

namespace asyncscope {

namespace {

constexpr std::size_t kElementsPerRange = std::size_t(1) << 21;  // 8 MiB of int per thread at least
constexpr std::size_t kMaxThreads = 8;
constexpr std::size_t kBlock = 4096;  // elements checked, then zeroed, while they are still in the L1/L2 cache

// Zeroes data[begin, end) with streaming (non-temporal) stores where the CPU has them: the zeros go to memory instead
// of sitting in the CPU caches as dirty lines that the next host-to-device copy would have to pull out of them, so
// zeroing outside the timed region does not slow the copy inside it.
void zero(int* data, std::size_t begin, std::size_t end)
{
    std::size_t i = begin;
#if defined(__SSE2__)
    for (; i < end && reinterpret_cast<std::uintptr_t>(data + i) % 16 != 0; ++i)
        data[i] = 0;
    const __m128i zeros = _mm_setzero_si128();
    for (; i + 4 <= end; i += 4)
        _mm_stream_si128(reinterpret_cast<__m128i*>(data + i), zeros);
#endif
    for (; i < end; ++i)
        data[i] = 0;
}

// True when any of data[begin, end) differs from `expected`: a branch-free scan the compiler vectorises.
bool anyDiffers(const int* data, std::size_t begin, std::size_t end, int expected)
{
    unsigned differs = 0;
    for (std::size_t i = begin; i < end; ++i)
        differs |= static_cast<unsigned>(data[i] ^ expected);
    return differs != 0;
}

CheckResult checkAndClearRange(int* data, std::size_t begin, std::size_t end, int expected)
{
    CheckResult found;
    for (std::size_t start = begin; start < end; start += kBlock) {
        const std::size_t stop = std::min(end, start + kBlock);
        if (found.firstWrongIndex < 0 && anyDiffers(data, start, stop, expected)) {
            const std::size_t at = static_cast<std::size_t>(std::find_if(data + start, data + stop,
                                       [expected](int v) { return v != expected; }) - data);
            found = { static_cast<std::int64_t>(at), data[at] };
        }
        zero(data, start, stop);
    }
#if defined(__SSE2__)
    _mm_sfence();  // streaming stores are weakly ordered: make them visible before the buffer is handed back
#endif
    return found;
}

}  // namespace

CheckResult checkAndClear(int* data, std::size_t n, int expected)
{
    return checkAndClearRange(data, 0, n, expected);
}

HostChecker::HostChecker(std::size_t threads)
{
    if (threads == 0) {
        const std::size_t hardware = std::max(2u, std::thread::hardware_concurrency());
        threads = std::min(hardware - 1, kMaxThreads);
    }
    for (std::size_t slot = 0; slot < threads; ++slot)
        m_threads.emplace_back([this, slot] { work(slot); });
}

HostChecker::~HostChecker()
{
    {
        std::unique_lock lock(m_mutex);
        waitIdle(lock);
        m_stopping = true;
    }
    m_wake.notify_all();
    for (auto& thread : m_threads)
        thread.join();
}

void HostChecker::waitIdle(std::unique_lock<std::mutex>& lock)
{
    m_done.wait(lock, [this] { return m_pending == 0; });
}

void HostChecker::start(int* data, std::size_t n, int expected)
{
    {
        std::unique_lock lock(m_mutex);
        waitIdle(lock);
        const std::size_t parts = std::clamp<std::size_t>(n / kElementsPerRange, 1, m_threads.size());
        const std::size_t part = (n + parts - 1) / parts;
        m_ranges.clear();
        for (std::size_t begin = 0; begin < n; begin += part)
            m_ranges.emplace_back(begin, std::min(n, begin + part));
        m_results.assign(m_ranges.size(), CheckResult {});
        m_data = data;
        m_expected = expected;
        m_pending = m_ranges.size();
        ++m_generation;
    }
    m_wake.notify_all();
}

CheckResult HostChecker::finish()
{
    std::unique_lock lock(m_mutex);
    waitIdle(lock);
    for (const CheckResult& r : m_results) {
        if (r.firstWrongIndex >= 0)
            return r;  // ranges are in order, so the first hit is the lowest index
    }
    return {};
}

void HostChecker::work(std::size_t slot)
{
    std::uint64_t seen = 0;
    std::unique_lock lock(m_mutex);
    for (;;) {
        m_wake.wait(lock, [&] { return m_stopping || m_generation != seen; });
        if (m_stopping)
            return;
        seen = m_generation;
        if (slot >= m_ranges.size())
            continue;
        const Range range = m_ranges[slot];
        int* data = m_data;
        const int expected = m_expected;
        lock.unlock();
        const CheckResult found = checkAndClearRange(data, range.first, range.second, expected);
        lock.lock();
        m_results[slot] = found;
        if (--m_pending == 0)
            m_done.notify_all();
    }
}

}  // namespace asyncscope

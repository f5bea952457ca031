#include "engine/run/host_check.hpp"

#include <algorithm>

namespace asyncscope {

namespace {

constexpr std::size_t kElementsPerRange = std::size_t(1) << 21;  // 8 MiB of int per thread at least
constexpr std::size_t kMaxThreads = 8;
constexpr std::size_t kBlock = 4096;  // scanned branch-free; only a block with a wrong element is searched

// True when any of data[begin, end) differs from `expected`: a branch-free scan the compiler vectorises.
bool anyDiffers(const int* data, std::size_t begin, std::size_t end, int expected)
{
    unsigned differs = 0;
    for (std::size_t i = begin; i < end; ++i)
        differs |= static_cast<unsigned>(data[i] ^ expected);
    return differs != 0;
}

CheckResult checkRange(const int* data, std::size_t begin, std::size_t end, int expected)
{
    for (std::size_t start = begin; start < end; start += kBlock) {
        const std::size_t stop = std::min(end, start + kBlock);
        if (!anyDiffers(data, start, stop, expected))
            continue;
        const int* wrong = std::find_if(data + start, data + stop, [expected](int v) { return v != expected; });
        return { wrong - data, *wrong, {} };
    }
    return {};
}

}  // namespace

CheckResult checkElements(const int* data, std::size_t n, int expected)
{
    CheckResult result = checkRange(data, 0, n, expected);
    result.endedAt = std::chrono::steady_clock::now();
    return result;
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

void HostChecker::start(const int* data, std::size_t n, int expected)
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
    CheckResult result;
    for (const CheckResult& r : m_results) {
        if (r.firstWrongIndex >= 0) {
            result = r;  // ranges are in order, so the first hit is the lowest index
            break;
        }
    }
    result.endedAt = m_endedAt;
    return result;
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
        const int* data = m_data;
        const int expected = m_expected;
        lock.unlock();
        const CheckResult found = checkRange(data, range.first, range.second, expected);
        lock.lock();
        m_results[slot] = found;
        if (--m_pending == 0) {
            m_endedAt = std::chrono::steady_clock::now();
            m_done.notify_all();
        }
    }
}

}  // namespace asyncscope

// Host-side work on a run's result buffer, outside the timed region: check that every element holds the expected
// value. A HostChecker does it on its own threads, so it can run while the GPU runs the next run.
#pragma once

#include <chrono>
#include <condition_variable>
#include <cstddef>
#include <cstdint>
#include <mutex>
#include <thread>
#include <utility>
#include <vector>

namespace asyncscope {

struct CheckResult {
    std::int64_t firstWrongIndex = -1;  // -1 when every element matched
    int firstWrongValue = 0;
    std::chrono::steady_clock::time_point endedAt {};  // when the last element was read
};

// Checks data[0, n) against `expected` on the calling thread. Every element is read.
CheckResult checkElements(const int* data, std::size_t n, int expected);

class HostChecker {
public:
    // `threads` == 0 picks a count from the hardware (up to 8), leaving one core to the thread that polls.
    explicit HostChecker(std::size_t threads = 0);
    ~HostChecker();
    HostChecker(const HostChecker&) = delete;
    HostChecker& operator=(const HostChecker&) = delete;

    // Starts checking data[0, n) on the checker's threads and returns at once. A job still running from an earlier
    // start() is waited for first and its result dropped. The buffer must stay untouched until finish().
    void start(const int* data, std::size_t n, int expected);
    // Waits for the job start() began and returns its result (the lowest wrong index over the whole buffer) and when
    // its last range was done.
    CheckResult finish();

    std::size_t threadCount() const { return m_threads.size(); }

private:
    using Range = std::pair<std::size_t, std::size_t>;
    void work(std::size_t slot);
    void waitIdle(std::unique_lock<std::mutex>& lock);

    std::mutex m_mutex;
    std::condition_variable m_wake;  // a job started, or the checker is stopping
    std::condition_variable m_done;  // the last range of a job finished
    const int* m_data = nullptr;
    int m_expected = 0;
    std::vector<Range> m_ranges;         // one per thread at most; thread i takes range i
    std::vector<CheckResult> m_results;  // per range
    std::uint64_t m_generation = 0;      // counts jobs, so each thread takes each job once
    std::size_t m_pending = 0;           // ranges of the current job not yet finished
    std::chrono::steady_clock::time_point m_endedAt {};  // when the last range of the latest job finished
    bool m_stopping = false;
    std::vector<std::thread> m_threads;  // last: started when everything above exists
};

}  // namespace asyncscope

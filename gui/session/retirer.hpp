// Frees what the session no longer shows: a big series (a million runs take a fifth of a second to free) on a thread
// of its own, one at a time, so that the window does not wait for it; a small one at once. Destroyed, it waits for
// the last.
#pragma once

#include "gui/series/saved_run.hpp"

#include "engine/run/plan.hpp"

#include <cstddef>
#include <optional>
#include <thread>

namespace asyncscope {

// The runs a series, a saved run or a plan holds.
inline std::size_t runsIn(const Report& report)
{
    return report.runs.size();
}
inline std::size_t runsIn(const SavedRun& saved)
{
    return saved.report.runs.size();
}
inline std::size_t runsIn(const PlanReport& plan)
{
    std::size_t runs = 0;
    for (const VariantResult& v : plan.variants)
        runs += v.report.runs.size();
    return runs;
}
inline std::size_t runsIn(const std::optional<PlanReport>& plan)
{
    return plan ? runsIn(*plan) : 0;
}

class Retirer {
public:
    static constexpr std::size_t kOffThreadRuns = 10000;  // a series this long is freed off the GUI thread

    Retirer() = default;
    Retirer(const Retirer&) = delete;
    Retirer& operator=(const Retirer&) = delete;
    ~Retirer()
    {
        if (m_thread.joinable())
            m_thread.join();
    }

    // Empties `gone`: a Report, a SavedRun, a PlanReport or an optional one.
    template <class T>
    void retire(T& gone)
    {
        if (runsIn(gone) >= kOffThreadRuns) {
            if (m_thread.joinable())
                m_thread.join();
            m_thread = std::thread([freed = std::move(gone)]() mutable { T last = std::move(freed); });
        }
        gone = T {};
    }

private:
    std::thread m_thread;  // freeing the last big one; joined before the next
};

}  // namespace asyncscope

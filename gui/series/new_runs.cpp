#include "gui/series/new_runs.hpp"

namespace asyncscope {

bool NewRuns::Key::operator==(const Key& other) const
{
    return index == other.index && warmup == other.warmup && startMs == other.startMs && gpuMs == other.gpuMs &&
        pollIterations == other.pollIterations && waitCpuMs == other.waitCpuMs && spans == other.spans;
}

NewRuns::Key NewRuns::keyOf(const RunStore& runs, std::size_t i)
{
    return { runs.index(i), runs.warmup(i), runs.startMs(i), runs.gpuMs(i), runs.pollIterations(i), runs.waitCpuMs(i),
        runs.spans(i).size() };
}

std::size_t NewRuns::firstUnread(const RunStore& runs) const
{
    if (m_count == 0 || runs.size() < m_count || !(keyOf(runs, m_count - 1) == m_last))
        return 0;
    for (const auto& [at, key] : m_marks) {
        if (!(keyOf(runs, at) == key))
            return 0;
    }
    return m_count;
}

bool NewRuns::readAll(const RunStore& runs) const
{
    return m_count == runs.size() && (runs.empty() || firstUnread(runs) == runs.size());
}

void NewRuns::read(const RunStore& runs)
{
    if (firstUnread(runs) == 0)
        forget();
    if (runs.empty())
        return;
    for (std::size_t at = m_marks.empty() ? 0 : 2 * m_marks.back().first + 1; at < runs.size(); at = 2 * at + 1)
        m_marks.push_back({ at, keyOf(runs, at) });
    m_last = keyOf(runs, runs.size() - 1);
    m_count = runs.size();
}

void NewRuns::forget()
{
    m_count = 0;
    m_marks.clear();
}

}  // namespace asyncscope

#include "gui/series/sorted_times.hpp"

#include <algorithm>

namespace asyncscope {

bool SortedTimes::update(const std::vector<RunResult>& runs)
{
    if (m_read.readAll(runs))
        return false;
    const std::size_t from = m_read.firstUnread(runs);
    for (int q = 0; q < kQuantityCount; ++q) {
        std::vector<double>& sorted = m_sorted[q];
        if (from == 0)
            sorted.clear();
        const auto middle = std::ptrdiff_t(sorted.size());
        for (std::size_t i = from; i < runs.size(); ++i) {
            const RunResult& r = runs[i];
            if (r.warmup)
                continue;
            if (q == GpuTime)
                sorted.push_back(r.gpuMs);
            else if (r.has(SpanKind::Submit))
                sorted.push_back(r.cpuSubmitMs());
        }
        std::sort(sorted.begin() + middle, sorted.end());
        std::inplace_merge(sorted.begin(), sorted.begin() + middle, sorted.end());
    }
    m_read.read(runs);
    return true;
}

bool SortedTimes::isOf(const std::vector<RunResult>& runs) const
{
    return m_read.readAll(runs);
}

}  // namespace asyncscope

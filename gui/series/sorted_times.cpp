#include "gui/series/sorted_times.hpp"

#include "engine/model/statistics.hpp"

#include <algorithm>

namespace asyncscope {

bool SortedTimes::update(const RunStore& runs)
{
    if (m_read.readAll(runs))
        return false;
    const std::size_t from = m_read.firstUnread(runs);
    for (int q = 0; q < kQuantityCount; ++q) {
        std::vector<double>& sorted = m_sorted[q];
        if (from == 0)
            sorted.clear();
        const auto middle = std::ptrdiff_t(sorted.size());
        sorted.reserve(sorted.size() + (runs.size() - from));  // grown once: a million runs are 8 MB per quantity
        for (std::size_t i = from; i < runs.size(); ++i) {
            if (runs.warmup(i))
                continue;
            if (q == GpuTime)
                sorted.push_back(runs.gpuMs(i));
            else if (runs.has(i, SpanKind::Submit))
                sorted.push_back(runs.cpuSubmitMs(i));
        }
        sortValues(sorted, static_cast<std::size_t>(middle));
        std::inplace_merge(sorted.begin(), sorted.begin() + middle, sorted.end());
    }
    m_read.read(runs);
    return true;
}

bool SortedTimes::isOf(const RunStore& runs) const
{
    return m_read.readAll(runs);
}

}  // namespace asyncscope

#include "gui/timeline/run_walk.hpp"

#include <algorithm>
#include <vector>

namespace asyncscope {

std::optional<int> runAfterStep(const RunStore& runs, std::optional<int> shown, RunStep step)
{
    if (runs.empty())
        return std::nullopt;
    if (step == RunStep::Previous || step == RunStep::Next) {
        std::optional<std::size_t> at;
        for (std::size_t i = 0; i < runs.size() && !at; ++i) {
            if (shown && runs.index(i) == *shown)
                at = i;
        }
        if (!at)  // nothing shown, or a run not in this series: the walk starts at the latest
            return runs.index(runs.size() - 1);
        if (step == RunStep::Previous)
            return *at == 0 ? std::nullopt : std::optional(runs.index(*at - 1));
        return *at + 1 == runs.size() ? std::nullopt : std::optional(runs.index(*at + 1));
    }
    std::vector<std::size_t> measured;
    for (std::size_t i = 0; i < runs.size(); ++i) {
        if (!runs.warmup(i))
            measured.push_back(i);
    }
    if (measured.empty())
        return std::nullopt;
    const auto faster = [&runs](std::size_t a, std::size_t b) { return runs.gpuMs(a) < runs.gpuMs(b); };
    if (step == RunStep::Slowest)
        return runs.index(*std::max_element(measured.begin(), measured.end(), faster));
    if (step == RunStep::Fastest)
        return runs.index(*std::min_element(measured.begin(), measured.end(), faster));
    const auto middle = measured.begin() + std::ptrdiff_t((measured.size() - 1) / 2);
    std::nth_element(measured.begin(), middle, measured.end(), faster);
    return runs.index(*middle);
}

}  // namespace asyncscope

#include "gui/timeline/run_walk.hpp"

#include <algorithm>
#include <vector>

namespace asyncscope {

int laneOfRun(const RunStore& runs, std::size_t i)
{
    for (const Span s : runs.spans(i))
        if (s.kind == SpanKind::Submit)
            return s.stream;
    return 0;
}

std::optional<int> runAfterStep(const RunStore& runs, std::optional<int> shown, RunStep step, std::optional<int> lane)
{
    const auto walked = [&](std::size_t i) { return !lane || laneOfRun(runs, i) == *lane; };
    if (step == RunStep::Previous || step == RunStep::Next) {
        std::optional<std::size_t> at;
        for (std::size_t i = 0; i < runs.size() && !at; ++i) {
            if (shown && runs.index(i) == *shown)
                at = i;
        }
        if (!at) {  // nothing shown, or a run not in this series: the walk starts at the latest
            for (std::size_t i = runs.size(); i-- > 0;)
                if (walked(i))
                    return runs.index(i);
            return std::nullopt;
        }
        if (step == RunStep::Previous) {
            for (std::size_t i = *at; i-- > 0;)
                if (walked(i))
                    return runs.index(i);
            return std::nullopt;
        }
        for (std::size_t i = *at + 1; i < runs.size(); ++i)
            if (walked(i))
                return runs.index(i);
        return std::nullopt;
    }
    std::vector<std::size_t> measured;
    for (std::size_t i = 0; i < runs.size(); ++i) {
        if (!runs.warmup(i) && walked(i))
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

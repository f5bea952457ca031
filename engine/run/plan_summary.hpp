// A plan's variants summarised side by side: each variant's series summary, plus what only a comparison can say.
#pragma once

#include "engine/model/series_summary.hpp"
#include "engine/run/plan.hpp"

#include <vector>

namespace asyncscope {

// One summary per variant, in plan order (a variant that did not run has an empty one). A variant whose plan also
// measured the same workload in one chunk (same submission, same everything but the shape) gets its speed-up over
// it: that variant's median GPU time over its own (1 for the one-chunk variant itself). A plan without chunked variants
// (the memory comparison) has none.
std::vector<SeriesSummary> summarizePlan(const PlanReport& plan);

}  // namespace asyncscope

// A plan's variants judged (engine/model/advice), each with what the plan's other variants know about it.
#pragma once

#include "engine/model/advice.hpp"
#include "engine/model/series_summary.hpp"
#include "engine/run/device_plan.hpp"
#include "engine/run/plan.hpp"

#include <vector>

namespace asyncscope {

// One Advice per variant, in plan order (empty for a variant that did not run), `summaries` being summarizePlan(plan):
// a variant whose plan also ran its shape with another submission learns what that one's submission cost.
std::vector<Advice> advisePlan(const PlanReport& plan, const std::vector<SeriesSummary>& summaries);

// Each variant's summary (summarizePlan) and advice (advisePlan), in plan order: what a comparison's writers take.
std::vector<Assessment> assessPlan(const PlanReport& plan);
// assessPlan of each device's plan, in the host's order: what a host record's writers take.
std::vector<std::vector<Assessment>> assessHost(const HostReport& host);

}  // namespace asyncscope

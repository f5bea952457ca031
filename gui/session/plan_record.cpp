#include "gui/session/plan_record.hpp"

#include <algorithm>

namespace asyncscope {

void PlanRecord::begin(const Plan& plan)
{
    m_plan = PlanReport {};
    m_plan.comparison = plan.comparison;
    m_plan.planned = plan.variants.size();
    m_binding.reset();
    m_wrong = 0;
}

VariantResult& PlanRecord::variantAt(int index)
{
    while (m_plan.variants.size() <= std::size_t(index))
        m_plan.variants.emplace_back();
    return m_plan.variants[std::size_t(index)];
}

void PlanRecord::starting(int index, const VariantResult& variant)
{
    VariantResult& mine = variantAt(index);
    mine = variant;
    mine.report.binding = m_binding;
    const PipelineConfig& c = variant.report.config;
    if (c.stopRule == StopRule::Fixed)
        mine.report.runs.reserve(std::size_t(c.warmupRuns) + std::size_t(c.runs));
}

void PlanRecord::append(int index, RunStore& runs)
{
    for (std::size_t i = 0; i < runs.size(); ++i)
        m_wrong += runs.verified(i) ? 0 : 1;
    variantAt(index).report.runs.append(runs);
    runs.clear();
}

void PlanRecord::ended(int index, const VariantResult& variant)
{
    // The runner's record of the variant holds no runs: this one's are kept, the rest taken from it.
    VariantResult& mine = variantAt(index);
    auto runs = std::move(mine.report.runs);
    mine = variant;
    mine.report.runs = std::move(runs);
    mine.report.binding = m_binding;
}

PlanReport PlanRecord::finish(const HostReport& host)
{
    PlanReport plan;
    if (!host.devices.empty())
        plan = host.devices.front().plan;  // no runs in it: a copy costs what the variants' headers do
    if (host.error || host.devices.empty()) {
        plan.comparison = m_plan.comparison;
        plan.planned = m_plan.planned;
        VariantResult failed;
        failed.failure = host.error ? *host.error : makeError(ErrorKind::Cuda, "the plan did not run");
        plan.variants.push_back(std::move(failed));
    }
    // The runs move from this record into the runner's: nothing is copied.
    for (std::size_t i = 0; i < std::min(plan.variants.size(), m_plan.variants.size()); ++i)
        plan.variants[i].report.runs = std::move(m_plan.variants[i].report.runs);
    return plan;
}

}  // namespace asyncscope

#include "engine/run/plan_summary.hpp"

namespace asyncscope {

namespace {

// `one` measured the workload `config` shapes in chunks as one chunk: same device, size, memory and the way it moves,
// wait and submission.
bool isBaselineOf(const PipelineConfig& one, const PipelineConfig& config)
{
    return one.chunks == 1 && one.submission == config.submission && one.device == config.device &&
        one.elements == config.elements && one.hostMemory == config.hostMemory && one.copy == config.copy &&
        one.managedMigration == config.managedMigration && one.managedAdvice == config.managedAdvice &&
        one.waitMode == config.waitMode;
}

}  // namespace

std::vector<SeriesSummary> summarizePlan(const PlanReport& plan)
{
    std::vector<SeriesSummary> summaries;
    summaries.reserve(plan.variants.size());
    bool chunked = false;  // a plan without chunked variants has no speed-up to show: every one would be 1
    for (const VariantResult& v : plan.variants) {
        summaries.push_back(summarizeSeries(v.report));
        chunked = chunked || v.report.config.chunks > 1;
    }
    if (!chunked)
        return summaries;
    for (std::size_t i = 0; i < plan.variants.size(); ++i) {
        const double own = summaries[i].median(keys::kGpuTime);
        if (!plan.variants[i].ran() || own <= 0.0)
            continue;
        for (std::size_t j = 0; j < plan.variants.size(); ++j) {
            const double baseline = summaries[j].median(keys::kGpuTime);
            if (plan.variants[j].ran() && baseline > 0.0 &&
                isBaselineOf(plan.variants[j].report.config, plan.variants[i].report.config)) {
                summaries[i].figures.push_back(
                    { std::string(keys::kSpeedup), "Speed-up over K = 1", ValueKind::Ratio, baseline / own });
                break;
            }
        }
    }
    return summaries;
}

}  // namespace asyncscope

#include "engine/run/plan_advice.hpp"

#include "engine/run/plan_summary.hpp"

namespace asyncscope {

namespace {

// The same workload but for its submission: what a submission comparison varies.
bool sameButSubmission(const PipelineConfig& a, const PipelineConfig& b)
{
    PipelineConfig c = b;
    c.submission = a.submission;
    c.preferOverlap = a.preferOverlap;
    c.stageEvents = a.stageEvents;
    return c.chunks == a.chunks && c.streams == a.streams && c.order == a.order && c.elements == a.elements
        && c.hostMemory == a.hostMemory && c.copy == a.copy && c.device == a.device && a.submission != b.submission;
}

}  // namespace

std::vector<Advice> advisePlan(const PlanReport& plan, const std::vector<SeriesSummary>& summaries)
{
    std::vector<Advice> advice(plan.variants.size());
    for (std::size_t i = 0; i < plan.variants.size() && i < summaries.size(); ++i) {
        const VariantResult& v = plan.variants[i];
        if (!v.ran() || summaries[i].measuredRuns == 0)
            continue;
        AdviceContext context;
        for (std::size_t j = 0; j < plan.variants.size() && j < summaries.size(); ++j) {
            const VariantResult& other = plan.variants[j];
            if (j == i || !other.ran() || !sameButSubmission(v.report.config, other.report.config))
                continue;
            const SeriesSummary& s = summaries[j];
            if (s.measuredRuns == 0)
                continue;
            context.alternatives.push_back(
                { other.label, other.report.config.submission, s.median(keys::kCpuSubmit), s.median(keys::kGpuTime) });
        }
        advice[i] = judgeSeries(v.report, summaries[i], context);
    }
    return advice;
}

std::vector<Assessment> assessPlan(const PlanReport& plan)
{
    std::vector<SeriesSummary> summaries = summarizePlan(plan);
    std::vector<Advice> advice = advisePlan(plan, summaries);
    std::vector<Assessment> assessed;
    assessed.reserve(summaries.size());
    for (std::size_t i = 0; i < summaries.size(); ++i)
        assessed.push_back({ std::move(summaries[i]), std::move(advice[i]) });
    return assessed;
}

std::vector<std::vector<Assessment>> assessHost(const HostReport& host)
{
    std::vector<std::vector<Assessment>> assessed;
    assessed.reserve(host.devices.size());
    for (const DeviceResult& d : host.devices)
        assessed.push_back(assessPlan(d.plan));
    return assessed;
}

}  // namespace asyncscope

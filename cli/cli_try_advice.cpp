#include "cli/cli_try_advice.hpp"

#include "engine/model/number_text.hpp"
#include "engine/run/plan_advice.hpp"

#include <string>

namespace asyncscope::cli {

Status tryAdvice(Backend& backend, const Platform& platform, const std::atomic<bool>& cancel,
    const RunnerOptions& runner, PlanReport& plan, std::vector<Assessment>& assessed, std::ostream& err)
{
    // Copies: the plan's variants and the assessments are replaced below.
    const PipelineConfig now = plan.variants.front().report.config;
    const std::optional<SuggestedShape> suggestion = assessed.front().advice.suggestion;
    if (!suggestion) {
        err << "asyncscope-cli: --try-advice: the advice suggests no shape for this series (none is faster in the "
               "overlap model by more than the series' noise, or the calibration has no operation costs): nothing "
               "more was run\n";
        return std::nullopt;
    }
    const Plan both = tryAdvicePlan(now, *suggestion);
    DevicePlan second;
    second.devices = { now.device };
    second.plan = Plan { std::nullopt, { both.variants.back() } };
    DevicePlanSink quiet;
    HostReport tried = runDevicePlan(backend, platform, second, cancel, quiet, runner);
    VariantResult result = std::move(tried.devices.front().plan.variants.front());

    plan.comparison = both.comparison;
    plan.variants.front().label = both.variants.front().label;
    result.label = both.variants.back().label;
    const std::optional<Error> failed = result.notRun ? result.notRun : result.failure;
    plan.variants.push_back(std::move(result));
    plan.planned = plan.variants.size();
    assessed = assessPlan(plan);

    const Report& ran = plan.variants.back().report;
    if (ran.runs.empty()) {
        err << "asyncscope-cli: --try-advice: " << plan.variants.back().label << " did not run\n";
        return failed;
    }
    const double achieved = assessed.back().summary.median(keys::kGpuTime);
    const auto ms = [](double value) { return fixedText(value, 3) + " ms"; };
    err << "asyncscope-cli: --try-advice: " << plan.variants.back().label << ": predicted "
        << ms(suggestion->predictedMs) << ", achieved " << ms(achieved) << " ("
        << fixedText(achieved / suggestion->predictedMs, 3) << " x the prediction); " << plan.variants.front().label
        << " took " << ms(suggestion->nowMs) << ": " << fixedText(suggestion->nowMs / achieved, 2)
        << " x faster measured, " << fixedText(suggestion->nowMs / suggestion->predictedMs, 2) << " x predicted\n";
    return failed;
}

}  // namespace asyncscope::cli

// --try-advice: after a series, the shape its advice suggests runs on the same device, and the two become one overlap
// comparison, so that the model's prediction is set beside what the shape achieved.
#pragma once

#include "engine/model/advice.hpp"
#include "engine/run/backend.hpp"
#include "engine/run/device_plan_runner.hpp"
#include "engine/run/plan.hpp"

#include <atomic>
#include <ostream>
#include <vector>

namespace asyncscope::cli {

// `plan` holds the series that ran and `assessed` its assessment. Where the advice suggests a shape, that shape runs
// as a series of the same configuration otherwise, and `plan` and `assessed` become an overlap comparison of the two
// ("now K=1", "advised K=16 S=3"); `err` gets the prediction against what was achieved. Where it suggests none,
// nothing changes and `err` says why. The error of an advised series that failed or was cancelled, whose runs are
// then in the comparison as far as they went.
Status tryAdvice(Backend& backend, const Platform& platform, const std::atomic<bool>& cancel,
    const RunnerOptions& runner, PlanReport& plan, std::vector<Assessment>& assessed, std::ostream& err);

}  // namespace asyncscope::cli

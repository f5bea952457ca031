// What a finished plan comes to, in words and as an exit code: the window's status line and message, and the
// headless run's last line and exit status, from one place.
#pragma once

#include "engine/model/series_summary.hpp"
#include "engine/run/plan.hpp"

#include <QString>

namespace asyncscope {

struct PlanVerdict {
    QString summary;  // one line: medians, or the comparison's variants, and whether every element verified
    QString problem;  // what the user should see in a message: a failure, wrong elements, variants not run; or empty
    int exitCode = 0;  // 0 every run verified; 1 a CUDA error, a wrong element or a cancel; 2 a request to change
    bool cancelled = false;
};

// What a verdict needs of the runs, where the plan's record may not hold them (the window's session keeps them and
// counts as they come): how many ran, how many returned a wrong element, and a single series' summary.
struct PlanTally {
    std::size_t runs = 0;
    std::size_t wrong = 0;
    const SeriesSummary* series = nullptr;  // of the first variant; made from its runs when absent
};

PlanVerdict judgePlan(const PlanReport& plan, const PlanTally& tally);
// Counts and summarises the runs the record holds.
PlanVerdict judgePlan(const PlanReport& plan);

}  // namespace asyncscope

// What a finished plan comes to, in words and as an exit code: the window's status line and message, and the
// headless run's last line and exit status, from one place.
#pragma once

#include "engine/run/plan.hpp"

#include <QString>

namespace asyncscope {

struct PlanVerdict {
    QString summary;  // one line: medians, or the comparison's variants, and whether every element verified
    QString problem;  // what the user should see in a message: a failure, wrong elements, variants not run; or empty
    int exitCode = 0;  // 0 every run verified; 1 a CUDA error, a wrong element or a cancel; 2 a request to change
    bool cancelled = false;
};

PlanVerdict judgePlan(const PlanReport& plan);

}  // namespace asyncscope

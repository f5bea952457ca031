// A series or a comparison as data: CSV or JSON by the file's suffix, with the CLI's fields, streamed to the file
// through save_file (never built whole in memory).
#pragma once

#include "engine/model/advice.hpp"
#include "engine/model/report.hpp"
#include "engine/run/plan.hpp"

#include <QString>

#include <vector>

namespace asyncscope {

// Each returns an empty string on success, otherwise a sentence saying what went wrong. `assessed`: what the writers
// write as the summary and the advice (assessSeries, assessPlan; the session's own where it holds them).
QString exportData(const Report& report, const Assessment& assessed, const QString& path);
QString exportComparisonData(
    const PlanReport& comparison, const std::vector<Assessment>& assessed, const QString& path);

}  // namespace asyncscope

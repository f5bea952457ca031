// A series or a comparison as data: CSV or JSON by the file's suffix, with the CLI's fields, streamed to the file
// through save_file (never built whole in memory).
#pragma once

#include "engine/model/report.hpp"
#include "engine/run/plan.hpp"

#include <QString>

namespace asyncscope {

// Each returns an empty string on success, otherwise a sentence saying what went wrong.
QString exportData(const Report& report, const QString& path);
QString exportComparisonData(const PlanReport& comparison, const QString& path);

}  // namespace asyncscope

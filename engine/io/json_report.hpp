// The report as JSON: a device block, the configuration, a summary and every run with its spans; a comparison as
// its variants' reports; and reading a report back.
#pragma once

#include "engine/model/report.hpp"
#include "engine/run/plan.hpp"

#include <nlohmann/json.hpp>

#include <istream>
#include <ostream>

namespace asyncscope {

// Version 2 gives each run its spans; version 1 (no spans) gave stage and CPU times as fields and still reads.
constexpr int kReportFormatVersion = 2;

nlohmann::json toJson(const Report& report);
void writeJson(std::ostream& out, const Report& report);
void writeComparisonJson(std::ostream& out, const PlanReport& plan);

// Reads what writeJson wrote, in this version or an earlier one. A file that is not such a report is an
// ErrorKind::Io error naming the field at fault; a choice it does not know is rejected with the names it accepts.
Result<Report> readJson(std::istream& in);

}  // namespace asyncscope

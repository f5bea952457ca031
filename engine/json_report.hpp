// The report as JSON: a device block, the configuration, a summary and every run; and reading it back.
#pragma once

#include "engine/report.hpp"

#include <nlohmann/json.hpp>

#include <istream>
#include <ostream>

namespace asyncscope {

nlohmann::json toJson(const Report& report);
void writeJson(std::ostream& out, const Report& report);

// Reads what writeJson wrote. A file that is not such a report is an ErrorKind::Io error saying why.
Result<Report> readJson(std::istream& in);

}  // namespace asyncscope

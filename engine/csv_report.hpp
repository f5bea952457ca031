// One CSV row per run, with a header; the same fields as the JSON report's runs.
#pragma once

#include "engine/report.hpp"

#include <ostream>

namespace asyncscope {

void writeCsv(std::ostream& out, const Report& report);

}  // namespace asyncscope

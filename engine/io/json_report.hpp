// The report as JSON: a device block, the configuration, a summary and every run with its spans; a comparison as
// its variants' reports; and reading a report back.
#pragma once

#include "engine/io/read_control.hpp"
#include "engine/model/report.hpp"
#include "engine/run/plan.hpp"

#include <nlohmann/json.hpp>

#include <istream>
#include <ostream>

namespace asyncscope {

// Version 3 keeps the device, the configuration and the summary indented and writes "runs" last, each run on one
// compact line as an array of the fields "fields": {"run": […]} names once ("run", "warmup", "start_ms", …,
// "spans", and "traced_spans" where there are any), each span as an array of the fields "fields": {"span": […]} names:
// "kind", "begin_ms", "end_ms" and those of "device", "stream", "chunk", "bytes" some span has other than 0 (a field
// left out is 0), then "call" on api spans where there are any. Version 2 gave every run and span as an object and
// indented them like the rest; version 1 (no spans) gave stage and CPU times as fields of each run. All three read.
constexpr int kReportFormatVersion = 3;

// A device block (its place in the host included) and a CPU binding as reports write them, and back, for records
// that hold them outside a report. The readers throw nlohmann::json's exceptions for a field missing or of the wrong
// type.
nlohmann::json deviceToJson(const DeviceInfo& device);
DeviceInfo deviceFromJson(const nlohmann::json& device);
nlohmann::json bindingToJson(const CpuBinding& binding);
CpuBinding bindingFromJson(const nlohmann::json& binding);

// The report as a document, runs and all, as writeJson writes it (but for the layout).
nlohmann::json toJson(const Report& report);
// The device, configuration and summary indented, then "runs" last, one run a line.
void writeJson(std::ostream& out, const Report& report);
void writeComparisonJson(std::ostream& out, const PlanReport& plan);

// Reads what writeJson wrote, in this version or an earlier one, without holding the document: runs are read as
// they come, those of a version 3 file on every core. A file that is not such a report is an ErrorKind::Io error
// naming the field at fault and, in a run, the run ("run 51234: end_ms missing in span 3"); a choice it does not
// know is rejected with the names it accepts. Cancelled through `control`: ErrorKind::Cancelled.
Result<Report> readJson(std::istream& in, const ReadControl& control = {});

}  // namespace asyncscope

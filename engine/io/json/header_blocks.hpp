// The blocks of a JSON report other than its runs (device, configuration, summary, outcome, calibration, binding,
// machine), written and read back: the header of every format version. (device_json.hpp has the device and binding
// blocks, which host records carry too; machine_block.hpp the machine's.)
#pragma once

#include "engine/io/json/device_json.hpp"
#include "engine/io/json/json_block.hpp"
#include "engine/io/json/report_fields.hpp"
#include "engine/model/advice.hpp"
#include "engine/model/record_rules.hpp"
#include "engine/model/report.hpp"
#include "engine/model/series_summary.hpp"

#include <nlohmann/json.hpp>

#include <functional>
#include <string>
#include <string_view>
#include <vector>

namespace asyncscope {

// What a header's machine block may hold: readings (a series samples at most 10000 and thins beyond; a file merged by
// hand may hold more) and processes per reading; clocks in MHz.
inline constexpr std::size_t kMaxMachineSamplesRead = 100000;
inline constexpr std::size_t kMaxGpuProcessesRead = 1024;
inline constexpr int kMaxClockMHz = 100000;

namespace json_header {

// The header's blocks a reader reads ("runs" aside): what a report's header holds besides them (its summary and advice,
// judged again from the runs, or keys of other programs) is read past, never built.
inline const std::vector<std::string> kBlocksRead = { "format", "format_version", "host", "program", "device", "binding",
    "config", "calibration", "pinned_peak", "machine", "outcome", "fields" };

// Where in the file a header's field lies, by the header's key that holds it ("config" for config.streams):
// "line 1". May be empty: the error names no place then.
using WhereOf = std::function<std::string(std::string_view key)>;

// The error for `bad`, at the place `where` gives its header key.
Error headerError(const BadField& bad, const WhereOf& where);

// Everything but the runs, in the order the file shows it: format, format_version, host, program (a recorded
// program's), device, binding, config,
// summary, calibration, pinned_peak, outcome, machine (the machine's state around the series), findings and
// not_checked (the advice: read back by nobody, the rules judge a series again when it is read), and "fields" (the
// run and span field lists of `layout`). The summary and the advice are `assessed`'s.
nlohmann::ordered_json headerJson(const Report& report, const Assessment& assessed,
    const json_fields::Layout& layout);

// The advice as a header holds it: "findings" (rule, title, severity, evidence, action, run_ranges: [first, last] pairs,
// stages) and "not_checked" (rule, why).
nlohmann::json findingsJson(const Advice& advice);
nlohmann::json notCheckedJson(const Advice& advice);

// The header's format_version (1 where there is none); BadField for one that is not a whole number from 1 to
// kReportFormatVersion (checkFormatVersion), quoted as the file gives it.
int formatVersion(const nlohmann::json& header);

// What "fields" names, where the header has it; the full lists where not. BadField for lists that are not lists of
// names, or a span list without kind, begin_ms or end_ms.
json_fields::Layout layoutFrom(const nlohmann::json& header);

// The report but its runs, from the header's blocks, each value checked (checkConfig, checkDevice,
// checkFormatVersion): an ErrorKind::Io error naming the place and the field at fault ("line 1: config.host_memory
// is 'bogus'; accepted: pinned or pageable").
Result<Report> readHeader(const nlohmann::json& header, const WhereOf& where = {});

}  // namespace json_header
}  // namespace asyncscope

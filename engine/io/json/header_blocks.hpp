// The blocks of a JSON report other than its runs (device, configuration, summary, outcome, calibration, binding),
// written and read back: the header of every format version, and the device and binding blocks host records carry.
#pragma once

#include "engine/io/json/report_fields.hpp"
#include "engine/model/report.hpp"
#include "engine/model/series_summary.hpp"

#include <nlohmann/json.hpp>

#include <stdexcept>

namespace asyncscope {

// A device block (its place in the host included) and a CPU binding as reports write them, and back, for records
// that hold them outside a report. The readers throw nlohmann::json's exceptions for a field missing or of the wrong
// type.
nlohmann::json deviceToJson(const DeviceInfo& device);
DeviceInfo deviceFromJson(const nlohmann::json& device);
nlohmann::json bindingToJson(const CpuBinding& binding);
CpuBinding bindingFromJson(const nlohmann::json& binding);

namespace json_header {

// A field that is there but wrong: the reader's message names it.
struct BadField : std::runtime_error {
    using std::runtime_error::runtime_error;
};

// Everything but the runs, in the order the file shows it: format, format_version, host, device, binding, config,
// summary, calibration, outcome, and "fields" (the run and span field lists of `layout`).
nlohmann::ordered_json headerJson(const Report& report, const SeriesSummary& summary,
    const json_fields::Layout& layout);

// The header's format_version (1 where there is none); BadField for one that is not a whole number from 1 to
// kReportFormatVersion, quoted as the file gives it.
int formatVersion(const nlohmann::json& header);

// What "fields" names, where the header has it; the full lists where not. BadField for lists that are not lists of
// names, or a span list without kind, begin_ms or end_ms.
json_fields::Layout layoutFrom(const nlohmann::json& header);

// The report but its runs, from the header's blocks: an ErrorKind::Io error naming the field at fault
// ("config.host_memory: 'bogus' is not pinned or pageable").
Result<Report> readHeader(const nlohmann::json& header);

}  // namespace json_header
}  // namespace asyncscope

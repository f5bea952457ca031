// A host's record as JSON: the host, the mode, the aggregate bandwidth, and per device its place, its binding and
// each variant's full series report; or only the error that kept anything from running. And reading one back.
#pragma once

#include "engine/model/advice.hpp"
#include "engine/model/error.hpp"
#include "engine/run/device_plan.hpp"

#include <nlohmann/json.hpp>

#include <istream>
#include <ostream>
#include <vector>

namespace asyncscope {

// {"format": "asyncscope-host", "format_version": 1, "host", "mode", "comparison", "driver_version",
// "runtime_version", "error" (only when nothing ran), "aggregate" (all at once), "devices": [{"device", "binding",
// "variants": [{"label", "not_run", "failure", "report": a series report as writeJsonDocument writes it}]}]}. Each
// report's "summary", "findings" and "not_checked" are `assessed`'s (assessHost): the variants of a comparison judged
// beside one another; its "machine" is the machine's state around that variant's series.
constexpr const char* kHostRecordFormat = "asyncscope-host";
constexpr int kHostRecordVersion = 1;

void writeHostRecordJson(
    std::ostream& out, const HostReport& host, const std::vector<std::vector<Assessment>>& assessed);

// An error as records carry it: {"kind", "message", and "api", "code", "code_name", "detail", "advice" where set},
// and back (a kind this version does not know reads as a CUDA error).
nlohmann::json errorToJson(const Error& error);
Error errorFromJson(const nlohmann::json& error);

// Reads what writeHostRecordJson wrote. A document that is not such a record is an ErrorKind::Io error naming the
// field at fault ("devices[2].variants[0].report: run 3: end_ms missing in span 1", "devices[0].device.
// compute_capability is 9; accepted: a compute capability such as \"9.0\""), or the line and column of a syntax error.
// Nesting deeper than kMaxNestingDepth is refused as it is parsed; every value is held to the record rules
// (checkConfig, checkDevice, checkRun, checkFormatVersion); counts are bounded (planned variants at most
// kMaxPlanVariants). Never throws.
Result<HostReport> readHostRecordJson(std::istream& in);
// The same for a record's whole text.
Result<HostReport> readHostRecordText(const std::string& text);

}  // namespace asyncscope

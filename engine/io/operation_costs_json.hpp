// A calibration's operation costs (OperationCosts) as the copy-peak cache and a report's calibration keep them: an
// object {"copy_us", "launch_us", "kernel_gbps", "call_us"} beside the peaks, read as hostile input.
#pragma once

#include "engine/model/copy_peak.hpp"
#include "engine/model/record_rules.hpp"

#include <nlohmann/json_fwd.hpp>

#include <string>

namespace asyncscope {

nlohmann::json operationCostsJson(const OperationCosts& costs);

// The costs `object` holds, into `out`; the first field that is not one (not an object; a cost that is not a number
// from 0 to kMaxOperationCostUs µs, or a rate above kMaxKernelGBps), named after `path` ("calibration.costs"). A field
// left out is 0 (not measured); one this version does not know is passed over.
FieldCheck readOperationCosts(const nlohmann::json& object, const std::string& path, OperationCosts& out);

}  // namespace asyncscope

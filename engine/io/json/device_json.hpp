// A device block (its place in the host included) and a CPU binding as reports and host records write them, and back:
// one table of fields each, every field read, checked and written by its row. A report's header and a host's record
// read them through their own Block, which words the problems as each reader always did.
#pragma once

#include "engine/io/json/json_block.hpp"
#include "engine/model/device.hpp"
#include "engine/model/topology.hpp"

#include <nlohmann/json.hpp>

namespace asyncscope {

nlohmann::json deviceToJson(const DeviceInfo& device);
nlohmann::json bindingToJson(const CpuBinding& binding);
// {"speed", "generation", "width"}: a PCIe link as every record writes it.
nlohmann::json linkJson(const PcieLink& link);

// The device block `block` is and the binding block likewise: every field checked by the rules of model/record_rules
// (checkName, checkNote, parseComputeCapability, then checkDevice for the device); json_header::BadField for one
// missing, of the wrong type or out of range.
DeviceInfo deviceFrom(const json_header::Block& block);
CpuBinding bindingFrom(const json_header::Block& block);

}  // namespace asyncscope

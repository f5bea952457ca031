// A report header's machine block: the machine's state around the series (clocks, temperature, power, PCIe link and
// the processes on the GPU, reading by reading), written and read back.
#pragma once

#include "engine/io/json/json_block.hpp"
#include "engine/model/machine_state.hpp"

#include <nlohmann/json.hpp>

namespace asyncscope::json_header {

nlohmann::json machineJson(const MachineState& machine);
// Every reading checked (at most kMaxMachineSamplesRead of them, clocks up to kMaxClockMHz, at most
// kMaxGpuProcessesRead processes each); BadField for one that is not.
MachineState machineFrom(const Block& block);

}  // namespace asyncscope::json_header

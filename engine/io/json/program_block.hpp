// A report header's program block: the program a recording's runs are the iterations of (asyncscope-cli record),
// written and read back.
#pragma once

#include "engine/io/json/json_block.hpp"
#include "engine/model/program_info.hpp"

#include <nlohmann/json.hpp>

namespace asyncscope::json_header {

nlohmann::json programJson(const ProgramInfo& program);
// Every field checked: a command of 1 to kMaxProgramArguments words, texts of at most kMaxNoteBytes, at most
// kMaxProgramNotes notes; BadField for one that is not.
ProgramInfo programFrom(const Block& block);

}  // namespace asyncscope::json_header

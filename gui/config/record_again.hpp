// "Record again…" of a recorded program shown: the record dialog's fields as the program ran (its path, arguments,
// working folder and how its iterations were found), over what the dialog remembers (the programs recorded lately).
// A report does not keep the program's environment or when it was stopped: those start blank.
#pragma once

#include "gui/config/record_settings.hpp"

#include "engine/model/program_info.hpp"

#include <string>
#include <vector>

namespace asyncscope {

RecordSettings recordSettingsOf(const ProgramInfo& program, RecordSettings remembered);
// Words as the record dialog's Arguments field splits them (QProcess::splitCommand): a word with a space or a quote in
// double quotes, a quote inside it tripled. An empty word, which the field cannot give, is lost.
QString argumentsText(const std::vector<std::string>& words);

}  // namespace asyncscope

// A program's options as a man page's OPTIONS section (roff), written from the definitions its --help is made from,
// so that the page and --help cannot say different things.
#pragma once

#include <string>
#include <vector>

namespace asyncscope {

struct ManOption {
    std::vector<std::string> names;  // as typed: "-h", "--help"
    std::string value;               // what follows the names: "SIZE", "chunk|stage"; empty for a flag
    std::string description;         // plain text, as --help prints it
    std::string defaultValue;        // empty: no default told
};

// One tagged paragraph (.TP) per option: the names in bold, the value in italics, the description, and the default.
// Text is escaped for roff (hyphens, backslashes, a leading dot or quote); no macro is taken from the text.
std::string roffOptionList(const std::vector<ManOption>& options);

}  // namespace asyncscope

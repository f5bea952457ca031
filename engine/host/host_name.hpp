// This host's name, as records and output file names carry it.
#pragma once

#include <string>

namespace asyncscope {

// The short host name, as `hostname -s` prints it: gethostname() up to its first dot; "unknown-host" when the
// system does not say.
std::string shortHostName();

}  // namespace asyncscope

// Which CUDA devices this machine has, as the CUDA runtime answers.
#pragma once

#include "engine/model/device.hpp"
#include "engine/model/error.hpp"

namespace asyncscope {

// Asks the CUDA runtime. No driver, a driver too old and no device are distinct errors.
Result<Platform> discoverPlatform();

}  // namespace asyncscope

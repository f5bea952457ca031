// Sizes as people type them: "16777216" elements, or bytes with a unit ("64MiB", "4KiB", "2GB").
#pragma once

#include "engine/model/error.hpp"

#include <cstddef>
#include <string>
#include <string_view>

namespace asyncscope {

// A plain integer counts elements; a number with a byte unit (B, KB, MB, GB, TB, KiB, MiB, GiB, TiB) is converted
// to elements of `elementBytes` and must be a whole number of them. Zero, negatives and junk are
// usage errors.
Result<std::size_t> parseElementCount(std::string_view text, std::size_t elementBytes = sizeof(int));

// "64.0 MiB", "512 B", "2.0 GiB".
std::string formatBytes(std::size_t bytes);

}  // namespace asyncscope

// Asks for a size sweep's range, typed as sizes ("4KiB", "1GiB").
#pragma once

#include <cstddef>
#include <optional>
#include <utility>

class QWidget;

namespace asyncscope {

// Smallest and largest size in bytes, or empty when the user cancels. A size that does not parse keeps the dialog
// open with the reason shown and what was typed left as it is.
std::optional<std::pair<std::size_t, std::size_t>> askSweepRange(QWidget* parent);

}  // namespace asyncscope

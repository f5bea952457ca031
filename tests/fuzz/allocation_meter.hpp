// What the fuzz tests' process holds through operator new (every string, vector and tree of the readers: nlohmann's,
// simdjson's, the run store's), and the most it held since the peak was last reset: a reader's peak memory for one
// input. The fuzz binaries replace the global operator new and delete to count; nothing of the product does.
#pragma once

#include <cstddef>

namespace asyncscope::fuzz {

// Bytes held now.
std::size_t heldBytes();
// Starts a new peak at what is held now.
void resetPeak();
// The most held since resetPeak().
std::size_t peakBytes();

}  // namespace asyncscope::fuzz

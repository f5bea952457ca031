// Host-side work on the result buffer, outside the timed region: clearing it and checking it.
#pragma once

#include <cstddef>
#include <cstdint>

namespace asyncscope {

// Sets n ints to 0; large buffers are split across threads.
void clearHost(int* data, std::size_t n);

// Index of the first element that differs from `expected`, or -1 if all match. Every element is read.
std::int64_t findFirstMismatch(const int* data, std::size_t n, int expected);

}  // namespace asyncscope

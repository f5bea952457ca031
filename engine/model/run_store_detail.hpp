// What the two halves of RunStore share (engine/model/run_store.cpp: the runs' columns; run_store_spans.cpp: the
// spans' storage): the limit on the numbers a series keeps in 32 bits, and how values are compared and counted.
#pragma once

#include <cstddef>
#include <cstdint>
#include <cstring>
#include <limits>
#include <vector>

namespace asyncscope::run_store_detail {

constexpr std::uint32_t kMaxNumber = std::numeric_limits<std::uint32_t>::max();

template <class T, class A>
std::size_t capacityBytes(const std::vector<T, A>& v)
{
    return v.capacity() * sizeof(T);
}

inline bool sameBits(double a, double b)
{
    return std::memcmp(&a, &b, sizeof a) == 0;
}

// `n` as a number a series keeps in 32 bits; std::length_error ("a series holds at most 2^32 - 1 <what>") past that.
std::uint32_t checkedNumber(std::size_t n, const char* what);

}  // namespace asyncscope::run_store_detail

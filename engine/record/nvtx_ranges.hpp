// A recording's NVTX ranges (CUPTI's marker records): each range's start and end paired, and which name repeats
// outermost (the iterations `--iteration nvtx` takes).
#pragma once

#include "engine/record/recording.hpp"

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace asyncscope {

// An NVTX range: a start mark and its end; `name` views the recording's.
struct Range {
    std::uint32_t pid = 0, thread = 0;
    std::string_view name;
    std::uint64_t from = 0, to = 0;
    bool ended = true;
};

// The ranges of process `pid` (of every process where none is named), in the order they began; one never ended runs
// to `lastTime`.
std::vector<Range> rangesOf(const Recording& recording, std::optional<std::uint32_t> pid, std::uint64_t lastTime);

// The outermost range name that repeats: of the names with two ranges or more, the one whose ranges no other
// repeated name's range holds; among those, the most frequent (the first in name order at a tie). Empty where none
// repeats. One pass over the ranges in order of start.
std::string outermostRepeated(const std::vector<Range>& ranges);

}  // namespace asyncscope

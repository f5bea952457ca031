// Numbers and lists as words for people: what messages, advice and comparisons print.
#pragma once

#include <string>
#include <string_view>
#include <vector>

namespace asyncscope {

// "2.502" for (2.50214, 3).
std::string fixedText(double value, int decimals);
// "+1.24 %", "-0.30 %": a difference in percent with its sign.
std::string signedPercentText(double percent, int decimals = 2);
// "a, b, c": the items with `separator` between them.
std::string joinedText(const std::vector<std::string>& items, std::string_view separator = ", ");

}  // namespace asyncscope

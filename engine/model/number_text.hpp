// Numbers as words for people: what messages, advice and comparisons print.
#pragma once

#include <string>

namespace asyncscope {

// "2.502" for (2.50214, 3).
std::string fixedText(double value, int decimals);
// "+1.24 %", "-0.30 %": a difference in percent with its sign.
std::string signedPercentText(double percent, int decimals = 2);

}  // namespace asyncscope

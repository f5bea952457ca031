#include "engine/model/number_text.hpp"

#include <cstdio>

namespace asyncscope {

std::string fixedText(double value, int decimals)
{
    char text[64];
    std::snprintf(text, sizeof text, "%.*f", decimals, value);
    return text;
}

std::string signedPercentText(double percent, int decimals)
{
    char text[64];
    std::snprintf(text, sizeof text, "%+.*f %%", decimals, percent);
    return text;
}

}  // namespace asyncscope

#include "engine/model/number_text.hpp"

#include <cstdio>

namespace asyncscope {

std::string fixedText(double value, int decimals)
{
    // A value read from a file may be as large as a double goes: 1e308 has 309 digits before its point.
    const int length = std::snprintf(nullptr, 0, "%.*f", decimals, value);
    if (length <= 0)
        return {};
    std::string text(std::size_t(length) + 1, '\0');
    std::snprintf(text.data(), text.size(), "%.*f", decimals, value);
    text.pop_back();
    return text;
}

std::string signedPercentText(double percent, int decimals)
{
    char text[64];
    std::snprintf(text, sizeof text, "%+.*f %%", decimals, percent);
    return text;
}

std::string joinedText(const std::vector<std::string>& items, std::string_view separator)
{
    std::string text;
    for (const std::string& item : items) {
        if (!text.empty())
            text += separator;
        text += item;
    }
    return text;
}

}  // namespace asyncscope

#include "engine/model/size_parse.hpp"

#include <cctype>
#include <cstdio>
#include <limits>

namespace asyncscope {

namespace {

struct Unit {
    const char* suffix;
    std::size_t bytes;
};

constexpr Unit kUnits[] = {
    { "B", 1 },
    { "KB", 1000 },
    { "MB", 1000 * 1000 },
    { "GB", 1000 * 1000 * 1000 },
    { "TB", std::size_t(1000) * 1000 * 1000 * 1000 },
    { "KiB", std::size_t(1) << 10 },
    { "MiB", std::size_t(1) << 20 },
    { "GiB", std::size_t(1) << 30 },
    { "TiB", std::size_t(1) << 40 },
};

Error badSize(std::string_view text, const std::string& why)
{
    return makeError(ErrorKind::Usage, "invalid size '" + std::string(text) + "': " + why,
        "Give a number of elements (16777216) or bytes with a unit (64MiB, 4KiB, 2GB).");
}

}  // namespace

Result<std::size_t> parseElementCount(std::string_view text, std::size_t elementBytes)
{
    std::size_t pos = 0;
    while (pos < text.size() && std::isspace(static_cast<unsigned char>(text[pos])))
        ++pos;
    if (pos < text.size() && text[pos] == '-')
        return badSize(text, "it must be positive");
    if (pos < text.size() && text[pos] == '+')
        ++pos;
    if (pos == text.size() || !std::isdigit(static_cast<unsigned char>(text[pos])))
        return badSize(text, "it does not start with a number");

    std::size_t number = 0;
    for (; pos < text.size() && std::isdigit(static_cast<unsigned char>(text[pos])); ++pos) {
        const std::size_t digit = static_cast<std::size_t>(text[pos] - '0');
        if (number > (std::numeric_limits<std::size_t>::max() - digit) / 10)
            return badSize(text, "it is too large");
        number = number * 10 + digit;
    }
    while (pos < text.size() && std::isspace(static_cast<unsigned char>(text[pos])))
        ++pos;
    std::string_view suffix = text.substr(pos);
    while (!suffix.empty() && std::isspace(static_cast<unsigned char>(suffix.back())))
        suffix.remove_suffix(1);

    if (number == 0)
        return badSize(text, "it must be at least one element");
    if (suffix.empty())
        return number;

    for (const Unit& unit : kUnits) {
        if (suffix != unit.suffix)
            continue;
        if (number > std::numeric_limits<std::size_t>::max() / unit.bytes)
            return badSize(text, "it is too large");
        const std::size_t bytes = number * unit.bytes;
        if (bytes % elementBytes != 0)
            return badSize(text, "it is not a whole number of " + std::to_string(elementBytes) + "-byte elements");
        return bytes / elementBytes;
    }
    std::string units;
    for (const Unit& unit : kUnits)
        units += std::string(units.empty() ? "" : ", ") + unit.suffix;
    return badSize(text, "unknown unit '" + std::string(suffix) + "' (the units are " + units + ")");
}

std::string formatBytes(std::size_t bytes)
{
    constexpr const char* names[] = { "B", "KiB", "MiB", "GiB", "TiB" };
    double value = static_cast<double>(bytes);
    int unit = 0;
    while (value >= 1024.0 && unit < 4) {
        value /= 1024.0;
        ++unit;
    }
    char text[32];
    if (unit == 0)
        std::snprintf(text, sizeof text, "%zu B", bytes);
    else
        std::snprintf(text, sizeof text, "%.1f %s", value, names[unit]);
    return text;
}

}  // namespace asyncscope

// One name table per enum: the CLI, the settings, JSON and CSV all spell a choice the same way, and every reader
// rejects an unknown name with the names it accepts.
#pragma once

#include <array>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace asyncscope {

// Specialised next to each enum: `static constexpr std::array<std::pair<E, const char*>, N> entries`.
template <class Enum>
struct EnumNames;

template <class Enum>
constexpr const char* nameOf(Enum value)
{
    for (const auto& [e, name] : EnumNames<Enum>::entries) {
        if (e == value)
            return name;
    }
    return "unknown";
}

template <class Enum>
std::optional<Enum> parseName(std::string_view text)
{
    for (const auto& [e, name] : EnumNames<Enum>::entries) {
        if (text == name)
            return e;
    }
    return std::nullopt;
}

// "pinned or pageable", "text, csv or json": for messages that list what is accepted.
template <class Enum>
std::string acceptedNames()
{
    const auto& entries = EnumNames<Enum>::entries;
    std::string text;
    for (std::size_t i = 0; i < entries.size(); ++i) {
        if (i > 0)
            text += i + 1 == entries.size() ? " or " : ", ";
        text += entries[i].second;
    }
    return text;
}

// Every name, in table order (for CLI11's IsMember and combo boxes).
template <class Enum>
std::vector<std::string> allNames()
{
    std::vector<std::string> names;
    for (const auto& entry : EnumNames<Enum>::entries)
        names.emplace_back(entry.second);
    return names;
}

}  // namespace asyncscope

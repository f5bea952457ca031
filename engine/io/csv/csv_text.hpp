// The text of the CSV files' fields: quoted where they need it (RFC 4180), numbers, flags and choices written and
// parsed as the columns take them. Shared by the writer and the column table (engine/io/csv/csv_report.hpp).
#pragma once

#include "engine/model/names.hpp"

#include <charconv>
#include <cstddef>
#include <string>
#include <string_view>
#include <system_error>

namespace asyncscope::csv {

// What the writer writes and the reader reads at a time.
constexpr std::size_t kBlock = std::size_t(4) << 20;

template <class T>
bool parseNumber(std::string_view text, T& out)
{
    const auto [end, error] = std::from_chars(text.data(), text.data() + text.size(), out);
    return error == std::errc() && end == text.data() + text.size();
}

// A duration in ms as the rules take it: finite and 0 or more.
bool parseDuration(std::string_view text, double& out);

bool parseFlag(std::string_view text, bool& out);

template <class Enum>
bool parseChoice(std::string_view text, Enum& out)
{
    const auto choice = parseName<Enum>(text);
    if (choice)
        out = *choice;
    return choice.has_value();
}

// Quotes a field only when it needs it (RFC 4180): a comma or a quote. A text's control characters are written
// escaped ("\x1b", "\n": displayText) and bytes that are not UTF-8 as U+FFFD, so that every row is one line (as the
// reader takes it) and a file printed to a terminal shows what a device's or a host's name holds, never acts on it.
std::string quoted(const std::string& text);

void appendNumber(std::string& out, double v);

template <class T>
void appendWhole(std::string& out, T v)
{
    char text[24];
    out.append(text, std::to_chars(text, text + sizeof text, v).ptr);
}

}  // namespace asyncscope::csv

#include "engine/model/program_info.hpp"

#include <filesystem>

namespace asyncscope {

std::string commandText(const std::vector<std::string>& command)
{
    std::string text;
    for (const std::string& word : command) {
        if (!text.empty())
            text += ' ';
        const bool plain = !word.empty() &&
            word.find_first_not_of("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789-_./=:,+%@") ==
                std::string::npos;
        if (plain) {
            text += word;
            continue;
        }
        text += '\'';
        for (const char c : word)
            text += c == '\'' ? std::string("'\\''") : std::string(1, c);
        text += '\'';
    }
    return text;
}

std::string programLabel(const ProgramInfo& program, std::size_t most)
{
    if (program.command.empty())
        return {};
    std::vector<std::string> shown = program.command;
    shown.front() = std::filesystem::path(shown.front()).filename().string();
    std::string label = commandText(shown);
    if (label.size() <= most || most == 0)
        return label;
    std::size_t end = most - 1;
    while (end > 0 && (static_cast<unsigned char>(label[end]) & 0xC0) == 0x80)
        --end;  // not into a character's middle
    return label.substr(0, end) + "…";
}

}  // namespace asyncscope

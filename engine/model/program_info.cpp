#include "engine/model/program_info.hpp"

#include "engine/model/display_text.hpp"

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
    return cutText(commandText(shown), most);
}

}  // namespace asyncscope

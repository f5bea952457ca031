#include "engine/model/program_info.hpp"

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

}  // namespace asyncscope

#include "engine/model/program_info.hpp"

#include <filesystem>

namespace asyncscope {

namespace {

constexpr std::string_view kPlain = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789-_./=:,+%@";

}  // namespace

std::string commandText(const std::vector<std::string>& command)
{
    std::string text;
    for (const std::string& word : command) {
        if (!text.empty())
            text += ' ';
        const bool plain = !word.empty() && word.find_first_not_of(kPlain) == std::string::npos;
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

std::optional<std::vector<std::string>> commandWords(std::string_view text, std::size_t most)
{
    std::vector<std::string> words;
    std::size_t i = 0;
    while (i < text.size()) {
        if (words.size() == most)
            return std::nullopt;
        std::string word;
        bool quotedOnce = false;
        while (i < text.size() && text[i] != ' ') {
            if (text.substr(i, 2) == "\\'") {  // a quote between quoted parts
                word += '\'';
                i += 2;
            } else if (text[i] == '\'') {
                const std::size_t close = text.find('\'', i + 1);
                if (close == std::string_view::npos)
                    return std::nullopt;
                word.append(text.substr(i + 1, close - i - 1));
                quotedOnce = true;
                i = close + 1;
            } else if (kPlain.find(text[i]) != std::string_view::npos) {
                word += text[i++];
            } else {
                return std::nullopt;
            }
        }
        if (word.empty() && !quotedOnce)
            return std::nullopt;  // two spaces, or one at an end
        words.push_back(std::move(word));
        if (i < text.size() && ++i == text.size())
            return std::nullopt;  // a space after the last word
    }
    if (words.empty())
        return std::nullopt;
    return words;
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

std::string_view spanNameIn(const ProgramInfo& program, std::uint32_t name)
{
    return name == 0 || name > program.names.size() ? std::string_view() : std::string_view(program.names[name - 1]);
}

}  // namespace asyncscope

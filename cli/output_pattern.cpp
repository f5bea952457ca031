#include "cli/output_pattern.hpp"

namespace asyncscope {

Status checkOutputPattern(const std::string& pattern)
{
    for (std::size_t i = 0; i < pattern.size(); ++i) {
        if (pattern[i] != '%')
            continue;
        const char next = i + 1 < pattern.size() ? pattern[i + 1] : '\0';
        if (next != 'h' && next != 'd' && next != '%')
            return makeError(ErrorKind::Usage,
                "--output '" + pattern + "': '" + pattern.substr(i, next ? 2 : 1) + "' is not a placeholder",
                "Use %h for the host's name, %d for the device index and %% for a percent sign.");
        ++i;
    }
    return std::nullopt;
}

bool namesDevice(const std::string& pattern)
{
    for (std::size_t i = 0; i + 1 < pattern.size(); ++i) {
        if (pattern[i] == '%') {
            if (pattern[i + 1] == 'd')
                return true;
            ++i;  // %% or %h
        }
    }
    return false;
}

std::string expandOutputPattern(const std::string& pattern, const std::string& host, const std::string& device)
{
    std::string path;
    for (std::size_t i = 0; i < pattern.size(); ++i) {
        const char next = i + 1 < pattern.size() ? pattern[i + 1] : '\0';
        if (pattern[i] != '%' || (next != 'h' && next != 'd' && next != '%')) {
            path += pattern[i];
            continue;
        }
        path += next == 'h' ? host : next == 'd' ? device : std::string("%");
        ++i;
    }
    return path;
}

}  // namespace asyncscope

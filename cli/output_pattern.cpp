#include "cli/output_pattern.hpp"

#include "engine/io/input_file.hpp"

#include <cerrno>
#include <filesystem>
#include <system_error>

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

Result<std::unique_ptr<std::ofstream>> openOutput(const std::string& path)
{
    namespace fs = std::filesystem;
    // A directory, a FIFO (opening one blocks until something reads it) or a device is refused before it is opened.
    if (auto unusable = checkWritableFile(path))
        return *unusable;
    const fs::path parent = fs::path(path).parent_path();
    std::error_code ec;
    if (!parent.empty() && !fs::is_directory(parent, ec)) {
        fs::create_directories(parent, ec);
        if (ec)
            return makeError(ErrorKind::Io, "cannot create the folder '" + parent.string() + "': " + ec.message(),
                "Choose a path you may write to.");
    }
    errno = 0;
    auto file = std::make_unique<std::ofstream>(path, std::ios::binary | std::ios::trunc);
    if (!*file)
        return makeError(ErrorKind::Io, "cannot write '" + path + "': " + systemErrorText(errno ? errno : EIO),
            "Choose a path in a folder you may write to.");
    return file;
}

}  // namespace asyncscope

#include "engine/io/input_file.hpp"

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <filesystem>
#include <system_error>

#include <sys/stat.h>
#include <unistd.h>

namespace asyncscope {

namespace {

// What a file that is not regular is, for a message.
const char* kindOf(mode_t mode)
{
    if (S_ISDIR(mode))
        return "a directory";
    if (S_ISFIFO(mode))
        return "a FIFO";
    if (S_ISSOCK(mode))
        return "a socket";
    if (S_ISCHR(mode))
        return "a character device";
    if (S_ISBLK(mode))
        return "a block device";
    return "not a regular file";
}

Error notRegular(const std::string& path, mode_t mode)
{
    if (S_ISDIR(mode))
        return makeError(ErrorKind::Io, path + " is a directory", "Name a file.");
    return makeError(ErrorKind::Io, path + " is not a regular file (" + kindOf(mode) + ")", "Name a file.");
}

}  // namespace

std::string shownPath(const std::string& path)
{
    const std::filesystem::path given(path);
    if (!given.is_absolute())
        return path;
    std::error_code failed;
    const std::string here = std::filesystem::current_path(failed).string();
    if (failed || here.empty() || here == "/")
        return path;
    const std::string prefix = here.back() == '/' ? here : here + '/';
    if (path.size() > prefix.size() && path.compare(0, prefix.size(), prefix) == 0)
        return path.substr(prefix.size());
    return path;
}

std::string systemErrorText(int error)
{
    return std::strerror(error);
}

std::size_t readMore(std::istream& in, std::string& buffer, std::size_t bytes)
{
    char chunk[std::size_t(64) << 10];
    std::size_t got = 0;
    while (got < bytes && in) {
        in.read(chunk, std::streamsize(std::min(sizeof chunk, bytes - got)));
        const std::size_t came = std::size_t(in.gcount());
        if (came == 0)
            break;
        buffer.append(chunk, came);
        got += came;
    }
    return got;
}

Status checkReadableFile(const std::string& path)
{
    struct stat st {};
    if (::stat(path.c_str(), &st) != 0) {
        const int error = errno;
        if (error == ENOENT)
            return makeError(ErrorKind::Io, path + " does not exist");
        return makeError(ErrorKind::Io, "cannot read " + path + ": " + systemErrorText(error));
    }
    if (!S_ISREG(st.st_mode))
        return notRegular(path, st.st_mode);
    if (::access(path.c_str(), R_OK) != 0)
        return makeError(ErrorKind::Io, "cannot read " + path + ": " + systemErrorText(errno));
    return std::nullopt;
}

Status checkWritableFile(const std::string& path)
{
    if (path == "/dev/null" || path == "/dev/stdout" || path == "/dev/stderr")
        return std::nullopt;
    struct stat st {};
    if (::stat(path.c_str(), &st) != 0)
        return std::nullopt;  // to be created: whether it can be is for the writer to find out and say
    if (!S_ISREG(st.st_mode))
        return notRegular(path, st.st_mode);
    return std::nullopt;
}

}  // namespace asyncscope

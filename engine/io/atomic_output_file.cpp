#include "engine/io/atomic_output_file.hpp"

#include "engine/io/input_file.hpp"

#include <cerrno>
#include <filesystem>
#include <system_error>

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

namespace asyncscope {

namespace {

namespace fs = std::filesystem;

// Names the system writes to directly: they cannot be renamed onto, and nothing partial stays in them.
bool writtenDirectly(const std::string& path)
{
    return path == "/dev/null" || path == "/dev/stdout" || path == "/dev/stderr";
}

// How many names a temporary file tries before giving up: another file of this process (or of an earlier process
// with the same id that was killed) may hold the first.
constexpr int kTemporaryNameTries = 100;

// Creates a new, empty temporary file beside `target` (in its folder, so that the rename stays within one file
// system) and returns its name; errno is set where it fails.
std::string createTemporary(const fs::path& target)
{
    const fs::path folder = target.parent_path();
    const std::string stem = "." + target.filename().string() + ".partial-" + std::to_string(::getpid());
    for (int i = 0; i < kTemporaryNameTries; ++i) {
        const fs::path name = folder / (i == 0 ? stem : stem + "-" + std::to_string(i));
        const int fd = ::open(name.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0666);
        if (fd >= 0) {
            ::close(fd);
            return name.string();
        }
        if (errno != EEXIST)
            return {};
    }
    errno = EEXIST;
    return {};
}

// Writes what was written to `path` to the disk: a rename may otherwise reach it before the contents do, and a
// machine that loses power would then show an empty file under the final name. Where the file system cannot sync
// (EINVAL), there is nothing to wait for. Returns 0 or the errno.
int syncFile(const std::string& path)
{
    const int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
    if (fd < 0)
        return errno;
    int error = 0;
    if (::fsync(fd) != 0 && errno != EINVAL)
        error = errno;
    ::close(fd);
    return error;
}

Error writeFailed(const std::string& what, const std::string& path, int error)
{
    const std::string detail = "writing " + (what.empty() ? std::string() : what + " to ") + "'" + path + "' failed";
    if (error)
        return makeError(ErrorKind::Io, detail + ": " + systemErrorText(error));
    return makeError(ErrorKind::Io, detail, "Check free disk space.");
}

}  // namespace

Result<std::unique_ptr<AtomicOutputFile>> AtomicOutputFile::open(const std::string& path, MissingFolders folders)
{
    // A directory, a FIFO (opening one blocks until something reads it) or a device is refused before it is opened.
    if (auto unusable = checkWritableFile(path))
        return *unusable;
    if (writtenDirectly(path)) {
        std::unique_ptr<AtomicOutputFile> file(new AtomicOutputFile(path, path, {}));
        errno = 0;
        file->m_stream.open(path, std::ios::binary | std::ios::trunc);
        if (!file->m_stream)
            return makeError(ErrorKind::Io, "cannot write '" + path + "': " + systemErrorText(errno ? errno : EIO));
        return file;
    }

    // A symbolic link keeps pointing where it did: the file it names is the one replaced.
    std::error_code ec;
    fs::path target(path);
    if (fs::is_symlink(target, ec)) {
        const fs::path resolved = fs::weakly_canonical(target, ec);
        if (!ec)
            target = resolved;
    }
    const fs::path parent = target.parent_path();
    if (!parent.empty() && !fs::is_directory(parent, ec)) {
        if (folders == MissingFolders::Refuse)
            return makeError(ErrorKind::Io,
                "cannot write '" + path + "': the folder '" + parent.string() + "' does not exist",
                "Choose a path in a folder that exists and that you may write to.");
        fs::create_directories(parent, ec);
        if (ec)
            return makeError(ErrorKind::Io, "cannot create the folder '" + parent.string() + "': " + ec.message(),
                "Choose a path you may write to.");
    }

    errno = 0;
    const std::string temporary = createTemporary(target);
    if (temporary.empty())
        return makeError(ErrorKind::Io,
            "cannot write '" + path + "': cannot create a file in its folder: " + systemErrorText(errno ? errno : EIO),
            "Choose a path in a folder you may write to.");
    std::unique_ptr<AtomicOutputFile> file(new AtomicOutputFile(path, target.string(), temporary));
    // An existing file's permissions stay those of the file that replaces it.
    const fs::file_status existing = fs::status(target, ec);
    if (!ec && fs::is_regular_file(existing))
        fs::permissions(temporary, existing.permissions(), ec);
    errno = 0;
    file->m_stream.open(temporary, std::ios::binary | std::ios::trunc);
    if (!file->m_stream)
        return makeError(ErrorKind::Io, "cannot write '" + path + "': " + systemErrorText(errno ? errno : EIO),
            "Choose a path in a folder you may write to.");
    return file;
}

AtomicOutputFile::AtomicOutputFile(std::string path, std::string target, std::string temporary)
    : m_path(std::move(path))
    , m_target(std::move(target))
    , m_temporary(std::move(temporary))
{
}

AtomicOutputFile::~AtomicOutputFile()
{
    discard();
}

Status AtomicOutputFile::commit(const std::string& what)
{
    if (m_done)
        return std::nullopt;
    m_done = true;
    errno = 0;
    m_stream.close();
    int error = 0;
    if (!m_stream)
        error = errno;  // 0 where the library gave no reason (a full disk found while flushing, for one)
    else if (!m_temporary.empty())
        error = syncFile(m_temporary);
    if (m_stream && error == 0) {
        if (m_temporary.empty() || ::rename(m_temporary.c_str(), m_target.c_str()) == 0)
            return std::nullopt;
        error = errno;
    }
    if (!m_temporary.empty()) {
        std::error_code ignored;
        fs::remove(m_temporary, ignored);
    }
    return writeFailed(what, m_path, error);
}

void AtomicOutputFile::discard()
{
    if (m_done)
        return;
    m_done = true;
    m_stream.close();
    if (!m_temporary.empty()) {
        std::error_code ignored;
        fs::remove(m_temporary, ignored);
    }
}

}  // namespace asyncscope

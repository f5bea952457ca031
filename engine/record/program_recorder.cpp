#include "engine/record/program_recorder.hpp"

#include "engine/io/input_file.hpp"
#include "engine/model/cuda_versions.hpp"
#include "engine/model/cupti_library.hpp"
#include "engine/model/display_text.hpp"
#include "engine/record/record_stream.hpp"

#include <dlfcn.h>
#include <fcntl.h>
#include <link.h>
#include <poll.h>
#include <signal.h>
#include <spawn.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/un.h>
#include <sys/wait.h>
#include <unistd.h>

#include <array>
#include <cerrno>
#include <chrono>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <map>
#include <sstream>

extern char** environ;

namespace asyncscope {

namespace {

using Clock = std::chrono::steady_clock;

std::string executableFolder()
{
    std::error_code error;
    const auto exe = std::filesystem::read_symlink("/proc/self/exe", error);
    return error ? std::string() : exe.parent_path().string();
}

// A private folder for the socket, removed with it.
class SocketFolder {
public:
    ~SocketFolder()
    {
        if (listening >= 0)
            ::close(listening);
        if (!path.empty())
            ::unlink(path.c_str());
        if (!folder.empty())
            ::rmdir(folder.c_str());
    }
    std::string folder, path;
    int listening = -1;
};

Status listenOn(SocketFolder& socket)
{
    const char* tmp = std::getenv("TMPDIR");
    std::string pattern = std::string(tmp && *tmp && std::strlen(tmp) < 60 ? tmp : "/tmp") + "/asyncscope-XXXXXX";
    if (!::mkdtemp(pattern.data()))
        return makeError(ErrorKind::Io, "cannot make a folder for the recorder's socket in " + pattern + ": " +
            systemErrorText(errno));
    socket.folder = pattern;
    socket.path = pattern + "/record";
    sockaddr_un address {};
    address.sun_family = AF_UNIX;
    std::strncpy(address.sun_path, socket.path.c_str(), sizeof address.sun_path - 1);
    socket.listening = ::socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC | SOCK_NONBLOCK, 0);
    if (socket.listening < 0 || ::bind(socket.listening, reinterpret_cast<const sockaddr*>(&address), sizeof address) ||
        ::listen(socket.listening, 64))
        return makeError(ErrorKind::Io, "cannot listen on " + socket.path + ": " + systemErrorText(errno));
    return std::nullopt;
}

// The parent of process `pid`: /proc/PID/stat's fourth field, after the name in parentheses (which may hold spaces
// and parentheses of its own); 0 where the process is gone.
std::uint32_t parentOf(std::uint32_t pid)
{
    std::ifstream in("/proc/" + std::to_string(pid) + "/stat");
    std::string stat;
    if (!std::getline(in, stat))
        return 0;
    const std::size_t name = stat.rfind(')');
    if (name == std::string::npos)
        return 0;
    std::istringstream fields(stat.substr(name + 1));
    std::string state;
    std::uint32_t parent = 0;
    return fields >> state >> parent ? parent : 0;
}

// Whether process `pid` is the program or a descendant of it, its parents followed at most 128 steps up. A process
// gone already cannot be followed: it counts as no descendant. The program keeps its pid through an exec (a script
// that execs the CUDA program).
bool isOfProgram(std::uint32_t pid, std::uint32_t program)
{
    for (int step = 0; step <= 128; ++step) {
        if (pid == program)
            return true;
        if (pid <= 1)
            return false;
        pid = parentOf(pid);
    }
    return false;
}

// The lines of each connection, kept whole in the recording as they come. The socket's folder is the recorder's
// user's alone, but a connection is taken only from a process of the program run by that user: the others (another
// program's injection library finding the variable, anything that found the socket) are closed unread.
class Collector {
public:
    Collector(std::ofstream* out, RecordingReader* live, pid_t program)
        : m_out(out), m_live(live), m_program(std::uint32_t(program)), m_user(::geteuid())
    {
    }
    ~Collector()
    {
        for (const auto& [fd, pending] : m_connections)
            ::close(fd);
    }

    void accept(int listening)
    {
        for (;;) {
            const int fd = ::accept4(listening, nullptr, nullptr, SOCK_CLOEXEC | SOCK_NONBLOCK);
            if (fd < 0)
                return;
            ucred peer {};
            socklen_t length = sizeof peer;
            if (::getsockopt(fd, SOL_SOCKET, SO_PEERCRED, &peer, &length) != 0 || length != sizeof peer ||
                peer.uid != m_user || peer.pid <= 0 || !isOfProgram(std::uint32_t(peer.pid), m_program)) {
                ::close(fd);
                ++m_refused;
                continue;
            }
            m_connections.emplace(fd, std::string());
            m_pids.push_back(std::uint32_t(peer.pid));
            m_connected = true;
        }
    }

    // Reads what each connection has; a closed one is dropped (an unfinished last line with it).
    void read(const std::vector<pollfd>& ready)
    {
        char buffer[1 << 16];
        for (const pollfd& p : ready) {
            auto found = m_connections.find(p.fd);
            if (found == m_connections.end() || !(p.revents & (POLLIN | POLLHUP | POLLERR)))
                continue;
            std::string& pending = found->second;
            bool closed = false;
            for (;;) {
                const ssize_t got = ::recv(p.fd, buffer, sizeof buffer, 0);
                if (got > 0) {
                    pending.append(buffer, std::size_t(got));
                    continue;
                }
                closed = got == 0 || (errno != EAGAIN && errno != EWOULDBLOCK && errno != EINTR);
                break;
            }
            const std::size_t whole = pending.rfind('\n');
            if (whole != std::string::npos) {
                if (m_out)
                    m_out->write(pending.data(), std::streamsize(whole + 1));
                m_bytes += whole + 1;
                for (std::size_t from = 0; m_live && from <= whole;) {
                    const std::size_t end = pending.find('\n', from);
                    m_live->line(std::string_view(pending).substr(from, end - from));
                    from = end + 1;
                }
                pending.erase(0, whole + 1);
            }
            if (pending.size() > record::kMaxLineBytes)
                closed = true;  // not the injection library's: no line is that long
            if (closed) {
                ::close(p.fd);
                m_connections.erase(found);
            }
        }
        if (m_out)
            m_out->flush();
    }

    std::vector<pollfd> polled(int listening) const
    {
        std::vector<pollfd> fds { { listening, POLLIN, 0 } };
        for (const auto& [fd, pending] : m_connections)
            fds.push_back({ fd, POLLIN, 0 });
        return fds;
    }
    bool open() const { return !m_connections.empty(); }
    bool connected() const { return m_connected; }
    std::uint64_t bytes() const { return m_bytes; }
    std::uint32_t refused() const { return m_refused; }
    const std::vector<std::uint32_t>& pids() const { return m_pids; }

private:
    std::ofstream* m_out;  // null: the recording is not kept
    RecordingReader* m_live;
    std::uint32_t m_program;  // the program's pid
    uid_t m_user;             // the recorder's effective user
    std::map<int, std::string> m_connections;  // each connection's unfinished line
    bool m_connected = false;
    std::uint64_t m_bytes = 0;
    std::uint32_t m_refused = 0;
    std::vector<std::uint32_t> m_pids;
};

// Whether two paths name one library: the same text, or the same file reached another way (a link, a relative path).
bool sameLibrary(const std::string& a, const std::string& b)
{
    if (a == b)
        return true;
    struct stat first {}, second {};
    return ::stat(a.c_str(), &first) == 0 && ::stat(b.c_str(), &second) == 0 && first.st_dev == second.st_dev &&
        first.st_ino == second.st_ino;
}

// Refuses an injection variable that the program would have, in the recorder's environment or the request's, naming
// another library than the recorder's: a process takes one, and setting the recorder's over it would leave the other
// tool silently out of the program.
Status checkInjectionVariables(const RecordRequest& request)
{
    const struct {
        const char* name;
        const std::string& ours;
        const char* why;
    } variables[] = {
        { "CUDA_INJECTION64_PATH", request.injectionLibrary,
            "another tool injects into CUDA programs, and a process takes one injection library" },
        { "NVTX_INJECTION64_PATH", request.cuptiLibrary,
            "another tool takes the program's NVTX ranges, and a process takes one NVTX injection library" },
    };
    for (const auto& variable : variables) {
        std::vector<std::string> values;
        if (const char* own = std::getenv(variable.name))
            values.emplace_back(own);
        for (const auto& [name, value] : request.environment)
            if (name == variable.name)
                values.push_back(value);
        for (const std::string& value : values)
            if (!value.empty() && !sameLibrary(value, variable.ours))
                return makeError(ErrorKind::Usage,
                    std::string(variable.name) + " is already set to " + cutText(value, 200) + ": " + variable.why,
                    "Unset it to record with AsyncScope, or run the other tool without the recorder.");
    }
    return std::nullopt;
}

std::vector<std::string> environmentFor(const RecordRequest& request, const std::string& socket)
{
    std::map<std::string, std::string> set {
        { "CUDA_INJECTION64_PATH", request.injectionLibrary },
        { "NVTX_INJECTION64_PATH", request.cuptiLibrary },
        { record::kSocketVariable, socket },
        { record::kCuptiVariable, request.cuptiLibrary },
    };
    for (const auto& [name, value] : request.environment)
        set.emplace(name, value);  // the recorder's own variables win
    std::vector<std::string> env;
    for (char** e = environ; e && *e; ++e) {
        const std::string entry(*e);
        if (set.count(entry.substr(0, entry.find('='))) == 0)
            env.push_back(entry);
    }
    for (const auto& [name, value] : set)
        env.push_back(name + "=" + value);
    return env;
}

}  // namespace

Result<std::string> findProgram(const std::string& name, const std::string& workingFolder)
{
    if (name.empty())
        return makeError(ErrorKind::Usage, "no program to record", "Give it after --: record -- ./app arguments…");
    std::vector<std::filesystem::path> tries;
    if (name.find('/') != std::string::npos) {
        const std::filesystem::path given(name);
        tries.push_back(given.is_relative() && !workingFolder.empty() ? std::filesystem::path(workingFolder) / given
                                                                      : given);
    } else if (const char* path = std::getenv("PATH")) {
        std::string folders(path);
        for (std::size_t from = 0; from <= folders.size();) {
            const std::size_t to = std::min(folders.find(':', from), folders.size());
            const std::string folder = folders.substr(from, to - from);
            tries.push_back(std::filesystem::path(folder.empty() ? "." : folder) / name);
            from = to + 1;
        }
    }
    for (const auto& candidate : tries) {
        struct stat info {};
        if (::stat(candidate.c_str(), &info) != 0)
            continue;
        if (!S_ISREG(info.st_mode))
            return makeError(ErrorKind::Usage, shownPath(candidate.string()) + " is not a program (not a regular file)");
        if (::access(candidate.c_str(), X_OK) != 0)
            return makeError(ErrorKind::Usage, shownPath(candidate.string()) + " is not executable",
                "Make it executable (chmod +x) or name the program that runs it.");
        return candidate.string();
    }
    return makeError(ErrorKind::Usage,
        "'" + cutText(name, 200) + "' " + (name.find('/') != std::string::npos ? "does not exist" : "is not on PATH"),
        "Name the program with its folder (./app) or check its name.");
}

Result<std::string> findInjectionLibrary()
{
    if (const char* chosen = std::getenv("ASYNCSCOPE_INJECTION"); chosen && *chosen)
        return std::string(chosen);
    const std::filesystem::path here(executableFolder());
    const char* name = "libasyncscope-inject.so";
    // Beside the program, in an installation's or a bundle's lib folders, or in a build tree (built beside the CLI).
    for (const auto& candidate : { here / name, here / "lib" / name, here.parent_path() / "cli" / name,
             here.parent_path() / "lib" / "asyncscope" / name, here.parent_path() / "lib" / name }) {
        std::error_code error;
        if (std::filesystem::is_regular_file(candidate, error))
            return candidate.string();
    }
    return makeError(ErrorKind::Io, "the injection library (" + std::string(name) + ") is not beside " +
            shownPath(here.string()) + " nor in its lib folders",
        "Reinstall AsyncScope, or name the library with ASYNCSCOPE_INJECTION.");
}

Result<std::string> findCuptiLibrary()
{
    CuptiSearch search;
    if (const char* chosen = std::getenv("ASYNCSCOPE_CUPTI"))
        search.chosen = chosen;
    search.executableDir = executableFolder();
    for (const char* root : std::array<const char*, 3> { std::getenv("CUDA_HOME"), std::getenv("CUDA_PATH"),
             "/usr/local/cuda" })
        search.toolkitRoots.emplace_back(root ? root : "");
    std::string tried;
    for (const std::string& candidate : cuptiCandidates(search)) {
        // Loaded to learn where the loader finds it (a bare soname), and unloaded: nothing of it runs here.
        void* library = ::dlopen(candidate.c_str(), RTLD_LAZY | RTLD_LOCAL);
        if (!library) {
            tried += (tried.empty() ? "" : ", ") + candidate;
            continue;
        }
        link_map* map = nullptr;
        std::string path = candidate;
        if (::dlinfo(library, RTLD_DI_LINKMAP, &map) == 0 && map && map->l_name && *map->l_name)
            path = map->l_name;
        ::dlclose(library);
        return path;
    }
    return makeError(ErrorKind::Io, "CUPTI (" + cuptiSoname() + ") was not found: tried " + tried,
        "Install the CUDA toolkit's CUPTI, or name the library with ASYNCSCOPE_CUPTI.");
}

Result<RecordOutcome> recordProgram(const RecordRequest& request, const std::atomic<bool>& stop, RecordingReader* live)
{
    RecordOutcome outcome;
    auto program = findProgram(request.command.empty() ? std::string() : request.command.front(),
        request.workingFolder);
    if (!program)
        return program.error();
    outcome.program = *program;
    const bool kept = !request.recordingPath.empty();
    if (!kept && !live)
        return makeError(ErrorKind::Usage, "the recording would be neither kept nor read: name a file for it");
    if (Status taken = checkInjectionVariables(request))
        return *taken;
    if (kept)
        if (Status unwritable = checkWritableFile(request.recordingPath))
            return *unwritable;
    if (!request.outputPath.empty())
        if (Status unwritable = checkWritableFile(request.outputPath))
            return *unwritable;
    std::ofstream out;
    if (kept) {
        out.open(request.recordingPath, std::ios::binary | std::ios::trunc);
        if (!out)
            return makeError(ErrorKind::Io, shownPath(request.recordingPath) + " cannot be written: " +
                systemErrorText(errno));
    }
    SocketFolder socket;
    if (Status failed = listenOn(socket))
        return *failed;

    std::vector<std::string> args = request.command;
    std::vector<char*> argv;
    for (std::string& a : args)
        argv.push_back(a.data());
    argv.push_back(nullptr);
    std::vector<std::string> env = environmentFor(request, socket.path);
    std::vector<char*> envp;
    for (std::string& e : env)
        envp.push_back(e.data());
    envp.push_back(nullptr);

    posix_spawn_file_actions_t actions;
    posix_spawnattr_t attributes;
    posix_spawn_file_actions_init(&actions);
    posix_spawnattr_init(&attributes);
    if (!request.outputPath.empty()) {  // opened before the folder changes: a relative name is the recorder's
        posix_spawn_file_actions_addopen(&actions, STDOUT_FILENO, request.outputPath.c_str(),
            O_WRONLY | O_CREAT | O_TRUNC, 0644);
        posix_spawn_file_actions_adddup2(&actions, STDOUT_FILENO, STDERR_FILENO);
    }
    if (!request.workingFolder.empty())
        posix_spawn_file_actions_addchdir_np(&actions, request.workingFolder.c_str());
    // In the recorder's process group, as a program run from the terminal is (Ctrl+C reaches it, and it may read the
    // terminal); the signals the recorder handles or ignores are the program's defaults again.
    sigset_t defaults;
    sigemptyset(&defaults);
    sigaddset(&defaults, SIGINT);
    sigaddset(&defaults, SIGPIPE);
    posix_spawnattr_setsigdefault(&attributes, &defaults);
    posix_spawnattr_setflags(&attributes, POSIX_SPAWN_SETSIGDEF);
    pid_t child = 0;
    const Clock::time_point started = Clock::now();
    const int spawned = ::posix_spawn(&child, outcome.program.c_str(), &actions, &attributes, argv.data(), envp.data());
    posix_spawn_file_actions_destroy(&actions);
    posix_spawnattr_destroy(&attributes);
    if (spawned != 0)
        return makeError(ErrorKind::Io, shownPath(outcome.program) + " could not be started: " +
            systemErrorText(spawned));

    Collector collector(kept ? &out : nullptr, live, child);
    std::optional<Clock::time_point> exited, stopping;
    int signalsSent = 0;
    // Readable when the program ends, so its end is seen at once rather than at the next poll's timeout (a kernel
    // without pidfd_open leaves only the timeout).
    const int ended = static_cast<int>(::syscall(SYS_pidfd_open, child, 0));
    for (;;) {
        if (exited && !collector.open())
            break;  // every process has handed over
        std::vector<pollfd> fds = collector.polled(socket.listening);
        if (ended >= 0 && !exited)
            fds.push_back({ ended, POLLIN, 0 });
        ::poll(fds.data(), nfds_t(fds.size()), 50);
        if (fds[0].revents & POLLIN)
            collector.accept(socket.listening);
        collector.read(fds);
        const Clock::time_point now = Clock::now();
        if (!exited) {
            int status = 0;
            if (::waitpid(child, &status, WNOHANG) == child) {
                exited = now;
                outcome.wallSeconds = std::chrono::duration<double>(now - started).count();
                outcome.exitedSteadyNs =
                    std::chrono::duration_cast<std::chrono::nanoseconds>(now.time_since_epoch()).count();
                outcome.exitCode = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
                outcome.signal = WIFSIGNALED(status) ? WTERMSIG(status) : 0;
                continue;
            }
            const bool due = request.durationSeconds &&
                std::chrono::duration<double>(now - started).count() >= *request.durationSeconds;
            if ((stop.load() || due) && !stopping) {
                stopping = now;
                outcome.stopped = true;
            }
            if (stopping) {
                const double waited = std::chrono::duration<double>(now - *stopping).count();
                const int due = waited >= 10.0 ? 3 : waited >= 5.0 ? 2 : 1;
                if (signalsSent < due) {
                    ::kill(child, due == 1 ? SIGINT : due == 2 ? SIGTERM : SIGKILL);
                    signalsSent = due;
                }
            }
        } else if (now - *exited > std::chrono::seconds(2)) {
            break;  // what is left running (a child the program started) is not waited for
        }
    }
    if (ended >= 0)
        ::close(ended);
    if (exited)
        outcome.handOverSeconds = std::chrono::duration<double>(Clock::now() - *exited).count();
    outcome.connected = collector.connected();
    outcome.bytes = collector.bytes();
    outcome.refusedConnections = collector.refused();
    outcome.pids = collector.pids();
    out.close();
    if (kept && !out)
        return makeError(ErrorKind::Io, "writing " + shownPath(request.recordingPath) + " failed");
    return outcome;
}

}  // namespace asyncscope

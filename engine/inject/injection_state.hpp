// The injection library's shared state (engine/inject): the CUPTI entry points it found, the connection to the
// recorder and the one writer lock that keeps lines whole, shared by the record writer (record_injection.cpp) and the
// exit, fork and signal hand-overs (injection_signals.cpp). Internal to the library, never exported.
#pragma once

#include "engine/cuda/cupti_activity.hpp"
#include "engine/inject/recorded_activity.hpp"
#include "engine/record/record_stream.hpp"

#include <cupti.h>

#include <sys/socket.h>
#include <sys/un.h>
#include <unistd.h>

#include <atomic>
#include <cerrno>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <ctime>
#include <mutex>

namespace asyncscope::inject {

using asyncscope::record::LineWriter;
using asyncscope::record::NameTable;

// The CUPTI entry points, looked up in the library the recorder named (ASYNCSCOPE_RECORD_CUPTI).
inline asyncscope::cupti::CuptiApi g_cupti;
inline int g_socket = -1;
inline std::uint32_t g_pid = 0;
inline std::mutex g_write;  // one writer at a time: lines are sent whole
inline std::atomic<bool> g_started { false };
inline sockaddr_un g_address {};  // the recorder's socket, for a forked child to connect to
inline bool g_recording = false;  // CUPTI is subscribed and the exit, fork and signal handlers are in place
inline bool g_forked = false;     // a child forked from a recording process: its CUPTI state is its parent's, not usable
// A fatal signal is being handled: the writer lock is only tried, for it may be held by the thread the signal
// interrupted, and once that has failed nothing more is sent.
inline std::atomic<bool> g_dying { false };
inline std::atomic<bool> g_writerLost { false };
// The names sent so far on `name` lines (call, kernel and range names), under their own lock.
inline NameTable g_names;
inline std::mutex g_namesLock;

// Takes the writer lock: at once, or while a fatal signal is handled, by trying for about a second and giving up
// rather than waiting on a thread that may never let it go.
inline bool lockWriter()
{
    if (!g_dying.load()) {
        g_write.lock();
        return true;
    }
    for (int tries = 0; tries < 1000 && !g_writerLost.load(); ++tries) {
        if (g_write.try_lock())
            return true;
        timespec millisecond { 0, 1000000 };
        ::nanosleep(&millisecond, nullptr);
    }
    g_writerLost = true;
    return false;
}

// Sends `length` bytes of whole lines; a full socket waits (CUPTI's thread, or the exit). A recorder that is gone
// ends the recording quietly (no SIGPIPE: MSG_NOSIGNAL), and the program goes on without it.
inline void send(const char* data, std::size_t length)
{
    if (!lockWriter())
        return;
    std::lock_guard lock(g_write, std::adopt_lock);
    while (length > 0 && g_socket >= 0) {
        const ssize_t sent = ::send(g_socket, data, length, MSG_NOSIGNAL);
        if (sent < 0 && errno == EINTR)
            continue;
        if (sent <= 0) {
            ::close(g_socket);
            g_socket = -1;
            return;
        }
        data += sent;
        length -= std::size_t(sent);
    }
}

// The NAME field of `line`: the name's ID, its `name` line sent first where it is new, so that the recorder has it
// before any line refers to it; in full where the table has no room for it, or while a fatal signal is handled and
// the table's lock is held by the thread the signal interrupted.
inline void writeName(LineWriter& line, const char* name)
{
    std::unique_lock lock(g_namesLock, std::defer_lock);
    if (g_dying.load() ? lock.try_lock() : (lock.lock(), true)) {
        if (const NameTable::Found found = g_names.find(name); found.id != 0) {
            if (found.fresh) {
                LineWriter given;
                given.word("name").number(g_pid).number(found.id).text(name).end();
                send(given.data(), given.length());
            }
            line.nameId(found.id);
            return;
        }
    }
    line.nameText(name);
}

// Lines gathered into one piece, sent when full or when the batch ends.
class Batch {
public:
    LineWriter& line()
    {
        if (m_line.length() > 0)
            take();
        return m_line;
    }
    ~Batch()
    {
        take();
        flush();
    }

private:
    void take()
    {
        const std::size_t length = m_line.length();
        if (length == 0)
            return;
        if (m_used + length > sizeof m_piece)
            flush();
        std::memcpy(m_piece + m_used, m_line.data(), length);
        m_used += length;
        m_line.clear();
    }
    void flush()
    {
        if (m_used > 0)
            send(m_piece, m_used);
        m_used = 0;
    }

    char m_piece[std::size_t(64) << 10];
    std::size_t m_used = 0;
    LineWriter m_line;
};

inline void warn(const char* what, CUptiResult result)
{
    const char* text = nullptr;
    if (g_cupti.resultString)
        g_cupti.resultString(result, &text);
    Batch batch;
    batch.line().word("note").number(g_pid).text(what).text(": ").text(text ? text : "unknown CUPTI error").end();
}

// A failed system call as a note, with errno's text.
void warnErrno(const char* what, int error);
// Connects to the recorder's socket as this process, and says which process it is; false where the recorder is not
// there.
bool connectToRecorder();
// At exit: the records CUPTI holds, then the line that says the process ended.
void handOverAtExit();
// Around fork(): the writer lock held across it; in a child of a recording process, a connection of its own.
void beforeFork();
void afterForkInParent();
void afterForkInChild();
// The fatal signals' hand-over put in place.
void installSignalHandlers();

}  // namespace asyncscope::inject

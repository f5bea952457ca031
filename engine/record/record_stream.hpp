// The record stream: what the injection library (engine/inject) sends the recorder, and what a recording file holds.
// Text, a record per line, fields split by one space, numbers in decimal; a name (a kernel's, a runtime or driver
// call's, an NVTX range's) is the line's last field. Each name is sent once, on a `name` line that gives it a number
// for its process, and the lines that use it refer to it as "=ID"; a name the writer has no room to remember is
// written in full as ":TEXT", to the line's end. Control bytes in text are written as '?'. Every line after the first
// names the process it is from, so the streams of several processes can be kept in one file.
//
//   asyncscope-record 2
//   process PID PARENT EXECUTABLE
//   clock PID CUPTI_NS MONOTONIC_NS
//   device PID ID CC_MAJOR CC_MINOR MEMORY_BYTES SMS COPY_ENGINES CLOCK_KHZ DRIVER UUID DEVICE_NAME
//   name PID ID TEXT
//   copy PID DEVICE CONTEXT STREAM CORRELATION START END BYTES COPY_KIND SRC_KIND DST_KIND GRAPH_NODE COPIES
//   peer PID SRC_DEVICE DST_DEVICE CONTEXT STREAM CORRELATION START END BYTES COPY_KIND GRAPH_NODE
//   set PID DEVICE CONTEXT STREAM CORRELATION START END BYTES MEMORY_KIND GRAPH_NODE
//   kernel PID DEVICE CONTEXT STREAM CORRELATION START END GRAPH_NODE BLOCKS THREADS_PER_BLOCK NAME
//   sync PID CONTEXT STREAM CORRELATION START END TYPE
//   event PID DEVICE CONTEXT STREAM CORRELATION TIMESTAMP
//   stream PID CONTEXT STREAM FLAG
//   api PID THREAD CORRELATION START END RETURN_VALUE CALLS NAME
//   mark PID THREAD ID start|end|instant TIMESTAMP NAME
//   dropped PID COUNT
//   note PID TEXT
//   signal PID SIGNO
//   exit PID
//
// Version 1 (recordings made before names were sent once) has no `name` lines and every NAME in full, as its text
// alone. A `name` line comes before the first line that refers to its ID; IDs count from 1.
// DRIVER is cuDriverGetVersion's (13000), 0 where unknown; UUID 32 hex digits. Times are CUPTI's clock in ns; the
// kinds are CUPTI's enumerators' values (CUpti_ActivityMemcpyKind, CUpti_ActivityMemoryKind,
// CUpti_ActivitySynchronizationType). A `peer` line is a copy between the memory of two devices, or within one
// through a peer context (CUPTI's MEMCPY2 records): COPY_KIND 10 (peer to peer) or 8 (device to device).
// An `api` line is a runtime call (its NAME begins "cuda", or "__cuda" for the runtime's own entry points) or a driver
// call (its NAME begins "cu" but never "cuda"), "cudaUnknown" and "cuUnknown" where CUPTI has no name for it. The
// driver calls a runtime call makes are recorded too, each a line of its own within the runtime call's START and END
// on its thread: the recorder folds them into it. An `api` line with CALLS above 1 stands for that many back-to-back
// calls of one thread with the same name and result (a poll loop), from the first one's START to the last one's END,
// CORRELATION the first one's. An `event` line is a CUDA event the program recorded, TIMESTAMP where the GPU passed it
// (the points its cudaEventElapsedTime measures between). `clock` gives CUPTI's clock and the host's CLOCK_MONOTONIC
// read together; `stream` a stream of a context as it was made, FLAG CUpti_ActivityStreamFlag's value (1 blocking,
// 2 non-blocking, 3 the NULL stream). `signal` is written as a fatal signal (SIGNO, 1 to 64) reaches the process: a
// crash, or a stop (SIGINT, SIGTERM, SIGHUP) the program left to its default; what CUPTI held is handed over before
// it, and the signal's own action follows, which ends the process unless the program handles it and lives on. `exit`
// is written as the process exits normally: a stream that ends with neither is of a process that was killed
// (SIGKILL), exited without its exit handlers (_exit), or is still running. A child forked from a recording process
// connects as a process of its own (its `process` line names its parent); it has no records of its own, only its
// `exit` or `signal` line.
#pragma once

#include <cstddef>
#include <cstdint>
#include <cstring>

namespace asyncscope::record {

inline constexpr const char* kMagic = "asyncscope-record";
inline constexpr int kVersion = 2;
// The first version: every name in full, no `name` lines. Still read.
inline constexpr int kInlineNamesVersion = 1;
// The variables the recorder sets in the program's environment: the socket it listens on, and the CUPTI library the
// injection library loads. Without the first, the injection library does nothing.
inline constexpr const char* kSocketVariable = "ASYNCSCOPE_RECORD_SOCKET";
inline constexpr const char* kCuptiVariable = "ASYNCSCOPE_RECORD_CUPTI";
// No line is longer, its newline included: a longer name is cut.
inline constexpr std::size_t kMaxLineBytes = 4096;

// Builds one line in place: words and numbers, then at most one name, then the newline. No allocation: the injection
// library writes lines on CUPTI's threads and at the program's exit.
class LineWriter {
public:
    LineWriter& word(const char* w)
    {
        separate();
        append(w, std::strlen(w));
        return *this;
    }
    LineWriter& number(std::uint64_t n)
    {
        separate();
        digits(n);
        return *this;
    }
    // A NAME field: a name sent before on a `name` line, by its ID ("=ID")…
    LineWriter& nameId(std::uint32_t id)
    {
        separate();
        append("=", 1);
        digits(id);
        m_inName = true;
        return *this;
    }
    // … or in full (":TEXT", to the line's end).
    LineWriter& nameText(const char* t) { return text(":").text(t); }
    // The name at the line's end: the first call starts it, later ones add to it. Control bytes become '?'.
    LineWriter& text(const char* t)
    {
        if (!m_inName) {
            separate();
            m_inName = true;
        }
        for (; *t && m_length + 1 < kMaxLineBytes; ++t) {
            const unsigned char c = static_cast<unsigned char>(*t);
            m_text[m_length++] = c < 0x20 || c == 0x7f ? '?' : char(c);
        }
        return *this;
    }
    void end() { m_text[m_length++] = '\n'; }  // room kept for it

    const char* data() const { return m_text; }
    std::size_t length() const { return m_length; }
    void clear()
    {
        m_length = 0;
        m_inName = false;
    }

private:
    void digits(std::uint64_t n)
    {
        char text[20];
        std::size_t first = sizeof text;
        do {
            text[--first] = char('0' + n % 10);
            n /= 10;
        } while (n > 0);
        append(text + first, sizeof text - first);
    }
    void separate()
    {
        if (m_length > 0)
            append(" ", 1);
    }
    void append(const char* from, std::size_t count)
    {
        const std::size_t room = kMaxLineBytes - 1 - m_length;
        const std::size_t n = count < room ? count : room;
        std::memcpy(m_text + m_length, from, n);
        m_length += n;
    }

    char m_text[kMaxLineBytes];
    std::size_t m_length = 0;
    bool m_inName = false;
};

// The names a writer has sent on `name` lines, each with its ID: a name is sent once and then referred to. Fixed in
// size and allocation-free (the injection library writes on CUPTI's threads and in signal handlers): a name it has no
// room for is not remembered, and is written in full.
class NameTable {
public:
    struct Found {
        std::uint32_t id = 0;
        bool fresh = false;  // given its ID now: its `name` line is to be sent before the ID is used
    };
    // The name's ID, or {0, false} where it is not remembered (written in full).
    Found find(const char* name)
    {
        const std::size_t length = std::strlen(name);
        if (length >= kMaxLineBytes / 2)
            return {};
        std::uint64_t hash = 14695981039346656037ull;  // FNV-1a
        for (std::size_t i = 0; i < length; ++i)
            hash = (hash ^ static_cast<unsigned char>(name[i])) * 1099511628211ull;
        for (std::size_t probe = 0; probe < kSlots; ++probe) {
            Slot& slot = m_slots[(hash + probe) % kSlots];
            if (slot.id == 0) {
                if (m_count >= kSlots / 4 * 3 || m_used + length > sizeof m_text)
                    return {};
                std::memcpy(m_text + m_used, name, length);
                slot = { hash, ++m_count, std::uint32_t(m_used), std::uint32_t(length) };
                m_used += length;
                return { slot.id, true };
            }
            if (slot.hash == hash && slot.length == length && std::memcmp(m_text + slot.at, name, length) == 0)
                return { slot.id, false };
        }
        return {};
    }

private:
    static constexpr std::size_t kSlots = 16384;
    struct Slot {
        std::uint64_t hash = 0;
        std::uint32_t id = 0;  // 0: empty
        std::uint32_t at = 0, length = 0;
    };
    Slot m_slots[kSlots] {};
    char m_text[std::size_t(1) << 20] {};
    std::size_t m_used = 0;
    std::uint32_t m_count = 0;
};

}  // namespace asyncscope::record

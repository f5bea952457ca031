// The injection library's hand-overs at a process's end (engine/inject): at exit, at a fatal signal (the records
// CUPTI holds, then a line naming the signal, then the signal's own action), and around fork (a child of a recording
// process connects as a process of its own).
#include "engine/inject/injection_state.hpp"

#include <pthread.h>
#include <signal.h>

namespace asyncscope::inject {

// A failed system call as a note, with errno's text.
void warnErrno(const char* what, int error)
{
    Batch batch;
    batch.line().word("note").number(g_pid).text(what).text(": ").text(std::strerror(error)).end();
}

// At exit: every record still in CUPTI's buffers, then the line that says the process ended there. A forked child
// has no records of its own to hand over (CUPTI's state after a fork is its parent's, and not usable): it says only
// that it ended.
void handOverAtExit()
{
    if (std::uint32_t(::getpid()) != g_pid)
        return;  // a child forked without the fork handler (a raw clone): its parent's recording is not its own
    if (!g_forked)
        if (const CUptiResult r = g_cupti.flushAll(CUPTI_ACTIVITY_FLAG_FLUSH_FORCED); r != CUPTI_SUCCESS)
            warn("cuptiActivityFlushAll", r);
    Batch batch;
    batch.line().word("exit").number(g_pid).end();
}

// Connects to the recorder's socket as this process, and says which process it is; false where the recorder is not
// there.
bool connectToRecorder()
{
    g_socket = ::socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);
    if (g_socket < 0)
        return false;
    if (::connect(g_socket, reinterpret_cast<const sockaddr*>(&g_address), sizeof g_address) != 0) {
        ::close(g_socket);  // the recorder is gone
        g_socket = -1;
        return false;
    }
    g_pid = std::uint32_t(::getpid());
    Batch batch;
    char exe[1024] = {};
    const ssize_t length = ::readlink("/proc/self/exe", exe, sizeof exe - 1);
    batch.line().word(asyncscope::record::kMagic).number(asyncscope::record::kVersion).end();
    batch.line().word("process").number(g_pid).number(std::uint32_t(::getppid())).text(length > 0 ? exe : "").end();
    return true;
}

// Around a fork the writer lock is held, so that the child's copy of it is free (no other thread of the parent is in
// the child to let it go). Only tried while a fatal signal is handled (a crash handler that forks), where it may be
// held for good.
namespace {
bool g_forkLocked = false;
}  // namespace

void beforeFork() { g_forkLocked = lockWriter(); }
void afterForkInParent()
{
    if (g_forkLocked)
        g_write.unlock();
}

// In a child forked from a recording process. The connection it inherited is its parent's: closing the child's copy
// of it sends nothing, and the parent's stays open. The child connects as a process of its own, so that its end is
// seen; it never touches CUPTI.
void afterForkInChild()
{
    if (g_forkLocked)
        g_write.unlock();
    if (!g_recording)
        return;
    if (g_socket >= 0)
        ::close(g_socket);
    g_socket = -1;
    g_pid = std::uint32_t(::getpid());
    g_forked = true;
    if (g_forkLocked)
        connectToRecorder();  // else its copy of the lock is held by a thread it does not have: it sends nothing
}

namespace {

// The signals whose death hands the records over: those of a crash, always, and those that stop a program
// (Ctrl+C, the recorder's stop, a hang-up) where the program left them to their default. Each one's action before
// this library's, passed on to once the records are handed over.
constexpr int kCrashSignals[] = { SIGSEGV, SIGBUS, SIGFPE, SIGILL, SIGABRT };
constexpr int kStopSignals[] = { SIGINT, SIGTERM, SIGHUP };
struct sigaction g_saved[NSIG];
// 0 until a signal comes, 1 while one is handled, 2 once one has been.
std::atomic<int> g_signalState { 0 };
std::atomic<int> g_dyingOf { 0 };
// How long the hand-over may take before the process dies without it.
constexpr unsigned kHandOverSeconds = 3;

// Ends the process with `signo` at once, by its default action.
void dieOf(int signo)
{
    struct sigaction action {};
    action.sa_handler = SIG_DFL;
    sigemptyset(&action.sa_mask);
    sigset_t only;
    sigemptyset(&only);
    sigaddset(&only, signo);
    if (::sigaction(signo, &action, nullptr) == 0 && ::pthread_sigmask(SIG_UNBLOCK, &only, nullptr) == 0)
        ::raise(signo);
}

// A hand-over that does not end in time (CUPTI waiting on a lock the interrupted thread holds) is given up: the
// process dies of the signal it was dying of.
void onHandOverTimeout(int) { dieOf(g_dyingOf.load()); }

// Gives the signal to the action that was there before this library's: the program's handler, called as the kernel
// would have called it (its flags and mask respected, the signal's information passed on), or the default action,
// which the signal raised again carries out.
void passOn(int signo, siginfo_t* info, void* context)
{
    struct sigaction saved = g_saved[signo];
    if (::sigaction(signo, &saved, nullptr) != 0) {
        dieOf(signo);
        return;
    }
    if (saved.sa_handler == SIG_IGN)
        return;
    if (saved.sa_handler == SIG_DFL) {
        dieOf(signo);
        return;
    }
    if (saved.sa_flags & SA_RESETHAND) {
        struct sigaction reset {};
        reset.sa_handler = SIG_DFL;
        sigemptyset(&reset.sa_mask);
        ::sigaction(signo, &reset, nullptr);  // a failure leaves the program's handler in place, as harmless
    }
    sigset_t mask = saved.sa_mask;
    if (saved.sa_flags & SA_NODEFER) {
        sigset_t only;
        sigemptyset(&only);
        sigaddset(&only, signo);
        ::pthread_sigmask(SIG_UNBLOCK, &only, nullptr);  // the kernel's own mask is restored as this handler returns
    } else {
        sigaddset(&mask, signo);
    }
    ::pthread_sigmask(SIG_BLOCK, &mask, nullptr);
    if (saved.sa_flags & SA_SIGINFO)
        saved.sa_sigaction(signo, info, context);
    else
        saved.sa_handler(signo);
}

// A signal that ends the process, by default or by the program's handler: CUPTI's records are handed over, then a
// line says which signal it was, then the signal goes where it would have gone. Once: a second fatal signal while
// this runs (the hand-over crashed, or another thread did) goes straight to its default action.
void onSignal(int signo, siginfo_t* info, void* context)
{
    const int savedErrno = errno;
    if (int state = 0; !g_signalState.compare_exchange_strong(state, 1)) {
        if (state == 1)
            dieOf(signo);
        else
            passOn(signo, info, context);
        errno = savedErrno;
        return;
    }
    g_dyingOf = signo;
    g_dying = true;
    // A bound on the hand-over, from the real-time timer: the program's own use of it ends with its death.
    struct sigaction timeout {};
    struct sigaction programTimeout {};
    timeout.sa_handler = onHandOverTimeout;
    sigemptyset(&timeout.sa_mask);
    const bool bounded = ::sigaction(SIGALRM, &timeout, &programTimeout) == 0;
    const unsigned programAlarm = bounded ? ::alarm(kHandOverSeconds) : 0;
    // Not async-signal-safe: CUPTI takes its locks and calls bufferCompleted, which frees its buffer and sends. A
    // best effort at a death that is coming anyway; the bound above and the writer lock's tries keep it from hanging
    // where the interrupted thread holds what it needs.
    LineWriter line;
    if (!g_forked)
        if (const CUptiResult r = g_cupti.flushAll(CUPTI_ACTIVITY_FLAG_FLUSH_FORCED); r != CUPTI_SUCCESS) {
            const char* text = nullptr;
            g_cupti.resultString(r, &text);
            line.word("note").number(g_pid).text("cuptiActivityFlushAll: ").text(text ? text : "unknown CUPTI error")
                .end();
            send(line.data(), line.length());
            line.clear();
        }
    line.word("signal").number(g_pid).number(std::uint32_t(signo)).end();
    send(line.data(), line.length());
    if (bounded) {
        ::alarm(programAlarm);
        ::sigaction(SIGALRM, &programTimeout, nullptr);  // a failure leaves the bound's handler: the process is ending
    }
    g_signalState = 2;
    passOn(signo, info, context);
    g_dying = false;  // the program's handler returned: it lives on
    g_writerLost = false;
    errno = savedErrno;
}

}  // namespace

// Puts onSignal in place: for the crash signals over whatever was there, for the stop signals only over their default.
void installSignalHandlers()
{
    struct sigaction action {};
    action.sa_sigaction = onSignal;
    action.sa_flags = SA_SIGINFO;  // not SA_ONSTACK: the hand-over needs more stack than an alternate stack has
    sigemptyset(&action.sa_mask);
    for (const int signo : kCrashSignals)
        if (::sigaction(signo, &action, &g_saved[signo]) != 0)
            warnErrno("sigaction", errno);
    for (const int signo : kStopSignals) {
        struct sigaction previous {};
        if (::sigaction(signo, nullptr, &previous) != 0) {
            warnErrno("sigaction", errno);
            continue;
        }
        if (previous.sa_handler != SIG_DFL)
            continue;  // the program handles or ignores it: its way stands
        g_saved[signo] = previous;
        if (::sigaction(signo, &action, nullptr) != 0)
            warnErrno("sigaction", errno);
    }
}

}  // namespace asyncscope::inject

#include "gui/app/quit_signals.hpp"

#include "gui/app/app_exit.hpp"
#include "gui/app/main_window.hpp"
#include "gui/session/session_model.hpp"

#include <QCoreApplication>
#include <QSocketNotifier>

#include <cerrno>
#include <cstring>
#include <iostream>

#include <sys/socket.h>
#include <unistd.h>

namespace asyncscope {

namespace {

// The socket pair's write end, for the handler; -1 while no QuitSignals catches anything.
volatile std::sig_atomic_t g_writeEnd = -1;
bool g_caught = false;  // a QuitSignals exists and catches signals (GUI thread only)

// Runs on whichever thread the signal interrupts: only async-signal-safe calls. The socket does not block, so a flood
// of signals cannot hang the handler; a byte that does not fit is dropped, one is enough.
void onSignal(int signalNumber)
{
    const int savedErrno = errno;
    const unsigned char byte = static_cast<unsigned char>(signalNumber);
    [[maybe_unused]] const ssize_t written = ::write(g_writeEnd, &byte, 1);
    errno = savedErrno;
}

QString lastSystemError()
{
    return QString::fromLocal8Bit(std::strerror(errno));
}

}  // namespace

QuitSignals::QuitSignals(std::vector<int> signalNumbers, QObject* parent)
    : QObject(parent)
{
    if (g_caught) {
        m_problem = tr("quit signals are caught elsewhere in this process already");
        return;
    }
    int ends[2];
    if (::socketpair(AF_UNIX, SOCK_STREAM | SOCK_NONBLOCK | SOCK_CLOEXEC, 0, ends) != 0) {
        m_problem = tr("no socket pair for quit signals: %1").arg(lastSystemError());
        return;
    }
    m_notifier = new QSocketNotifier(ends[0], QSocketNotifier::Read, this);
    connect(m_notifier, &QSocketNotifier::activated, this, &QuitSignals::onReadable);
    g_writeEnd = ends[1];
    g_caught = true;

    for (const int number : signalNumbers) {
        struct sigaction previous {};
        if (::sigaction(number, nullptr, &previous) != 0) {
            m_problem = tr("cannot look at %1: %2").arg(name(number), lastSystemError());
            continue;
        }
        if (previous.sa_handler == SIG_IGN)
            continue;  // ignored by whoever started the app: it stays so
        struct sigaction action {};
        action.sa_handler = onSignal;
        sigemptyset(&action.sa_mask);
        action.sa_flags = SA_RESTART;  // system calls the signal interrupts carry on
        if (::sigaction(number, &action, nullptr) != 0) {
            m_problem = tr("cannot catch %1: %2").arg(name(number), lastSystemError());
            continue;
        }
        m_signals.push_back(number);
        m_previous.push_back(previous);
    }
}

QuitSignals::~QuitSignals()
{
    if (!m_notifier)
        return;
    restore();  // before the socket goes: no handler may write to a closed (or reused) descriptor
    const int readEnd = int(m_notifier->socket());
    const int writeEnd = int(g_writeEnd);
    delete m_notifier;
    g_writeEnd = -1;
    ::close(readEnd);
    ::close(writeEnd);
    g_caught = false;
}

QString QuitSignals::name(int signalNumber)
{
    switch (signalNumber) {
    case SIGINT: return QStringLiteral("SIGINT");
    case SIGTERM: return QStringLiteral("SIGTERM");
    case SIGHUP: return QStringLiteral("SIGHUP");
    case SIGQUIT: return QStringLiteral("SIGQUIT");
    default: return QStringLiteral("signal %1").arg(signalNumber);
    }
}

void QuitSignals::restore()
{
    for (std::size_t i = 0; i < m_signals.size(); ++i)
        ::sigaction(m_signals[i], &m_previous[i], nullptr);
    m_signals.clear();
    m_previous.clear();
}

void QuitSignals::onReadable()
{
    unsigned char bytes[16];
    int first = 0;
    for (;;) {
        const ssize_t got = ::read(int(m_notifier->socket()), bytes, sizeof bytes);
        if (got > 0) {
            if (first == 0)
                first = bytes[0];
            continue;
        }
        if (got < 0 && errno == EINTR)
            continue;
        break;  // EAGAIN: all read
    }
    if (first == 0 || m_delivered)
        return;
    m_delivered = true;
    // The next signal ends the process at once, without waiting for the run thread: the way out when closing hangs.
    struct sigaction fallback {};
    fallback.sa_handler = SIG_DFL;
    sigemptyset(&fallback.sa_mask);
    for (const int number : m_signals)
        ::sigaction(number, &fallback, nullptr);
    emit received(first);
}

void closeOnQuitSignal(QuitSignals& quit, MainWindow& window, AppExit& exit)
{
    QObject::connect(&quit, &QuitSignals::received, &window, [&window, &exit](int signalNumber) {
        const SessionModel& session = window.session();
        const QString stopping = session.isRunning() ? QObject::tr("cancelling the run in progress and closing")
            : session.isLoading()                    ? QObject::tr("stopping the read of a saved run and closing")
                                                     : QObject::tr("closing");
        std::cerr << "asyncscope: " << QuitSignals::name(signalNumber).toStdString() << ": " << stopping.toStdString()
                  << std::endl;
        exit.end(window, QuitSignals::exitCode(signalNumber));  // closeEvent: cancels, waits (bounded) for the run thread
    });
}

}  // namespace asyncscope

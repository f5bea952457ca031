// SIGINT and SIGTERM close the app the way its close button does, instead of killing it mid-run: a terminal's Ctrl+C
// or a `kill` cancels the run, waits (bounded) for the run thread and ends with a status that names the signal.
// The handler only writes the signal's number into a socket pair (the self-pipe pattern: write() is
// async-signal-safe, Qt is not); a socket notifier reads it on the GUI thread, which does the rest.
#pragma once

#include <QObject>
#include <QString>

#include <csignal>
#include <vector>

class QSocketNotifier;

namespace asyncscope {

class AppExit;
class MainWindow;

class QuitSignals : public QObject {
    Q_OBJECT
public:
    // Catches `signalNumbers` from now on. A signal ignored when the app started (nohup, a background job of a
    // shell) stays ignored. One instance at a time: a second one catches nothing and says so in problem().
    explicit QuitSignals(std::vector<int> signalNumbers = { SIGINT, SIGTERM }, QObject* parent = nullptr);
    ~QuitSignals() override;  // puts the earlier handlers back

    // Empty once the handlers are in place; otherwise why not (the signals then end the app as they did before).
    const QString& problem() const { return m_problem; }
    // The exit status of an app a signal closed: 128 + the signal's number, as a shell reports a process the signal
    // ended (130 for SIGINT, 143 for SIGTERM), so a script can tell it from a run that finished.
    static int exitCode(int signalNumber) { return 128 + signalNumber; }
    static QString name(int signalNumber);  // "SIGTERM"

signals:
    // The first of the signals arrived; emitted on this object's thread. From then on the signals take their
    // default action again, so a second one while the app is closing ends the process at once.
    void received(int signalNumber);

private:
    void onReadable();
    void restore();

    std::vector<int> m_signals;
    std::vector<struct sigaction> m_previous;  // one per signal caught, to put back
    QSocketNotifier* m_notifier = nullptr;
    QString m_problem;
    bool m_delivered = false;
};

// On the first quit signal: says on standard error which signal and what it stops, closes `window` as its close
// button does (MainWindow::closeEvent cancels the run or the read and waits, bounded, for the run thread), and ends
// the app through `exit` with QuitSignals::exitCode. Headless runs (--export-png) end the same way, with this message
// instead of their summary, and save nothing.
void closeOnQuitSignal(QuitSignals& quit, MainWindow& window, AppExit& exit);

}  // namespace asyncscope

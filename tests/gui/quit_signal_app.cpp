// The app as gui/main.cpp wires it, on the fake backend, for quit_signals_test to stop with a signal: a long series
// starts at once (runs every 20 ms); "running" is printed once its first runs are in. On leaving it prints the exit
// code and what the fake backend saw: series still inside run() and runs delivered. Test code only.
// Usage: quit_signal_app [--headless PNG] | [--open FILE] [--blocked-read FILE]
// --open shows FILE instead of running (no series starts) and prints "shown" once the window is up; --blocked-read
// reads FILE with a loader of the window's own, past the window's checks: a regular file whose opening waits (one the
// test holds with a lease) stands for a read that never ends (a stalled network disk, a FIFO put in place of a file
// after it was checked).
#include "fake_backend.hpp"

#include "gui/app/app_exit.hpp"
#include "gui/app/app_options.hpp"
#include "gui/app/main_window.hpp"
#include "gui/app/quit_signals.hpp"
#include "gui/session/report_loader.hpp"
#include "gui/session/session_model.hpp"

#include <QApplication>
#include <QTimer>

#include <iostream>

using namespace asyncscope;

int main(int argc, char* argv[])
{
    QApplication app(argc, argv);
    QCoreApplication::setOrganizationName(QStringLiteral("AsyncScopeTests"));
    QCoreApplication::setApplicationName(QStringLiteral("QuitSignalApp"));

    QuitSignals quitSignals;
    if (!quitSignals.problem().isEmpty()) {
        std::cerr << quitSignals.problem().toStdString() << '\n';
        return 1;
    }
    auto backend = std::make_shared<testing::FakeBackend>();
    backend->runDelay = std::chrono::milliseconds(20);
    AppOptions options;
    options.runs = 1000000;  // far more than the test waits for
    options.runNow = true;
    const QStringList arguments = QCoreApplication::arguments();
    if (const auto at = arguments.indexOf(QStringLiteral("--headless")); at > 0 && at + 1 < arguments.size())
        options.exportPng = arguments[at + 1];
    if (const auto at = arguments.indexOf(QStringLiteral("--open")); at > 0 && at + 1 < arguments.size()) {
        options.open = arguments[at + 1];
        options.runNow = false;
    }

    AppExit exit;
    MainWindow window(backend, options);
    closeOnQuitSignal(quitSignals, window, exit);
    QObject::connect(
        &window, &MainWindow::headlessFinished, &app, [&window, &exit](int code) { exit.end(window, code); });
    bool told = false;
    QObject::connect(&window.session(), &SessionModel::reportChanged, &app, [&] {
        if (!told && window.session().isRunning() && !window.session().report().runs.empty()) {
            told = true;
            std::cout << "running" << std::endl;
        }
    });
    if (const auto at = arguments.indexOf(QStringLiteral("--blocked-read")); at > 0 && at + 1 < arguments.size())
        (new ReportLoader(&window))->start(arguments[at + 1]);
    if (!options.open.isEmpty())
        QTimer::singleShot(0, &window, [] { std::cout << "shown" << std::endl; });
    window.show();
    const int code = exit.exec();
    std::cout << "exit code " << code << ", series still running " << backend->activeSeries.load()
              << ", runs delivered " << backend->runsDelivered.load() << std::endl;
    return code;
}

// asyncscope: the desktop app.
#include "gui/app/app_exit.hpp"
#include "gui/app/app_options.hpp"
#include "gui/app/main_window.hpp"
#include "gui/app/quit_signals.hpp"

#include "engine/cuda/cuda_backend.hpp"

#include <QApplication>

#include <iostream>
#include <optional>

namespace {

void nameTheApplication()
{
    QCoreApplication::setApplicationName(QStringLiteral("AsyncScope"));
    QCoreApplication::setOrganizationName(QStringLiteral("AsyncScope"));
    QCoreApplication::setApplicationVersion(QStringLiteral(ASYNCSCOPE_VERSION));
}

}  // namespace

int main(int argc, char* argv[])
{
    // The command line is read before any window system is touched, so --help, --version and a usage error work
    // with no display (over SSH, in a container).
    std::optional<asyncscope::AppOptions> options;
    {
        QCoreApplication parsing(argc, argv);
        nameTheApplication();
        auto parsed = asyncscope::parseAppOptions(QCoreApplication::arguments());
        if (!parsed) {
            std::cerr << "asyncscope: " << parsed.error().message() << '\n';
            return 2;
        }
        if (parsed->earlyExitText) {
            std::cout << parsed->earlyExitText->toStdString();
            return 0;
        }
        options = *parsed;
    }

    QApplication app(argc, argv);
    nameTheApplication();
    QApplication::setDesktopFileName(QStringLiteral("io.github.asyncscope.AsyncScope"));
    QApplication::setWindowIcon(QIcon(QStringLiteral(":/icons/asyncscope.svg")));

    // SIGINT and SIGTERM close the window as its close button does and end with 128 + the signal's number; a second
    // one while it closes ends the process at once (gui/quit_signals.hpp).
    asyncscope::QuitSignals quitSignals;
    if (!quitSignals.problem().isEmpty())
        std::cerr << "asyncscope: " << quitSignals.problem().toStdString() << '\n';
    // The status is the one decided (gui/app/app_exit.hpp), not what the event loop returns as the window closes.
    asyncscope::AppExit exit;
    asyncscope::MainWindow window(std::make_shared<asyncscope::CudaBackend>(), *options);
    asyncscope::closeOnQuitSignal(quitSignals, window, exit);
    QObject::connect(&window, &asyncscope::MainWindow::headlessFinished, &app,
        [&window, &exit](int code) { exit.end(window, code); });
    window.show();
    return exit.exec();
}

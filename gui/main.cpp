// asyncscope: the desktop app.
#include "gui/app_options.hpp"
#include "gui/main_window.hpp"

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

    asyncscope::MainWindow window(std::make_shared<asyncscope::CudaBackend>(), *options);
    QObject::connect(&window, &asyncscope::MainWindow::headlessFinished, &app, [&window](int code) {
        window.close();
        QApplication::exit(code);
    });
    window.show();
    return app.exec();
}

// asyncscope: the desktop app.
#include "gui/app_options.hpp"
#include "gui/main_window.hpp"

#include "engine/cuda/cuda_backend.hpp"

#include <QApplication>

#include <iostream>

int main(int argc, char* argv[])
{
    QApplication app(argc, argv);
    QApplication::setApplicationName(QStringLiteral("AsyncScope"));
    QApplication::setOrganizationName(QStringLiteral("AsyncScope"));
    QApplication::setApplicationVersion(QStringLiteral(ASYNCSCOPE_VERSION));
    QApplication::setDesktopFileName(QStringLiteral("io.github.asyncscope.AsyncScope"));
    QApplication::setWindowIcon(QIcon(QStringLiteral(":/icons/asyncscope.svg")));

    auto options = asyncscope::parseAppOptions(QApplication::arguments());
    if (!options) {
        std::cerr << "asyncscope: " << options.error().message() << '\n';
        return 2;
    }
    if (options->earlyExitText) {
        std::cout << options->earlyExitText->toStdString();
        return 0;
    }

    asyncscope::MainWindow window(std::make_shared<asyncscope::CudaBackend>(), *options);
    QObject::connect(&window, &asyncscope::MainWindow::headlessFinished, &app, [&window](int code) {
        window.close();
        QApplication::exit(code);
    });
    window.show();
    return app.exec();
}

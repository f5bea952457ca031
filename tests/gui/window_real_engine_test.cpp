// The window on the real CUDA engine of a machine without a driver: the one GUI test that links the CUDA runtime,
// on purpose (every other GUI test runs on the fake backend and links none of it; tests/layering checks that).
#include "window_waits.hpp"

#include "gui/app/main_window.hpp"
#include "gui/session/session_model.hpp"

#include "engine/cuda/cuda_backend.hpp"

#include <QComboBox>
#include <QCoreApplication>
#include <QLabel>
#include <QSettings>
#include <QTest>

#include <cuda_runtime_api.h>

using namespace asyncscope;
using asyncscope::testing::waitForDevices;

class WindowRealEngineTest : public QObject {
    Q_OBJECT
private slots:
    void initTestCase()
    {
        QCoreApplication::setOrganizationName("AsyncScopeTests");
        QCoreApplication::setApplicationName("WindowRealEngineTest");
        QSettings().clear();
    }

    void noDriverState()
    {
        int driver = 0;
        if (cudaDriverGetVersion(&driver) == cudaSuccess && driver != 0)
            QSKIP("a CUDA driver is installed here; this checks the no-driver state");
        MainWindow window(std::make_shared<CudaBackend>());
        window.show();
        QVERIFY(waitForDevices(window));
        QVERIFY(!window.runEnabled());
        QVERIFY2(window.deviceMessage().startsWith("This computer has no NVIDIA driver"), qPrintable(window.deviceMessage()));
        QVERIFY(window.findChild<QLabel*>("deviceMessage")->toolTip().contains("No NVIDIA driver was found"));
        QVERIFY2(window.statusText().startsWith("No GPU can run here"), qPrintable(window.statusText()));
        QCOMPARE(window.findChild<QComboBox*>("device")->currentText(), QString("No NVIDIA driver"));
        window.startRun();  // refused quietly: nothing to run on
        QVERIFY(window.session().report().runs.empty());
    }
};

QTEST_MAIN(WindowRealEngineTest)
#include "window_real_engine_test.moc"

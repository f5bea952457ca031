// The run thread: ordered delivery, cancel, teardown during a run. Uses the fake backend.
#include "fake_backend.hpp"

#include "gui/run_controller.hpp"

#include <QSignalSpy>
#include <QTest>

using namespace asyncscope;
using asyncscope::testing::FakeBackend;

class RunControllerTest : public QObject {
    Q_OBJECT
private slots:
    void discoveryRunsOffTheGuiThread()
    {
        auto backend = std::make_shared<FakeBackend>();
        RunController controller(backend);
        QSignalSpy devices(&controller, &RunController::devicesAvailable);
        controller.discover();
        QVERIFY(devices.wait(5000));
        QVERIFY(backend->discoveryThread.load() != nullptr);
        QVERIFY(backend->discoveryThread.load() != QThread::currentThread());
        QCOMPARE(devices.first().first().value<Platform>().devices.size(), std::size_t(2));
    }

    void deliversEveryResultInOrderOnTheGuiThread()
    {
        auto backend = std::make_shared<FakeBackend>();
        RunController controller(backend);
        std::vector<int> indices;
        bool allOnGuiThread = true;
        connect(&controller, &RunController::runAvailable, this, [&](const RunResult& r) {
            indices.push_back(r.index);
            allOnGuiThread = allOnGuiThread && QThread::currentThread() == thread();
        });
        QSignalSpy finished(&controller, &RunController::seriesFinished);
        PipelineConfig config;
        config.runs = 25;
        config.warmupRuns = 3;
        QVERIFY(controller.start(config));
        QVERIFY(controller.isRunning());
        QVERIFY(!controller.start(config));  // one series at a time
        QVERIFY(finished.wait(10000));
        QVERIFY(!controller.isRunning());
        QCOMPARE(indices.size(), std::size_t(28));
        for (int i = 0; i < 28; ++i)
            QCOMPARE(indices[std::size_t(i)], i);
        QVERIFY(allOnGuiThread);
        QVERIFY(backend->runThread.load() != QThread::currentThread());
    }

    void cancelStopsWithinOneRun()
    {
        auto backend = std::make_shared<FakeBackend>();
        backend->runDelay = std::chrono::milliseconds(20);
        RunController controller(backend);
        QSignalSpy failed(&controller, &RunController::seriesFailed);
        int seen = 0;
        int seenAtCancel = -1;
        connect(&controller, &RunController::runAvailable, this, [&] {
            if (++seen == 5) {
                seenAtCancel = backend->runsDelivered.load();
                controller.cancel();
            }
        });
        PipelineConfig config;
        config.runs = 1000;
        QVERIFY(controller.start(config));
        QVERIFY(failed.wait(10000));
        QCOMPARE(failed.first().first().value<Error>().kind, ErrorKind::Cancelled);
        // The worker may have finished the run it was in when the flag was set, and no more.
        QVERIFY2(backend->runsDelivered.load() <= seenAtCancel + 1,
            qPrintable(QString("%1 delivered, %2 when cancelled").arg(backend->runsDelivered.load()).arg(seenAtCancel)));
        QCOMPARE(backend->activeSeries.load(), 0);

        QSignalSpy finished(&controller, &RunController::seriesFinished);  // usable again after a cancel
        config.runs = 3;
        QVERIFY(controller.start(config));
        QVERIFY(finished.wait(5000));
    }

    void destroyingDuringARunCancelsAndWaits()
    {
        auto backend = std::make_shared<FakeBackend>();
        backend->runDelay = std::chrono::milliseconds(30);
        {
            RunController controller(backend);
            QSignalSpy results(&controller, &RunController::runAvailable);
            PipelineConfig config;
            config.runs = 100000;
            QVERIFY(controller.start(config));
            QVERIFY(results.wait(5000));
        }  // destructor: cancel, quit, wait
        QCOMPARE(backend->activeSeries.load(), 0);
        QVERIFY(backend->runsDelivered.load() < 100000);
    }
};

QTEST_MAIN(RunControllerTest)
#include "run_controller_test.moc"

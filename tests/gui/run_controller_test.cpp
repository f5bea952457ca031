// The run thread: ordered delivery, cancel, teardown during a run. Uses the fake backend.
#include "fake_backend.hpp"

#include "gui/session/run_controller.hpp"

#include <QSignalSpy>
#include <QTest>

using namespace asyncscope;
using asyncscope::testing::FakeBackend;

namespace {

Platform fakePlatform()
{
    return *FakeBackend().discover();
}

}  // namespace

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
        QVERIFY(backend->discoveryThread.load() != std::thread::id());
        QVERIFY(backend->discoveryThread.load() != std::this_thread::get_id());
        QCOMPARE(devices.first().first().value<Platform>().devices.size(), std::size_t(2));
    }

    void deliversEveryResultInOrderOnTheGuiThread()
    {
        auto backend = std::make_shared<FakeBackend>();
        RunController controller(backend);
        std::vector<int> indices;
        bool allOnGuiThread = true;
        connect(&controller, &RunController::runAvailable, this, [&](int, const RunResult& r) {
            indices.push_back(r.index);
            allOnGuiThread = allOnGuiThread && QThread::currentThread() == thread();
        });
        QSignalSpy finished(&controller, &RunController::planFinished);
        PipelineConfig config;
        config.runs = 25;
        config.warmupRuns = 3;
        QVERIFY(controller.start(seriesPlan(config), fakePlatform()));
        QVERIFY(controller.isRunning());
        QVERIFY(!controller.start(seriesPlan(config), fakePlatform()));  // one plan at a time
        QVERIFY(finished.wait(10000));
        const auto plan = finished.first().first().value<PlanReport>();
        QVERIFY(plan.complete());
        QCOMPARE(plan.variants.front().report.runs.size(), std::size_t(28));
        QVERIFY(!controller.isRunning());
        QCOMPARE(indices.size(), std::size_t(28));
        for (int i = 0; i < 28; ++i)
            QCOMPARE(indices[std::size_t(i)], i);
        QVERIFY(allOnGuiThread);
        QVERIFY(backend->runThread.load() != std::this_thread::get_id());
    }

    void cancelStopsWithinOneRun()
    {
        auto backend = std::make_shared<FakeBackend>();
        backend->runDelay = std::chrono::milliseconds(20);
        RunController controller(backend);
        QSignalSpy failed(&controller, &RunController::planFinished);
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
        QVERIFY(controller.start(seriesPlan(config), fakePlatform()));
        QVERIFY(failed.wait(10000));
        const auto plan = failed.first().first().value<PlanReport>();
        QVERIFY(plan.failure());
        QCOMPARE(plan.failure()->kind, ErrorKind::Cancelled);
        QCOMPARE(plan.variants.front().report.runs.size(), std::size_t(seen));  // what ran is kept
        // The worker may have finished the run it was in when the flag was set, and no more.
        QVERIFY2(backend->runsDelivered.load() <= seenAtCancel + 1,
            qPrintable(QString("%1 delivered, %2 when cancelled").arg(backend->runsDelivered.load()).arg(seenAtCancel)));
        QCOMPARE(backend->activeSeries.load(), 0);

        QSignalSpy finished(&controller, &RunController::planFinished);  // usable again after a cancel
        config.runs = 3;
        QVERIFY(controller.start(seriesPlan(config), fakePlatform()));
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
            QVERIFY(controller.start(seriesPlan(config), fakePlatform()));
            QVERIFY(results.wait(5000));
        }  // destructor: cancel, quit, wait
        QCOMPARE(backend->activeSeries.load(), 0);
        QVERIFY(backend->runsDelivered.load() < 100000);
    }
};

QTEST_MAIN(RunControllerTest)
#include "run_controller_test.moc"

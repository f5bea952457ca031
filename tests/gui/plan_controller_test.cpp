// The window's one run thread: discovery off the GUI thread, runs delivered in order and in batches, cancel,
// teardown during a run, and each device's record for the All GPUs run. Uses the fake backend.
#include "fake_backend.hpp"

#include "gui/session/plan_controller.hpp"
#include "gui/session/plan_worker.hpp"

#include <QSignalSpy>
#include <QTest>

#include <chrono>
#include <thread>

using namespace asyncscope;
using asyncscope::testing::FakeBackend;

namespace {

Platform fakePlatform()
{
    return *FakeBackend().discover();
}

// `plan` on its configured device, bound to nothing.
DevicePlan onItsDevice(const Plan& plan)
{
    DevicePlan devices;
    devices.devices = { plan.variants.front().config.device };
    devices.bindToLocalCpus = false;
    devices.plan = plan;
    return devices;
}

PlanReport planOf(const QSignalSpy& hostFinished)
{
    const auto host = hostFinished.first().first().value<HostReport>();
    return host.devices.empty() ? PlanReport {} : host.devices.front().plan;
}

}  // namespace

class PlanControllerTest : public QObject {
    Q_OBJECT
private slots:
    void discoveryRunsOffTheGuiThread()
    {
        auto backend = std::make_shared<FakeBackend>();
        PlanController controller(backend);
        QSignalSpy devices(&controller, &PlanController::devicesAvailable);
        controller.discover();
        QVERIFY(devices.wait(5000));
        QVERIFY(backend->discoveryThread.load() != std::thread::id());
        QVERIFY(backend->discoveryThread.load() != std::this_thread::get_id());
        QCOMPARE(devices.first().first().value<Platform>().devices.size(), std::size_t(2));
    }

    void deliversEveryResultInOrderOnTheGuiThread()
    {
        auto backend = std::make_shared<FakeBackend>();
        PlanController controller(backend);
        std::vector<int> indices;
        bool allOnGuiThread = true;
        int batches = 0;
        bool summarised = true;  // each batch's summary counts the runs delivered so far
        connect(&controller, &PlanController::runsAvailable, this, [&](int, int, const RunBatch& runs) {
            ++batches;
            for (const RunResult& r : runs->runs)
                indices.push_back(r.index);
            summarised = runs->summary.measuredRuns + runs->summary.warmupRuns == indices.size() && summarised;
            allOnGuiThread = allOnGuiThread && QThread::currentThread() == thread();
        });
        QSignalSpy finished(&controller, &PlanController::hostFinished);
        PipelineConfig config;
        config.runs = 25;
        config.warmupRuns = 3;
        const auto batched = PlanController::Delivery::Batches;
        QVERIFY(controller.start(onItsDevice(seriesPlan(config)), fakePlatform(), batched));
        QVERIFY(controller.isRunning());
        QVERIFY(!controller.start(onItsDevice(seriesPlan(config)), fakePlatform(), batched));  // one plan at a time
        QVERIFY(finished.wait(10000));
        const PlanReport plan = planOf(finished);
        QVERIFY(plan.complete());
        // The runs came as signals, the runner kept none: the receiver holds the series once.
        QVERIFY(plan.variants.front().report.runs.empty());
        QVERIFY(plan.variants.front().report.outcome.has_value());
        QVERIFY(!controller.isRunning());
        QCOMPARE(indices.size(), std::size_t(28));
        for (int i = 0; i < 28; ++i)
            QCOMPARE(indices[std::size_t(i)], i);
        QVERIFY(batches >= 1 && batches < 28);  // at full speed, many runs to a signal
        QVERIFY(summarised);
        QVERIFY(allOnGuiThread);
        QVERIFY(backend->runThread.load() != std::this_thread::get_id());
    }

    // A series slower than the batch interval shows each run as it comes, not a run late.
    void aSlowSeriesSendsEachRunAsItComes()
    {
        auto backend = std::make_shared<FakeBackend>();
        backend->runDelay = std::chrono::milliseconds(4 * PlanWorker::kBatchInterval.count());
        PlanController controller(backend);
        std::vector<std::size_t> sizes;
        std::vector<int> deliveredWhenSeen;
        connect(&controller, &PlanController::runsAvailable, this, [&](int, int, const RunBatch& runs) {
            sizes.push_back(runs->runs.size());
            deliveredWhenSeen.push_back(backend->runsDelivered.load());
        });
        QSignalSpy finished(&controller, &PlanController::hostFinished);
        PipelineConfig config;
        config.runs = 3;
        config.warmupRuns = 1;
        QVERIFY(controller.start(onItsDevice(seriesPlan(config)), fakePlatform(), PlanController::Delivery::Batches));
        QVERIFY(finished.wait(10000));
        QCOMPARE(sizes, std::vector<std::size_t>(4, 1));
        // Each came before the run after it was made.
        for (std::size_t i = 0; i < deliveredWhenSeen.size(); ++i)
            QVERIFY2(deliveredWhenSeen[i] <= int(i) + 1, qPrintable(QString::number(deliveredWhenSeen[i])));
    }

    // Batches that piled up while the GUI thread was busy are handed on one per turn of its event loop: what was
    // posted behind them (input, painting, a timer) comes between any two, never after all of them.
    void batchesThatPiledUpLeaveTurnsBetweenThem()
    {
        auto backend = std::make_shared<FakeBackend>();
        PlanController controller(backend);
        QString order;  // B: a batch handed on; P: what the batch's receiver posted when it came
        QObject probe;
        connect(&controller, &PlanController::runsAvailable, this, [&](int, int, const RunBatch&) {
            order += 'B';
            QMetaObject::invokeMethod(&probe, [&order] { order += 'P'; }, Qt::QueuedConnection);
        });
        QSignalSpy finished(&controller, &PlanController::hostFinished);
        PipelineConfig config;
        config.runs = int(5 * PlanWorker::kBatchRuns);
        config.warmupRuns = 0;
        QVERIFY(controller.start(onItsDevice(seriesPlan(config)), fakePlatform(), PlanController::Delivery::Batches));
        // The GUI thread busy while every run is made: the batches wait in its queue.
        const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(20);
        while (backend->runsDelivered.load() < config.runs && std::chrono::steady_clock::now() < deadline)
            std::this_thread::sleep_for(std::chrono::milliseconds(10));
        std::this_thread::sleep_for(std::chrono::milliseconds(200));
        QVERIFY(finished.wait(10000));
        QVERIFY2(order.count('B') >= 5, qPrintable(order));
        QVERIFY2(!order.contains("BB"), qPrintable(order));
    }

    void eachDeviceRecordHoldsItsRunsForTheAllGpusRun()
    {
        auto backend = std::make_shared<FakeBackend>();
        PlanController controller(backend);
        QSignalSpy runs(&controller, &PlanController::runsAvailable);
        QSignalSpy devices(&controller, &PlanController::deviceEnded);
        QSignalSpy finished(&controller, &PlanController::hostFinished);
        PipelineConfig config;
        config.runs = 25;
        config.warmupRuns = 3;
        DevicePlan plan = onItsDevice(seriesPlan(config));
        plan.devices = { 0, 1 };
        QVERIFY(controller.start(plan, fakePlatform(), PlanController::Delivery::PerDevice));
        QVERIFY(finished.wait(10000));
        QCOMPARE(devices.count(), 2);
        const auto host = finished.first().first().value<HostReport>();
        QCOMPARE(host.devices.size(), std::size_t(2));
        for (const DeviceResult& d : host.devices)
            QCOMPARE(d.plan.variants.front().report.runs.size(), std::size_t(28));
        QCOMPARE(runs.count(), 0);
    }

    void cancelStopsWithinOneRun()
    {
        auto backend = std::make_shared<FakeBackend>();
        backend->runDelay = std::chrono::milliseconds(20);
        PlanController controller(backend);
        QSignalSpy failed(&controller, &PlanController::hostFinished);
        int seen = 0;
        int seenAtCancel = -1;
        connect(&controller, &PlanController::runsAvailable, this, [&](int, int, const RunBatch& runs) {
            const bool before = seen < 5;
            seen += int(runs->runs.size());
            if (before && seen >= 5) {
                seenAtCancel = backend->runsDelivered.load();
                controller.cancel();
            }
        });
        PipelineConfig config;
        config.runs = 1000;
        const auto batched = PlanController::Delivery::Batches;
        QVERIFY(controller.start(onItsDevice(seriesPlan(config)), fakePlatform(), batched));
        QVERIFY(failed.wait(10000));
        const PlanReport plan = planOf(failed);
        QVERIFY(plan.failure());
        QCOMPARE(plan.failure()->kind, ErrorKind::Cancelled);
        QCOMPARE(seen, backend->runsDelivered.load());  // what ran was delivered, the last batch before the end
        // The worker may have finished the run it was in when the flag was set, and no more.
        QVERIFY2(backend->runsDelivered.load() <= seenAtCancel + 1,
            qPrintable(QString("%1 delivered, %2 when cancelled").arg(backend->runsDelivered.load()).arg(seenAtCancel)));
        QCOMPARE(backend->activeSeries.load(), 0);

        QSignalSpy finished(&controller, &PlanController::hostFinished);  // usable again after a cancel
        config.runs = 3;
        QVERIFY(controller.start(onItsDevice(seriesPlan(config)), fakePlatform(), batched));
        QVERIFY(finished.wait(5000));
    }

    void destroyingDuringARunCancelsAndWaits()
    {
        auto backend = std::make_shared<FakeBackend>();
        backend->runDelay = std::chrono::milliseconds(30);
        {
            PlanController controller(backend);
            QSignalSpy results(&controller, &PlanController::runsAvailable);
            PipelineConfig config;
            config.runs = 100000;
            QVERIFY(controller.start(onItsDevice(seriesPlan(config)), fakePlatform(),
                PlanController::Delivery::Batches));
            QVERIFY(results.wait(5000));
        }  // destructor: cancel, quit, wait
        QCOMPARE(backend->activeSeries.load(), 0);
        QVERIFY(backend->runsDelivered.load() < 100000);
    }
};

QTEST_MAIN(PlanControllerTest)
#include "plan_controller_test.moc"

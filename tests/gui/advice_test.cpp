// The Advice tab and the status line's badge: series run on the fake backend with the machine's state from a fake
// probe (another process on the GPU, or none, or no state at all), a saved series whose file kept a second process
// over some of its runs, and a comparison. A finding's row leads to what it concerns; the advice is copied and saved.
#include "classic_runs.hpp"
#include "fake_backend.hpp"
#include "fake_machine_probe.hpp"
#include "window_waits.hpp"

#include "gui/advice/advice_panel.hpp"
#include "gui/app/file_actions.hpp"
#include "gui/app/main_window.hpp"
#include "gui/app/run_status.hpp"
#include "gui/app/window_actions.hpp"
#include "gui/charts/chart_view.hpp"
#include "gui/config/choice_labels.hpp"
#include "gui/files/advice_export.hpp"
#include "gui/session/plan_controller.hpp"
#include "gui/session/session_model.hpp"
#include "gui/timeline/timeline_panel.hpp"

#include "engine/io/json/json_report.hpp"
#include "engine/model/advice.hpp"

#include <QAction>
#include <QApplication>
#include <QClipboard>
#include <QLabel>
#include <QPushButton>
#include <QScrollArea>
#include <QSettings>
#include <QSignalSpy>
#include <QSpinBox>
#include <QTabBar>
#include <QTabWidget>
#include <QTemporaryDir>
#include <QTest>
#include <QValueAxis>

#include <fstream>

using namespace asyncscope;
using asyncscope::testing::FakeBackend;
using asyncscope::testing::FakeMachineProbe;
using asyncscope::testing::waitForDevices;

namespace {

constexpr std::uint32_t kOtherPid = 4321;

QString readAll(const QString& path)
{
    QFile f(path);
    return f.open(QIODevice::ReadOnly) ? QString::fromUtf8(f.readAll()) : QString();
}

// A window on `backend` whose plans read the machine through `probe` (null: the state is not read).
std::unique_ptr<MainWindow> windowWith(std::shared_ptr<FakeBackend> backend, std::shared_ptr<MachineProbe> probe)
{
    auto window = std::make_unique<MainWindow>(std::move(backend));
    window->session().controller()->setMachineProbe(std::move(probe));
    window->resize(1200, 800);
    window->show();
    return window;
}

// Runs a series of `runs` measured runs and waits for it to end and for its advice.
bool runSeries(MainWindow& window, int runs)
{
    if (!waitForDevices(window))
        return false;
    window.findChild<QSpinBox*>("runs")->setValue(runs);
    window.findChild<QSpinBox*>("warmup")->setValue(1);
    QSignalSpy ended(&window, &MainWindow::planEnded);
    window.findChild<QPushButton*>("run")->click();
    if (!ended.wait(60000))
        return false;
    const_cast<SessionModel&>(window.session()).settleAdvice();
    return true;
}

AdvicePanel& showAdvice(MainWindow& window)
{
    auto* panel = const_cast<AdvicePanel*>(&window.advice());
    window.tabs().setCurrentWidget(panel);
    return *panel;
}

QList<QWidget*> findingRows(const AdvicePanel& panel)
{
    return panel.findChildren<QWidget*>(QStringLiteral("finding"));
}

// The classic pipeline's runs, runs 100 to 150 slowed by another process, whose context the readings (every 20 ms
// from before the first run to after the last) list over them.
Report sharedSeries()
{
    Report r = asyncscope::testing::classicReport(301);
    CopyPeak peak;
    peak.h2dGBps = 55.0;
    peak.d2hGBps = 55.0;
    peak.bidirectionalGBps = 97.0;
    peak.bytes = std::size_t(256) << 20;
    r.peak = peak;
    RunStore runs;
    for (std::size_t i = 0; i < r.runs.size(); ++i) {
        RunResult run = r.runs[i];
        if (run.index >= 100 && run.index <= 150)
            run.gpuMs *= 1.9;
        runs.push_back(run);
    }
    r.runs = std::move(runs);
    const double from = r.runs.startMs(100), to = r.runs.startMs(150) + r.runs.gpuMs(150);
    MachineState m;
    m.source = "fake NVML";
    m.selfPid = FakeMachineProbe::kOwnPid;
    const double end = r.runs.startMs(r.runs.size() - 1) + 20.0;
    for (double t = -5.0; t < end; t += 20.0) {
        MachineSample s = asyncscope::testing::cleanReading(FakeMachineProbe::kOwnPid);
        if (t > from && t < to)
            s.processes->push_back({ kOtherPid, std::uint64_t(582) << 20, "other" });
        s.atMs = t;
        m.samples.push_back(s);
    }
    r.machine = m;
    return r;
}

}  // namespace

class AdviceTest : public QObject {
    Q_OBJECT
private:
    QTemporaryDir m_dir;

private slots:
    void initTestCase()
    {
        QCoreApplication::setOrganizationName("AsyncScopeTests");
        QCoreApplication::setApplicationName("AdviceTest");
        QSettings().clear();
        QVERIFY(m_dir.isValid());
    }

    void init() { QSettings().clear(); }

    // Tab goes from stop to stop, each one showing it has the keyboard: no scroll area takes a stop of its own (the
    // pipeline panel's, the advice list's); on the Advice tab it goes through the findings, then Copy and Save.
    void tabReachesEveryStopAndEachShowsTheFocus()
    {
        auto window = std::make_unique<MainWindow>(std::make_shared<FakeBackend>());
        window->show();
        window->activateWindow();
        QVERIFY(QTest::qWaitForWindowActive(window.get()));
        QVERIFY(waitForDevices(*window));
        QVERIFY(window->files().openSaved(QStringLiteral(ASYNCSCOPE_TEST_DATA "/h200/h200-noise.json")));
        QVERIFY(QTest::qWaitFor([&] { return !window->session().isLoading(); }, 30000));
        for (QWidget* page : { window->tabs().widget(0), static_cast<QWidget*>(&showAdvice(*window)) }) {
            window->tabs().setCurrentWidget(page);
            window->tabs().tabBar()->setFocus(Qt::TabFocusReason);
            QStringList stops;
            for (int k = 0; k < 12; ++k) {
                QTest::keyClick(QApplication::focusWidget(), Qt::Key_Tab);
                QWidget* focused = QApplication::focusWidget();
                QVERIFY(focused);
                QVERIFY2(!qobject_cast<QScrollArea*>(focused),
                    qPrintable(QStringLiteral("a scroll area in %1 took a Tab stop").arg(focused->parentWidget()
                            ? focused->parentWidget()->metaObject()->className() : "")));
                stops << (focused->objectName().isEmpty() ? focused->metaObject()->className() : focused->objectName());
            }
            if (page != window->tabs().widget(0)) {
                const QString order = stops.join(' ');
                QVERIFY2(order.contains("finding adviceCopy adviceSave"), qPrintable(order));
                QVERIFY2(order.startsWith("finding"), qPrintable(order));
            }
        }
    }

    // What to do names the CLI's options and the window's controls that set the same.
    void whatToDoNamesTheWindowsControlsToo()
    {
        auto window = std::make_unique<MainWindow>(std::make_shared<FakeBackend>());
        window->show();
        QVERIFY(waitForDevices(*window));
        QVERIFY(window->files().openSaved(QStringLiteral(ASYNCSCOPE_TEST_DATA "/h200/h200-noise.json")));
        QVERIFY(QTest::qWaitFor([&] { return !window->session().isLoading(); }, 30000));
        AdvicePanel& panel = showAdvice(*window);
        QTRY_VERIFY(!findingRows(panel).isEmpty());
        QStringList actions;
        for (const QLabel* action : panel.findChildren<QLabel*>("action"))
            actions << action->text();
        const QString all = actions.join(" | ");
        // The file's calibration predates the operations' costs: the shape is named without a prediction.
        QVERIFY2(all.contains("(--chunks, --streams)") && all.contains("<b>In the window:</b> Chunks (K); Streams (S)"),
            qPrintable(all));
        QCOMPARE(windowControlsOf("--chunks 16 --streams 3 takes 1.476 ms"),
            QStringLiteral("Chunks (K) 16; Streams (S) 3"));
        QCOMPARE(windowControlsOf("a CUDA Graph (--submit graph) or --host-memory pinned"),
            QString("Submission: CUDA Graph; Host memory: %1").arg(choiceLabel(HostMemory::Pinned)));
        QVERIFY(windowControlsOf("nothing to set here").isEmpty());
    }

    void aTransferBoundSeriesListsItsFinding_AndACleanOneHasNoBadge()
    {
        auto backend = std::make_shared<FakeBackend>();
        backend->copyGBps = { { 0, 55.0 }, { 1, 55.0 } };  // the copies at the link's peak: the serial bound's time
        auto probe = std::make_shared<FakeMachineProbe>();
        auto window = windowWith(backend, probe);
        QVERIFY(runSeries(*window, 50));
        QVERIFY(probe->samples.load() >= 2);  // before the runs and after them, at least

        AdvicePanel& panel = showAdvice(*window);
        const QStringList rows = panel.rowTitles();
        QVERIFY2(rows.contains("info: Transfer-bound"), qPrintable(rows.join(" | ")));
        QCOMPARE(findingRows(panel).size(), rows.size());
        // The machine was read and is clean: no finding about it, nothing "not checked" about it, no badge.
        for (const QString& line : panel.notCheckedLines()) {
            QVERIFY2(!line.startsWith("interference") && !line.startsWith("clocks"), qPrintable(line));
        }
        QVERIFY(window->session().advice().worst() < Severity::Warning);
        QCOMPARE(window->adviceBadge(), QString());
        QVERIFY(!window->findChild<QPushButton*>("adviceBadge")->isVisible());
        const QString machine = panel.findChild<QLabel*>("machine")->text();
        QVERIFY2(machine.contains("Machine:</b> fake NVML"), qPrintable(machine));
    }

    void anotherProcessOnTheGpuIsSevere_WithABadgeThatOpensTheTab_AndACleanSeriesClearsIt()
    {
        auto backend = std::make_shared<FakeBackend>();
        // Copies at 30 GB/s where the link does 55: the runs take 1.8 x what the model gives them beside the process.
        backend->copyGBps = { { 0, 30.0 }, { 1, 30.0 } };
        auto probe = std::make_shared<FakeMachineProbe>();
        probe->addProcess(kOtherPid, "other-app");
        auto window = windowWith(backend, probe);
        QVERIFY(runSeries(*window, 30));

        const ShownAdvice& advice = window->session().advice();
        QCOMPARE(advice.worst(), std::optional(Severity::Severe));
        AdvicePanel& panel = showAdvice(*window);
        const QStringList rows = panel.rowTitles();
        QVERIFY(!rows.isEmpty());
        QCOMPARE(rows.front(), QString("severe: Another process on the GPU"));  // most severe first
        const QString evidence = findingRows(panel).front()->accessibleDescription();
        QVERIFY2(evidence.contains("PID 4321 (other-app"), qPrintable(evidence));

        // The badge names it, and opens the Advice tab.
        QVERIFY2(window->adviceBadge().startsWith("⚠ Another process on the GPU"), qPrintable(window->adviceBadge()));
        window->tabs().setCurrentIndex(0);
        window->findChild<QPushButton*>("adviceBadge")->click();
        QCOMPARE(window->tabs().currentWidget(), static_cast<QWidget*>(&panel));

        // The other process gone, the next series is clean: the badge goes with the finding.
        probe->reading = asyncscope::testing::cleanReading(FakeMachineProbe::kOwnPid);
        QVERIFY(runSeries(*window, 30));
        QVERIFY(window->session().advice().worst() < Severity::Warning);
        QCOMPARE(window->adviceBadge(), QString());
        QVERIFY(!panel.rowTitles().contains("severe: Another process on the GPU"));
    }

    void aSecondProcessWithoutASlowdownIsAWarning()
    {
        auto backend = std::make_shared<FakeBackend>();
        backend->copyGBps = { { 0, 55.0 }, { 1, 55.0 } };
        auto probe = std::make_shared<FakeMachineProbe>();
        probe->addProcess(kOtherPid, "other-app");
        auto window = windowWith(backend, probe);
        QVERIFY(runSeries(*window, 30));
        QCOMPARE(window->session().advice().worst(), std::optional(Severity::Warning));
        QCOMPARE(window->adviceBadge(), QString("⚠ 1 warning"));
        QVERIFY(showAdvice(*window).rowTitles().contains("warning: Another process on the GPU"));
    }

    void withoutTheMachinesStateInterferenceAndClocksAreNotChecked_data()
    {
        QTest::addColumn<bool>("probe");
        QTest::addColumn<QString>("why");
        QTest::newRow("no probe") << false << "the machine's state was not recorded with this series";
        QTest::newRow("NVML did not load")
            << true << "the machine's state was not read: libnvidia-ml.so.1 did not load: no such file";
    }
    void withoutTheMachinesStateInterferenceAndClocksAreNotChecked()
    {
        QFETCH(bool, probe);
        QFETCH(QString, why);
        std::shared_ptr<FakeMachineProbe> fake;
        if (probe) {
            fake = std::make_shared<FakeMachineProbe>();
            fake->why = "libnvidia-ml.so.1 did not load: no such file";
        }
        auto window = windowWith(std::make_shared<FakeBackend>(), fake);
        QVERIFY(runSeries(*window, 20));
        AdvicePanel& panel = showAdvice(*window);
        const QStringList lines = panel.notCheckedLines();
        QVERIFY2(lines.contains("interference: " + why), qPrintable(lines.join(" | ")));
        QVERIFY2(lines.contains("clocks: " + why), qPrintable(lines.join(" | ")));
        const QString shown = panel.findChild<QLabel*>("notChecked")->text();
        QVERIFY2(shown.contains("interference") && shown.contains("clocks"), qPrintable(shown));
        QVERIFY(panel.findChild<QLabel*>("notCheckedHeading")->isVisible());
    }

    void aFindingsRowLeadsToItsRuns_ByClickAndByKeyboard()
    {
        const QString path = m_dir.filePath("shared.json");
        {
            std::ofstream out(path.toStdString());
            const Report series = sharedSeries();
            writeJson(out, series, assessSeries(series));
        }
        auto noGpu = std::make_shared<FakeBackend>();
        noGpu->discoveryError = makeError(ErrorKind::NoDriver, "no driver");
        auto window = windowWith(noGpu, nullptr);
        QSignalSpy loaded(&window->session(), &SessionModel::savedLoaded);
        QVERIFY(window->files().openSaved(path));
        QVERIFY(loaded.wait(30000));

        // Judged as the file was read: there as soon as it is shown.
        const ShownAdvice& advice = window->session().advice();
        QCOMPARE(advice.worst(), std::optional(Severity::Severe));
        QVERIFY2(advice.subject.startsWith("saved: shared"), qPrintable(advice.subject));
        AdvicePanel& panel = showAdvice(*window);
        QCOMPARE(panel.rowTitles().front(), QString("severe: Another process on the GPU"));
        const Finding& shared = advice.parts.front().advice.findings.front();
        QCOMPARE(shared.runs.size(), std::size_t(1));
        const double first = double(shared.runs.front().first), last = double(shared.runs.front().last);
        // Within half a sampling step (20 ms, about 4 runs) of the runs the other process slowed.
        QVERIFY2(first >= 95 && first <= 105 && last >= 145 && last <= 155,
            qPrintable(QString("%1-%2").arg(first).arg(last)));

        // A click on the row: the Time chart, zoomed to those runs (and a margin), as a drag over them would.
        QWidget* row = findingRows(panel).front();
        QTest::mouseClick(row, Qt::LeftButton, {}, row->rect().center());
        auto* timeView = qobject_cast<ChartView*>(window->tabs().currentWidget());
        QVERIFY(timeView);
        QCOMPARE(timeView->chart(), window->charts().chart(RunCharts::Time));
        QChart* chart = window->charts().chart(RunCharts::Time);
        const RunChart* time = &window->charts().at(RunCharts::Time);
        QVERIFY(QTest::qWaitFor([time] { return time->isZoomed(); }, 5000));
        auto* x = qobject_cast<QValueAxis*>(chart->axes(Qt::Horizontal).front());
        QVERIFY2(x->min() <= first && x->max() >= last, qPrintable(QString("%1-%2").arg(x->min()).arg(x->max())));
        QVERIFY2(x->max() - x->min() < 0.5 * 300, qPrintable(QString("%1-%2").arg(x->min()).arg(x->max())));

        // Reset, back to the Advice tab, and the same by keyboard: the row focused, Enter.
        window->actions().resetZoom->trigger();
        QVERIFY(!time->isZoomed());
        showAdvice(*window);
        row = findingRows(panel).front();
        row->setFocus();
        QTest::keyClick(row, Qt::Key_Return);
        QCOMPARE(window->tabs().currentWidget(), static_cast<QWidget*>(timeView));
        QVERIFY(QTest::qWaitFor([time] { return time->isZoomed(); }, 5000));

        // The badge, red, names the severe finding.
        QVERIFY2(window->adviceBadge().startsWith("⚠ Another process on the GPU"), qPrintable(window->adviceBadge()));
    }

    void whereAFindingLeads()
    {
        ShownAdvice series;
        series.parts.push_back({});
        series.parts.front().medianRun = 57;
        Finding runs;
        runs.runs = { { 3, 17 }, { 40, 40 } };
        Finding stages;
        stages.stages = true;
        Finding whole;

        AdvicePanel::Jump jump = AdvicePanel::jumpFor(series, runs);
        QCOMPARE(jump.to, AdvicePanel::Jump::To::Runs);
        QCOMPARE(jump.first, std::size_t(3));
        QCOMPARE(jump.last, std::size_t(40));
        QCOMPARE(AdvicePanel::jumpText(jump, runs), QString("Show runs 3-17, 40 in the Time chart"));
        jump = AdvicePanel::jumpFor(series, stages);  // the median run, none being named
        QCOMPARE(jump.to, AdvicePanel::Jump::To::Timeline);
        QCOMPARE(jump.run, 57);
        stages.runs = { { 12, 20 } };
        QCOMPARE(AdvicePanel::jumpFor(series, stages).run, 12);  // the first run concerned
        QCOMPARE(AdvicePanel::jumpFor(series, whole).to, AdvicePanel::Jump::To::Summary);
        ShownAdvice comparison = series;
        comparison.comparison = true;
        QCOMPARE(AdvicePanel::jumpFor(comparison, runs).to, AdvicePanel::Jump::To::Comparison);
    }

    void aStagesFindingOpensTheTimelineOnTheMedianRun()
    {
        // A finding about the stages within runs (the stages too short to time), given to the panel as it is.
        auto window = windowWith(std::make_shared<FakeBackend>(), std::make_shared<FakeMachineProbe>());
        QVERIFY(runSeries(*window, 10));
        ShownAdvice advice;
        advice.subject = "this series";
        ShownAdvice::Part part;
        Finding f { "too-short-to-time", "Stages too short to time", Severity::Info, "H2D 0.0012 ms",
            "Read the GPU time.", {}, true };
        part.advice.findings.push_back(f);
        part.medianRun = 3;
        advice.parts.push_back(part);
        AdvicePanel& panel = showAdvice(*window);
        panel.setAdvice(advice);
        QSignalSpy jumped(&panel, &AdvicePanel::jumpRequested);
        panel.activateRow(0);
        QCOMPARE(jumped.count(), 1);
        auto* timeline = window->findChild<TimelinePanel*>();
        QCOMPARE(window->tabs().currentWidget(), static_cast<QWidget*>(timeline));
        QCOMPARE(timeline->shownRun(), std::optional(3));
        QVERIFY(!timeline->following());  // it stays on that run
    }

    void aComparisonsFindingsComeByVariant_AndLeadToTheComparison()
    {
        auto window = windowWith(std::make_shared<FakeBackend>(), std::make_shared<FakeMachineProbe>());
        QVERIFY(waitForDevices(*window));
        window->findChild<QSpinBox*>("runs")->setValue(10);
        QSignalSpy ended(window.get(), &MainWindow::planEnded);
        window->startComparison(Comparison::HostMemory);
        QVERIFY(ended.wait(30000));
        const_cast<SessionModel&>(window->session()).settleAdvice();
        const ShownAdvice& advice = window->session().advice();
        QVERIFY(advice.comparison);
        QCOMPARE(advice.parts.size(), std::size_t(2));
        QCOMPARE(advice.parts[1].label, QString("pageable"));
        AdvicePanel& panel = showAdvice(*window);
        QStringList variants;
        for (const QLabel* label : panel.findChildren<QLabel*>("variant"))
            variants << label->text();
        QVERIFY2(variants.contains("pageable"), qPrintable(variants.join(" | ")));
        QVERIFY2(panel.rowTitles().contains("suggestion: Pageable copies"), qPrintable(panel.rowTitles().join(" | ")));
        panel.activateRow(0);
        QCOMPARE(window->tabs().tabText(window->tabs().currentIndex()), QString("Comparison"));
        // As text, as the CLI prints a comparison's: by variant, the rules not checked once.
        const QString text = adviceText(advice, AdviceFormat::Text);
        QVERIFY2(text.contains("\npageable:\n  machine: fake NVML"), qPrintable(text));
        QVERIFY2(text.contains("\n    [suggestion] Pageable copies: "), qPrintable(text));
    }

    void tryItRunsTheAdvisedShapeBesideTheSeriesShape()
    {
        auto backend = std::make_shared<FakeBackend>();
        backend->copyGBps = { { 0, 55.0 }, { 1, 55.0 } };  // transfer-bound: the model has a faster shape
        auto window = windowWith(backend, std::make_shared<FakeMachineProbe>());
        QVERIFY(runSeries(*window, 30));
        const ShownAdvice& advice = window->session().advice();
        QVERIFY(!advice.parts.empty());
        const auto shape = advice.parts.front().advice.suggestion;
        QVERIFY2(shape.has_value(), qPrintable(adviceText(advice, AdviceFormat::Text)));
        AdvicePanel& panel = showAdvice(*window);
        const QList<QPushButton*> tries = panel.findChildren<QPushButton*>("adviceTry");
        QCOMPARE(tries.size(), 1);  // on the finding that suggests the shape, and no other
        QVERIFY2(tries.front()->text().contains(QStringLiteral("K=%1 S=%2").arg(shape->chunks).arg(shape->streams)),
            qPrintable(tries.front()->text()));
        QSignalSpy ended(window.get(), &MainWindow::planEnded);
        tries.front()->click();
        QVERIFY(ended.wait(60000));
        const auto& comparison = window->session().lastComparison();
        QVERIFY(comparison.has_value());
        QCOMPARE(comparison->comparison, std::optional(Comparison::Overlap));
        QCOMPARE(comparison->variants.size(), std::size_t(2));
        QCOMPARE(comparison->variants[0].label, std::string("now K=1"));
        QCOMPARE(comparison->variants[1].report.config.chunks, shape->chunks);
        QCOMPARE(comparison->variants[1].report.config.streams, shape->streams);
        QVERIFY(!comparison->variants[1].report.runs.empty());
        // A comparison's advice offers nothing to try.
        const_cast<SessionModel&>(window->session()).settleAdvice();
        showAdvice(*window);
        QVERIFY(panel.findChildren<QPushButton*>("adviceTry").isEmpty());
    }

    void theAdviceIsCopiedAndSaved_AsTextAndMarkdown()
    {
        auto backend = std::make_shared<FakeBackend>();
        backend->copyGBps = { { 0, 30.0 }, { 1, 30.0 } };
        auto probe = std::make_shared<FakeMachineProbe>();
        probe->addProcess(kOtherPid, "other-app");
        auto window = windowWith(backend, probe);
        QVERIFY(runSeries(*window, 20));
        AdvicePanel& panel = showAdvice(*window);

        panel.findChild<QPushButton*>("adviceCopy")->click();
        const QString copied = QApplication::clipboard()->text();
        QVERIFY2(copied.startsWith("AsyncScope advice on this series"), qPrintable(copied));
        QVERIFY2(copied.contains("[severe] Another process on the GPU: PID 4321"), qPrintable(copied));
        QVERIFY2(copied.contains("machine: fake NVML"), qPrintable(copied));

        QVERIFY(window->actions().exportAdvice->isEnabled());
        const QString md = m_dir.filePath("advice.md");
        QVERIFY(window->files().exportAdviceTo(md));
        const QString markdown = readAll(md);
        QVERIFY2(markdown.startsWith("# AsyncScope advice on this series"), qPrintable(markdown));
        QVERIFY2(markdown.contains("- **Severe: Another process on the GPU.** PID 4321"), qPrintable(markdown));
        QVERIFY2(markdown.contains("*Do:* Measure with the GPU to itself"), qPrintable(markdown));
        const QString txt = m_dir.filePath("advice.txt");
        QVERIFY(window->files().exportAdviceTo(txt));
        QCOMPARE(readAll(txt), adviceText(window->session().advice(), AdviceFormat::Text));

        // The series' own data keeps the machine's state and the findings: the engine's writer judges it too.
        const QString json = m_dir.filePath("series.json");
        QVERIFY(window->files().exportDataTo(json));
        const QString written = readAll(json);
        QVERIFY(written.contains("\"machine\""));
        QVERIFY(written.contains("\"findings\""));
        QVERIFY(written.contains("Another process on the GPU"));
    }

    void aRunningSeriesIsJudgedBeforeItEnds()
    {
        auto backend = std::make_shared<FakeBackend>();
        backend->runDelay = std::chrono::milliseconds(5);
        auto window = windowWith(backend, std::make_shared<FakeMachineProbe>());
        QVERIFY(waitForDevices(*window));
        window->findChild<QSpinBox*>("runs")->setValue(600);  // 3 s at least
        QSignalSpy ended(window.get(), &MainWindow::planEnded);
        window->findChild<QPushButton*>("run")->click();
        const SessionModel& session = window->session();
        QVERIFY(QTest::qWaitFor([&] { return !session.advice().empty() && session.advice().measuring; }, 10000));
        QVERIFY(session.isRunning());
        // While it runs, the machine's state is not yet in: it comes with the series' end.
        QVERIFY(session.advice().parts.front().machine.isEmpty());
        window->cancelRun();
        QVERIFY(ended.wait(10000));
        const_cast<SessionModel&>(session).settleAdvice();
        QVERIFY(!session.advice().measuring);
        QVERIFY(!session.advice().parts.front().machine.isEmpty());
    }
};

QTEST_MAIN(AdviceTest)
#include "advice_test.moc"

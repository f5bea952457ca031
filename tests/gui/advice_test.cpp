// The window's advice: the Advice tab's findings, the status line's badge, a finding's link to the runs it concerns,
// and the rules not checked without the machine's state. The fake backend and a fake machine probe stand in for the
// GPU and NVML.
#include "fake_backend.hpp"
#include "fake_machine_probe.hpp"
#include "window_waits.hpp"

#include "gui/advice/advice_panel.hpp"
#include "gui/app/main_window.hpp"
#include "gui/session/plan_controller.hpp"
#include "gui/session/session_model.hpp"

#include <QSignalSpy>
#include <QTabWidget>
#include <QTest>
#include <QTextBrowser>

using namespace asyncscope;
using asyncscope::testing::FakeBackend;
using asyncscope::testing::FakeMachineProbe;
using asyncscope::testing::waitForDevices;

namespace {

const Finding* findingOf(const MainWindow& window, std::string_view rule)
{
    for (const Advice& a : window.advice().advice()) {
        for (const Finding& f : a.findings) {
            if (f.rule == rule)
                return &f;
        }
    }
    return nullptr;
}

// Runs the window's series and waits for its end.
bool runSeries(MainWindow& window)
{
    QSignalSpy ended(&window, &MainWindow::planEnded);
    window.startRun();
    return ended.count() > 0 || ended.wait(30000);
}

}  // namespace

class AdviceTest : public QObject {
    Q_OBJECT
private slots:
    void aSecondProcessShowsInTheAdviceTabAndTheBadge();
    void aCleanSeriesHasNoBadge();
    void withoutTheMachinesStateTheRulesThatNeedItAreNotChecked();
    void aFindingsLinkZoomsTheTimeChartToItsRuns();
};

void AdviceTest::aSecondProcessShowsInTheAdviceTabAndTheBadge()
{
    auto backend = std::make_shared<FakeBackend>();
    backend->runDelay = std::chrono::milliseconds(3);
    auto probe = std::make_shared<FakeMachineProbe>();
    probe->addProcess(4321, "other-app");
    AppOptions options;
    options.runs = 60;
    MainWindow window(backend, options);
    window.session().controller()->setMachineProbe(probe);
    QVERIFY(waitForDevices(window));
    QVERIFY(runSeries(window));
    QVERIFY(probe->samples.load() >= 2);
    const Finding* f = findingOf(window, rules::kInterference);
    QVERIFY(f);
    QVERIFY(f->severity >= Severity::Warning);
    QVERIFY(QString::fromStdString(f->evidence).contains("PID 4321 (other-app"));
    QVERIFY(!f->runs.empty());
    QVERIFY(window.adviceBadge().contains("warning") || window.adviceBadge().contains("severe"));
    const int tab = window.tabs().indexOf(const_cast<AdvicePanel*>(&window.advice()));
    QVERIFY(window.tabs().tabText(tab).startsWith("Advice ("));
    // The page names the process and the machine's source, and the text to copy has the same.
    const auto* page = window.advice().findChild<QTextBrowser*>();
    QVERIFY(page);
    QVERIFY(page->toPlainText().contains("Another process on the GPU"));
    QVERIFY(window.advice().plainText().contains("machine: fake NVML"));
    QVERIFY(window.advice().plainText().contains("PID 4321"));
}

void AdviceTest::aCleanSeriesHasNoBadge()
{
    auto backend = std::make_shared<FakeBackend>();
    auto probe = std::make_shared<FakeMachineProbe>();
    AppOptions options;
    options.runs = 30;
    MainWindow window(backend, options);
    window.session().controller()->setMachineProbe(probe);
    QVERIFY(waitForDevices(window));
    QVERIFY(runSeries(window));
    QVERIFY(!window.advice().advice().empty());
    QVERIFY(!findingOf(window, rules::kInterference));
    for (const Advice& a : window.advice().advice())
        QVERIFY2(a.notChecked.empty(), a.notChecked.empty() ? "" : a.notChecked.front().rule.c_str());
    QCOMPARE(window.adviceBadge(), QString());
    QCOMPARE(window.tabs().tabText(window.tabs().indexOf(const_cast<AdvicePanel*>(&window.advice()))),
        QString("Advice"));
}

void AdviceTest::withoutTheMachinesStateTheRulesThatNeedItAreNotChecked()
{
    auto backend = std::make_shared<FakeBackend>();
    auto probe = std::make_shared<FakeMachineProbe>();
    probe->why = "libnvidia-ml.so.1 did not load: no such file";
    AppOptions options;
    options.runs = 20;
    MainWindow window(backend, options);
    window.session().controller()->setMachineProbe(probe);
    QVERIFY(waitForDevices(window));
    QVERIFY(runSeries(window));
    QStringList unchecked;
    for (const Advice& a : window.advice().advice()) {
        for (const NotChecked& n : a.notChecked)
            unchecked << QString::fromStdString(n.rule);
    }
    QVERIFY(unchecked.contains("interference"));
    QVERIFY(unchecked.contains("clocks"));
    const auto* page = window.advice().findChild<QTextBrowser*>();
    QVERIFY(page->toPlainText().contains("Not checked"));
    QVERIFY(page->toPlainText().contains("libnvidia-ml.so.1 did not load"));
}

void AdviceTest::aFindingsLinkZoomsTheTimeChartToItsRuns()
{
    auto backend = std::make_shared<FakeBackend>();
    auto probe = std::make_shared<FakeMachineProbe>();
    probe->addProcess(4321, "other-app");
    AppOptions options;
    options.runs = 40;
    MainWindow window(backend, options);
    window.resize(1200, 800);
    window.show();
    window.session().controller()->setMachineProbe(probe);
    QVERIFY(waitForDevices(window));
    QVERIFY(runSeries(window));
    const Finding* f = findingOf(window, rules::kInterference);
    QVERIFY(f);
    Finding narrow = *f;
    narrow.runs = { { 10, 20 } };
    emit const_cast<AdvicePanel&>(window.advice()).findingActivated(narrow, -1);
    QTRY_VERIFY(window.charts().chart(RunCharts::Time)->isZoomed());
    QCOMPARE(window.tabs().currentIndex(), 0);  // the Time tab
    // A finding about stages opens the timeline.
    Finding stages;
    stages.rule = std::string(rules::kTooShort);
    stages.stages = true;
    emit const_cast<AdvicePanel&>(window.advice()).findingActivated(stages, -1);
    QCOMPARE(window.tabs().tabText(window.tabs().currentIndex()), QString("Timeline"));
}

QTEST_MAIN(AdviceTest)
#include "advice_test.moc"

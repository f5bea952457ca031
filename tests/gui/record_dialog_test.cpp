// File › Record a program…: the dialog's checks, each shown under its control, and a program recorded from the window
// and shown as a series. The test fake tests/fakes/fake_recorded_program.cpp stands in for a CUDA program and its
// injection library (it sends the recorder what a CUDA program would), so no GPU is needed.
#include "fake_backend.hpp"
#include "window_waits.hpp"

#include "gui/app/help_pages.hpp"
#include "gui/app/main_window.hpp"
#include "gui/app/record_actions.hpp"
#include "gui/app/record_dialog.hpp"
#include "gui/app/window_actions.hpp"
#include "gui/charts/chart_view.hpp"
#include "gui/config/record_settings.hpp"
#include "gui/session/session_model.hpp"

#include <QApplication>
#include <QComboBox>
#include <QDir>
#include <QDoubleSpinBox>
#include <QFile>
#include <QLabel>
#include <QLineEdit>
#include <QMenu>
#include <QMenuBar>
#include <QPlainTextEdit>
#include <QPushButton>
#include <QRegularExpression>
#include <QSettings>
#include <QSignalSpy>
#include <QTabWidget>
#include <QTemporaryDir>
#include <QTest>
#include <QTimer>
#include <QToolButton>

#include <functional>

using namespace asyncscope;
using asyncscope::testing::FakeBackend;

namespace {

QString fakeProgram()
{
    return QStringLiteral(FAKE_RECORDED_PROGRAM);
}

// The problem line under `control`'s row (ControlProblems names it for the control), where it is shown.
QString problemUnder(const RecordDialog& dialog, const QString& control)
{
    const auto* line = dialog.findChild<QLabel*>(QStringLiteral("problem_") + control);
    return line && !line->isHidden() ? line->text() : QString();
}

// The dialog File › Record a program… opens on `window`, looked at by `look` and then cancelled; false where none
// opened.
bool withRecordDialog(MainWindow& window, const std::function<void(RecordDialog&)>& look)
{
    bool opened = false;
    QTimer::singleShot(0, &window, [&] {
        if (!QTest::qWaitFor([&] { return window.findChild<RecordDialog*>() != nullptr; }, 5000))
            return;
        if (auto* dialog = window.findChild<RecordDialog*>()) {
            opened = true;
            look(*dialog);
            dialog->reject();
        }
    });
    QTest::keyClick(&window, Qt::Key_R, Qt::ControlModifier | Qt::ShiftModifier);
    QCoreApplication::processEvents();  // where no dialog opened, the look finds none now, not after this returns
    return opened;
}

}  // namespace

class RecordDialogTest : public QObject {
    Q_OBJECT
private slots:
    void initTestCase()
    {
        // The fake needs neither library; the recorder only checks that they are there to name.
        qputenv("ASYNCSCOPE_INJECTION", "/nonexistent/libasyncscope-inject.so");
        qputenv("ASYNCSCOPE_CUPTI", "libc.so.6");
    }

    void init() { QSettings().clear(); }  // every dialog starts blank unless a test records first
    void cleanupTestCase() { QSettings().clear(); }

    void eachProblemShowsUnderItsControlAndRecordTakesNothingUntilValid()
    {
        QTemporaryDir dir;
        RecordDialog dialog(dir.path());
        dialog.show();
        QVERIFY(!dialog.check());
        QVERIFY2(dialog.problemsText().contains("Name the program to record"), qPrintable(dialog.problemsText()));

        QFile plain(dir.filePath("notes.txt"));  // there, but not executable
        QVERIFY(plain.open(QIODevice::WriteOnly));
        plain.close();
        dialog.program()->setText(plain.fileName());
        dialog.folder()->setText(dir.filePath("missing"));
        dialog.environment()->setPlainText("CUDA_VISIBLE_DEVICES=0\nnot a variable\n");
        dialog.reportPath()->setText(dir.filePath("report.csv"));
        QVERIFY(!dialog.check());
        const QString problems = dialog.problemsText();
        QVERIFY2(problems.contains("missing is not a folder"), qPrintable(problems));
        QVERIFY2(problems.contains("Line 2, 'not a variable', is not NAME=VALUE"), qPrintable(problems));
        QVERIFY2(problems.contains("Name a .json file"), qPrintable(problems));
        // Each line sits under its own control and goes once that control is valid.
        auto* envLine = dialog.findChild<QLabel*>("problem_environment");
        QVERIFY(envLine && envLine->isVisible());
        dialog.folder()->clear();
        QVERIFY(!dialog.check());
        QVERIFY2(dialog.problemsText().contains("is not executable"), qPrintable(dialog.problemsText()));
        QVERIFY(!dialog.problemsText().contains("is not a folder"));

        dialog.program()->setText(fakeProgram());
        dialog.arguments()->setText("iterations \"5\"");
        dialog.environment()->setPlainText("A=1\n\nB_2=two words\n");
        dialog.reportPath()->setText(dir.filePath("sub/report.json"));
        dialog.iterations()->setCurrentIndex(2);
        dialog.rangeName()->setText("step");
        dialog.duration()->setValue(30);
        QVERIFY2(dialog.check(), qPrintable(dialog.problemsText()));
        QVERIFY(!envLine->isVisible());
        const RecordingPlan plan = dialog.plan();
        QCOMPARE(plan.request.command,
            (std::vector<std::string> { fakeProgram().toStdString(), "iterations", "5" }));
        QCOMPARE(plan.request.environment.size(), std::size_t(2));
        QCOMPARE(plan.request.environment[1].second, std::string("two words"));
        QVERIFY(plan.rule.by == IterationRule::By::Nvtx);
        QCOMPARE(plan.rule.range, std::string("step"));
        QCOMPARE(plan.request.durationSeconds.value_or(0.0), 30.0);
        QCOMPARE(plan.reportPath, dir.filePath("sub/report.json"));
    }

    void returnMeansRecordWhereverTheFocusIs()
    {
        // Return pressed in any field of the shown dialog records; it never cancels and never browses.
        QTemporaryDir dir;
        const auto pressReturnIn = [&](QWidget* (*field)(RecordDialog&)) {
            RecordDialog dialog(dir.path());
            dialog.show();
            QVERIFY(QTest::qWaitForWindowExposed(&dialog));
            QCOMPARE(QApplication::focusWidget(), static_cast<QWidget*>(dialog.program()));
            dialog.program()->setText(fakeProgram());
            dialog.reportPath()->setText(dir.filePath("report.json"));
            QWidget* target = field(dialog);
            target->setFocus();
            QTest::keyClick(target, Qt::Key_Return);
            QCOMPARE(dialog.result(), int(QDialog::Accepted));
            QVERIFY(!dialog.isVisible());
        };
        pressReturnIn([](RecordDialog& d) -> QWidget* { return d.program(); });
        pressReturnIn([](RecordDialog& d) -> QWidget* { return d.reportPath(); });
        pressReturnIn([](RecordDialog& d) -> QWidget* { return d.arguments(); });
        RecordDialog dialog(dir.path());
        int browse = 0;
        for (QPushButton* button : dialog.findChildren<QPushButton*>())
            if (button->text() == "Browse…") {
                QVERIFY(!button->autoDefault());  // focused, it still leaves Return to Record
                ++browse;
            }
        QCOMPARE(browse, 3);
    }

    void theReportIsNamedForTheProgramUntilTheUserNamesIt()
    {
        QTemporaryDir dir;
        RecordDialog dialog(dir.path());
        dialog.program()->setText("/opt/my app/bin/solver");
        QVERIFY2(dialog.reportPath()->text().contains(QRegularExpression("solver-[0-9]{8}-[0-9]{6}\\.json$")),
            qPrintable(dialog.reportPath()->text()));
        QTest::keyClicks(dialog.reportPath(), "x");  // edited: kept from then on
        const QString edited = dialog.reportPath()->text();
        dialog.program()->setText("/opt/other");
        QCOMPARE(dialog.reportPath()->text(), edited);
    }

    void aRecordedProgramOpensAsASeriesWithItsOutputKept()
    {
        QTemporaryDir dir;
        MainWindow window(std::make_shared<FakeBackend>());
        window.show();
        QVERIFY(asyncscope::testing::waitForDevices(window));
        RecordingPlan plan;
        plan.request.command = { fakeProgram().toStdString(), "iterations", "7" };
        plan.reportPath = dir.filePath("fake.json");
        QSignalSpy done(&window.record(), &RecordActions::done);
        QVERIFY(window.record().start(plan));
        QVERIFY(!window.record().start(plan));  // one at a time
        QVERIFY(QTest::qWaitFor([&] { return window.session().report().runs.size() == 7; }, 10000));
        QVERIFY(window.session().report().program.has_value());
        QVERIFY(QFile::exists(dir.filePath("fake.record")));
        QVERIFY(QFile::exists(dir.filePath("fake.output.txt")));
        QVERIFY(!done.isEmpty());
        const QString summary = done.first().first().toString();
        QVERIFY2(summary.contains("exited with 0") && summary.contains("7 iteration(s) as runs"), qPrintable(summary));
        QVERIFY2(summary.contains("fake.output.txt"), qPrintable(summary));
    }

    void aProgramThatNeverInitialisesCudaIsSaidSo()
    {
        QTemporaryDir dir;
        MainWindow window(std::make_shared<FakeBackend>());
        QVERIFY(asyncscope::testing::waitForDevices(window));
        RecordingPlan plan;
        plan.request.command = { fakeProgram().toStdString(), "nocuda" };
        plan.reportPath = dir.filePath("none.json");
        QSignalSpy problem(&window.record(), &RecordActions::problem);
        QVERIFY(window.record().start(plan));
        QVERIFY(QTest::qWaitFor([&] { return !problem.isEmpty(); }, 10000));
        const QString message = problem.first().first().toString();
        QVERIFY2(message.contains("exited with 0") && message.contains("never initialised CUDA: nothing was recorded"),
            qPrintable(message));
        QVERIFY2(message.contains("Record a program that uses the GPU") && message.contains("It printed nothing"),
            qPrintable(message));
        QVERIFY(!QFile::exists(dir.filePath("none.json")));
    }

    // What the recording window says of a program that left nothing: how it ended, the last lines it printed and
    // what to do. One whose CUDA calls failed for want of a driver is told so (not that it never initialised CUDA);
    // one the user stopped before its CUDA began is told that.
    void aProgramThatRecordedNothingIsToldWhatHappened_data()
    {
        QTest::addColumn<QStringList>("arguments");
        QTest::addColumn<bool>("stop");
        QTest::addColumn<QStringList>("said");
        QTest::newRow("CUDA calls failed") << QStringList { "nodriver" } << false
                                           << QStringList { "exited with 1", "its CUDA calls failing (no NVIDIA driver",
                                                  "Record it on a computer with a GPU",
                                                  "code=35(cudaErrorInsufficientDriver)", "[asyncAPI] - Starting..." };
        QTest::newRow("stopped") << QStringList { "idle" } << true
                                 << QStringList { "was stopped", "(stopped by you) before any of its processes "
                                                  "initialised CUDA", "let it run", "loading the model..." };
    }
    void aProgramThatRecordedNothingIsToldWhatHappened()
    {
        QFETCH(QStringList, arguments);
        QFETCH(bool, stop);
        QFETCH(QStringList, said);
        QTemporaryDir dir;
        MainWindow window(std::make_shared<FakeBackend>());
        QVERIFY(asyncscope::testing::waitForDevices(window));
        RecordingPlan plan;
        plan.request.command = { fakeProgram().toStdString() };
        for (const QString& word : arguments)
            plan.request.command.push_back(word.toStdString());
        plan.reportPath = dir.filePath("failed.json");
        QSignalSpy problem(&window.record(), &RecordActions::problem);
        QVERIFY(window.record().start(plan));
        if (stop) {
            QVERIFY(QTest::qWaitFor([&] { return QFile(dir.filePath("failed.output.txt")).size() > 0; }, 10000));
            window.record().recording().stop();
        }
        QVERIFY(QTest::qWaitFor([&] { return !problem.isEmpty(); }, 15000));
        const QString message = problem.first().first().toString();
        for (const QString& part : said)
            QVERIFY2(message.contains(part), qPrintable(part + " not in: " + message));
        QVERIFY2(!message.contains("never initialised CUDA"), qPrintable(message));
        QVERIFY2(message.contains("failed.output.txt"), qPrintable(message));
    }

    // The report path is checked as it is typed, under its own field: a folder that cannot be written, a file in the
    // way of a folder, a file beside the report that is a folder; Record keeps the dialog open, and the line goes as
    // the path is corrected. Typing makes no folder.
    void theReportPathIsCheckedAsTyped()
    {
        QTemporaryDir dir;
        QFile file(dir.filePath("notes.txt"));
        QVERIFY(file.open(QIODevice::WriteOnly));
        file.close();
        QVERIFY(QDir(dir.path()).mkdir("taken.record"));
        RecordDialog dialog(dir.path());
        dialog.show();
        QVERIFY(QTest::qWaitForWindowExposed(&dialog));
        dialog.program()->setText(fakeProgram());
        QVERIFY(problemUnder(dialog, "report").isEmpty());

        const struct {
            QString typed;
            const char* said;
        } refused[] = {
            { QStringLiteral("/proc/asyncscope-nowhere/run.json"), "the folder /proc cannot be written" },
            { dir.filePath("notes.txt/run.json"), "notes.txt is not a folder" },
            { dir.filePath("taken.json"), "taken.record" },
            { dir.filePath("run.csv"), "Name a .json file" },
        };
        for (const auto& bad : refused) {
            dialog.reportPath()->selectAll();
            dialog.reportPath()->setFocus();
            QTest::keyClicks(dialog.reportPath(), bad.typed);
            const QString under = problemUnder(dialog, "report");
            QVERIFY2(under.contains(bad.said), qPrintable(bad.typed + ": " + under));
            QTest::keyClick(dialog.reportPath(), Qt::Key_Return);  // Record: refused, the dialog stays
            QVERIFY(dialog.isVisible());
            QVERIFY(dialog.result() != QDialog::Accepted);
        }
        QVERIFY2(problemUnder(dialog, "report").contains("Name a .json file"), qPrintable(dialog.problemsText()));
        dialog.reportPath()->selectAll();
        QTest::keyClicks(dialog.reportPath(), dir.filePath("new/folder/run.json"));
        QVERIFY2(problemUnder(dialog, "report").isEmpty(), qPrintable(dialog.problemsText()));
        QVERIFY(!QFileInfo::exists(dir.filePath("new")));  // made on Record, not as it was typed
        QTest::keyClick(dialog.reportPath(), Qt::Key_Return);
        QCOMPARE(dialog.result(), int(QDialog::Accepted));
        QVERIFY(QFileInfo(dir.filePath("new/folder")).isDir());
    }

    // A problem Record found goes as soon as its field is corrected, without pressing Record again.
    void aProblemGoesOnceItsFieldIsCorrected()
    {
        QTemporaryDir dir;
        RecordDialog dialog(dir.path());
        dialog.show();
        dialog.environment()->setPlainText("not a variable");
        dialog.arguments()->setText("\"open");
        QVERIFY(!dialog.check());
        QVERIFY(problemUnder(dialog, "program").contains("Name the program to record"));
        QVERIFY(problemUnder(dialog, "environment").contains("is not NAME=VALUE"));
        QVERIFY(problemUnder(dialog, "arguments").contains("not closed"));
        dialog.environment()->setPlainText("A=1");
        QVERIFY(problemUnder(dialog, "environment").isEmpty());
        dialog.arguments()->setText("\"closed\"");
        QVERIFY(problemUnder(dialog, "arguments").isEmpty());
        dialog.program()->setText(fakeProgram());
        QVERIFY2(problemUnder(dialog, "program").isEmpty(), qPrintable(problemUnder(dialog, "program")));
        QVERIFY2(dialog.problemsText().isEmpty(), qPrintable(dialog.problemsText()));
    }

    // A minus sign typed in "Stop after" is refused with the field's rule under it; the value stays "when it ends",
    // as the line says, and a number typed next is taken.
    void aNegativeStopAfterIsRefusedWithAMessage()
    {
        QTemporaryDir dir;
        RecordDialog dialog(dir.path());
        dialog.show();
        QVERIFY(QTest::qWaitForWindowExposed(&dialog));
        QDoubleSpinBox* duration = dialog.duration();
        duration->setFocus();
        duration->selectAll();
        QTest::keyClick(duration, Qt::Key_Minus);
        const QString under = problemUnder(dialog, "duration");
        QVERIFY2(under.contains("Stop after takes numbers from 0") && under.contains("'-'") &&
                under.contains("when it ends"),
            qPrintable(under));
        QCOMPARE(duration->value(), 0.0);
        QTest::keyClicks(duration, "5");
        QCOMPARE(duration->value(), 5.0);
        QVERIFY(problemUnder(dialog, "duration").isEmpty());
        QCOMPARE(dialog.plan().request.durationSeconds.value_or(0.0), 5.0);
    }

    // What was recorded is there again at the next open: the program, its arguments, environment, folder, iterations
    // and stop; the programs recorded lately, the latest first, each once, under Recent.
    void theDialogKeepsWhatWasTyped()
    {
        QTemporaryDir dir;
        const auto recordWith = [&](const QString& program, const QString& arguments) {
            RecordDialog dialog(dir.path());
            dialog.show();
            dialog.program()->setText(program);
            dialog.arguments()->setText(arguments);
            dialog.folder()->setText(dir.path());
            dialog.environment()->setPlainText("A=1\nB=two words");
            dialog.iterations()->setCurrentIndex(2);
            dialog.rangeName()->setText("step");
            dialog.duration()->setValue(12.5);
            dialog.reportPath()->setText(dir.filePath("run.json"));
            dialog.program()->setFocus();
            QTest::keyClick(dialog.program(), Qt::Key_Return);
            return dialog.result() == QDialog::Accepted;
        };
        const QString copy = dir.filePath("other-program");
        QVERIFY(QFile::copy(fakeProgram(), copy));
        QVERIFY(recordWith(fakeProgram(), "iterations 5"));
        QVERIFY(recordWith(copy, "paced 3"));
        QVERIFY(recordWith(fakeProgram(), "iterations 7"));

        RecordDialog again(dir.path());
        QCOMPARE(again.program()->text(), fakeProgram());
        QCOMPARE(again.arguments()->text(), QStringLiteral("iterations 7"));
        QCOMPARE(again.folder()->text(), dir.path());
        QCOMPARE(again.environment()->toPlainText(), QStringLiteral("A=1\nB=two words"));
        QCOMPARE(again.iterations()->currentData().toString(), QStringLiteral("nvtx"));
        QCOMPARE(again.rangeName()->text(), QStringLiteral("step"));
        QCOMPARE(again.duration()->value(), 12.5);
        QVERIFY(again.reportPath()->text().contains(QFileInfo(fakeProgram()).fileName()));  // named for it again
        QStringList recent;
        for (QAction* action : again.recentPrograms()->menu()->actions())
            recent << action->text();
        QCOMPARE(recent, (QStringList { fakeProgram(), copy }));
        again.recentPrograms()->menu()->actions().at(1)->trigger();
        QCOMPARE(again.program()->text(), copy);
    }

    // Where no GPU can run, the dialog says so above its fields before anything is recorded; where one can, it says
    // nothing of it.
    void theDialogSaysBeforeRecordingThatNoGpuCanRunHere()
    {
        auto noGpu = std::make_shared<FakeBackend>();
        noGpu->discoveryError = makeError(ErrorKind::NoDriver, "no driver");
        MainWindow window(noGpu);
        window.show();
        window.activateWindow();
        QVERIFY(QTest::qWaitForWindowActive(&window));
        QVERIFY(asyncscope::testing::waitForDevices(window));
        QString said;
        bool shown = false;
        QVERIFY(withRecordDialog(window, [&](RecordDialog& dialog) {
            said = dialog.deviceProblem();
            shown = dialog.findChild<QLabel*>("deviceProblem")->isVisible();
        }));
        QVERIFY(shown);
        QVERIFY2(said.contains("CUDA calls will fail here") && said.contains("Record on a computer with a GPU"),
            qPrintable(said));

        MainWindow withGpu(std::make_shared<FakeBackend>());
        withGpu.show();
        withGpu.activateWindow();
        QVERIFY(QTest::qWaitForWindowActive(&withGpu));
        QVERIFY(asyncscope::testing::waitForDevices(withGpu));
        QVERIFY(withRecordDialog(withGpu, [&](RecordDialog& dialog) { said = dialog.deviceProblem(); }));
        QVERIFY2(said.isEmpty(), qPrintable(said));
    }

    // The recorder can be found: Ctrl+Shift+R opens it (above), the first screen and the guide name it.
    void theFirstScreenAndTheGuideNameTheRecorder()
    {
        for (const bool gpu : { false, true }) {
            auto backend = std::make_shared<FakeBackend>();
            if (!gpu)
                backend->discoveryError = makeError(ErrorKind::NoDriver, "no driver");
            MainWindow window(backend);
            window.show();
            QVERIFY(asyncscope::testing::waitForDevices(window));
            auto* view = qobject_cast<ChartView*>(window.tabs().currentWidget());
            QVERIFY(view);
            const QString said = view->whatToDo();
            QVERIFY2(said.contains("File › Record a program… (Ctrl+Shift+R)"), qPrintable(said));
            QVERIFY(guidePage(gpu).contains("<b>File › Record a program</b> (Ctrl+Shift+R)"));
        }
        MainWindow window(std::make_shared<FakeBackend>());
        QCOMPARE(window.actions().recordProgram->shortcut(), QKeySequence(Qt::CTRL | Qt::SHIFT | Qt::Key_R));
    }

    void theFileMenuOffersIt()
    {
        MainWindow window(std::make_shared<FakeBackend>());
        QVERIFY(window.findChild<QMenuBar*>());
        bool found = false;
        for (QAction* a : window.findChildren<QAction*>())
            found = found || a->text() == "Record a &program…";
        QVERIFY(found);
    }
};

QTEST_MAIN(RecordDialogTest)
#include "record_dialog_test.moc"

// File › Record a program…: the dialog's checks, each shown under its control, and a program recorded from the window
// and shown as a series. The test fake tests/fakes/fake_recorded_program.cpp stands in for a CUDA program and its
// injection library (it sends the recorder what a CUDA program would), so no GPU is needed.
#include "fake_backend.hpp"
#include "window_waits.hpp"

#include "gui/app/main_window.hpp"
#include "gui/app/record_actions.hpp"
#include "gui/app/record_dialog.hpp"
#include "gui/app/window_actions.hpp"
#include "gui/session/session_model.hpp"

#include <QApplication>
#include <QComboBox>
#include <QDoubleSpinBox>
#include <QFile>
#include <QLabel>
#include <QLineEdit>
#include <QMenuBar>
#include <QPlainTextEdit>
#include <QPushButton>
#include <QRegularExpression>
#include <QSignalSpy>
#include <QTemporaryDir>
#include <QTest>

using namespace asyncscope;
using asyncscope::testing::FakeBackend;

namespace {

QString fakeProgram()
{
    return QStringLiteral(FAKE_RECORDED_PROGRAM);
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
        QVERIFY2(message.contains("never initialised CUDA: nothing was recorded"), qPrintable(message));
        QVERIFY(!QFile::exists(dir.filePath("none.json")));
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

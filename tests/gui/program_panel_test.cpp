// A recorded program's report shown in the window: the left panel shows the program (command, arguments, folder, how
// its iterations were found, how it ended, its GPU, processes and threads), not the pipeline's editable settings;
// "Record again…" opens the record dialog with the same settings; the summary says which rows a program has not;
// a series of the pipeline shown again brings the pipeline's panel back.
#include "fake_backend.hpp"
#include "window_waits.hpp"

#include "gui/app/file_actions.hpp"
#include "gui/app/main_window.hpp"
#include "gui/app/record_dialog.hpp"
#include "gui/charts/summary_table.hpp"
#include "gui/config/panel_stack.hpp"
#include "gui/config/program_panel.hpp"
#include "gui/config/record_again.hpp"
#include "gui/session/session_model.hpp"

#include "engine/io/json/json_report.hpp"
#include "engine/model/baseline.hpp"
#include "engine/record/program_report.hpp"

#include <QApplication>
#include <QComboBox>
#include <QLineEdit>
#include <QProcess>
#include <QPushButton>
#include <QSettings>
#include <QTableWidget>
#include <QTemporaryDir>
#include <QTest>
#include <QTimer>

#include <fstream>

using namespace asyncscope;
using asyncscope::testing::FakeBackend;
using asyncscope::testing::waitForDevices;

namespace {

// The report of each series made of the kept recording `name` (tests/data/recordings), written as JSON in `dir`.
QStringList writeRecordedReports(const QTemporaryDir& dir, const QString& name)
{
    auto series = readKeptRecording(
        (ASYNCSCOPE_TEST_DATA "/recordings/" + name + ".record").toStdString(), IterationRule {}, ProcessChoice {});
    QStringList paths;
    if (!series)
        return paths;
    for (std::size_t i = 0; i < series->size(); ++i) {
        const Report& report = (*series)[i].report;
        paths << dir.filePath(QStringLiteral("%1-%2.json").arg(name).arg(i));
        std::ofstream out(paths.back().toStdString(), std::ios::binary);
        writeJson(out, report, assessSeries(report));
    }
    return paths;
}

bool settled(const MainWindow& window)
{
    return QTest::qWaitFor([&] { return !window.session().isLoading(); }, 30000);
}

std::unique_ptr<MainWindow> windowWithoutGpu()
{
    auto noGpu = std::make_shared<FakeBackend>();
    noGpu->discoveryError = makeError(ErrorKind::NoDriver, "no driver");
    auto window = std::make_unique<MainWindow>(noGpu);
    window->resize(1280, 800);
    window->show();
    return window;
}

}  // namespace

class ProgramPanelTest : public QObject {
    Q_OBJECT
private:
    QTemporaryDir m_dir;
    QString m_asyncApi;  // asyncAPI recorded on an H100: one process, one thread
    QString m_threads;   // a program of several host threads
    QString m_pipeline = QStringLiteral(ASYNCSCOPE_TEST_DATA "/h200/h200-noise.json");

private slots:
    void initTestCase()
    {
        QSettings().clear();
        QVERIFY(m_dir.isValid());
        const QStringList asyncApi = writeRecordedReports(m_dir, QStringLiteral("asyncAPI"));
        QCOMPARE(asyncApi.size(), 1);
        m_asyncApi = asyncApi.front();
        const QStringList threads = writeRecordedReports(m_dir, QStringLiteral("h100-threads"));
        QVERIFY(!threads.isEmpty());
        m_threads = threads.front();
    }

    void cleanup() { QSettings().clear(); }

    void aProgramShowsItsOwnPanelAndAPipelineSeriesBringsTheSettingsBack()
    {
        auto window = windowWithoutGpu();
        QVERIFY(waitForDevices(*window));
        QVERIFY(!window->leftPanel().showsProgram());
        QVERIFY(window->files().openSaved(m_asyncApi));
        QVERIFY(settled(*window));
        QVERIFY(window->session().report().program);
        QVERIFY(window->leftPanel().showsProgram());
        const ProgramPanel& panel = *window->leftPanel().program();
        QVERIFY(panel.isVisible());
        const ProgramInfo& program = *window->session().report().program;
        QCOMPARE(panel.rowText("Command"), QString::fromStdString(program.command.front()));
        QVERIFY2(panel.rowText("Command").contains("asyncAPI"), qPrintable(panel.rowText("Command")));
        QVERIFY(!panel.rowText("Arguments").isEmpty());
        QVERIFY(!panel.rowText("Folder").isEmpty());
        QCOMPARE(panel.rowText("Iterations"), "split at " + QString::fromStdString(program.iterations));
        QVERIFY2(panel.rowText("Ended").startsWith("exited normally") || panel.rowText("Ended").startsWith("not known"),
            qPrintable(panel.rowText("Ended")));
        QVERIFY2(panel.rowText("GPU").contains(QString::fromStdString(window->session().report().device.name)),
            qPrintable(panel.rowText("GPU")));
        QVERIFY2(panel.rowText("GPU").contains("H100"), qPrintable(panel.rowText("GPU")));

        // A series of the built-in pipeline: its own configuration in the pipeline's panel.
        QVERIFY(window->files().openSaved(m_pipeline));
        QVERIFY(settled(*window));
        QVERIFY(!window->session().report().program);
        QVERIFY(!window->leftPanel().showsProgram());
        QVERIFY(!panel.isVisible());
    }

    void aProgramOfSeveralThreadsListsThem()
    {
        auto window = windowWithoutGpu();
        QVERIFY(window->files().openSaved(m_threads));
        QVERIFY(settled(*window));
        const ProgramInfo& program = *window->session().report().program;
        QVERIFY(program.threads.size() > 1);
        QVERIFY(window->leftPanel().showsProgram());
        const ProgramPanel& panel = *window->leftPanel().program();
        const QString threads = panel.rowText("Threads");
        QCOMPARE(threads.count('\n') + 1, int(std::min<std::size_t>(program.threads.size(), 13)));
        for (std::size_t t = 0; t < std::min<std::size_t>(program.threads.size(), 12); ++t)
            QVERIFY2(
                threads.contains(QStringLiteral("thread %1:").arg(program.threads[t].thread)), qPrintable(threads));
        if (!program.processes.empty())
            QVERIFY2(panel.rowText("Processes").contains(QString::number(program.processes.front().pid)),
                qPrintable(panel.rowText("Processes")));
        else
            QVERIFY(panel.rowText("Processes").isEmpty());  // the report lists none: no row
    }

    // The panel's Pipeline settings shows the pipeline's panel; a run started, measured here, keeps it.
    void pipelineSettingsLeaveTheProgramShown()
    {
        auto window = windowWithoutGpu();
        QVERIFY(window->files().openSaved(m_asyncApi));
        QVERIFY(settled(*window));
        QVERIFY(window->leftPanel().showsProgram());
        auto* pipeline = window->leftPanel().program()->findChild<QPushButton*>("pipelineSettings");
        QVERIFY(pipeline);
        QTest::mouseClick(pipeline, Qt::LeftButton);
        QVERIFY(!window->leftPanel().showsProgram());
        QVERIFY(window->session().report().program);  // the program's report stays shown
    }

    // "Record again…": the record dialog with the program's path, arguments, folder and way of finding iterations.
    void recordAgainOpensTheDialogWithTheSameSettings()
    {
        auto window = windowWithoutGpu();
        QVERIFY(waitForDevices(*window));
        QVERIFY(window->files().openSaved(m_asyncApi));
        QVERIFY(settled(*window));
        const ProgramInfo& program = *window->session().report().program;
        auto* again = window->leftPanel().program()->findChild<QPushButton*>("recordAgain");
        QVERIFY(again && again->isEnabled());
        QString shownProgram, shownArguments, shownFolder, shownIterations;
        bool opened = false;
        QTimer::singleShot(0, this, [&] {
            QVERIFY(QTest::qWaitFor([] { return qobject_cast<RecordDialog*>(QApplication::activeModalWidget()); }));
            auto* dialog = qobject_cast<RecordDialog*>(QApplication::activeModalWidget());
            opened = true;
            shownProgram = dialog->program()->text();
            shownArguments = dialog->arguments()->text();
            shownFolder = dialog->folder()->text();
            shownIterations = dialog->iterations()->currentData().toString();
            dialog->reject();
        });
        QTest::mouseClick(again, Qt::LeftButton);
        QVERIFY(opened);
        QCOMPARE(shownProgram, QString::fromStdString(program.command.front()));
        QStringList words;
        for (std::size_t i = 1; i < program.command.size(); ++i)
            words << QString::fromStdString(program.command[i]);
        QCOMPARE(QProcess::splitCommand(shownArguments), words);
        QCOMPARE(shownFolder, QString::fromStdString(program.workingFolder));
        QCOMPARE(shownIterations, program.iterations.rfind("host synchronizations", 0) == 0 ? "sync" : "auto");
    }

    void argumentsAreWrittenAsTheDialogSplitsThem_data()
    {
        QTest::addColumn<QStringList>("words");
        QTest::addColumn<QStringList>("split");
        QTest::newRow("plain") << QStringList { "--size", "64", "-v" } << QStringList { "--size", "64", "-v" };
        const QStringList spaces { "two words", "x", "\ttab" };
        QTest::newRow("spaces") << spaces << spaces;
        const QStringList quotes { "say \"hi\"", "\"", "a\"b" };
        QTest::newRow("quotes") << quotes << quotes;
        // The field splits no empty word out of anything: one is lost, and the words after it kept.
        QTest::newRow("empty") << QStringList { "", "after" } << QStringList { "after" };
    }

    void argumentsAreWrittenAsTheDialogSplitsThem()
    {
        QFETCH(QStringList, words);
        QFETCH(QStringList, split);
        std::vector<std::string> command;
        for (const QString& word : words)
            command.push_back(word.toStdString());
        QCOMPARE(QProcess::splitCommand(argumentsText(command)), split);
    }

    // With a series of the pipeline overlaid, the rows a program has not (the host check) say so, and those nothing
    // measures for a program (the host's copy peaks) say that, not that the program's file format does not record
    // them.
    void summaryRowsAProgramHasNotSaySo()
    {
        auto window = windowWithoutGpu();
        QVERIFY(window->files().openSaved(m_asyncApi));
        QVERIFY(settled(*window));
        QVERIFY(window->files().addOverlay(m_pipeline));
        QVERIFY(settled(*window));
        window->tabs().setCurrentWidget(const_cast<SummaryTable*>(&window->summary()));
        const SummaryTable& table = window->summary();
        QVERIFY(QTest::qWaitFor([&] { return table.rowCount() > 0 && table.columnCount() > 7; }, 5000));
        int checkRow = -1, peakRow = -1;
        for (int row = 0; row < table.rowCount(); ++row) {
            const QString cell = table.item(row, 1) ? table.item(row, 1)->text() : QString();
            QVERIFY2(!cell.startsWith("not recorded"), qPrintable(cell));
            if (table.verticalHeaderItem(row)->text().startsWith("Host check"))
                checkRow = row;
            if (table.verticalHeaderItem(row)->text().startsWith("Host peak H2D"))
                peakRow = row;
        }
        QVERIFY(checkRow >= 0 && peakRow >= 0);
        QCOMPARE(table.item(checkRow, 1)->text(), QStringLiteral("a program has no host check"));
        QCOMPARE(table.item(peakRow, 1)->text(), QStringLiteral("not measured for a program"));
    }
};

QTEST_MAIN(ProgramPanelTest)
#include "program_panel_test.moc"

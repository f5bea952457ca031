// A recorded program against a series of the built-in pipeline: where asyncscope-cli refuses to compare the two files
// (a program recorded once holds one measured run), the window refuses too, in the CLI's words, before asking whether
// to compare across configurations, and no view calls a difference it could not judge "same".
#include "fake_backend.hpp"
#include "window_waits.hpp"

#include "gui/app/file_actions.hpp"
#include "gui/app/main_window.hpp"
#include "gui/charts/difference_view.hpp"
#include "gui/charts/summary_table.hpp"
#include "gui/session/session_model.hpp"

#include "cli/cli_app.hpp"
#include "cli/cli_options.hpp"

#include "engine/io/json/json_report.hpp"
#include "engine/model/baseline.hpp"
#include "engine/record/program_report.hpp"

#include <QDir>
#include <QFile>
#include <QSettings>
#include <QSignalSpy>
#include <QTabWidget>
#include <QTableWidget>
#include <QTemporaryDir>
#include <QTest>

#include <atomic>
#include <fstream>
#include <sstream>

using namespace asyncscope;
using asyncscope::testing::FakeBackend;
using asyncscope::testing::waitForDevices;
using State = BaselineController::State;

namespace {

// What asyncscope-cli says comparing `current` with `baseline` (both in `folder`, named as there), and its exit code.
std::pair<int, QString> cliComparison(const QString& folder, const QString& baseline, const QString& current)
{
    const QString before = QDir::currentPath();
    QDir::setCurrent(folder);
    const std::string b = baseline.toStdString(), c = current.toStdString();
    const char* argv[] = { "asyncscope-cli", "--baseline", b.c_str(), c.c_str(), "--allow-different" };
    auto options = parseCommandLine(int(std::size(argv)), argv);
    int code = -1;
    std::ostringstream out, err;
    if (options) {
        FakeBackend backend;
        const std::atomic<bool> cancel { false };
        code = runCli(*options, backend, cancel, out, err);
    }
    QDir::setCurrent(before);
    QString said = QString::fromStdString(err.str()).trimmed();
    said.remove(QStringLiteral("asyncscope-cli: error: "));
    return { code, said };
}

bool settled(MainWindow& window)
{
    const SessionModel& s = window.session();
    if (!QTest::qWaitFor([&] { return !s.isLoading() && !s.isRunning(); }, 30000))
        return false;
    const_cast<SessionModel&>(s).baselines().settle();
    return s.baselines().state() != State::Comparing;
}

QStringList tableTexts(const QTableWidget& table)
{
    QStringList texts;
    for (int row = 0; row < table.rowCount(); ++row) {
        for (int column = 0; column < table.columnCount(); ++column) {
            if (const QTableWidgetItem* item = table.item(row, column))
                texts << item->text();
        }
    }
    return texts;
}

}  // namespace

class ProgramBaselineTest : public QObject {
    Q_OBJECT
private:
    QTemporaryDir m_dir;
    QString m_program;   // asyncAPI recorded on an H100, made a report: one measured run
    QString m_pipeline;  // a series of the built-in pipeline on an H200: many measured runs

private slots:
    void initTestCase()
    {
        QSettings().clear();
        QVERIFY(m_dir.isValid());
        auto series = readKeptRecording(ASYNCSCOPE_TEST_DATA "/recordings/asyncAPI.record", IterationRule {},
            ProcessChoice {});
        QVERIFY(series);
        QCOMPARE(series->size(), std::size_t(1));
        const Report& program = series->front().report;
        QVERIFY(program.program);
        QCOMPARE(measuredRunsOf(program), std::size_t(1));
        m_program = m_dir.filePath("asyncAPI.json");
        {
            std::ofstream out(m_program.toStdString(), std::ios::binary);
            writeJson(out, program, assessSeries(program));
        }
        m_pipeline = m_dir.filePath("h200-noise.json");
        QVERIFY(QFile::copy(ASYNCSCOPE_TEST_DATA "/h200/h200-noise.json", m_pipeline));
    }

    void cleanup() { QSettings().clear(); }

    // The program shown, the pipeline's series as the baseline: not compared, in the CLI's words, with no question
    // of consent first; the Difference tab and the Summary say why and hold no verdict.
    void aProgramOfOneRunIsNotComparedWithABuiltInSeries()
    {
        const auto [code, cli] = cliComparison(m_dir.path(), "h200-noise.json", "asyncAPI.json");
        QCOMPARE(code, kExitUsage);
        QVERIFY2(cli.contains("needs at least"), qPrintable(cli));

        auto noGpu = std::make_shared<FakeBackend>();
        noGpu->discoveryError = makeError(ErrorKind::NoDriver, "no driver");
        MainWindow window(noGpu);
        window.resize(1280, 800);
        window.show();
        QVERIFY(waitForDevices(window));
        QSignalSpy consent(&window.session().baselines(), &BaselineController::consentNeeded);
        QVERIFY(window.files().openSaved(m_program));
        QVERIFY(settled(window));
        QVERIFY(window.files().setBaseline(m_pipeline));
        QVERIFY(settled(window));

        QCOMPARE(window.session().baselines().state(), State::TooFewRuns);
        QCOMPARE(QString::fromStdString(window.session().baselines().refusal()), cli);
        QCOMPARE(consent.size(), 0);  // nothing to consent to: the comparison cannot be made at all
        QVERIFY2(window.baselineStatus().contains(cli), qPrintable(window.baselineStatus()));
        QVERIFY(!window.session().baselines().comparison());

        const DifferenceView& difference = window.difference();
        QVERIFY(difference.rows().empty());
        QVERIFY2(difference.message().contains(cli), qPrintable(difference.message()));
        QVERIFY(!difference.message().contains("same"));
        window.tabs().setCurrentWidget(const_cast<SummaryTable*>(&window.summary()));
        QVERIFY(QTest::qWaitFor([&] { return window.summary().rowCount() > 0; }, 5000));
        const QStringList cells = tableTexts(window.summary());
        QVERIFY(!cells.isEmpty());
        for (const QString& cell : cells)
            QVERIFY2(!cell.contains("same"), qPrintable(cell));
    }

    // The program as the baseline of the pipeline's series: refused as it is set, in the CLI's words.
    void aProgramOfOneRunIsNoBaseline()
    {
        const auto [code, cli] = cliComparison(m_dir.path(), "asyncAPI.json", "h200-noise.json");
        QCOMPARE(code, kExitUsage);
        QVERIFY2(cli.startsWith("the baseline asyncAPI.json holds 1 measured run"), qPrintable(cli));

        auto noGpu = std::make_shared<FakeBackend>();
        noGpu->discoveryError = makeError(ErrorKind::NoDriver, "no driver");
        MainWindow window(noGpu);
        window.show();
        QVERIFY(waitForDevices(window));
        QVERIFY(window.files().openSaved(m_pipeline));
        QVERIFY(settled(window));
        QSignalSpy problems(&window.files(), &FileActions::problem);
        QVERIFY(window.files().setBaseline(m_program));
        QVERIFY(settled(window));
        QCOMPARE(problems.size(), 1);
        QVERIFY2(problems.first().first().toString().contains(cli), qPrintable(problems.first().first().toString()));
        QVERIFY(!window.session().baseline());
        QCOMPARE(window.session().baselines().state(), State::None);
    }
};

QTEST_MAIN(ProgramBaselineTest)
#include "program_baseline_test.moc"

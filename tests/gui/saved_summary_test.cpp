// A saved series comes summarised from the thread that read it, so the window's GUI thread never sorts a million
// runs: the summary matches the engine's, the session keeps it while it shows the series and drops it when a run
// starts, and the Summary tab shows the summary it is given rather than making its own.
#include "classic_runs.hpp"
#include "fake_backend.hpp"

#include "gui/app/file_actions.hpp"
#include "gui/app/main_window.hpp"
#include "gui/series/saved_run.hpp"
#include "gui/session/session_model.hpp"
#include "gui/charts/summary_table.hpp"

#include "engine/io/csv/csv_report.hpp"
#include "engine/io/json/json_report.hpp"
#include "engine/model/advice.hpp"

#include <QHeaderView>
#include <QScrollBar>
#include <QSettings>
#include <QSignalSpy>
#include <QTemporaryDir>
#include <QTest>

#include <fstream>

using namespace asyncscope;
using asyncscope::testing::FakeBackend;

namespace {

QString saveSeries(const QTemporaryDir& dir, const QString& name, const Report& report)
{
    const QString path = dir.filePath(name);
    std::ofstream out(path.toStdString(), std::ios::binary);
    path.endsWith(".csv") ? writeCsv(out, report) : writeJson(out, report, assessSeries(report));
    return path;
}

int rowNamed(const QTableWidget& table, const QString& name)
{
    for (int r = 0; r < table.rowCount(); ++r) {
        if (table.verticalHeaderItem(r) && table.verticalHeaderItem(r)->text() == name)
            return r;
    }
    return -1;
}

}  // namespace

class SavedSummaryTest : public QObject {
    Q_OBJECT
private:
    QTemporaryDir m_dir;

private slots:
    void initTestCase()
    {
        QCoreApplication::setOrganizationName("AsyncScopeTests");
        QCoreApplication::setApplicationName("SavedSummaryTest");
        QSettings().clear();
        QVERIFY(m_dir.isValid());
    }

    void aSavedRunComesSummarised_data()
    {
        QTest::addColumn<QString>("name");
        QTest::newRow("JSON") << "series.json";
        QTest::newRow("CSV") << "series.csv";
    }

    void aSavedRunComesSummarised()
    {
        QFETCH(QString, name);
        const Report report = testing::classicReport(301);
        const auto saved = readSavedRun(saveSeries(m_dir, name, report));
        QVERIFY2(saved, saved ? "" : saved.error().message().c_str());
        QVERIFY(saved->prepared.summary.has_value());
        const SeriesSummary expected = summarizeSeries(saved->report);
        QCOMPARE(saved->prepared.summary->measuredRuns, std::size_t(300));
        QCOMPARE(saved->prepared.summary->warmupRuns, std::size_t(1));
        QCOMPARE(saved->prepared.summary->distributions.size(), expected.distributions.size());
        for (const Distribution& d : expected.distributions) {
            const Distribution* got = saved->prepared.summary->distribution(d.key);
            QVERIFY2(got, d.key.c_str());
            QCOMPARE(got->stats.median, d.stats.median);
            QCOMPARE(got->stats.p95, d.stats.p95);
            QCOMPARE(got->stats.mean, d.stats.mean);
        }
    }

    void aCancelledReadGivesNoSummary()
    {
        const QString path = saveSeries(m_dir, "cancelled.json", testing::classicReport(50));
        const std::atomic<bool> cancel { true };
        const auto saved = readSavedRun(path, {}, &cancel);
        QVERIFY(!saved);
        QCOMPARE(saved.error().kind, ErrorKind::Cancelled);
    }

    void theTableShowsTheSummaryItIsGiven()
    {
        const Report report = testing::classicReport(20);
        SeriesSummary known = summarizeSeries(report);
        for (Distribution& d : known.distributions) {
            if (d.key == keys::kGpuTime)
                d.stats.median = 123.25;  // no run has it: only a table that took this summary shows it
        }
        SavedRun overlay { report, "other", "other.json", { known, nullptr, nullptr, nullptr }, {}, {}, {} };
        SummaryTable table;
        table.setReport(report, { overlay }, &known);
        const int row = rowNamed(table, QString::fromStdString(headerOf("GPU time", ValueKind::Duration)));
        QVERIFY(row >= 0);
        QCOMPARE(table.item(row, 1)->text(), QStringLiteral("123.2500"));
        QCOMPARE(table.item(row, table.columnCount() - 1)->text(), QStringLiteral("123.2500"));  // the overlay's

        table.setReport(report);  // nothing known: made from the runs
        QVERIFY(table.item(row, 1)->text() != QStringLiteral("123.2500"));
    }

    // Every column is as wide as its widest text, header and figures whole, beside the row labels: a narrow window
    // scrolls the table sideways, a wide one leaves the room to the right blank rather than stretching a column.
    void columnsAreAsWideAsTheirText_data()
    {
        QTest::addColumn<int>("width");
        QTest::newRow("1024 px") << 1024;
        QTest::newRow("2560 px") << 2560;
    }

    void columnsAreAsWideAsTheirText()
    {
        QFETCH(int, width);
        const QString shown = saveSeries(m_dir, "h200-run.json", testing::classicReport(30));
        const QString first = saveSeries(m_dir, "a100-run.csv", testing::classicReport(20));
        const QString second = saveSeries(m_dir, "l40s-run.json", testing::classicReport(25));
        auto noGpu = std::make_shared<FakeBackend>();
        noGpu->discoveryError = makeError(ErrorKind::NoDriver, "no driver");
        MainWindow window(noGpu);
        window.show();
        QVERIFY(window.files().openSaved(shown));
        QVERIFY(window.files().addOverlay(first));
        QVERIFY(window.files().addOverlay(second));
        QVERIFY(QTest::qWaitFor([&] { return !window.session().isLoading(); }, 30000));
        QCOMPARE(window.session().overlays().size(), std::size_t(2));
        window.resize(width, 640);
        auto* table = window.findChild<SummaryTable*>();
        window.tabs().setCurrentWidget(table);
        QVERIFY(QTest::qWaitForWindowExposed(&window));
        QVERIFY2(std::abs(window.width() - width) < 40, qPrintable(QString::number(window.width())));  // its least
        QCOMPARE(table->columnCount(), 7 + 2);
        QVERIFY(table->rowCount() > 5);
        QCoreApplication::processEvents();  // the header sizes its sections once the table is laid out

        // The widest text of each column: its header's lines and its figures.
        const QFontMetrics headerFont = table->horizontalHeader()->fontMetrics();
        const QFontMetrics cellFont = table->fontMetrics();
        int columns = 0;
        for (int c = 0; c < table->columnCount(); ++c) {
            int widest = 0;
            const QStringList lines = table->horizontalHeaderItem(c)->text().split('\n');
            for (const QString& line : lines)
                widest = std::max(widest, headerFont.horizontalAdvance(line));
            for (int r = 0; r < table->rowCount(); ++r) {
                if (const QTableWidgetItem* it = table->item(r, c))
                    widest = std::max(widest, cellFont.horizontalAdvance(it->text()));
            }
            const int shownWidth = table->columnWidth(c);
            const QString where = QStringLiteral("column %1 (%2): %3 px for text of %4 px")
                                      .arg(c)
                                      .arg(lines.join(' '))
                                      .arg(shownWidth)
                                      .arg(widest);
            QVERIFY2(shownWidth >= widest, qPrintable(where));      // nothing cut ("2.…")
            QVERIFY2(shownWidth <= 2 * widest, qPrintable(where));  // nothing stretched away from its row labels
            columns += shownWidth;
        }
        QScrollBar* sideways = table->horizontalScrollBar();
        if (width == 1024) {
            QVERIFY2(columns > table->viewport()->width(), "at 1024 px the columns are wider than the table");
            QVERIFY(sideways->maximum() > 0);  // and it scrolls to the last of them
        } else {
            QVERIFY(columns < table->viewport()->width());
            QCOMPARE(sideways->maximum(), 0);
        }
    }

    // A quantity one series has and another's file does not record (the host check, which neither JSON formats 1
    // and 2 nor the CSV keep) is said so in that series' cell, with the format, rather than left empty.
    void whatAFileDoesNotRecordIsSaid()
    {
        const Report report = testing::classicReport(20);
        const auto csv = readSavedRun(saveSeries(m_dir, "unrecorded.csv", report));
        const auto json = readSavedRun(saveSeries(m_dir, "recorded.json", report));
        QVERIFY(csv && json);
        QCOMPARE(csv->format, QStringLiteral("CSV"));
        QCOMPARE(json->format, QStringLiteral("JSON format 4"));
        SummaryTable table;
        table.setReport(csv->report, { *json }, nullptr, std::nullopt, csv->format);
        const int row = rowNamed(table, QString::fromStdString(headerOf("Host check", ValueKind::Duration)));
        QVERIFY(row >= 0);
        QCOMPARE(table.item(row, 1)->text(), QStringLiteral("not recorded (CSV)"));
        QVERIFY(!table.item(row, table.columnCount() - 1)->text().isEmpty());  // the overlay's median
        table.setReport(json->report, { *csv }, nullptr);
        const int again = rowNamed(table, QString::fromStdString(headerOf("Host check", ValueKind::Duration)));
        QVERIFY(again >= 0);
        QCOMPARE(table.item(again, table.columnCount() - 1)->text(), QStringLiteral("not recorded (CSV)"));
    }

    void theSessionKeepsTheSavedSummaryUntilARunStarts()
    {
        const QString path = saveSeries(m_dir, "shown.json", testing::classicReport(40));
        MainWindow window(std::make_shared<FakeBackend>());
        QVERIFY(QTest::qWaitFor([&] { return window.runEnabled(); }, 5000));
        QVERIFY(!window.session().shownSummary());
        QSignalSpy loaded(&window.session(), &SessionModel::savedLoaded);
        QVERIFY(window.files().openSaved(path));
        QVERIFY(loaded.wait(30000));
        const SeriesSummary* shown = window.session().shownSummary();
        QVERIFY(shown);
        QCOMPARE(shown->measuredRuns, std::size_t(39));
        QCOMPARE(shown->median(keys::kGpuTime), summarizeSeries(window.session().report()).median(keys::kGpuTime));

        // A second saved series replaces the first, with its own summary.
        const QString longer = saveSeries(m_dir, "longer.csv", testing::classicReport(12001));
        QVERIFY(window.files().openSaved(longer));
        QVERIFY(loaded.wait(30000));
        QCOMPARE(window.session().report().runs.size(), std::size_t(12001));
        QVERIFY(window.session().shownSummary());
        QCOMPARE(window.session().shownSummary()->measuredRuns, std::size_t(12000));

        QSignalSpy ended(&window, &MainWindow::planEnded);
        window.startRun();
        QVERIFY(!window.session().shownSummary());  // the runs to come are summarised as they arrive
        QVERIFY(window.session().report().runs.empty());  // the 12 001 saved runs were let go
        QVERIFY(ended.wait(30000));
        QVERIFY(!window.session().report().runs.empty());
        // Grown as the runs came, the summary is the engine's summary of them.
        const SeriesSummary whole = summarizeSeries(window.session().report());
        const SeriesSummary& grown = window.session().summary();
        QCOMPARE(grown.measuredRuns, whole.measuredRuns);
        QCOMPARE(grown.distributions.size(), whole.distributions.size());
        for (const Distribution& d : whole.distributions) {
            QVERIFY(grown.distribution(d.key));
            QCOMPARE(grown.distribution(d.key)->stats.median, d.stats.median);
            QCOMPARE(grown.distribution(d.key)->stats.p95, d.stats.p95);
            QCOMPARE(grown.distribution(d.key)->stats.max, d.stats.max);
        }
        QCOMPARE(grown.figures.size(), whole.figures.size());
    }
};

QTEST_MAIN(SavedSummaryTest)
#include "saved_summary_test.moc"

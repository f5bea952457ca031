// The All GPUs tab on eight fake GPUs, one of them slow, in both modes; cancelling and closing during such a run;
// File › Open results… of files the engine's writers wrote: rows, numeric sorting, CSV as the engine prints it.
// With ALL_GPUS_SHOTS set to a folder, the headless case and the results window leave their pictures there.
#include "fake_backend.hpp"
#include "fake_hosts.hpp"

#include "gui/gpus/all_gpus_chart.hpp"
#include "gui/gpus/all_gpus_panel.hpp"
#include "gui/app/file_actions.hpp"
#include "gui/app/main_window.hpp"
#include "gui/gpus/results_window.hpp"
#include "gui/app/window_actions.hpp"

#include "engine/io/host_record_json.hpp"
#include "engine/io/result_file.hpp"
#include "engine/io/side_by_side_report.hpp"
#include "engine/run/plan_advice.hpp"

#include <QAction>
#include <QApplication>
#include <QBrush>
#include <QChart>
#include <QImage>
#include <QPushButton>
#include <QScreen>
#include <QSignalSpy>
#include <QTableView>
#include <QTabWidget>
#include <QTemporaryDir>
#include <QTest>
#include <QValueAxis>

#include <cmath>
#include <fstream>
#include <sstream>

using namespace asyncscope;
using asyncscope::testing::FakeBackend;

namespace {

constexpr int kSlowGpu = 5;

// Eight GPUs on Gen5 x16 links at 55 GB/s; GPU 5 copies at 38.
std::shared_ptr<FakeBackend> eightFakes()
{
    auto backend = std::make_shared<FakeBackend>();
    backend->useHostOf(8);
    backend->copyGBps[kSlowGpu] = 38.0;
    return backend;
}

AppOptions fewRuns(int runs = 6)
{
    AppOptions options;
    options.runs = runs;
    options.elements = std::size_t(1) << 20;
    return options;
}

AllGpusPanel* panelOf(MainWindow& window)
{
    return window.findChild<AllGpusPanel*>();
}

bool waitForDevices(MainWindow& window)
{
    return QTest::qWaitFor([&] { return window.runEnabled(); }, 5000);
}

bool tinted(const QTableView* table, int row)
{
    return table->model()->index(row, 0).data(Qt::BackgroundRole).value<QBrush>().style() != Qt::NoBrush;
}

QString readAll(const QString& path)
{
    QFile f(path);
    return f.open(QIODevice::ReadOnly) ? QString::fromUtf8(f.readAll()) : QString();
}

void writeRecord(const QString& path, const HostReport& host)
{
    std::ofstream out(path.toStdString());
    writeHostRecordJson(out, host, assessHost(host));
}

}  // namespace

class AllGpusTest : public QObject {
    Q_OBJECT
private slots:
    void theSlowGpuAndOnlyItIsFlagged_data()
    {
        QTest::addColumn<int>("mode");
        QTest::newRow("one at a time") << int(DeviceMode::OneAtATime);
        QTest::newRow("all at once") << int(DeviceMode::AllAtOnce);
    }

    void theSlowGpuAndOnlyItIsFlagged()
    {
        QFETCH(int, mode);
        auto backend = eightFakes();
        MainWindow window(backend, fewRuns());
        QVERIFY(waitForDevices(window));
        AllGpusPanel* panel = panelOf(window);
        QVERIFY(panel);
        panel->setMode(DeviceMode(mode));
        QSignalSpy finished(panel, &AllGpusPanel::finished);
        QVERIFY(window.actions().runAllGpus->isEnabled());
        window.actions().runAllGpus->trigger();
        QVERIFY(panel->isRunning());
        QVERIFY(!window.runEnabled());  // one thing at a time on the GPUs
        QVERIFY(finished.wait(30000));
        QVERIFY(!panel->isRunning());

        const HostReport& host = panel->host();
        QCOMPARE(host.devices.size(), std::size_t(8));
        QCOMPARE(host.ranCount(), std::size_t(8));
        QCOMPARE(backend->seriesStarted.load(), 8);
        if (DeviceMode(mode) == DeviceMode::AllAtOnce) {
            QVERIFY(host.aggregate.has_value());
            QVERIFY(backend->mostActiveSeries.load() > 1);
            QVERIFY(panel->summaryText().contains("aggregate"));
        } else {
            QVERIFY(!host.aggregate);
            QCOMPARE(backend->mostActiveSeries.load(), 1);
        }

        const QTableView* table = panel->table();
        QCOMPARE(table->model()->rowCount(), 8);
        int flaggedRows = 0;
        for (int row = 0; row < 8; ++row) {
            const int gpu = table->model()->index(row, SideBySideModel::Gpu).data().toInt();
            const QString flags = table->model()->index(row, SideBySideModel::Flags).data().toString();
            const double h2d =
                table->model()->index(row, SideBySideModel::H2d).data(SideBySideModel::kSortRole).toDouble();
            if (gpu == kSlowGpu) {
                QVERIFY2(flags.contains("slow"), qPrintable(flags));
                QVERIFY(h2d < 45.0);
                QVERIFY(tinted(table, row));
            } else {
                QVERIFY2(flags.isEmpty(), qPrintable(QString("GPU %1: %2").arg(gpu).arg(flags)));
                QVERIFY(h2d > 50.0);
                QVERIFY(!tinted(table, row));
            }
            flaggedRows += flags.isEmpty() ? 0 : 1;
        }
        QCOMPARE(flaggedRows, 1);
        QVERIFY(window.runEnabled());

        // The tab's CSV is the engine's printer's, of the same rows.
        QTemporaryDir dir;
        const QString csv = dir.filePath("all-gpus.csv");
        QCOMPARE(panel->exportCsv(csv), QString());
        std::ostringstream expected;
        writeSideBySideCsv(expected, sideBySideRows(host));
        QCOMPARE(readAll(csv), QString::fromStdString(expected.str()));
        const QString png = dir.filePath("all-gpus.png");
        QCOMPARE(panel->exportChart(png, QSize(800, 450)), QString());
        QCOMPARE(QImage(png).size(), QSize(800, 450));
        // File › Export picture with this tab shown saves its chart (the tab's button asks the same way).
        auto* tabs = window.findChild<QTabWidget*>();
        tabs->setCurrentWidget(panel);
        QVERIFY(window.actions().exportPng->isEnabled());
        const QString viaMenu = dir.filePath("all-gpus-menu.png");
        QVERIFY(window.files().exportPictureTo(viaMenu, QSize(900, 500)));
        QCOMPARE(QImage(viaMenu).size(), QSize(900, 500));
    }

    // The GB/s axis ticks at 1, 2 or 5 × 10^n with labels that tell them apart, ending on the first tick above the
    // highest bar; with no GPU yet, 0 to 1 in fifths (it read 0, 0, 0, 1, 1, 1).
    void theChartsAxisHasNiceTicks()
    {
        const auto axisOf = [](const QChart& chart) {
            return qobject_cast<QValueAxis*>(chart.axes(Qt::Vertical).first());
        };
        const auto empty = buildAllGpusChart({}, "none");
        const QValueAxis* y = axisOf(*empty);
        QCOMPARE(y->max(), 1.0);
        QCOMPARE(y->tickInterval(), 0.2);
        QCOMPARE(QString::asprintf(qPrintable(y->labelFormat()), 0.4), QString("0.4"));

        SideBySideRow fast, slow;
        fast.h2dGBps = 55.2;
        fast.d2hGBps = 54.6;
        slow.h2dGBps = 41.0;
        slow.d2hGBps = 40.5;
        fast.device = 0;
        slow.device = 1;
        const auto two = buildAllGpusChart({ fast, slow }, "two");
        y = axisOf(*two);
        QVERIFY(y->max() > 55.2);
        const double step = y->tickInterval();
        const double mantissa = step / std::pow(10.0, std::floor(std::log10(step)));
        QVERIFY2(std::fabs(mantissa - 1) < 1e-9 || std::fabs(mantissa - 2) < 1e-9 || std::fabs(mantissa - 5) < 1e-9,
            qPrintable(QString::number(step)));
        QCOMPARE(std::remainder(y->max(), step), 0.0);  // ends on a tick
        QVERIFY(y->max() - step < 55.2 * 1.12);         // the first one above the bars and some room
    }

    // Binding each worker thread to its GPU's local CPUs is on by default and can be turned off, as the CLI's
    // --no-numa-binding does; each row says what its worker thread got. The command line's --all-gpus options set
    // the tab's mode and binding in the window too, not only headless.
    void bindingToLocalCpusCanBeTurnedOff()
    {
        {
            MainWindow window(eightFakes(), fewRuns());
            QVERIFY(panelOf(window)->bindsToLocalCpus());
            QCOMPARE(panelOf(window)->mode(), DeviceMode::OneAtATime);
        }
        AppOptions options = fewRuns();
        options.allGpus = true;  // runs once the devices are found
        options.allAtOnce = true;
        options.numaBinding = false;
        MainWindow window(eightFakes(), options);
        AllGpusPanel* panel = panelOf(window);
        QCOMPARE(panel->mode(), DeviceMode::AllAtOnce);
        QVERIFY(!panel->bindsToLocalCpus());
        QSignalSpy finished(panel, &AllGpusPanel::finished);
        QVERIFY(finished.wait(30000));
        QCOMPARE(panel->rows().size(), std::size_t(8));
        for (const SideBySideRow& row : panel->rows())
            QVERIFY2(row.binding.find("turned off") != std::string::npos, row.binding.c_str());
    }

    void headlessAllGpusSavesTheirChartAndTheWindow()
    {
        QTemporaryDir dir;
        const QString out = qEnvironmentVariableIsSet("ALL_GPUS_SHOTS") ? qEnvironmentVariable("ALL_GPUS_SHOTS")
                                                                         : dir.path();
        AppOptions options = fewRuns();
        options.allGpus = true;
        options.allAtOnce = true;
        options.exportPng = out + "/all-gpus-chart.png";
        options.screenshot = out + "/all-gpus-window.png";
        options.exportSize = QSize(1600, 900);
        auto backend = eightFakes();
        backend->runDelay = std::chrono::milliseconds(3);  // runs long enough to overlap: an aggregate bandwidth
        MainWindow window(backend, options);
        QSignalSpy finished(&window, &MainWindow::headlessFinished);
        QVERIFY(finished.wait(30000));
        QCOMPARE(finished.first().first().toInt(), 0);
        QCOMPARE(QImage(options.exportPng).size(), QSize(1600, 900));
        QVERIFY(!QImage(options.screenshot).isNull());
        QCOMPARE(panelOf(window)->rows().size(), std::size_t(8));
        QVERIFY(panelOf(window)->host().aggregate.has_value());
        QVERIFY(panelOf(window)->host().aggregate->gbps > 0.0);
    }

    void cancelStopsEveryGpu()
    {
        auto backend = eightFakes();
        backend->runDelay = std::chrono::milliseconds(20);
        MainWindow window(backend, fewRuns(100000));
        QVERIFY(waitForDevices(window));
        AllGpusPanel* panel = panelOf(window);
        panel->setMode(DeviceMode::AllAtOnce);
        QSignalSpy finished(panel, &AllGpusPanel::finished);
        window.actions().runAllGpus->trigger();
        QVERIFY(QTest::qWaitFor([&] { return backend->runsDelivered.load() > 8; }, 10000));
        window.cancelRun();
        QVERIFY(finished.wait(10000));
        QVERIFY(!panel->isRunning());
        QCOMPARE(backend->activeSeries.load(), 0);
        const Error* failure = panel->host().failure();
        QVERIFY(failure);
        QCOMPARE(failure->kind, ErrorKind::Cancelled);
        QVERIFY(window.runEnabled());
    }

    void closingDuringARunEndsIt()
    {
        auto backend = eightFakes();
        backend->runDelay = std::chrono::milliseconds(20);
        auto window = std::make_unique<MainWindow>(backend, fewRuns(100000));
        QVERIFY(waitForDevices(*window));
        window->show();
        window->actions().runAllGpus->trigger();
        QVERIFY(QTest::qWaitFor([&] { return backend->runsDelivered.load() > 2; }, 10000));
        QElapsedTimer clock;
        clock.start();
        window->close();
        window.reset();
        QVERIFY(clock.elapsed() < 5000);
        QCOMPARE(backend->activeSeries.load(), 0);
    }

    // Two records of one host (a run a day) are one host of two records, not two hosts.
    void aHostsSeveralRecordsAreOneHost()
    {
        QTemporaryDir dir;
        const QString monday = dir.filePath("node-a-monday.json");
        const QString tuesday = dir.filePath("node-a-tuesday.json");
        writeRecord(monday, testing::twoGpus("node-a", 55.0));
        writeRecord(tuesday, testing::twoGpus("node-a", 54.0));
        ResultsWindow results;
        QSignalSpy read(&results, &ResultsWindow::filesRead);
        QVERIFY(results.openFiles({ monday, tuesday }));
        QVERIFY(read.wait(10000));
        QCOMPARE(results.hosts().size(), std::size_t(2));
        QVERIFY2(results.summaryText().startsWith("2 record(s) from 1 host(s); 4 row(s)"),
            qPrintable(results.summaryText()));
    }

    void openResultsMergesSortsAndExports()
    {
        QTemporaryDir dir;
        const QString eight = dir.filePath("node-a.json");
        const QString failed = dir.filePath("node-b.json");
        const QString slowHost = dir.filePath("node-c.json");
        const QString broken = dir.filePath("broken.json");
        writeRecord(eight, testing::eightGpus("node-a"));
        writeRecord(failed, hostError("node-b", testing::noDriver()));
        writeRecord(slowHost, testing::twoGpus("node-c", 9.5));  // one digit before the point: sorts as a number
        {
            QFile f(broken);
            QVERIFY(f.open(QIODevice::WriteOnly));
            f.write("{ not json");
        }

        ResultsWindow results;
        QSignalSpy read(&results, &ResultsWindow::filesRead);
        QVERIFY(results.openFiles({ eight, failed, broken, slowHost }));  // read off the GUI thread
        QVERIFY(results.isReading());
        QVERIFY(read.wait(10000));
        QVERIFY(!results.isReading());
        const QStringList problems = read.first().first().toStringList();
        QCOMPARE(problems.size(), 1);
        QVERIFY2(problems.first().contains("broken.json"), qPrintable(problems.first()));
        QVERIFY(results.problemsText().contains("broken.json"));
        QCOMPARE(results.hosts().size(), std::size_t(3));
        QVERIFY2(results.summaryText().startsWith("3 host(s); 11 row(s)"), qPrintable(results.summaryText()));
        QTableView* table = results.table();
        QAbstractItemModel* shown = table->model();
        QCOMPARE(shown->rowCount(), 8 + 1 + 2);
        // Each row's host names the file it was read from.
        for (int row = 0; row < shown->rowCount(); ++row) {
            const QString host = shown->index(row, SideBySideModel::Host).data().toString();
            const QString file = host == "node-a" ? eight : host == "node-b" ? failed : slowHost;
            QCOMPARE(shown->index(row, SideBySideModel::Host).data(Qt::ToolTipRole).toString(), "Read from " + file);
        }
        // It fits the screen (the test's is 800 px wide), its buttons within it: a wide table scrolls.
        const QRect screen = results.screen()->availableGeometry();
        QVERIFY2(results.width() <= screen.width() && results.height() <= screen.height(),
            qPrintable(QStringLiteral("%1 × %2 on %3 × %4").arg(results.width()).arg(results.height())
                           .arg(screen.width()).arg(screen.height())));
        results.show();
        QVERIFY(QTest::qWaitForWindowExposed(&results));
        for (QPushButton* button : results.findChildren<QPushButton*>()) {
            if (button->isVisible())
                QVERIFY2(results.rect().contains(QRect(button->mapTo(&results, QPoint(0, 0)), button->size())),
                    qPrintable(button->text()));
        }

        // The host without a driver is a row saying so, tinted.
        int errorRow = -1;
        for (int row = 0; row < shown->rowCount(); ++row) {
            if (shown->index(row, SideBySideModel::Host).data().toString() == "node-b")
                errorRow = row;
        }
        QVERIFY(errorRow >= 0);
        QVERIFY(shown->index(errorRow, SideBySideModel::Flags).data().toString().contains("no-driver"));
        QVERIFY(tinted(table, errorRow));

        // By H2D, as numbers: node-c's 9.5 GB/s before node-a's 40 and 55.
        table->sortByColumn(SideBySideModel::H2d, Qt::AscendingOrder);
        double previous = -1.0;
        QStringList order;
        for (int row = 0; row < shown->rowCount(); ++row) {
            const double h2d = shown->index(row, SideBySideModel::H2d).data(SideBySideModel::kSortRole).toDouble();
            QVERIFY(h2d >= previous);
            previous = h2d;
            order << shown->index(row, SideBySideModel::Host).data().toString();
        }
        QCOMPARE(order.mid(0, 3), QStringList({ "node-b", "node-c", "node-c" }));
        QCOMPARE(order.mid(3, 1), QStringList({ "node-a" }));  // its slow GPU 3 first
        QCOMPARE(shown->index(3, SideBySideModel::Gpu).data().toInt(), 3);
        table->sortByColumn(SideBySideModel::H2d, Qt::DescendingOrder);
        QCOMPARE(shown->index(shown->rowCount() - 1, SideBySideModel::Host).data().toString(), QString("node-b"));

        // The CSV is the engine's printer's for the files as the engine reads them.
        std::vector<HostReport> hosts;
        std::vector<std::string> files;
        for (const QString& path : { eight, failed, slowHost }) {
            hosts.push_back(*readResultFile(path.toStdString()));
            files.push_back(path.toStdString());
        }
        std::ostringstream expected;
        writeSideBySideCsv(expected, mergeRows(hosts, files));  // each row naming its file, as the CLI's merge
        const QString csv = dir.filePath("merged.csv");
        QCOMPARE(results.exportCsv(csv), QString());
        QCOMPARE(readAll(csv), QString::fromStdString(expected.str()));

        if (qEnvironmentVariableIsSet("ALL_GPUS_SHOTS")) {
            table->sortByColumn(SideBySideModel::H2d, Qt::AscendingOrder);
            results.show();
            QVERIFY(QTest::qWaitForWindowExposed(&results));
            QVERIFY(results.grab().save(qEnvironmentVariable("ALL_GPUS_SHOTS") + "/open-results.png"));
        }
    }

    void commandLineOptions()
    {
        auto options = parseAppOptions({ "asyncscope", "--all-gpus", "--all-at-once", "--export-png", "g.png" });
        QVERIFY(options);
        QVERIFY(options->allGpus);
        QVERIFY(options->allAtOnce);
        QVERIFY(options->headless());
        const auto alone = parseAppOptions({ "asyncscope", "--all-at-once" });
        QVERIFY(!alone);
        QVERIFY(QString::fromStdString(alone.error().message()).contains("--all-gpus"));
        QVERIFY(!parseAppOptions({ "asyncscope", "--all-gpus", "--compare", "wait" }));
        QVERIFY(options->numaBinding);
        const auto unbound = parseAppOptions({ "asyncscope", "--all-gpus", "--no-numa-binding" });
        QVERIFY(unbound && !unbound->numaBinding);
        // Every plan of the window is bound as the CLI's: the option goes without --all-gpus too.
        const auto seriesUnbound = parseAppOptions({ "asyncscope", "--no-numa-binding" });
        QVERIFY(seriesUnbound && !seriesUnbound->numaBinding);
    }
};

QTEST_MAIN(AllGpusTest)
#include "all_gpus_test.moc"

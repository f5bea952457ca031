// The window: device states, runs into charts, exports, settings. The fake backend stands in for the GPU (the real
// CUDA engine's no-driver state is window_real_engine_test's).
#include "classic_runs.hpp"
#include "fake_backend.hpp"
#include "window_waits.hpp"

#include "gui/charts/chart_view.hpp"
#include "gui/charts/comparison_view.hpp"
#include "gui/charts/difference_view.hpp"
#include "gui/config/config_panel.hpp"
#include "gui/config/panel_fields.hpp"
#include "gui/app/file_actions.hpp"
#include "gui/files/pixel_size_dialog.hpp"
#include "gui/app/window_actions.hpp"
#include "gui/app/main_window.hpp"
#include "gui/series/shown_name.hpp"
#include "gui/session/session_model.hpp"
#include "gui/charts/summary_table.hpp"

#include "cli/cli_options.hpp"

#include <QAction>
#include <QApplication>
#include <QCheckBox>
#include <QComboBox>
#include <QDialog>
#include <QDialogButtonBox>
#include <QDir>
#include <QFileDialog>
#include <QFileInfo>
#include <QLabel>
#include <QMenu>
#include <QMenuBar>
#include <QMimeData>
#include <QUrl>
#include <QLegendMarker>
#include <QImage>
#include <QMessageBox>
#include <QProgressBar>
#include <QLineEdit>
#include <QPushButton>
#include <QRegularExpression>
#include <QSettings>

#include <cmath>
#include <QSignalSpy>
#include <QSpinBox>
#include <QTableWidget>
#include <QChartView>
#include <QScrollArea>
#include <QTabBar>
#include <QTabWidget>
#include <QTemporaryDir>
#include <QTimer>
#include <QTest>

#include "engine/io/json/json_report.hpp"
#include "engine/model/advice.hpp"
#include "engine/model/cuda_versions.hpp"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <atomic>
#include <fstream>
#include <thread>

using namespace asyncscope;
using asyncscope::testing::FakeBackend;
using asyncscope::testing::waitForDevices;

namespace {

void typeInto(QLineEdit* edit, const QString& text)
{
    edit->setFocus();
    edit->selectAll();
    QTest::keyClicks(edit, text);
}

// Saved runs are read off the GUI thread: waits until those asked for are in.
bool loaded(const MainWindow& window)
{
    return QTest::qWaitFor([&] { return !window.session().isLoading(); }, 30000);
}

// `report` written as JSON to `path`, its folder made where there is none.
QString saveReport(const QString& path, const Report& report)
{
    QDir().mkpath(QFileInfo(path).absolutePath());
    std::ofstream out(path.toStdString(), std::ios::binary);
    writeJson(out, report, assessSeries(report));
    return path;
}

QStringList headerTexts(const QTableWidget& table)
{
    QStringList texts;
    for (int c = 0; c < table.columnCount(); ++c)
        texts << (table.horizontalHeaderItem(c) ? table.horizontalHeaderItem(c)->text() : QString());
    return texts;
}

QString readAll(const QString& path)
{
    QFile f(path);
    return f.open(QIODevice::ReadOnly) ? QString::fromUtf8(f.readAll()) : QString();
}

}  // namespace

class MainWindowTest : public QObject {
    Q_OBJECT
private:
    std::unique_ptr<MainWindow> runFinishedWindow(std::shared_ptr<FakeBackend> backend, int runs, int warmup)
    {
        auto window = std::make_unique<MainWindow>(backend);
        window->show();
        if (!waitForDevices(*window))
            return nullptr;
        window->findChild<QSpinBox*>("runs")->setValue(runs);
        window->findChild<QSpinBox*>("warmup")->setValue(warmup);
        QSignalSpy ended(window.get(), &MainWindow::planEnded);
        window->findChild<QPushButton*>("run")->click();
        if (!ended.wait(60000))
            return nullptr;
        return window;
    }

    QTemporaryDir m_dir;

private slots:
    void initTestCase()
    {
        QCoreApplication::setOrganizationName("AsyncScopeTests");
        QCoreApplication::setApplicationName("MainWindowTest");
        QSettings().clear();
        QVERIFY(m_dir.isValid());
    }

    void init() { QSettings().clear(); }

    void noDeviceStateWithTheFake()
    {
        auto backend = std::make_shared<FakeBackend>();
        backend->discoveryError = makeError(ErrorKind::NoDevice, "no CUDA-capable device is detected", "Check the GPU.");
        MainWindow window(backend);
        window.show();
        QVERIFY(waitForDevices(window));
        QVERIFY(!window.runEnabled());
        QVERIFY2(window.deviceMessage().contains("sees no GPU"), qPrintable(window.deviceMessage()));
        QVERIFY(window.findChild<QLabel*>("deviceMessage")->toolTip().contains("no CUDA-capable device"));
    }

    // View › Run chart: lines, density or automatic, and CPU submit time on its own axis or not; kept with the
    // settings, so a window opened later looks the same.
    void theRunChartsLookIsChosenAndKept()
    {
        {
            MainWindow window(std::make_shared<FakeBackend>());
            window.show();  // the Time chart shown: a hidden one is drawn when it shows
            const WindowActions& a = window.actions();
            QVERIFY(a.chartAutomatic->isChecked());
            QVERIFY(a.cpuOwnAxis->isChecked());
            QCOMPARE(window.charts().look().style, RunCharts::Style::Automatic);
            a.chartDensity->trigger();
            QVERIFY(a.chartDensity->isChecked() && !a.chartAutomatic->isChecked());
            QCOMPARE(window.charts().look().style, RunCharts::Style::Density);
            QTRY_VERIFY(window.charts().at(RunCharts::Time).densityShown());
            a.cpuOwnAxis->trigger();
            QVERIFY(!window.charts().look().cpuOwnAxis);
            QVERIFY(!window.charts().at(RunCharts::Time).cpuAxis()->isVisible());
            QCOMPARE(window.settings().runChartStyle, QString("density"));
        }
        MainWindow again(std::make_shared<FakeBackend>());
        QVERIFY(again.actions().chartDensity->isChecked());
        QVERIFY(!again.actions().cpuOwnAxis->isChecked());
        QCOMPARE(again.charts().look().style, RunCharts::Style::Density);
        QVERIFY(!again.charts().look().cpuOwnAxis);
        again.show();
        QTRY_VERIFY(again.charts().at(RunCharts::Time).densityShown());
        again.actions().chartLines->trigger();
        QTRY_VERIFY(!again.charts().at(RunCharts::Time).densityShown());
        again.actions().chartAutomatic->trigger();
        again.actions().cpuOwnAxis->trigger();
        QVERIFY(again.charts().look().cpuOwnAxis);
    }

    // On a short screen the pipeline's fields scroll; Run and Cancel stay whole in view below them.
    void runAndCancelStayInViewOnAShortWindow()
    {
        MainWindow window(std::make_shared<FakeBackend>());
        window.show();
        QVERIFY(waitForDevices(window));
        window.resize(1000, 520);
        for (const char* name : { "run", "cancel" }) {
            const auto* button = window.findChild<QPushButton*>(name);
            QVERIFY(button);
            QTRY_COMPARE(button->visibleRegion().boundingRect(), button->rect());  // once the resize is laid out
        }
        QVERIFY(window.runEnabled());
    }

    void listsDevicesAndPreselectsTheFastest()
    {
        MainWindow window(std::make_shared<FakeBackend>());
        window.show();
        QVERIFY(waitForDevices(window));
        QVERIFY(window.runEnabled());
        auto* combo = window.findChild<QComboBox*>("device");
        QCOMPARE(combo->count(), 2);
        QCOMPARE(combo->currentData().toInt(), 1);
        QVERIFY(combo->currentText().contains("Fake Big GPU"));
        QVERIFY(combo->currentText().contains("80.0 GiB"));
    }

    void commandLineSizeIsShownExactly_data()
    {
        QTest::addColumn<qulonglong>("elements");
        QTest::addColumn<QString>("shown");
        QTest::newRow("16 GiB") << qulonglong(4) * 1024 * 1024 * 1024 << "16 GiB";
        QTest::newRow("64 MiB") << qulonglong(16) * 1024 * 1024 << "64 MiB";
        QTest::newRow("513 elements") << qulonglong(513) << "513";
        QTest::newRow("1 KiB") << qulonglong(256) << "1 KiB";
    }

    void commandLineSizeIsShownExactly()
    {
        QFETCH(qulonglong, elements);
        QFETCH(QString, shown);
        AppOptions options;
        options.elements = elements;
        MainWindow window(std::make_shared<FakeBackend>(), options);
        window.show();
        QVERIFY(waitForDevices(window));  // the device's memory (80 GiB) bounds the size
        QCOMPARE(window.findChild<QLineEdit*>("size")->text(), shown);
        QVERIFY(window.runEnabled());
    }

    void rememberedDeviceByUuid()
    {
        {
            MainWindow window(std::make_shared<FakeBackend>());
            window.show();
            QVERIFY(waitForDevices(window));
            auto* combo = window.findChild<QComboBox*>("device");
            combo->setCurrentIndex(combo->findData(0));
            window.findChild<QSpinBox*>("runs")->setValue(77);
            window.close();
        }
        MainWindow window(std::make_shared<FakeBackend>());
        window.show();
        QVERIFY(waitForDevices(window));
        QCOMPARE(window.findChild<QComboBox*>("device")->currentData().toInt(), 0);
        QCOMPARE(window.findChild<QSpinBox*>("runs")->value(), 77);
    }

    void runFillsChartsAndSummary()
    {
        auto window = runFinishedWindow(std::make_shared<FakeBackend>(), 40, 2);
        QVERIFY(window);
        QCOMPARE(window->session().report().runs.size(), std::size_t(42));
        QCOMPARE(window->charts().at(RunCharts::Time).pointCount(), 42);
        QCOMPARE(window->charts().at(RunCharts::Polls).pointCount(), 42);
        QCOMPARE(window->charts().at(RunCharts::Stages).pointCount(), 42);
        QCOMPARE(window->findChild<QProgressBar*>("progress")->value(), 42);  // the last runs counted too
        QVERIFY2(window->statusText().contains("40 runs: median GPU time"), qPrintable(window->statusText()));
        QVERIFY(window->statusText().contains("every element verified"));
        QVERIFY(window->runEnabled());
    }

    void tenThousandRunsArriveBatched()
    {
        auto backend = std::make_shared<FakeBackend>();
        auto window = runFinishedWindow(backend, 10000, 0);
        QVERIFY(window);
        QCOMPARE(window->charts().at(RunCharts::Time).pointCount(), 10000);
        QCOMPARE(backend->runsDelivered.load(), 10000);
        QCOMPARE(window->session().report().runs.size(), std::size_t(10000));
        // The runs crossed to the GUI thread many to a signal: one a run would be 10 000 signals.
        const std::size_t batches = window->session().batchesReceived();
        QVERIFY2(batches >= 1 && batches * 10 <= 10000, qPrintable(QString::number(batches)));
        // The plan's record holds the series once: the runs shown are the record's, not a copy.
        QVERIFY(window->session().lastComparison() == std::nullopt);
    }

    // The window's plans go through the device-plan runner, as the CLI's: its run thread bound to the GPU's local
    // CPUs, or not where the Local CPUs box is cleared; the status bar and the saved report say which.
    void theWindowsPlanIsBoundAsTheLocalCpusBoxSays()
    {
        for (const bool bind : { true, false }) {
            auto backend = std::make_shared<FakeBackend>();
            backend->useHostOf(2);  // GPUs with a NUMA node and local CPUs
            MainWindow window(backend);
            window.show();
            QVERIFY(waitForDevices(window));
            auto* box = window.findChild<QCheckBox*>("localCpus");
            QVERIFY(box);
            box->setChecked(bind);
            window.findChild<QSpinBox*>("runs")->setValue(5);
            QSignalSpy ended(&window, &MainWindow::planEnded);
            window.startRun();
            QVERIFY(ended.wait(10000));
            const auto& binding = window.session().report().binding;
            QVERIFY(binding.has_value());
            const QString shown = window.findChild<QLabel*>("binding")->text();
            if (bind) {
                QVERIFY2(binding->why != "binding turned off", binding->why.c_str());
                QVERIFY2(shown.startsWith("CPUs") && !shown.contains("turned off"), qPrintable(shown));
            } else {
                QVERIFY(!binding->bound);
                QCOMPARE(binding->why, std::string("binding turned off"));
                QVERIFY2(shown.contains("not bound (binding turned off)"), qPrintable(shown));
            }
            const QString path = m_dir.filePath(bind ? "bound.json" : "unbound.json");
            QVERIFY(window.files().exportDataTo(path));
            // Format 4: the binding is in the header, the first line.
            const auto saved = nlohmann::json::parse(readAll(path).section(QLatin1Char('\n'), 0, 0).toStdString());
            QVERIFY(saved.contains("binding"));
            QCOMPARE(saved["binding"]["bound"].get<bool>(), binding->bound);
        }
    }

    // A series' data is written on a thread of its own, the window usable meanwhile; the series stays as it is
    // until the file is written (plans and opens are refused), and the window says how it went.
    void dataIsWrittenOffTheGuiThread()
    {
        auto backend = std::make_shared<FakeBackend>();
        SessionModel session(backend);
        QSignalSpy devices(&session, &SessionModel::devicesAvailable);
        session.discover();
        QVERIFY(devices.wait(5000));
        PipelineConfig config;
        config.runs = 50;
        QSignalSpy finished(&session, &SessionModel::planFinished);
        QVERIFY(!session.start(seriesPlan(config)));
        QVERIFY(finished.wait(10000));

        std::atomic<bool> release { false };
        std::atomic<std::thread::id> writer {};
        std::atomic<std::size_t> written { 0 };
        QSignalSpy ended(&session, &SessionModel::writeEnded);
        const QString path = m_dir.filePath("held.csv");
        QVERIFY(!session.writeInBackground(path, [&](const Report& report, const QString&) {
            writer = std::this_thread::get_id();
            while (!release.load())
                std::this_thread::sleep_for(std::chrono::milliseconds(1));
            written = report.runs.size();
            return QString();
        }));
        QVERIFY(session.isWriting());
        QVERIFY(QTest::qWaitFor([&] { return writer.load() != std::thread::id(); }, 5000));  // the loop turns
        QVERIFY(writer.load() != std::this_thread::get_id());
        QVERIFY(session.start(seriesPlan(config)));  // refused: the series is being written
        QVERIFY(session.openSaved(path));
        QVERIFY(session.writeInBackground(path, [](const Report&, const QString&) { return QString(); }));
        release = true;
        QVERIFY(ended.wait(5000));
        QCOMPARE(ended.first().at(0).toString(), path);
        QVERIFY(ended.first().at(1).toString().isEmpty());
        QCOMPARE(written.load(), std::size_t(51));
        QVERIFY(!session.isWriting());
        QVERIFY(!session.start(seriesPlan(config)));  // free again
        QVERIFY(finished.wait(10000));

        // The window's File › Export data goes this way and says where it saved.
        auto window = runFinishedWindow(std::make_shared<FakeBackend>(), 300, 1);
        QVERIFY(window);
        QSignalSpy done(&window->files(), &FileActions::done);
        const QString csv = m_dir.filePath("background.csv");
        window->files().exportDataInBackground(csv);
        QVERIFY(done.wait(10000));
        QVERIFY2(done.last().first().toString().startsWith("Saved"), qPrintable(done.last().first().toString()));
        QVERIFY2(window->statusText().startsWith("Saved"), qPrintable(window->statusText()));
        // When "Saved …" gives way, it is to what the line said before the export, not to "Writing …".
        QVERIFY(QTest::qWaitFor([&] { return !window->statusText().startsWith("Saved"); }, 10000));
        QVERIFY2(!window->statusText().startsWith("Writing"), qPrintable(window->statusText()));
        QVERIFY2(window->statusText().contains("runs: median GPU time"), qPrintable(window->statusText()));
        const QString here = m_dir.filePath("foreground.csv");
        QVERIFY(window->files().exportDataTo(here));
        QCOMPARE(readAll(csv), readAll(here));  // the same file as one written on the GUI thread
        QVERIFY(readAll(csv).count('\n') > 301);  // every run
    }

    void closingDuringARunIsClean()
    {
        auto backend = std::make_shared<FakeBackend>();
        backend->runDelay = std::chrono::milliseconds(20);
        auto window = std::make_unique<MainWindow>(backend);
        window->show();
        QVERIFY(waitForDevices(*window));
        window->findChild<QSpinBox*>("runs")->setValue(100000);
        window->startRun();
        QVERIFY(QTest::qWaitFor([&] { return backend->runsDelivered.load() > 2; }, 5000));
        QVERIFY(window->close());
        QCOMPARE(backend->activeSeries.load(), 0);
        window.reset();
        QVERIFY(backend->runsDelivered.load() < 100000);
    }

    void cancelButtonStopsTheSeries()
    {
        auto backend = std::make_shared<FakeBackend>();
        backend->runDelay = std::chrono::milliseconds(10);
        MainWindow window(backend);
        window.show();
        QVERIFY(waitForDevices(window));
        window.findChild<QSpinBox*>("runs")->setValue(100000);
        QSignalSpy ended(&window, &MainWindow::planEnded);
        window.startRun();
        QVERIFY(QTest::qWaitFor([&] { return backend->runsDelivered.load() > 2; }, 5000));
        window.findChild<QPushButton*>("cancel")->click();
        QVERIFY(ended.wait(5000));
        QVERIFY2(window.statusText().startsWith("Cancelled after"), qPrintable(window.statusText()));
        QVERIFY(window.runEnabled());
    }

    void exportsPngSvgCsvJson()
    {
        auto window = runFinishedWindow(std::make_shared<FakeBackend>(), 30, 1);
        QVERIFY(window);
        const QString png = m_dir.filePath("chart.png");
        QVERIFY(window->files().exportPictureTo(png, QSize(1000, 500)));
        QImage image(png);
        QCOMPARE(image.size(), QSize(1000, 500));
        // The chart was drawn: the picture is not one flat colour.
        QSet<QRgb> colours;
        for (int y = 0; y < image.height(); y += 7)
            for (int x = 0; x < image.width(); x += 7)
                colours.insert(image.pixel(x, y));
        QVERIFY(colours.size() > 5);

        const QString svg = m_dir.filePath("chart.svg");
        QVERIFY(window->files().exportPictureTo(svg, QSize(1200, 600)));
        const QString svgText = readAll(svg);
        QVERIFY(svgText.contains("<svg"));
        QVERIFY(svgText.contains("viewBox=\"0 0 1200 600\""));
        QVERIFY(svgText.contains("GPU time vs CPU submit time"));

        const QString csv = m_dir.filePath("runs.csv");
        QVERIFY(window->files().exportDataTo(csv));
        const QStringList lines = readAll(csv).split('\n', Qt::SkipEmptyParts);
        QCOMPARE(lines.size(), 32);
        QVERIFY(lines.first().startsWith("Device Index,Device,UUID,"));
        QVERIFY(lines.first().contains(",Run,Warm-up,GPU Time (ms),CPU Time (ms),Poll Iterations,"));
        QVERIFY2(lines.at(1).contains(",Fake Big GPU,GPU-fake-"), qPrintable(lines.at(1)));

        const QString json = m_dir.filePath("runs.json");
        QVERIFY(window->files().exportDataTo(json));
        // JSON Lines: the header on line 1, then a run a line, each an object of named fields.
        std::ifstream in(json.toStdString());
        std::string line;
        std::getline(in, line);
        const auto j = nlohmann::json::parse(line);
        std::vector<nlohmann::json> runs;
        while (std::getline(in, line))
            runs.push_back(nlohmann::json::parse(line));
        QCOMPARE(runs.size(), std::size_t(31));
        QCOMPARE(j.at("device").at("name").get<std::string>(), std::string("Fake Big GPU"));
        const auto& fields = j.at("fields").at("run");
        QVERIFY(std::find(fields.begin(), fields.end(), "gpu_time_ms") != fields.end());
        QVERIFY(runs.at(0).contains("gpu_time_ms"));
        QCOMPARE(runs.at(0).at("spans").size(), std::size_t(5));  // H2D, kernel, D2H, submit, wait
        QVERIFY(j.at("summary").contains("gpu_time_ms"));
    }

    void badExportPathIsReportedAndLosesNothing()
    {
        auto window = runFinishedWindow(std::make_shared<FakeBackend>(), 5, 0);
        QVERIFY(window);
        QVERIFY(!window->files().exportPictureTo(m_dir.filePath("missing/folder/chart.png"), QSize(800, 400)));
        auto* box = window->findChild<QMessageBox*>();
        QVERIFY(box);
        QVERIFY2(box->text().contains("Cannot write"), qPrintable(box->text()));
        box->close();

        const QString existing = m_dir.filePath("keep.png");
        {
            QFile f(existing);
            QVERIFY(f.open(QIODevice::WriteOnly));
            f.write("precious");
        }
        QVERIFY(!window->files().exportPictureTo(m_dir.filePath("keep.xyz"), QSize(800, 400)));  // unknown format
        QVERIFY(!window->files().exportPictureTo(existing, QSize(8, 8)));                        // size out of range
        QCOMPARE(readAll(existing), QString("precious"));
        QCOMPARE(window->session().report().runs.size(), std::size_t(5));  // the data is still there to export
    }

    void summaryShowsCalibrationAndSerialBound()
    {
        auto window = runFinishedWindow(std::make_shared<FakeBackend>(), 20, 1);
        QVERIFY(window);
        QVERIFY(window->session().report().peak.has_value());
        QCOMPARE(window->session().report().peak->h2dGBps, 55.0);
        auto* table = window->findChild<SummaryTable*>();
        QVERIFY(table);
        window->findChild<QTabWidget*>()->setCurrentWidget(table);  // a hidden table waits to be shown
        int boundRow = -1;
        for (int r = 0; r < table->rowCount(); ++r)
            if (table->verticalHeaderItem(r)->text() == "Serial PCIe bound (ms)")
                boundRow = r;
        QVERIFY(boundRow >= 0);
        // 64 MiB each way at 55 GB/s: 2 x 1.2202 ms.
        QCOMPARE(table->item(boundRow, 1)->text(), QString("2.4403"));
    }

    void comparesPinnedAndPageable()
    {
        MainWindow window(std::make_shared<FakeBackend>());
        window.show();
        QVERIFY(waitForDevices(window));
        window.findChild<QSpinBox*>("runs")->setValue(5);
        QSignalSpy ended(&window, &MainWindow::planEnded);
        window.startComparison(Comparison::HostMemory);
        QVERIFY(ended.wait(10000));
        QVERIFY(window.session().lastComparison());
        const PlanReport& c = *window.session().lastComparison();
        QCOMPARE(c.variants.size(), std::size_t(2));
        QCOMPARE(c.variants[0].label, std::string("pinned"));
        QCOMPARE(c.variants[1].label, std::string("pageable"));
        QCOMPARE(c.variants[1].report.config.hostMemory, HostMemory::Pageable);
        QCOMPARE(c.variants[0].report.runs.size(), std::size_t(6));
        QCOMPARE(window.findChild<ComparisonView*>()->chartCount(), 1);

        const QString png = m_dir.filePath("compare.png");
        QVERIFY(window.files().exportPictureTo(png, QSize(900, 500)));  // the comparison tab is current
        QCOMPARE(QImage(png).size(), QSize(900, 500));
        const QString csv = m_dir.filePath("compare.csv");
        QVERIFY(window.files().exportComparisonTo(csv));
        const QStringList lines = readAll(csv).split('\n', Qt::SkipEmptyParts);
        QCOMPARE(lines.size(), 3);
        QVERIFY2(lines[0].startsWith("Variant,Size (B),Chunks,Streams,Issue Order,Submission,Host Memory,Wait,Check,"
                                     "Samples,GPU time (ms),CPU submit time (ms),"),
            qPrintable(lines[0]));
        QVERIFY(lines[0].contains(",Noise (%),"));
        QVERIFY2(lines[2].startsWith("pageable,67108864,1,1,chunk,stream,pageable,spin,overlapped,5,"),
            qPrintable(lines[2]));
    }

    void sweepsSizesOnLogAxes()
    {
        MainWindow window(std::make_shared<FakeBackend>());
        window.show();
        QVERIFY(waitForDevices(window));
        window.findChild<QSpinBox*>("runs")->setValue(2);
        window.findChild<QSpinBox*>("warmup")->setValue(0);
        QSignalSpy ended(&window, &MainWindow::planEnded);
        window.startComparison(Comparison::Size);
        QVERIFY(ended.wait(30000));
        QVERIFY(window.session().lastComparison());
        const PlanReport& c = *window.session().lastComparison();
        QCOMPARE(c.variants.size(), std::size_t(19));  // 4 KiB, 8 KiB, ..., 1 GiB
        QCOMPARE(c.variants.front().report.config.bytes(), std::size_t(4) << 10);
        QCOMPARE(c.variants.back().report.config.bytes(), std::size_t(1) << 30);
        QCOMPARE(window.findChild<ComparisonView*>()->chartCount(), 2);
        const QString json = m_dir.filePath("sweep.json");
        QVERIFY(window.files().exportComparisonTo(json));
        std::ifstream in(json.toStdString());
        const auto j = nlohmann::json::parse(in);
        QCOMPARE(j.at("comparison").get<std::string>(), std::string("size"));
        QCOMPARE(j.at("variants").size(), std::size_t(19));
        const QString svg = m_dir.filePath("sweep.svg");
        QVERIFY(window.files().exportPictureTo(svg, QSize(1600, 600)));
        QVERIFY(readAll(svg).contains("Bandwidth over size"));
    }

    void sweepTakesAUserRange()
    {
        MainWindow window(std::make_shared<FakeBackend>());
        window.show();
        QVERIFY(waitForDevices(window));
        window.findChild<QSpinBox*>("runs")->setValue(1);
        QSignalSpy ended(&window, &MainWindow::planEnded);
        window.startComparison(Comparison::Size, std::size_t(1) << 20, std::size_t(16) << 20);
        QVERIFY(ended.wait(10000));
        QVERIFY(window.session().lastComparison());
        const PlanReport& c = *window.session().lastComparison();
        QCOMPARE(c.variants.size(), std::size_t(5));  // 1, 2, 4, 8, 16 MiB
        QCOMPARE(c.variants.back().label, std::string("16.0 MiB"));

        window.startComparison(Comparison::Size, std::size_t(16) << 20, std::size_t(1) << 20);  // upside down
        auto* box = window.findChild<QMessageBox*>();
        QVERIFY(box);
        QVERIFY2(box->text().contains("sweep range"), qPrintable(box->text()));
    }

    void choicesReachTheEngine()
    {
        auto backend = std::make_shared<FakeBackend>();
        MainWindow window(backend);
        window.show();
        QVERIFY(waitForDevices(window));
        auto choose = [&](const char* name, int value) {
            auto* combo = window.findChild<QComboBox*>(name);
            QVERIFY(combo);
            combo->setCurrentIndex(combo->findData(value));
        };
        choose("hostMemory", int(HostMemory::Pageable));
        choose("wait", int(WaitMode::Blocking));
        choose("check", int(CheckMode::Serial));
        window.findChild<QSpinBox*>("runs")->setValue(3);
        QSignalSpy ended(&window, &MainWindow::planEnded);
        window.findChild<QPushButton*>("run")->click();
        QVERIFY(ended.wait(60000));
        const PipelineConfig c = backend->lastConfig();
        QCOMPARE(c.hostMemory, HostMemory::Pageable);
        QCOMPARE(c.waitMode, WaitMode::Blocking);
        QCOMPARE(c.checkMode, CheckMode::Serial);
        QCOMPARE(c.runs, 3);
        QCOMPARE(window.session().report().config.checkMode, CheckMode::Serial);
    }

    // --overlay, as often as given: shown from the start, with or without a GPU; a headless run with an unreadable
    // one ends with 2.
    void overlayFromTheCommandLine()
    {
        auto first = runFinishedWindow(std::make_shared<FakeBackend>(), 6, 0);
        QVERIFY(first);
        const QString saved = m_dir.filePath("other-host.csv");
        QVERIFY(first->files().exportDataTo(saved));
        const QString savedJson = m_dir.filePath("third-host.json");
        QVERIFY(first->files().exportDataTo(savedJson));

        AppOptions options;
        options.overlays = QStringList { saved, savedJson };
        auto noGpu = std::make_shared<FakeBackend>();
        noGpu->discoveryError = makeError(ErrorKind::NoDriver, "no driver");
        MainWindow viewer(noGpu, options);
        viewer.show();
        QVERIFY(loaded(viewer));
        QStringList names;
        for (QAbstractSeries* series : viewer.charts().chart(RunCharts::Time)->series())
            names << series->name();
        QVERIFY2(names.contains("other-host · Fake Big GPU"), qPrintable(names.join(" | ")));
        QVERIFY2(names.contains("third-host · Fake Big GPU"), qPrintable(names.join(" | ")));
        QCOMPARE(viewer.session().overlays().size(), std::size_t(2));

        // A missing overlay costs only itself: the series runs, its chart is saved with the overlay that was read,
        // and the status (2) and the message say which file could not be used.
        options.overlays = QStringList { saved, m_dir.filePath("missing.json") };
        options.exportPng = m_dir.filePath("with-one-overlay.png");
        MainWindow headless(std::make_shared<FakeBackend>(), options);
        QSignalSpy finished(&headless, &MainWindow::headlessFinished);
        headless.show();
        QVERIFY(finished.wait(10000));
        QCOMPARE(finished.first().first().toInt(), 2);
        QVERIFY(finished.first().at(1).toString().contains("missing.json"));
        QVERIFY(QFile::exists(options.exportPng));
        QCOMPARE(headless.session().overlays().size(), std::size_t(1));
    }

    void overlaysASavedRun_data()
    {
        QTest::addColumn<QString>("suffix");
        QTest::addColumn<QByteArray>("junk");
        QTest::newRow("json") << "json" << QByteArray("{\"hello\": 1}");
        QTest::newRow("csv") << "csv" << QByteArray("a,b\n1,2\n");
    }

    // Export, open, overlay: the saved runs come back as dashed lines with the same values.
    void overlaysASavedRun()
    {
        QFETCH(QString, suffix);
        QFETCH(QByteArray, junk);
        auto window = runFinishedWindow(std::make_shared<FakeBackend>(), 10, 0);
        QVERIFY(window);
        const QString saved = m_dir.filePath("saved." + suffix);
        QVERIFY(window->files().exportDataTo(saved));
        QChart* chart = window->charts().chart(RunCharts::Time);
        const auto before = chart->series().size();
        QVERIFY(window->files().addOverlay(saved));
        QVERIFY(loaded(*window));
        QVERIFY(chart->series().size() > before);
        QVERIFY2(window->statusText().contains("Fake Big GPU"), qPrintable(window->statusText()));
        // The overlay's GPU line: the first series named for it, with the saved values.
        QLineSeries* overlayGpu = nullptr;
        for (QAbstractSeries* series : chart->series()) {
            if (!overlayGpu && series->name() == "saved · Fake Big GPU")
                overlayGpu = qobject_cast<QLineSeries*>(series);
        }
        QVERIFY(overlayGpu);
        const auto& runs = window->session().report().runs;
        QCOMPARE(overlayGpu->count(), int(runs.size()));
        for (int i = 0; i < overlayGpu->count(); ++i)
            QCOMPARE(overlayGpu->at(i).y(), runs[std::size_t(i)].gpuMs);
        const auto shown = chart->series().size();

        const QString bad = m_dir.filePath("junk." + suffix);
        {
            QFile f(bad);
            QVERIFY(f.open(QIODevice::WriteOnly));
            f.write(junk);
        }
        QVERIFY(window->files().addOverlay(bad));  // read on its thread: how it went comes later
        QVERIFY(loaded(*window));
        auto* box = window->findChild<QMessageBox*>();
        QVERIFY(box);
        QVERIFY2(box->text().contains("junk." + suffix), qPrintable(box->text()));
        box->close();
        QCOMPARE(chart->series().size(), shown);  // the overlay already shown stays
    }
    // The settings read choices by the engine's names: an unknown one keeps the default and says what it accepts.
    void settingsRejectAnUnknownChoice()
    {
        {
            QSettings q;
            q.setValue("run/hostMemory", "bogus");
            q.setValue("run/wait", "blocking");
        }
        QTest::ignoreMessage(QtWarningMsg,
            QRegularExpression(
                "run/hostMemory is 'bogus', not pinned, pageable, write-combined, registered, mapped or managed"));
        const GuiSettings s = loadSettings();
        QCOMPARE(s.config.hostMemory, HostMemory::Pinned);
        QCOMPARE(s.config.waitMode, WaitMode::Blocking);
    }
    // A value no run can have falls back as the CLI would refuse it (the shared rules), and a long bad value is
    // quoted cut, not whole.
    void settingsHoldToTheSharedRules()
    {
        {
            QSettings q;
            q.setValue("run/noiseTarget", "inf");
            q.setValue("run/hostMemory", QString(100000, 'x'));
        }
        QTest::ignoreMessage(QtWarningMsg,
            QRegularExpression(
                "run/hostMemory is 'x+…', not pinned, pageable, write-combined, registered, mapped or managed"));
        const GuiSettings s = loadSettings();
        QVERIFY(std::isfinite(s.config.targetNoisePercent));
        QCOMPARE(s.config.targetNoisePercent, defaultSettings().config.targetNoisePercent);
    }

    // Every variant over what the host can hold: the comparison ends with a message naming the limit, nothing
    // crashes, and the window can run again.
    void aComparisonWhereNothingFitsSaysWhyAndTheWindowStaysUsable()
    {
        auto backend = std::make_shared<FakeBackend>();  // 80 GiB devices, 100 GiB of host memory
        AppOptions options;
        options.elements = (std::size_t(80) << 30) / sizeof(int);
        MainWindow window(backend, options);
        window.show();
        QVERIFY(waitForDevices(window));
        QSignalSpy ended(&window, &MainWindow::planEnded);
        window.startComparison(Comparison::HostMemory);
        QVERIFY(ended.wait(10000));
        QVERIFY2(window.statusText().startsWith("Nothing ran"), qPrintable(window.statusText()));
        auto* box = window.findChild<QMessageBox*>();
        QVERIFY(box);
        QVERIFY2(box->text().contains("does not fit in host memory") && box->text().contains("100.0 GiB available"),
            qPrintable(box->text()));
        box->close();
        QCOMPARE(backend->seriesStarted.load(), 0);
        QVERIFY(window.runEnabled());
        typeInto(window.findChild<QLineEdit*>("size"), "64 MiB");
        window.findChild<QSpinBox*>("runs")->setValue(2);
        window.startRun();
        QVERIFY(ended.wait(10000));
        QCOMPARE(window.session().report().runs.size(), std::size_t(3));
    }

    // The same from the command line, headless: a message and exit code 2, not a crash.
    void headlessComparisonWhereNothingFitsExitsWithTwo()
    {
        AppOptions options;
        options.elements = (std::size_t(80) << 30) / sizeof(int);
        options.comparison = Comparison::HostMemory;
        options.exportPng = m_dir.filePath("never-compared.png");
        MainWindow window(std::make_shared<FakeBackend>(), options);
        QSignalSpy finished(&window, &MainWindow::headlessFinished);
        window.show();
        QVERIFY(finished.wait(10000));
        QCOMPARE(finished.first().first().toInt(), 2);
        QVERIFY(!QFile::exists(options.exportPng));
    }

    // A headless sweep whose sizes span six decades ends, with the variant that does not fit reported.
    void headlessSweepAcrossDecadesEnds()
    {
        AppOptions options;
        options.comparison = Comparison::Size;
        options.sweepMinBytes = std::size_t(1) << 20;
        options.sweepMaxBytes = std::size_t(64) << 30;
        options.runs = 5;
        options.exportPng = m_dir.filePath("sweep-decades.png");
        options.screenshot = m_dir.filePath("sweep-decades-window.png");
        auto backend = std::make_shared<FakeBackend>();
        backend->pipelineGBps = 27.0;  // 1 MiB in 0.08 ms, 32 GiB in 2.5 s: the charts' ranges span decades
        backend->runDelay = std::chrono::milliseconds(20);
        MainWindow window(backend, options);
        QSignalSpy finished(&window, &MainWindow::headlessFinished);
        window.show();
        QVERIFY(finished.wait(30000));
        QCOMPARE(finished.first().first().toInt(), 0);
        QCOMPARE(window.session().lastComparison()->ranCount(), std::size_t(16));
    }

    // A start the session refuses (here an upside-down sweep) ends a headless run instead of leaving it waiting.
    void headlessRefusedStartFinishes()
    {
        AppOptions options;
        options.comparison = Comparison::Size;
        options.sweepMinBytes = std::size_t(1) << 30;
        options.sweepMaxBytes = std::size_t(4) << 10;
        options.exportPng = m_dir.filePath("never-swept.png");
        MainWindow window(std::make_shared<FakeBackend>(), options);
        QSignalSpy finished(&window, &MainWindow::headlessFinished);
        window.show();
        QVERIFY(finished.wait(10000));
        QCOMPARE(finished.first().first().toInt(), 2);
    }

    // A headless series runs, exports (the chart, the window, the last run's timeline) and exits 0; a wrong element
    // makes it 1.
    void headlessSeriesExportsAndSaysHowItWent()
    {
        for (const int wrongRun : { -1, 2 }) {
            auto backend = std::make_shared<FakeBackend>();
            backend->wrongRun = wrongRun;
            AppOptions options;
            options.runs = 4;
            options.exportPng = m_dir.filePath(QString("headless-%1.png").arg(wrongRun));
            options.screenshot = m_dir.filePath(QString("headless-window%1.png").arg(wrongRun));
            options.exportTimeline = m_dir.filePath(QString("headless-timeline%1.png").arg(wrongRun));
            MainWindow window(backend, options);
            QSignalSpy finished(&window, &MainWindow::headlessFinished);
            window.show();
            QVERIFY(finished.wait(10000));
            QCOMPARE(finished.first().first().toInt(), wrongRun < 0 ? 0 : 1);
            QCOMPARE(QImage(options.exportPng).size(), options.exportSize);
            QCOMPARE(QImage(options.screenshot).size(), QSize(1280, 800));  // whatever the virtual screen
            QCOMPARE(QImage(options.exportTimeline).size(), options.exportSize);
            QVERIFY(window.charts().at(RunCharts::Time).legendNames().contains("GPU time"));
        }
    }

    // Same device, same options: the window's comparison runs exactly the variants the CLI's does.
    void comparisonRunsTheVariantsTheCliRuns()
    {
        auto backend = std::make_shared<FakeBackend>();
        MainWindow window(backend);
        window.show();
        QVERIFY(waitForDevices(window));
        window.findChild<QSpinBox*>("runs")->setValue(1);
        QSignalSpy ended(&window, &MainWindow::planEnded);
        window.startComparison(Comparison::Size, std::size_t(8) << 30, std::size_t(64) << 30);
        QVERIFY(ended.wait(10000));
        const PlanReport& ran = *window.session().lastComparison();
        const char* args[] = { "asyncscope-cli", "--device", "1", "--runs", "1", "--compare", "size", "--sweep-min",
            "8GiB", "--sweep-max", "64GiB" };
        const auto cli = parseCommandLine(int(std::size(args)), args);
        QVERIFY(cli.ok());
        PipelineConfig base = window.session().report().config;
        base.elements = cli->config.elements;
        const auto expected = comparisonPlan(Comparison::Size, base, cli->sweepMinBytes, cli->sweepMaxBytes);
        QVERIFY(expected.ok());
        QCOMPARE(ran.variants.size(), expected->variants.size());  // 8 to 64 GiB: none dropped
        for (std::size_t i = 0; i < ran.variants.size(); ++i) {
            QCOMPARE(ran.variants[i].label, expected->variants[i].label);
            QCOMPARE(ran.variants[i].report.config.elements, expected->variants[i].config.elements);
        }
        QVERIFY(ran.variants.back().notRun);  // 64 GiB: two host buffers exceed the fake's 100 GiB
        QVERIFY(!ran.variants.front().notRun);
        // The views stay on the last variant that ran, and the table says why the other did not.
        QCOMPARE(window.session().report().config.bytes(), std::size_t(32) << 30);
        QCOMPARE(window.session().report().runs.size(), std::size_t(2));
        QCOMPARE(window.findChild<QProgressBar*>("progress")->value(), 2);
        QCOMPARE(window.charts().at(RunCharts::Time).pointCount(), 2);
        auto* table = window.findChild<QTableWidget*>("comparisonTable");
        QVERIFY(table);
        const int last = table->columnCount() - 1;
        QCOMPARE(table->horizontalHeaderItem(last)->text(), QString("not run"));
        QVERIFY(table->item(table->rowCount() - 1, last)->text().contains("does not fit in host memory"));
        QVERIFY(table->item(0, last)->text().isEmpty());
    }
    // Tab goes from the tab bar into the page shown, to its main widget (the chart, the timeline, the histograms, the
    // table, the plot, the findings) past the page's own buttons, and Shift+Tab comes back to the tab bar; the Summary
    // table is one stop, not a cell per Tab.
    void tabReachesEveryPage()
    {
        auto window = runFinishedWindow(std::make_shared<FakeBackend>(), 6, 0);
        QVERIFY(window);
        window->activateWindow();
        QVERIFY(QTest::qWaitForWindowActive(window.get()));
        QTabWidget& tabs = window->tabs();
        QTabBar* bar = tabs.tabBar();
        const auto name = [](const QWidget* w) {
            return w ? QStringLiteral("%1 %2").arg(w->metaObject()->className(), w->objectName()) : QStringLiteral("-");
        };
        const auto mainWidget = [&tabs](QWidget* page) -> QWidget* {
            if (tabs.tabText(tabs.indexOf(page)) == "Distribution")
                return page->findChildren<QChartView*>().value(0);
            if (tabs.tabText(tabs.indexOf(page)) == "Advice") {  // its first finding, or Copy where it has none
                QWidget* finding = page->findChild<QWidget*>("finding");
                return finding ? finding : page->findChild<QWidget*>("adviceCopy");
            }
            for (const char* inside : { "timelineView", "differencePlot" }) {
                if (auto* w = page->findChild<QWidget*>(inside))
                    return w;
            }
            return page;  // the run charts, the summary table
        };
        for (const QString title : { "Time", "Poll iterations", "Stages", "Timeline", "Distribution", "Summary",
                 "Difference", "Advice" }) {
            QWidget* page = nullptr;
            for (int i = 0; i < tabs.count(); ++i)
                page = tabs.tabText(i) == title ? tabs.widget(i) : page;
            QVERIFY2(page, qPrintable(title));
            tabs.setCurrentWidget(page);
            if (title == "Advice")  // judged off the window's thread: Copy and Save are off until it is
                QTRY_VERIFY(mainWidget(page) && mainWidget(page)->isEnabled());
            QWidget* target = mainWidget(page);
            QVERIFY2(target, qPrintable(title));
            bar->setFocus(Qt::TabFocusReason);
            QCOMPARE(QApplication::focusWidget(), bar);
            QStringList path;
            for (int press = 0; press < 6 && QApplication::focusWidget() != target; ++press) {
                QTest::keyClick(QApplication::focusWidget(), Qt::Key_Tab);
                QWidget* now = QApplication::focusWidget();
                path << name(now);
                QVERIFY2(now && (now == page || page->isAncestorOf(now)),
                    qPrintable(title + ": Tab left the page: " + path.join(" → ")));
            }
            QVERIFY2(QApplication::focusWidget() == target, qPrintable(title + ": " + path.join(" → ")));
            path.clear();
            for (int press = 0; press < 6 && QApplication::focusWidget() != bar; ++press) {
                QTest::keyClick(QApplication::focusWidget(), Qt::Key_Backtab);
                path << name(QApplication::focusWidget());
            }
            QVERIFY2(QApplication::focusWidget() == bar, qPrintable(title + ": Shift+Tab: " + path.join(" → ")));
        }

        // The Summary tab: Tab from the tab bar gives the table the keyboard, and the next Tab moves on.
        auto* table = window->findChild<SummaryTable*>();
        tabs.setCurrentWidget(table);
        bar->setFocus(Qt::TabFocusReason);
        QTest::keyClick(bar, Qt::Key_Tab);
        QCOMPARE(QApplication::focusWidget(), static_cast<QWidget*>(table));
        QTest::keyClick(table, Qt::Key_Tab);
        QVERIFY(QApplication::focusWidget() != table);
    }

    // Window shortcuts work with the focus in a line edit or a spin box, which would otherwise take Ctrl+E as "end
    // of line" and + as a sign.
    void shortcutsWorkWithTheFocusInAnEditor()
    {
        auto window = runFinishedWindow(std::make_shared<FakeBackend>(), 6, 0);
        QVERIFY(window);
        QSignalSpy exportPng(window->actions().exportPng, &QAction::triggered);
        QTimer closer;  // the export asks for a file name: answer the dialog with Cancel
        connect(&closer, &QTimer::timeout, this, [] {
            if (auto* dialog = qobject_cast<QDialog*>(QApplication::activeModalWidget()))
                dialog->reject();
        });
        closer.start(50);
        window->activateWindow();
        QVERIFY(QTest::qWaitForWindowActive(window.get()));
        auto* size = window->findChild<QLineEdit*>("size");
        size->setFocus();
        QTest::keyClick(size, Qt::Key_E, Qt::ControlModifier);
        QCOMPARE(exportPng.count(), 1);
        QCOMPARE(size->text(), QString("64 MiB"));

        auto* runs = window->findChild<QSpinBox*>("runs");
        runs->setFocus();
        const RunChart* time = &window->charts().at(RunCharts::Time);
        QVERIFY(!time->isZoomed());
        window->activateWindow();  // the file dialog had the focus
        QVERIFY(QTest::qWaitForWindowActive(window.get()));
        QTest::keyClick(runs, Qt::Key_Plus, Qt::ControlModifier);
        QVERIFY(time->isZoomed());
        QCOMPARE(runs->value(), 6);
        QTest::keyClick(runs, Qt::Key_0, Qt::ControlModifier);
        QVERIFY(!time->isZoomed());
        QCOMPARE(runs->text(), QString("6"));
    }

    // Actions are enabled only where they can do something.
    void actionsAreEnabledOnlyWhenTheyCanDoSomething()
    {
        MainWindow window(std::make_shared<FakeBackend>());
        window.show();
        QVERIFY(waitForDevices(window));
        const WindowActions& a = window.actions();
        QVERIFY(!a.exportCsv->isEnabled());  // no run: nothing to export
        QVERIFY(!a.exportJson->isEnabled());
        QVERIFY(!a.exportPng->isEnabled());
        QVERIFY(!a.removeOverlays->isEnabled());
        QVERIFY(!a.exportComparisonCsv->isEnabled());
        QVERIFY(a.compareHostMemory->isEnabled());
        window.findChild<QSpinBox*>("runs")->setValue(3);
        QSignalSpy ended(&window, &MainWindow::planEnded);
        window.startRun();
        QVERIFY(!a.compareHostMemory->isEnabled());  // one plan at a time
        QVERIFY(ended.wait(10000));
        QVERIFY(a.exportCsv->isEnabled());
        QVERIFY(a.exportPng->isEnabled());
        window.findChild<QTabWidget*>()->setCurrentWidget(window.findChild<SummaryTable*>());
        QVERIFY(!a.exportPng->isEnabled());  // the Summary tab has no chart to export
        QVERIFY(!a.zoomIn->isEnabled());
        const QString saved = m_dir.filePath("enabled.csv");
        QVERIFY(window.files().exportDataTo(saved));
        QVERIFY(window.files().addOverlay(saved));
        QVERIFY(loaded(window));
        QVERIFY(a.removeOverlays->isEnabled());
        a.removeOverlays->trigger();
        QVERIFY(!a.removeOverlays->isEnabled());
        window.startComparison(Comparison::Wait);
        QVERIFY(ended.wait(10000));
        QVERIFY(a.exportComparisonCsv->isEnabled());
        QVERIFY(a.exportPng->isEnabled());  // the comparison tab is current
    }

    // A folder is remembered only once a file was written there, and settings are kept as they change.
    void aFailedSaveLeavesTheRememberedFolderAlone()
    {
        auto window = runFinishedWindow(std::make_shared<FakeBackend>(), 3, 0);
        QVERIFY(window);
        const QString before = window->settings().lastFolder;
        QVERIFY(!window->files().exportDataTo("/proc/asyncscope-test.csv"));
        auto* box = window->findChild<QMessageBox*>();
        QVERIFY(box);
        box->close();
        QCOMPARE(window->settings().lastFolder, before);
        QVERIFY(window->files().exportDataTo(m_dir.filePath("kept.csv")));
        QCOMPARE(window->settings().lastFolder, QFileInfo(m_dir.path()).absoluteFilePath());
        QCOMPARE(QSettings().value("export/lastFolder").toString(), window->settings().lastFolder);  // no close needed
        window->findChild<QSpinBox*>("runs")->setValue(123);
        QCOMPARE(QSettings().value("run/runs").toInt(), 123);
        // A folder remembered by an older version where nothing can be saved is forgotten on the next start.
        QSettings().setValue("export/lastFolder", "/proc");
        QCOMPARE(loadSettings().lastFolder, QDir::homePath());
    }

    // A saved run, opened, fills every tab and says what it is; overlays stand beside each other, each named.
    // The first screen says what to do: without a GPU, open a saved run or drop one (File lists Open first); with
    // one, run. A file dropped on the chart opens, and the chart then says nothing more.
    void theFirstScreenSaysWhatToDoAndTakesADroppedFile()
    {
        auto noGpu = std::make_shared<FakeBackend>();
        noGpu->discoveryError = makeError(ErrorKind::NoDriver, "no driver");
        MainWindow window(noGpu);
        window.show();
        QVERIFY(waitForDevices(window));
        auto* view = qobject_cast<ChartView*>(window.tabs().currentWidget());
        QVERIFY(view);
        QVERIFY2(view->whatToDo().contains("Without a GPU") && view->whatToDo().contains("File › Open saved run") &&
                view->whatToDo().contains("drop a JSON or CSV file here"),
            qPrintable(view->whatToDo()));
        const auto* hint = view->viewport()->findChild<QLabel*>("whatToDo");
        QVERIFY(hint && hint->isVisible());
        QVERIFY(view->viewport()->rect().contains(hint->geometry()));
        const QList<QAction*> file = window.menuBar()->actions().first()->menu()->actions();
        QVERIFY2(file.first()->text().contains("Open saved run"), qPrintable(file.first()->text()));

        QMimeData dropped;
        dropped.setUrls({ QUrl::fromLocalFile(QStringLiteral(ASYNCSCOPE_TEST_DATA "/h200/h200-series.json")) });
        const QPoint at = view->viewport()->rect().center();
        QDragEnterEvent enter(at, Qt::CopyAction, &dropped, Qt::LeftButton, Qt::NoModifier);
        enter.setAccepted(false);
        QApplication::sendEvent(view->viewport(), &enter);
        QVERIFY(enter.isAccepted());
        QDropEvent drop(QPointF(at), Qt::CopyAction, &dropped, Qt::LeftButton, Qt::NoModifier);
        drop.setAccepted(false);
        QApplication::sendEvent(view->viewport(), &drop);
        QVERIFY(drop.isAccepted());
        QVERIFY(loaded(window));
        QVERIFY(!window.session().report().runs.empty());
        QVERIFY2(view->whatToDo().isEmpty(), qPrintable(view->whatToDo()));
        QVERIFY(!hint->isVisible());
        // A web page's link is not a saved run: not taken.
        QMimeData link;
        link.setUrls({ QUrl(QStringLiteral("https://example.com/run.json")) });
        QDragEnterEvent web(at, Qt::CopyAction, &link, Qt::LeftButton, Qt::NoModifier);
        web.setAccepted(false);
        QApplication::sendEvent(view->viewport(), &web);
        QVERIFY(!web.isAccepted());

        MainWindow withGpu(std::make_shared<FakeBackend>());
        withGpu.show();
        QVERIFY(waitForDevices(withGpu));
        auto* runView = qobject_cast<ChartView*>(withGpu.tabs().currentWidget());
        QVERIFY2(runView->whatToDo().contains("Run (Ctrl+R)"), qPrintable(runView->whatToDo()));
    }

    // A closed choice too long for its box is cut after a whole word ("pinned …"), never inside one ("pinned
    // (cudaMallocl"); its open list holds every choice whole.
    void closedChoicesAreCutAtAWord()
    {
        MainWindow window(std::make_shared<FakeBackend>());
        window.resize(800, 600);
        window.show();
        QVERIFY(waitForDevices(window));
        auto* memory = dynamic_cast<WordComboBox*>(window.findChild<QComboBox*>("hostMemory"));
        QVERIFY(memory);
        int cut = 0;
        for (int i = 0; i < memory->count(); ++i) {
            memory->setCurrentIndex(i);
            const QString whole = memory->currentText(), shown = memory->shownText();
            if (shown == whole)
                continue;
            ++cut;
            QVERIFY2(shown.endsWith(" …"), qPrintable(shown));
            const QString kept = shown.chopped(2);
            QVERIFY2(whole.startsWith(kept) && whole.at(kept.size()) == ' ', qPrintable(shown + " of " + whole));
        }
        QVERIFY2(cut > 0, "at 800 px some host memory choice is longer than its box");
        const QFontMetrics metrics = memory->fontMetrics();
        QCOMPARE(elidedAtWord("pinned (cudaMallocHost)", metrics, metrics.horizontalAdvance("pinned (cudaMa")),
            QString("pinned …"));
        QCOMPARE(elidedAtWord("pinned", metrics, 1000), QString("pinned"));
        QVERIFY(elidedAtWord("cudaMallocHost", metrics, metrics.horizontalAdvance("cudaM") + 1).endsWith("…"));
    }

    // A picture's name with a suffix no picture has is refused as soon as it is chosen, before its size is asked for.
    void aPictureNameThatIsNoPictureIsRefusedBeforeItsSize()
    {
        MainWindow window(std::make_shared<FakeBackend>());
        window.show();
        QVERIFY(waitForDevices(window));
        QVERIFY(window.files().openSaved(QStringLiteral(ASYNCSCOPE_TEST_DATA "/h200/h200-series.json")));
        QVERIFY(loaded(window));
        QStringList seen;
        std::function<void()> answer = [&] {
            QWidget* modal = QApplication::activeModalWidget();
            if (auto* files = qobject_cast<QFileDialog*>(modal)) {
                seen << "file dialog";
                files->selectFile(m_dir.filePath("chart.txt"));
                QMetaObject::invokeMethod(files, "accept");
                QTimer::singleShot(20, this, answer);
            } else if (auto* box = qobject_cast<QMessageBox*>(modal)) {
                seen << box->text();
                box->close();
            } else if (modal) {
                seen << modal->metaObject()->className();
                modal->close();
            } else {
                QTimer::singleShot(20, this, answer);
            }
        };
        QTimer::singleShot(0, this, answer);
        window.actions().exportPng->trigger();
        QTRY_COMPARE(seen.size(), 2);
        QCOMPARE(seen[0], QString("file dialog"));
        QVERIFY2(seen[1].contains("Unknown picture format 'txt'"), qPrintable(seen.join(" | ")));
        QVERIFY(!QFileInfo::exists(m_dir.filePath("chart.txt")));
    }

    void aSavedRunFillsEveryTab()
    {
        auto source = runFinishedWindow(std::make_shared<FakeBackend>(), 8, 2);
        QVERIFY(source);
        const QString first = m_dir.filePath("h200-run.json");
        const QString second = m_dir.filePath("a100-run.csv");
        QVERIFY(source->files().exportDataTo(first));
        QVERIFY(source->files().exportDataTo(second));
        source.reset();

        auto noGpu = std::make_shared<FakeBackend>();
        noGpu->discoveryError = makeError(ErrorKind::NoDriver, "no driver");
        MainWindow window(noGpu);
        window.show();
        QVERIFY(waitForDevices(window));
        QVERIFY(window.files().openSaved(first));
        QVERIFY(loaded(window));
        QCOMPARE(window.charts().at(RunCharts::Time).pointCount(), 10);
        QCOMPARE(window.charts().at(RunCharts::Polls).pointCount(), 10);
        QCOMPARE(window.charts().at(RunCharts::Stages).pointCount(), 10);
        auto* table = window.findChild<SummaryTable*>();
        QCOMPARE(table->rowCount(), 0);  // hidden: it does nothing until shown
        window.findChild<QTabWidget*>()->setCurrentWidget(table);
        QVERIFY(table->rowCount() > 5);
        QVERIFY(!table->item(0, 1)->text().isEmpty());
        QVERIFY2(window.windowTitle().contains("saved: h200-run"), qPrintable(window.windowTitle()));
        QVERIFY(window.charts().chart(RunCharts::Time)->title().contains("saved: h200-run"));
        QVERIFY(window.actions().exportCsv->isEnabled());

        // The file shown is not overlaid on itself; the same series in another format, or a file of the same name in
        // another folder, is named by what tells it apart.
        const QString sameAsCsv = m_dir.filePath("h200-run.csv");
        QVERIFY(QFile::copy(second, sameAsCsv));
        QVERIFY(QDir(m_dir.path()).mkpath("other"));
        const QString otherFolder = m_dir.filePath("other/h200-run.json");
        QVERIFY(QFile::copy(first, otherFolder));
        QSignalSpy failed(&window.session(), &SessionModel::loadFailed);
        QVERIFY(window.files().addOverlay(first));
        QVERIFY(window.files().addOverlay(second));  // waits its turn
        QVERIFY(window.files().addOverlay(sameAsCsv));
        QVERIFY(window.files().addOverlay(otherFolder));
        QVERIFY(loaded(window));
        QCOMPARE(failed.size(), 1);
        QVERIFY2(QString::fromStdString(failed.at(0).at(2).value<Error>().message()).contains(
                     "h200-run.json is the series shown: it is not overlaid on itself"),
            qPrintable(QString::fromStdString(failed.at(0).at(2).value<Error>().message())));
        QCOMPARE(window.session().overlays().size(), std::size_t(3));
        QStringList labels;
        for (const SavedRun& overlay : window.session().overlays())
            labels << overlay.label;
        QVERIFY2(labels.contains("a100-run · Fake Big GPU") && labels.contains("h200-run.csv · Fake Big GPU") &&
                labels.contains("other/h200-run.json · Fake Big GPU"),
            qPrintable(labels.join(" | ")));
        QCOMPARE(window.session().source().label(), QStringLiteral("saved: h200-run · Fake Big GPU"));
        // In the legend, a name longer than it has room for is cut in the middle; one that fits is whole.
        const QStringList legend = window.charts().at(RunCharts::Time).legendNames();
        QVERIFY2(legend.contains("a100-run · Fake Big GPU") && legend.contains("h200-run.csv · Fake Big GPU") &&
                legend.contains(QStringLiteral("other/h200…n.json · Fake Big GPU")),
            qPrintable(legend.join(" | ")));
        // The series shown is a saved one: the legend names it as the title does, not "this run".
        QVERIFY2(legend.contains(QStringLiteral("saved: h200-run · Fake Big GPU")) && !legend.contains("this run"),
            qPrintable(legend.join(" | ")));
        QVERIFY(legend.contains("GPU time"));
        QVERIFY(legend.contains("warm-up run"));
        QCOMPARE(legend.count("a100-run · Fake Big GPU"), 1);  // one entry per saved run, not one per line
        QCOMPARE(table->columnCount(), 7 + 3);  // a median column per overlay
        auto* polls = window.charts().chart(RunCharts::Polls);
        QVERIFY(polls->series().size() >= 3);  // overlays on every chart
    }

    // Saved series of one file name (h200-run.json in three folders) are named by the settings in which they differ,
    // the GPU where the GPUs differ, in the legends and the titles; opening one of the overlays as the series shown
    // takes it off the overlays, and the status line says which overlays stay and how to remove them.
    void savedRunsOfOneNameAreNamedByTheirSettings()
    {
        const Report classic = testing::classicReport(6);
        Report chunked = classic;
        chunked.config.chunks = 16;
        chunked.config.streams = 4;
        Report a100 = classic;
        a100.device.name = "NVIDIA A100";
        const QString k1 = saveReport(m_dir.filePath("names/k1/h200-run.json"), classic);
        const QString k16 = saveReport(m_dir.filePath("names/k16/h200-run.json"), chunked);
        const QString other = saveReport(m_dir.filePath("names/a100/h200-run.json"), a100);

        auto noGpu = std::make_shared<FakeBackend>();
        noGpu->discoveryError = makeError(ErrorKind::NoDriver, "no driver");
        MainWindow window(noGpu);
        window.show();
        QVERIFY(waitForDevices(window));
        QVERIFY(window.files().openSaved(k1));
        QVERIFY(window.files().addOverlay(k16));
        QVERIFY(loaded(window));
        QCOMPARE(window.session().source().label(), QStringLiteral("saved: h200-run · K=1 S=1"));
        QCOMPARE(window.session().overlays().size(), std::size_t(1));
        QCOMPARE(window.session().overlays()[0].label, QStringLiteral("h200-run · K=16 S=4"));
        QStringList legend = window.charts().at(RunCharts::Time).legendNames();
        QVERIFY2(legend.contains("saved: h200-run · K=1 S=1") && legend.contains("h200-run · K=16 S=4"),
            qPrintable(legend.join(" | ")));
        QVERIFY2(window.charts().chart(RunCharts::Time)->title().contains("saved: h200-run · K=1 S=1"),
            qPrintable(window.charts().chart(RunCharts::Time)->title()));
        QVERIFY(window.windowTitle().contains("saved: h200-run · K=1 S=1"));

        // Another GPU: named too, beside what else differs.
        QVERIFY(window.files().addOverlay(other));
        QVERIFY(loaded(window));
        QCOMPARE(window.session().source().label(), QStringLiteral("saved: h200-run · H200 · K=1 S=1"));
        QCOMPARE(window.session().overlays()[0].label, QStringLiteral("h200-run · H200 · K=16 S=4"));
        QCOMPARE(window.session().overlays()[1].label, QStringLiteral("h200-run · A100 · K=1 S=1"));
        legend = window.charts().at(RunCharts::Time).legendNames();
        QVERIFY2(legend.contains("h200-run · A100 · K=1 S=1"), qPrintable(legend.join(" | ")));

        // One of the overlays opened: it is the series shown, not an overlay beside itself; the other stays, said.
        QVERIFY(window.files().openSaved(k16));
        QVERIFY(loaded(window));
        QCOMPARE(window.session().overlays().size(), std::size_t(1));
        QCOMPARE(window.session().overlays()[0].path, other);
        QCOMPARE(window.session().source().label(), QStringLiteral("saved: h200-run · H200 · K=16 S=4"));
        const QString status = window.statusText();
        QVERIFY2(status.contains("1 overlay kept: h200-run · A100 · K=1 S=1") &&
                status.contains("File › Remove overlays") && status.contains("no longer overlaid"),
            qPrintable(status));
        auto* table = window.findChild<SummaryTable*>();
        window.tabs().setCurrentWidget(table);
        QCOMPARE(table->columnCount(), 7 + 1);  // one median column: the overlay kept
        window.actions().removeOverlays->trigger();
        // Nothing to tell apart.
        QCOMPARE(window.session().source().label(), QStringLiteral("saved: h200-run · H200"));
    }

    // Long names keep what tells them apart: cut in the middle, not at the end, in the legends, the Summary's column
    // headers (whole in their tooltips) and the Difference tab.
    void longNamesAreCutInTheMiddle()
    {
        const Report classic = testing::classicReport(6);
        const QString shown = saveReport(m_dir.filePath("long/short.json"), classic);
        const QString first = saveReport(m_dir.filePath("long/gpu-server-b-h200-nightly-20261201.json"), classic);
        const QString second = saveReport(m_dir.filePath("long/gpu-server-b-h200-nightly-20261202.json"), classic);
        const QString third = saveReport(m_dir.filePath("long/gpu-server-b-h200-nightly-20261203.json"), classic);
        auto noGpu = std::make_shared<FakeBackend>();
        noGpu->discoveryError = makeError(ErrorKind::NoDriver, "no driver");
        MainWindow window(noGpu);
        window.show();
        QVERIFY(waitForDevices(window));
        QVERIFY(window.files().openSaved(shown));
        QVERIFY(window.files().addOverlay(first));
        QVERIFY(window.files().addOverlay(second));
        QVERIFY(loaded(window));
        const QStringList legend = window.charts().at(RunCharts::Time).legendNames();
        const auto named = [](const QStringList& names, const QString& part) {
            return std::count_if(names.begin(), names.end(), [&part](const QString& n) { return n.contains(part); });
        };
        QVERIFY2(named(legend, "20261201 · H200") == 1 && named(legend, "20261202 · H200") == 1,
            qPrintable(legend.join(" | ")));
        for (const QString& name : legend)
            QVERIFY2(name.size() <= kShortNameChars, qPrintable(name));
        QVERIFY2(named(legend, "gpu-") == 2 && named(legend, QStringLiteral("…")) == 2,
            qPrintable(legend.join(" | ")));

        auto* table = window.findChild<SummaryTable*>();
        window.tabs().setCurrentWidget(table);
        const QStringList headers = headerTexts(*table);
        QVERIFY2(named(headers, "20261201") == 1 && named(headers, "20261202") == 1, qPrintable(headers.join(" | ")));
        QVERIFY2(named(headers, QStringLiteral("…")) == 2, qPrintable(headers.join(" | ")));
        const int column = table->columnCount() - 1;
        QVERIFY2(table->horizontalHeaderItem(column)->toolTip().contains("gpu-server-b-h200-nightly-20261202 · H200"),
            qPrintable(table->horizontalHeaderItem(column)->toolTip()));

        QVERIFY(window.files().setBaseline(third));
        QVERIFY(loaded(window));
        QVERIFY(QTest::qWaitFor(
            [&] { return window.session().baselines().state() == BaselineController::State::Compared; }, 30000));
        window.tabs().setCurrentWidget(const_cast<DifferenceView*>(&window.difference()));
        // The Difference tab's subtitle wraps: the names whole.
        const QString subtitle = window.difference().shown().subtitle;
        QVERIFY2(subtitle.contains("baseline · gpu-server-b-h200-nightly-20261203 · H200") &&
                !subtitle.contains(QStringLiteral("…")),
            qPrintable(subtitle));
    }

    // The middle cut keeps where names differ: near the end, in the middle, or nowhere in common.
    void theMiddleCutKeepsWhatDiffers()
    {
        const QStringList dates = shortNames({ "gpu-server-b-h200-nightly-20261201 · H200",
            "gpu-server-b-h200-nightly-20261202 · H200", "short" });
        QCOMPARE(dates[2], QStringLiteral("short"));
        QVERIFY2(dates[0].endsWith("20261201 · H200") && dates[1].endsWith("20261202 · H200"), qPrintable(dates[0]));
        QVERIFY(dates[0].startsWith("gpu-") && dates[0].size() == kShortNameChars);
        const QStringList servers = shortNames({ "gpu-server-a-h200-nightly-20261201 · H200",
            "gpu-server-b-h200-nightly-20261201 · H200" });
        QVERIFY2(servers[0].contains("a-h200") && servers[1].contains("b-h200"), qPrintable(servers.join(" | ")));
        QVERIFY2(servers[0].endsWith("H200") && servers[0].size() == kShortNameChars, qPrintable(servers[0]));
        QVERIFY(servers[0] != servers[1]);
        QCOMPARE(shortName(QString(40, QLatin1Char('x'))).size(), kShortNameChars);
    }

    // With a saved series shown, the controls show the configuration it ran with, not editable; the user's own
    // settings are neither lost nor saved over, a run measures them, and "Use these settings" makes the file's theirs.
    void theControlsShowASavedRunsConfiguration()
    {
        Report k16 = testing::classicReport(8);
        k16.config.chunks = 16;
        k16.config.streams = 4;
        const QString file = saveReport(m_dir.filePath("config/h200-k16.json"), k16);
        auto backend = std::make_shared<FakeBackend>();
        MainWindow window(backend);
        window.show();
        QVERIFY(waitForDevices(window));
        auto* chunks = window.findChild<QSpinBox*>("chunks");
        auto* streams = window.findChild<QSpinBox*>("streams");
        auto* runs = window.findChild<QSpinBox*>("runs");
        runs->setValue(12);
        QCOMPARE(chunks->value(), 1);
        QCOMPARE(QSettings().value("run/runs").toInt(), 12);

        QVERIFY(window.files().openSaved(file));
        QVERIFY(loaded(window));
        QCOMPARE(chunks->value(), 16);
        QCOMPARE(streams->value(), 4);
        QCOMPARE(runs->value(), 7);
        QVERIFY(!chunks->isEnabled() && !runs->isEnabled());
        auto* note = window.findChild<QLabel*>("savedConfigurationNote");
        QVERIFY(note && note->isVisible());
        QVERIFY2(note->text().contains("Showing the configuration of h200-k16.json"), qPrintable(note->text()));
        auto* use = window.findChild<QPushButton*>("useShownSettings");
        QVERIFY(use && use->isVisible() && use->isEnabled());
        // Nothing of the file's is saved as the user's settings, whatever saves them meanwhile.
        QCOMPARE(QSettings().value("run/chunks", 1).toInt(), 1);
        QCOMPARE(QSettings().value("run/runs").toInt(), 12);
        QCOMPARE(window.settings().config.chunks, 1);

        // Run: the user's settings come back and are what runs.
        QVERIFY(window.runEnabled());
        QSignalSpy ended(&window, &MainWindow::planEnded);
        window.findChild<QPushButton*>("run")->click();
        QCOMPARE(chunks->value(), 1);
        QCOMPARE(runs->value(), 12);
        QVERIFY(!note->isVisible());
        QVERIFY(ended.wait(60000));
        QCOMPARE(backend->lastConfig().chunks, 1);
        QCOMPARE(backend->lastConfig().runs, 12);
        QVERIFY(chunks->isEnabled());

        // Use these settings: the file's configuration is the user's, saved, and runs.
        QVERIFY(window.files().openSaved(file));
        QVERIFY(loaded(window));
        QCOMPARE(chunks->value(), 16);
        use->click();
        QVERIFY(!note->isVisible());
        QVERIFY(chunks->isEnabled() && streams->isEnabled());
        QCOMPARE(chunks->value(), 16);
        QCOMPARE(QSettings().value("run/chunks").toInt(), 16);
        QCOMPARE(QSettings().value("run/streams").toInt(), 4);
        window.findChild<QPushButton*>("run")->click();
        QVERIFY(ended.wait(60000));
        QCOMPARE(backend->lastConfig().chunks, 16);
        QCOMPARE(backend->lastConfig().streams, 4);
        QCOMPARE(backend->lastConfig().runs, 7);
    }

    // With no run the legend lists nothing that is not drawn.
    void theLegendListsOnlyWhatIsDrawn()
    {
        auto noGpu = std::make_shared<FakeBackend>();
        noGpu->discoveryError = makeError(ErrorKind::NoDriver, "no driver");
        MainWindow window(noGpu);
        window.show();
        QVERIFY(waitForDevices(window));
        QVERIFY(!window.charts().chart(RunCharts::Time)->legend()->isVisible());
        QVERIFY(window.charts().at(RunCharts::Time).legendNames().isEmpty());
    }

    // Input that cannot be taken is refused with a visible reason under the control it concerns, left as typed, and
    // the reason goes once the control's input is valid: no reason stays after its fix or sits under another control.
    void inputIsRefusedWithAReason()
    {
        MainWindow window(std::make_shared<FakeBackend>());
        window.show();
        QVERIFY(waitForDevices(window));
        auto* size = window.findChild<QLineEdit*>("size");
        auto* panel = window.findChild<ConfigPanel*>();
        // The lines shown, by the control they are under.
        const auto shownLines = [&window] {
            QStringList shown;
            for (const QLabel* line : window.findChildren<QLabel*>(QRegularExpression("^problem_")))
                if (line->isVisibleTo(&window))
                    shown << line->objectName();
            return shown;
        };
        const auto under = [&window](const char* control) {
            const auto* field = window.findChild<QWidget*>(control);
            const auto* line = window.findChild<QLabel*>(QStringLiteral("problem_") + control);
            const QPoint fieldAt = field->mapTo(&window, QPoint(0, 0));
            const QPoint lineAt = line->mapTo(&window, QPoint(0, 0));
            // Just below the control: no other control's row between them.
            return line->isVisibleTo(&window) && lineAt.y() >= fieldAt.y() + field->height() - 1 &&
                lineAt.y() <= fieldAt.y() + field->height() + 12;
        };
        typeInto(size, "-5");
        QCOMPARE(size->text(), QString("-5"));
        QVERIFY2(panel->inputProblem().contains("must be positive"), qPrintable(panel->inputProblem()));
        QVERIFY(under("size"));
        QCOMPARE(shownLines(), QStringList { "problem_size" });
        QVERIFY(!window.runEnabled());
        typeInto(size, "1.5");
        QCOMPARE(size->text(), QString("1.5"));
        QVERIFY2(panel->inputProblem().contains("unknown unit"), qPrintable(panel->inputProblem()));
        typeInto(size, "81 GiB");
        QVERIFY2(panel->inputProblem().contains("80.0 GiB in all"), qPrintable(panel->inputProblem()));
        typeInto(size, "1 TiB");  // a unit it takes: the limit is what it says
        QVERIFY2(!panel->inputProblem().contains("unknown unit"), qPrintable(panel->inputProblem()));
        QVERIFY2(panel->inputProblem().contains("80.0 GiB in all"), qPrintable(panel->inputProblem()));
        QVERIFY(!window.runEnabled());
        typeInto(size, "1 GiB");
        QVERIFY(panel->inputProblem().isEmpty());
        QVERIFY(shownLines().isEmpty());
        QVERIFY(window.runEnabled());

        // A keystroke a number field cannot take: said under that field, quoting all that was typed, gone with the
        // next keystroke it takes.
        auto* runs = window.findChild<QSpinBox*>("runs");
        runs->setFocus();
        runs->selectAll();
        QTest::keyClicks(runs, "12c");
        QVERIFY2(panel->inputProblem().contains("Runs takes whole numbers from 1 to 1,000,000: '12c' is not one, so "
                                                "it stays '12'"),
            qPrintable(panel->inputProblem()));
        QVERIFY(under("runs"));
        QCOMPARE(shownLines(), QStringList { "problem_runs" });
        QTest::keyClicks(runs, "5");
        QCOMPARE(runs->value(), 125);
        QVERIFY2(shownLines().isEmpty(), qPrintable(shownLines().join(", ")));

        // More streams than chunks: under Streams, not Size; gone once they fit.
        const auto typeNumber = [](const char* name, QSpinBox* box) {
            box->setFocus();
            box->selectAll();
            QTest::keyClicks(box, name);
        };
        typeNumber("4", window.findChild<QSpinBox*>("streams"));
        QVERIFY(under("streams"));
        QCOMPARE(shownLines(), QStringList { "problem_streams" });
        typeNumber("4", window.findChild<QSpinBox*>("chunks"));
        QVERIFY2(shownLines().isEmpty(), qPrintable(shownLines().join(", ")));
        QVERIFY(window.runEnabled());

        // The picture size: 0 stays as typed with the reason until corrected or cancelled; "abc" is refused as it is
        // typed, OK off, the reason shown whole (the dialog grows to hold it), not at OK.
        QString reason, kept, typed;
        bool okAfterTyping = true, wholeReason = false, okAgain = false;
        QTimer::singleShot(0, this, [&] {
            auto* dialog = qobject_cast<QDialog*>(QApplication::activeModalWidget());
            QVERIFY(dialog);
            auto* width = dialog->findChild<QLineEdit*>("width");
            auto* ok = dialog->findChild<QDialogButtonBox*>()->button(QDialogButtonBox::Ok);
            auto* problem = dialog->findChild<QLabel*>("problem");
            width->setText("abc");
            typed = problem->text();
            okAfterTyping = ok->isEnabled();
            QApplication::processEvents();
            wholeReason = problem->isVisible() && problem->height() >= problem->heightForWidth(problem->width());
            width->setText("0");
            ok->click();
            reason = problem->text();
            kept = width->text();
            width->setText("640");
            okAgain = ok->isEnabled() && problem->text().isEmpty();
            dialog->reject();
        });
        QVERIFY(!askPixelSize(&window, QSize(800, 600)));
        QVERIFY2(typed.contains("not 'abc'"), qPrintable(typed));
        QVERIFY(!okAfterTyping);
        QVERIFY(wholeReason);
        QVERIFY2(reason.contains("from 16 to 16384"), qPrintable(reason));
        QCOMPARE(kept, QString("0"));
        QVERIFY(okAgain);
    }

    // File › Export trace: the series as a Chrome trace, or the comparison where the window shows it.
    void exportsTheSeriesOrTheComparisonAsATrace()
    {
        MainWindow window(std::make_shared<FakeBackend>());
        window.show();
        QVERIFY(waitForDevices(window));
        const WindowActions& a = window.actions();
        QVERIFY(!a.exportTrace->isEnabled());  // no run: nothing to export
        QVERIFY(!window.files().exportTraceTo(m_dir.filePath("nothing.json"), false));
        delete window.findChild<QMessageBox*>();  // it said why; the next one is looked for below
        QVERIFY(!QFileInfo::exists(m_dir.filePath("nothing.json")));

        window.findChild<QSpinBox*>("runs")->setValue(4);
        window.findChild<QSpinBox*>("warmup")->setValue(1);
        QSignalSpy ended(&window, &MainWindow::planEnded);
        window.startRun();
        QVERIFY(ended.wait(10000));
        QVERIFY(a.exportTrace->isEnabled());
        const auto processes = [](const QString& path) {
            std::ifstream in(path.toStdString());
            const auto trace = nlohmann::json::parse(in, nullptr, false);
            QStringList names;
            int runs = 0;
            if (trace.is_discarded())
                return std::pair { names, -1 };
            for (const auto& e : trace.at("traceEvents")) {
                if (e.at("name") == "process_name")
                    names << QString::fromStdString(e.at("args").at("name").get<std::string>());
                runs += e.at("ph") == "X" && e.at("cat") == "run";
            }
            return std::pair { names, runs };
        };
        const QString series = m_dir.filePath("series-trace.json");
        QVERIFY(window.files().exportTraceTo(series, false));
        QCOMPARE(processes(series), std::pair(QStringList { "GPU 1: Fake Big GPU" }, 5));
        QVERIFY2(window.statusText().startsWith("Saved ") && window.statusText().contains("Perfetto"),
            qPrintable(window.statusText()));

        window.startComparison(Comparison::HostMemory);
        QVERIFY(ended.wait(10000));
        const QString comparison = m_dir.filePath("comparison-trace.json");
        QVERIFY(window.files().exportTraceTo(comparison, true));
        QCOMPARE(processes(comparison),
            std::pair(QStringList { "pinned · GPU 1: Fake Big GPU", "pageable · GPU 1: Fake Big GPU" }, 10));
        // Elsewhere the window shows the series: its last variant.
        QVERIFY(window.files().exportTraceTo(series, false));
        QCOMPARE(processes(series), std::pair(QStringList { "GPU 1: Fake Big GPU" }, 5));

        // A path that cannot be written says so and leaves the remembered folder alone.
        const QString folder = window.settings().lastFolder;
        QVERIFY(!window.files().exportTraceTo("/proc/asyncscope-trace.json", false));
        auto* box = window.findChild<QMessageBox*>();
        QVERIFY(box);
        QVERIFY2(box->text().contains("Cannot write"), qPrintable(box->text()));
        box->close();
        QCOMPARE(window.settings().lastFolder, folder);
    }

    // The no-driver state is one plain sentence; the technical one is in its tooltip.
    void noDriverSaysSoPlainly()
    {
        auto noGpu = std::make_shared<FakeBackend>();
        noGpu->discoveryError = classifyCudaError("cudaGetDeviceCount", 35, "cudaErrorInsufficientDriver",
            "CUDA driver version is insufficient for CUDA runtime version", { 0, 13000 });
        MainWindow window(noGpu);
        window.show();
        QVERIFY(waitForDevices(window));
        const QString message = window.deviceMessage();
        QVERIFY2(message.startsWith("This computer has no NVIDIA driver"), qPrintable(message));
        QVERIFY(!message.contains("insufficient") && !message.contains("cudaError"));
        QVERIFY(window.findChild<QLabel*>("deviceMessage")->toolTip().contains("cudaErrorInsufficientDriver"));
        QVERIFY(!window.findChild<QLineEdit*>("size")->toolTip().contains("TiB"));
    }
};

QTEST_MAIN(MainWindowTest)
#include "main_window_test.moc"

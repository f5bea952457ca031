// Files the window is handed that it cannot use: a headless run ends non-zero every time and names each of them; a
// directory or a FIFO is refused by name without being opened; a bad file among good ones costs only itself; what a
// file holds never sizes what the window lays out (rows per stream, names); a settings file that is not a regular
// file leaves the window on its defaults. The fake backend stands in for the GPU.
#include "classic_runs.hpp"
#include "fake_backend.hpp"

#include "gui/app/app_exit.hpp"
#include "gui/app/file_actions.hpp"
#include "gui/app/main_window.hpp"
#include "gui/config/settings_store.hpp"
#include "gui/gpus/all_gpus_chart.hpp"
#include "gui/gpus/results_window.hpp"
#include "gui/gpus/side_by_side_model.hpp"
#include "gui/series/shown_name.hpp"
#include "gui/session/session_model.hpp"
#include "gui/timeline/timeline_layout.hpp"
#include "gui/timeline/timeline_panel.hpp"
#include "gui/timeline/timeline_view.hpp"

#include "engine/io/csv/csv_report.hpp"
#include "engine/io/json/json_report.hpp"
#include "engine/model/advice.hpp"
#include "engine/model/record_rules.hpp"

#include <QApplication>
#include <QDir>
#include <QElapsedTimer>
#include <QFile>
#include <QLabel>
#include <QMessageBox>
#include <QSettings>
#include <QSignalSpy>
#include <QStandardPaths>
#include <QTabWidget>
#include <QTemporaryDir>
#include <QTest>
#include <QTimer>

#include <cmath>
#include <fstream>
#include <limits>

#include <sys/stat.h>

using namespace asyncscope;
using asyncscope::testing::FakeBackend;

namespace {

// A series as an earlier version saved it (JSON format 2), `runs` runs long; cut short inside its last run when
// `cut`, which a reader finds only once it has read the rest.
QByteArray savedSeries(int runs, bool cut, const QByteArray& deviceName = "NVIDIA H200")
{
    const QByteArray run =
        "{\"run\": %1, \"warmup\": false, \"gpu_time_ms\": 2.5, \"poll_iterations\": 9000, \"verified\": true, "
        "\"spans\": [{\"kind\": \"h2d\", \"bytes\": 67108864, \"begin_ms\": 0.0, \"end_ms\": 1.22}, "
        "{\"kind\": \"kernel\", \"bytes\": 134217728, \"begin_ms\": 1.22, \"end_ms\": 1.28}, "
        "{\"kind\": \"d2h\", \"bytes\": 67108864, \"begin_ms\": 1.28, \"end_ms\": 2.5}]}";
    QByteArray text = "{\"format\": \"asyncscope-report\", \"format_version\": 2, \"device\": {\"index\": 0, \"name\": \"" +
        deviceName +
        "\", \"compute_capability\": \"9.0\", \"uuid\": \"GPU-1\"}, \"config\": {\"device\": 0, \"elements\": 16777216, "
        "\"value\": 26, \"threads_per_block\": 512, \"runs\": 2, \"warmup_runs\": 0, \"host_memory\": \"pinned\", "
        "\"wait\": \"spin\", \"check\": \"overlapped\", \"stage_events\": true}, \"runs\": [";
    for (int i = 0; i < runs; ++i)
        text += (i ? ",\n" : "") + QByteArray(run).replace("%1", QByteArray::number(i));
    return text + (cut ? ", {\"run\": 9, \"gpu_ti" : "]}\n");
}

bool writeFile(const QString& path, const QByteArray& bytes)
{
    QFile f(path);
    return f.open(QIODevice::WriteOnly) && f.write(bytes) == bytes.size();
}

bool makeFifo(const QString& path)
{
    return ::mkfifo(QFile::encodeName(path).constData(), 0600) == 0;
}

// A headless run of `options` on `backend` as gui/app/main.cpp drives it: its exit status and its message. A run that
// has not ended after a while ends with 99.
std::pair<int, QString> runHeadless(std::shared_ptr<FakeBackend> backend, const AppOptions& options)
{
    AppExit exit;
    MainWindow window(backend, options);
    QString message;
    QObject::connect(&window, &MainWindow::headlessFinished, &window, [&](int code, const QString& text) {
        message = text;
        exit.end(window, code);
    });
    QTimer::singleShot(20000, &window, [&] { exit.end(window, 99); });
    window.show();
    const int code = exit.exec();
    return { code, message };
}

std::shared_ptr<FakeBackend> noGpu()
{
    auto backend = std::make_shared<FakeBackend>();
    backend->discoveryError = makeError(ErrorKind::NoDriver, "no driver");
    return backend;
}

}  // namespace

class HostileFilesTest : public QObject {
    Q_OBJECT
private:
    QTemporaryDir m_dir;

    QString path(const QString& name) const { return m_dir.filePath(name); }

private slots:
    void initTestCase()
    {
        QCoreApplication::setOrganizationName("AsyncScopeTests");
        QCoreApplication::setApplicationName("HostileFilesTest");
        QVERIFY(m_dir.isValid());
        QVERIFY(writeFile(path("good.json"), savedSeries(3, false)));
        QVERIFY(writeFile(path("good-too.json"), savedSeries(4, false)));
        QVERIFY(writeFile(path("junk.json"), "{\"hello\": 1}"));
        QVERIFY(writeFile(path("cut-short.json"), savedSeries(4000, true)));  // read for some ms before it fails
        QVERIFY(writeFile(path("no-runs.json"), savedSeries(0, false)));
        QVERIFY(QDir(m_dir.path()).mkdir("folder.json"));
        QVERIFY(makeFifo(path("pipe.json")));
    }

    // --overlay or --open of a file that cannot be read, where no GPU answers: exit status 2 and the file named,
    // every time. The device search fails at once, mostly before the file is read: it used to end the run with its
    // own message, and closing the window then posted a quit with status 0 that the event loop took over it.
    void aFileThatCannotBeUsedEndsNonZeroEveryTime()
    {
        int runs = 0;
        for (int i = 0; i < 200; ++i) {
            AppOptions options;
            if (i % 2)
                options.overlays = QStringList { path("cut-short.json") };
            else
                options.open = path("cut-short.json");
            options.runs = 5;
            options.exportPng = path("never.png");
            const auto [code, message] = runHeadless(noGpu(), options);
            QVERIFY2(code == 2, qPrintable(QStringLiteral("run %1 ended with %2: %3").arg(i).arg(code).arg(message)));
            QVERIFY2(message.contains("cut-short.json"), qPrintable(message));
            QVERIFY(!QFile::exists(options.exportPng));
            ++runs;
        }
        QCOMPARE(runs, 200);
    }

    // A saved series of no runs is said, not shown as an empty chart, and the headless run ends with status 2.
    void aFileOfNoRunsIsSaid()
    {
        AppOptions options;
        options.open = path("no-runs.json");
        options.exportPng = path("no-runs.png");
        const auto [code, message] = runHeadless(noGpu(), options);
        QCOMPARE(code, 2);
        QVERIFY2(message.contains("no-runs.json: holds no runs"), qPrintable(message));
        QVERIFY(!QFile::exists(options.exportPng));
    }

    // Several bad files in one headless run: each is named, whether refused at once or read and found wrong, and
    // costs only itself: the series runs and its chart is saved with the good overlay; the status is 2.
    void everyBadFileIsNamed()
    {
        AppOptions options;
        options.overlays = QStringList { path("good.json"), path("folder.json"), path("junk.json"), path("pipe.json") };
        options.runs = 2;
        options.exportPng = path("with-the-good-overlay.png");
        QElapsedTimer clock;
        clock.start();
        const auto [code, message] = runHeadless(std::make_shared<FakeBackend>(), options);
        QCOMPARE(code, 2);
        QVERIFY2(message.contains("folder.json is a directory"), qPrintable(message));
        QVERIFY2(message.contains("pipe.json is not a regular file (a FIFO)"), qPrintable(message));
        QVERIFY2(message.contains("junk.json"), qPrintable(message));
        QVERIFY2(!message.contains("good.json"), qPrintable(message));
        QVERIFY(clock.elapsed() < 15000);  // the FIFO was never opened: nothing waited for a writer
        QVERIFY2(message.contains("chart saved to"), qPrintable(message));
        QVERIFY(QFile::exists(options.exportPng));
    }

    // A file of the command line refused at once, while the window is built, is said in a box over the shown window,
    // as one refused later is (the box opened before the window was shown was lost under it).
    void aCommandLineFileRefusedAtOnceIsSaidOnceTheWindowShows()
    {
        AppOptions options;
        options.overlays = QStringList { path("folder.json") };
        MainWindow window(noGpu(), options);
        QVERIFY(window.findChildren<QMessageBox*>().isEmpty());  // none before the window is there to hold it
        window.show();
        QTRY_VERIFY(!window.findChildren<QMessageBox*>().isEmpty());
        QMessageBox* box = window.findChildren<QMessageBox*>().first();
        QTRY_VERIFY(box->isVisible());
        QVERIFY2(box->text().contains("folder.json is a directory"), qPrintable(box->text()));
        box->close();
    }

    // File › Open saved run and Add overlay: a directory and a FIFO are refused at once, by name; the window closes
    // at once after (nothing reads from the FIFO).
    void directoriesAndFifosAreRefusedByName()
    {
        auto window = std::make_unique<MainWindow>(noGpu());
        window->show();
        QSignalSpy problems(&window->files(), &FileActions::problem);
        QVERIFY(!window->files().openSaved(path("folder.json")));
        QVERIFY(!window->files().addOverlay(path("pipe.json")));
        QVERIFY(!window->files().openSaved(path("pipe.json")));
        QCOMPARE(problems.size(), 3);
        QVERIFY2(problems[0].first().toString().contains("folder.json is a directory"),
            qPrintable(problems[0].first().toString()));
        QVERIFY2(problems[1].first().toString().contains("pipe.json is not a regular file (a FIFO)"),
            qPrintable(problems[1].first().toString()));
        QVERIFY(!window->session().isLoading());
        for (auto* box : window->findChildren<QMessageBox*>())
            box->close();
        QElapsedTimer clock;
        clock.start();
        window->close();
        window.reset();
        QVERIFY(clock.elapsed() < 5000);
    }

    // --overlay of good and bad files in the window: the good ones are overlaid, each bad one said by name.
    void aBadOverlayCostsOnlyItself()
    {
        AppOptions options;
        options.overlays =
            QStringList { path("good.json"), path("folder.json"), path("junk.json"), path("pipe.json"), path("good-too.json") };
        MainWindow window(noGpu(), options);
        window.show();
        QVERIFY(QTest::qWaitFor([&] { return !window.session().isLoading(); }, 30000));
        QCOMPARE(window.session().overlays().size(), std::size_t(2));
        QStringList said;
        for (auto* box : window.findChildren<QMessageBox*>())
            said << box->text();
        const QString all = said.join('\n');
        QVERIFY2(all.contains("folder.json") && all.contains("junk.json") && all.contains("pipe.json"), qPrintable(all));
    }

    // File › Open results… with a directory, a FIFO and junk among good files: read off the GUI thread, the good
    // ones shown, each bad one named with why.
    void openResultsShowsTheGoodFilesAndNamesTheBad()
    {
        MainWindow window(noGpu());
        window.show();
        QSignalSpy done(&window.files(), &FileActions::done);
        ResultsWindow* results = window.files().openResults(
            { path("good.json"), path("folder.json"), path("pipe.json"), path("junk.json"), path("good-too.json") });
        QVERIFY(results);
        QSignalSpy read(results, &ResultsWindow::filesRead);
        QVERIFY(read.wait(10000));
        const QStringList problems = read.first().first().toStringList();
        QCOMPARE(problems.size(), 3);
        QVERIFY2(problems.join('\n').contains("folder.json is a directory"), qPrintable(problems.join('\n')));
        QVERIFY2(problems.join('\n').contains("pipe.json is not a regular file (a FIFO)"), qPrintable(problems.join('\n')));
        QCOMPARE(results->hosts().size(), std::size_t(2));
        QVERIFY(results->isVisible());
        QVERIFY(results->problemsText().contains("junk.json"));
        QCOMPARE(done.size(), 1);
        // The status line said it was reading them; it now says how that ended, and then not "Reading …" again.
        QVERIFY2(window.statusText().startsWith("Opened 2 result file"), qPrintable(window.statusText()));
        QVERIFY(QTest::qWaitFor([&] { return !window.statusText().startsWith("Opened"); }, 10000));
        QVERIFY2(!window.statusText().startsWith("Reading"), qPrintable(window.statusText()));
        results->close();
    }

    // A saved run of an older format cut short, opened from a folder: said as cut short, where, with the folder.
    void anOldFileCutShortIsSaidSoWithItsFolder_data()
    {
        QTest::addColumn<QByteArray>("bytes");
        QTest::addColumn<QString>("name");
        const QByteArray whole = savedSeries(3, false);
        QTest::newRow("format 2, in a text") << whole.left(whole.indexOf("\"d2h\"") + 3) << "cut-in-text.json";
        QTest::newRow("format 2, in a number") << whole.left(whole.indexOf("2.5}") + 2) << "cut-in-number.json";
        QTest::newRow("format 2, after a run") << whole.left(whole.indexOf("\n{\"run\": 2")) << "cut-after-run.json";
    }

    void anOldFileCutShortIsSaidSoWithItsFolder()
    {
        QFETCH(QByteArray, bytes);
        QFETCH(QString, name);
        QVERIFY(QDir(m_dir.path()).mkpath("old"));
        const QString file = path("old/" + name);
        QVERIFY(writeFile(file, bytes));
        MainWindow window(noGpu());
        window.show();
        QSignalSpy failed(&window.session(), &SessionModel::loadFailed);
        QVERIFY(window.files().openSaved(file));
        QVERIFY(failed.wait(30000));
        const QString message = QString::fromStdString(failed.first().at(2).value<Error>().message());
        QVERIFY2(message.contains("old/" + name + ": "), qPrintable(message));  // the folder, not the name alone
        QVERIFY2(message.contains("cut short") && message.contains("line "), qPrintable(message));
        for (auto* box : window.findChildren<QMessageBox*>())
            box->close();
    }

    // A file of a format that does not record the host check (JSON 1 and 2, CSV): the timeline's check row says so,
    // with the format; a file that records it says nothing of the kind.
    void aFormatWithoutTheCheckSaysSo()
    {
        const Report report = testing::classicReport(4);
        const QString csv = path("check.csv");
        const QString current = path("check.json");
        {
            std::ofstream out(csv.toStdString(), std::ios::binary);
            writeCsv(out, report);
            std::ofstream json(current.toStdString(), std::ios::binary);
            writeJson(json, report, assessSeries(report));
        }
        MainWindow window(noGpu());
        window.show();
        auto* timeline = window.findChild<TimelinePanel*>();
        QVERIFY(timeline);
        window.tabs().setCurrentWidget(timeline);
        const std::pair<QString, QString> files[] = { { path("good.json"), "not recorded (JSON format 2)" },
            { csv, "not recorded (CSV)" }, { current, QString() } };
        for (const auto& [file, said] : files) {
            QSignalSpy loaded(&window.session(), &SessionModel::savedLoaded);
            QVERIFY(window.files().openSaved(file));
            QVERIFY(loaded.wait(30000));
            timeline->refresh();
            QCOMPARE(timeline->view().checkRowText(), said);
        }
    }

    // A row per stream, but never more than a run can have: config.streams of 1e9 or a span's stream of 5e7 make no
    // more rows than kMaxStreams; spans no run can have are left out.
    void timelineRowsAreBounded()
    {
        RunResult run;
        run.gpuMs = 2.0;
        Span h2d;
        h2d.kind = SpanKind::H2D;
        h2d.endMs = 1.0;
        run.spans.push_back(h2d);
        Span far = h2d;
        far.stream = 50000000;
        run.spans.push_back(far);
        Span negative = h2d;
        negative.stream = -3;
        run.spans.push_back(negative);
        Span notANumber = h2d;
        notANumber.endMs = std::numeric_limits<double>::quiet_NaN();
        run.spans.push_back(notANumber);
        Span backwards = h2d;
        backwards.beginMs = 1.5;
        backwards.endMs = 0.5;
        run.spans.push_back(backwards);
        Span huge = h2d;
        huge.endMs = std::numeric_limits<double>::infinity();
        run.spans.push_back(huge);

        TimelineLayout layout;
        layout.setRun(run, 1000000000);
        QVERIFY2(layout.rows().size() <= std::size_t(kMaxStreams) + 2, qPrintable(QString::number(layout.rows().size())));
        QCOMPARE(layout.blocks().size(), std::size_t(1));  // the one span a run can have
        QVERIFY(std::isfinite(layout.fullEnd()));

        layout.setRun(run, 4);
        QCOMPARE(layout.rows().size(), std::size_t(2 + 4));  // the CPU rows and a row per stream
        QCOMPARE(layout.blocks().size(), std::size_t(1));
        layout.setPlot(QRectF(0, 0, 800, 400));
        QCOMPARE(layout.blocks().front().row, 2);
        QVERIFY(layout.ticks().at.size() < 100);
    }

    // A 100 KB name is cut to kMaxNameBytes wherever the window shows it; a character is never split.
    void longNamesAreCut()
    {
        const std::string longName(100000, 'x');
        const QString cut = shownName(longName);
        QVERIFY(std::size_t(cut.toUtf8().size()) <= kMaxNameBytes);
        QVERIFY(cut.endsWith(QChar(0x2026)));
        std::string wide;
        while (wide.size() < 1000)
            wide += "\xc3\xa9";  // é, two bytes
        const QByteArray wideCut = shownName(wide).toUtf8();
        QVERIFY(std::size_t(wideCut.size()) <= kMaxNameBytes);
        QVERIFY(!QString::fromUtf8(wideCut).contains(QChar::ReplacementCharacter));
        QCOMPARE(shownName(std::string("NVIDIA H200")), QString("NVIDIA H200"));

        SideBySideRow row;
        row.host = longName;
        row.name = longName;
        row.pciBusId = longName;
        row.errorKind = "io";
        row.error = longName;
        SideBySideModel model;
        model.setRows({ row });
        for (int column : { SideBySideModel::Host, SideBySideModel::Name, SideBySideModel::BusId, SideBySideModel::Flags }) {
            const QString text = model.index(0, column).data().toString();
            QVERIFY2(std::size_t(text.toUtf8().size()) <= 2 * kMaxNameBytes + 2, qPrintable(QString::number(column)));
        }

        // A saved series with a 100 KB device name: where the reader takes it, the window's title and the overlay's
        // legend are cut; where it refuses it, the message says so.
        const QString named = path("long-name.json");
        QVERIFY(writeFile(named, savedSeries(3, false, QByteArray(100000, 'G'))));
        MainWindow window(noGpu());
        window.show();
        QSignalSpy problems(&window.files(), &FileActions::problem);
        QVERIFY(window.files().openSaved(named));
        QVERIFY(QTest::qWaitFor([&] { return !window.session().isLoading(); }, 30000));
        if (problems.isEmpty()) {
            QVERIFY2(std::size_t(window.windowTitle().toUtf8().size()) < 2 * kMaxNameBytes,
                qPrintable(QString::number(window.windowTitle().size())));
        } else {
            QVERIFY(problems.first().first().toString().contains("long-name.json"));
        }
    }

    // A series whose values no run has (1e308 ms, negative, the smallest double) is drawn in every tab without a
    // hang, or refused by name: the views size nothing by the values.
    void everyTabDrawsAnAbsurdSeries()
    {
        QByteArray text = savedSeries(3, false);
        int at = 0;
        for (const char* value : { "1e308", "-5", "5e-324" }) {
            at = text.indexOf("\"gpu_time_ms\": 2.5", at);
            QVERIFY(at >= 0);
            text.replace(at, int(qstrlen("\"gpu_time_ms\": 2.5")), QByteArray("\"gpu_time_ms\": ") + value);
            ++at;
        }
        const QString absurd = path("absurd.json");
        QVERIFY(writeFile(absurd, text));
        MainWindow window(noGpu());
        window.resize(1000, 700);
        window.show();
        QSignalSpy problems(&window.files(), &FileActions::problem);
        QVERIFY(window.files().openSaved(absurd));
        QVERIFY(QTest::qWaitFor([&] { return !window.session().isLoading(); }, 30000));
        if (!problems.isEmpty()) {
            QVERIFY(problems.first().first().toString().contains("absurd.json"));
            return;
        }
        QCOMPARE(window.session().report().runs.size(), std::size_t(3));
        auto* tabs = window.findChild<QTabWidget*>();
        QVERIFY(tabs);
        QElapsedTimer clock;
        clock.start();
        for (int i = 0; i < tabs->count(); ++i) {
            tabs->setCurrentIndex(i);
            QVERIFY(!window.grab().isNull());
        }
        QVERIFY(clock.elapsed() < 20000);
    }

    // The settings file a FIFO or a directory: the window starts at once on the defaults, says so in the status bar,
    // and closes without touching it.
    void aSettingsFileThatIsNotAFileLeavesTheDefaults_data()
    {
        QTest::addColumn<bool>("fifo");
        QTest::newRow("FIFO") << true;
        QTest::newRow("directory") << false;
    }

    void aSettingsFileThatIsNotAFileLeavesTheDefaults()
    {
        QFETCH(bool, fifo);
        QTemporaryDir config;
        QVERIFY(config.isValid());
        const QByteArray before = qgetenv("XDG_CONFIG_HOME");
        qputenv("XDG_CONFIG_HOME", QFile::encodeName(config.path()));
        const QString folder = config.filePath(QCoreApplication::organizationName());
        QVERIFY(QDir().mkpath(folder));
        const QString file = folder + '/' + QCoreApplication::applicationName() + ".conf";
        QVERIFY(fifo ? makeFifo(file) : QDir().mkdir(file));

        QVERIFY2(settingsFileProblem().contains(fifo ? "a FIFO" : "is a directory"), qPrintable(settingsFileProblem()));
        QElapsedTimer clock;
        clock.start();
        const GuiSettings loaded = loadSettings();
        QCOMPARE(loaded.config.runs, defaultSettings().config.runs);
        {
            MainWindow window(noGpu());
            window.show();
            auto* note = window.findChild<QLabel*>("settingsNote");
            QVERIFY(note);
            QVERIFY2(note->text().contains(QCoreApplication::applicationName() + ".conf"), qPrintable(note->text()));
            window.close();
        }
        QVERIFY(clock.elapsed() < 10000);
        QCOMPARE(QFileInfo(file).isFile(), false);  // left as it was
        qputenv("XDG_CONFIG_HOME", before);
    }
};

QTEST_MAIN(HostileFilesTest)
#include "hostile_files_test.moc"

// Saved runs read off the GUI thread: the loader's thread, its progress, cancel and teardown; the session reading
// files in turn; the window's progress dialog; `--open` with and without a display, with no GPU.
#include "classic_runs.hpp"
#include "fake_backend.hpp"
#include "window_waits.hpp"

#include "gui/app/file_actions.hpp"
#include "gui/app/main_window.hpp"
#include "gui/session/report_loader.hpp"
#include "gui/session/session_model.hpp"

#include "engine/io/csv/csv_report.hpp"
#include "engine/io/json/json_report.hpp"
#include "engine/model/advice.hpp"

#include <QComboBox>
#include <QFile>
#include <QImage>
#include <QMessageBox>
#include <QPointer>
#include <QProgressDialog>
#include <QPushButton>
#include <QSignalSpy>
#include <QTemporaryDir>
#include <QTest>
#include <QThread>

#include <atomic>
#include <fstream>

using namespace asyncscope;
using asyncscope::testing::FakeBackend;
using asyncscope::testing::waitForDevices;

namespace {

// A series of the classic pipeline saved as the CLI saves it.
QString saveSeries(const QTemporaryDir& dir, const QString& name, std::size_t runs)
{
    const QString path = dir.filePath(name);
    const Report report = asyncscope::testing::classicReport(runs);
    std::ofstream out(path.toStdString(), std::ios::binary);
    path.endsWith(".csv") ? writeCsv(out, report) : writeJson(out, report, assessSeries(report));
    return path;
}

std::shared_ptr<FakeBackend> noGpu()
{
    auto backend = std::make_shared<FakeBackend>();
    backend->discoveryError = makeError(ErrorKind::NoDriver, "no driver");
    return backend;
}

}  // namespace

class ReportLoaderTest : public QObject {
    Q_OBJECT
private slots:
    void initTestCase() { QVERIFY(m_dir.isValid()); }

    // The file is read on a thread of the loader's own, which reports progress as it reads.
    void readsOffTheGuiThread()
    {
        const QString path = saveSeries(m_dir, "small.json", 5000);
        ReportLoader loader;
        std::atomic<QThread*> reader { nullptr };
        std::vector<double> fractions;
        connect(&loader, &ReportLoader::progress, &loader, [&](double) { reader = QThread::currentThread(); },
            Qt::DirectConnection);
        connect(&loader, &ReportLoader::progress, this, [&](double f) { fractions.push_back(f); });
        QSignalSpy finished(&loader, &ReportLoader::finished);
        QVERIFY(loader.start(path));
        QVERIFY(loader.isRunning());
        QVERIFY(!loader.start(path));  // one read at a time
        QVERIFY(finished.wait(30000));
        QVERIFY(!loader.isRunning());
        QVERIFY(reader.load() != nullptr);
        QVERIFY(reader.load() != QThread::currentThread());
        QVERIFY(reader.load() != qApp->thread());
        QVERIFY(!fractions.empty());
        QCOMPARE(fractions.back(), 1.0);
        auto saved = loader.takeResult();
        QVERIFY2(saved.ok(), saved.ok() ? "" : saved.error().message().c_str());
        QCOMPARE(saved->report.runs.size(), std::size_t(5000));
        QCOMPARE(saved->label, QString("small · H200"));
        QVERIFY(saved->prepared.summary);  // made as it was read, and so are the charts' points and values
        QVERIFY(saved->prepared.points && saved->prepared.points->isOf(saved->report.runs));
        QVERIFY(saved->prepared.times && saved->prepared.times->isOf(saved->report.runs));
        QVERIFY(!loader.takeResult().ok());  // taken once
    }

    // A cancel from the reading thread itself (the progress callback) stops the read: Cancelled, nothing kept.
    void aReadCanBeCancelled()
    {
        const QString path = saveSeries(m_dir, "cancelled.csv", 150000);
        ReportLoader loader;
        const auto cancelling = connect(&loader, &ReportLoader::progress, &loader, [&](double f) {
            if (f > 0.0)
                loader.cancel();
        }, Qt::DirectConnection);
        QSignalSpy finished(&loader, &ReportLoader::finished);
        QVERIFY(loader.start(path));
        QVERIFY(finished.wait(30000));
        const auto saved = loader.takeResult();
        QVERIFY(!saved.ok());
        QCOMPARE(saved.error().kind, ErrorKind::Cancelled);
        QVERIFY(QString::fromStdString(saved.error().message()).startsWith(path + ": "));  // named as given
        // And the loader reads again afterwards.
        disconnect(cancelling);
        QVERIFY(loader.start(saveSeries(m_dir, "again.csv", 10)));
        QVERIFY(finished.wait(30000));
        QVERIFY(loader.takeResult().ok());
    }

    // A loader destroyed during a read cancels it and waits for its thread: the thread has ended and is gone once
    // the destructor returns, and nothing it read is delivered afterwards.
    void destroyedWhileReadingIsClean()
    {
        const QString path = saveSeries(m_dir, "destroyed.json", 150000);
        auto loader = std::make_unique<ReportLoader>();
        std::atomic<QThread*> reading { nullptr };
        connect(loader.get(), &ReportLoader::progress, loader.get(),
            [&reading](double) { reading = QThread::currentThread(); }, Qt::DirectConnection);
        QSignalSpy finished(loader.get(), &ReportLoader::finished);
        QVERIFY(loader->start(path));
        QVERIFY(QTest::qWaitFor([&] { return reading.load() != nullptr; }, 30000));  // mid-read
        QVERIFY(loader->isRunning());
        const QPointer<QThread> thread(reading.load());
        QVERIFY(thread);
        QVERIFY(thread != QThread::currentThread());
        loader.reset();
        QVERIFY(thread.isNull());  // waited for and deleted, not left running
        QCOMPARE(finished.count(), 0);
        QCoreApplication::sendPostedEvents();
        QCOMPARE(finished.count(), 0);  // no word from a loader that is gone
    }

    // The session reads the files asked for one after the other; one that cannot be read leaves the rest alone, and
    // one that is not there is refused at once, by name, without a read.
    void theSessionReadsFilesInTurn()
    {
        const QString shown = saveSeries(m_dir, "shown.json", 300);
        const QString overlaid = saveSeries(m_dir, "overlaid.csv", 200);
        const QString junk = m_dir.filePath("junk.json");
        {
            QFile f(junk);
            QVERIFY(f.open(QIODevice::WriteOnly));
            f.write("{\"hello\": 1}");
        }
        SessionModel session(noGpu());
        QSignalSpy started(&session, &SessionModel::loadStarted);
        QSignalSpy loaded(&session, &SessionModel::savedLoaded);
        QSignalSpy failed(&session, &SessionModel::loadFailed);
        QVERIFY(!session.openSaved(shown));
        const Status missing = session.addOverlay(m_dir.filePath("missing.json"));
        QVERIFY(missing);
        QVERIFY2(missing->message().find("missing.json does not exist") != std::string::npos, missing->message().c_str());
        QVERIFY(!session.addOverlay(junk));
        QVERIFY(!session.addOverlay(overlaid));
        QVERIFY(session.isLoading());
        QVERIFY(session.report().runs.empty());  // nothing is shown before it is read
        QVERIFY(QTest::qWaitFor([&] { return !session.isLoading(); }, 30000));
        QCOMPARE(started.size(), 3);
        QCOMPARE(loaded.size(), 2);
        QCOMPARE(loaded.at(0).at(0).toString(), shown);
        QCOMPARE(loaded.at(0).at(1).toBool(), false);
        QCOMPARE(loaded.at(1).at(0).toString(), overlaid);
        QCOMPARE(failed.size(), 1);
        const Error error = failed.first().at(2).value<Error>();
        QVERIFY2(error.message().rfind(junk.toStdString() + ": ", 0) == 0, error.message().c_str());
        QCOMPARE(session.report().runs.size(), std::size_t(300));
        QVERIFY(session.prepared().points && session.prepared().points->isOf(session.report().runs));
        QVERIFY(session.prepared().times && session.prepared().times->isOf(session.report().runs));
        QCOMPARE(session.source().label(), QString("saved: shown · H200"));
        QCOMPARE(session.overlays().size(), std::size_t(1));
        QCOMPARE(session.overlays().front().report.runs.size(), std::size_t(200));
    }

    // The window shows a progress dialog that does not block it; Cancel stops the read without a message box.
    void theWindowsProgressDialogCancels()
    {
        const QString big = saveSeries(m_dir, "big.json", 150000);
        MainWindow window(noGpu());
        window.show();
        QVERIFY(waitForDevices(window));  // else the search's "No GPU can run here" may come after the read's word
        QVERIFY(window.files().openSaved(big));
        auto* dialog = window.findChild<QProgressDialog*>("loadProgress");
        QVERIFY(dialog);
        QCOMPARE(dialog->windowModality(), Qt::NonModal);
        auto* cancel = dialog->findChild<QPushButton*>();
        QVERIFY(cancel);
        cancel->click();
        QVERIFY(QTest::qWaitFor([&] { return !window.session().isLoading(); }, 30000));
        QVERIFY(window.session().report().runs.empty());
        QVERIFY(!window.findChild<QMessageBox*>());
        QVERIFY2(window.statusText().contains("Stopped reading"), qPrintable(window.statusText()));
        QTRY_VERIFY(!window.findChild<QProgressDialog*>("loadProgress"));

        // Read to the end, the series is shown and the dialog goes.
        QVERIFY(window.files().openSaved(saveSeries(m_dir, "read.json", 2000)));
        QVERIFY(QTest::qWaitFor([&] { return !window.session().isLoading(); }, 30000));
        QCOMPARE(window.session().report().runs.size(), std::size_t(2000));
        QTRY_VERIFY(!window.findChild<QProgressDialog*>("loadProgress"));
    }

    // --open shows a saved series with no GPU at all; headless, it saves the chart and quits; a file that cannot be
    // read ends a headless run with 2.
    void openFromTheCommandLine()
    {
        AppOptions options;
        options.open = saveSeries(m_dir, "opened.csv", 40);
        MainWindow viewer(noGpu(), options);
        viewer.show();
        QVERIFY(QTest::qWaitFor([&] { return !viewer.session().isLoading(); }, 30000));
        QCOMPARE(viewer.session().report().runs.size(), std::size_t(40));
        QVERIFY2(viewer.windowTitle().contains("saved: opened"), qPrintable(viewer.windowTitle()));

        options.exportPng = m_dir.filePath("opened.png");
        MainWindow headless(noGpu(), options);
        QSignalSpy finished(&headless, &MainWindow::headlessFinished);
        headless.show();
        QVERIFY(finished.wait(30000));
        QCOMPARE(finished.first().first().toInt(), 0);
        QCOMPARE(QImage(options.exportPng).size(), options.exportSize);

        // A picture of the window waits for the device search: its GPU list is filled in, or says why it is empty.
        for (const bool found : { true, false }) {
            auto slowSearch = found ? std::make_shared<FakeBackend>() : noGpu();
            slowSearch->discoveryDelay = std::chrono::milliseconds(1500);  // longer than reading 40 runs
            options.screenshot = m_dir.filePath("opened-window.png");
            MainWindow pictured(slowSearch, options);
            QSignalSpy done(&pictured, &MainWindow::headlessFinished);
            pictured.show();
            QVERIFY(done.wait(30000));
            QCOMPARE(done.first().first().toInt(), 0);
            const QString gpu = pictured.findChild<QComboBox*>("device")->currentText();
            QVERIFY2(!gpu.contains("Looking"), qPrintable(gpu));
            QCOMPARE(pictured.runEnabled(), found);
            QCOMPARE(pictured.deviceMessage().isEmpty(), found);
            QVERIFY(!QImage(options.screenshot).isNull());
        }
        options.screenshot.clear();

        options.open = m_dir.filePath("nothing-here.json");
        options.exportPng = m_dir.filePath("never.png");
        MainWindow missing(noGpu(), options);
        QSignalSpy ended(&missing, &MainWindow::headlessFinished);
        missing.show();
        QVERIFY(ended.wait(30000));
        QCOMPARE(ended.first().first().toInt(), 2);
        QVERIFY(!QFile::exists(options.exportPng));
    }

private:
    QTemporaryDir m_dir;
};

QTEST_MAIN(ReportLoaderTest)
#include "report_loader_test.moc"

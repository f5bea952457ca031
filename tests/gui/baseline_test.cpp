// Comparing the series shown with a baseline: two saved H200 series of one configuration (tests/data/h200: the
// machine's series is about 90 % slower in GPU time than the plain one), series run on the fake backend (another
// configuration than the H200's), files that cannot be a baseline, and headless runs. The Summary tab's comparison
// columns, the Difference tab's rows, the status line's verdict, the question before comparing across
// configurations, and clearing the baseline.
#include "classic_runs.hpp"
#include "fake_backend.hpp"
#include "window_waits.hpp"

#include "gui/app/app_exit.hpp"
#include "gui/app/app_options.hpp"
#include "gui/app/file_actions.hpp"
#include "gui/app/main_window.hpp"
#include "gui/app/window_actions.hpp"
#include "gui/charts/difference_view.hpp"
#include "gui/charts/summary_table.hpp"
#include "gui/series/shown_name.hpp"
#include "gui/session/session_model.hpp"

#include "engine/io/baseline_report.hpp"
#include "engine/io/host_record_json.hpp"
#include "engine/io/json/json_report.hpp"
#include "engine/io/report_file.hpp"
#include "engine/io/result_file.hpp"
#include "engine/run/plan_advice.hpp"

#include <QAction>
#include <QImage>
#include <QMessageBox>
#include <QPainter>
#include <QPushButton>
#include <QSettings>
#include <QSignalSpy>
#include <QSpinBox>
#include <QTabWidget>
#include <QTemporaryDir>
#include <QTest>
#include <QTimer>

#include <algorithm>
#include <cmath>
#include <fstream>

using namespace asyncscope;
using asyncscope::testing::FakeBackend;
using asyncscope::testing::waitForDevices;
using State = BaselineController::State;

namespace {

// The plain series (the baseline) and the one of the machine's test, slower: the same configuration.
QString dataFile(const char* name)
{
    return QStringLiteral(ASYNCSCOPE_TEST_DATA "/h200/%1").arg(QLatin1String(name));
}
const QString kBaseline = dataFile("h200-series.json");
const QString kSlower = dataFile("h200-machine.json");

std::shared_ptr<FakeBackend> noGpu()
{
    auto backend = std::make_shared<FakeBackend>();
    backend->discoveryError = makeError(ErrorKind::NoDriver, "no driver");
    return backend;
}

std::unique_ptr<MainWindow> shownWindow(std::shared_ptr<FakeBackend> backend)
{
    auto window = std::make_unique<MainWindow>(std::move(backend));
    window->resize(1400, 900);
    window->show();
    return window;
}

SessionModel& sessionOf(MainWindow& window)
{
    return const_cast<SessionModel&>(window.session());
}

// Waits for the files asked for to be read and for the comparison they bring, and for its end to reach the views.
bool settled(MainWindow& window)
{
    const SessionModel& s = window.session();
    if (!QTest::qWaitFor([&] { return !s.isLoading() && !s.isRunning(); }, 30000))
        return false;
    sessionOf(window).baselines().settle();
    return s.baselines().state() != State::Comparing;
}

SummaryTable& showSummary(MainWindow& window)
{
    auto* table = const_cast<SummaryTable*>(&window.summary());
    window.tabs().setCurrentWidget(table);
    return *table;
}

int rowNamed(const SummaryTable& table, const QString& name)
{
    for (int row = 0; row < table.rowCount(); ++row) {
        if (table.verticalHeaderItem(row) && table.verticalHeaderItem(row)->text() == name)
            return row;
    }
    return -1;
}

QString cellText(const SummaryTable& table, int row, const QString& column)
{
    const int c = table.columnNamed(column);
    const QTableWidgetItem* item = c >= 0 && row >= 0 ? table.item(row, c) : nullptr;
    return item ? item->text() : QString();
}

// The question before comparing across configurations, where it is open.
QMessageBox* openQuestion(MainWindow& window)
{
    for (QMessageBox* box : window.findChildren<QMessageBox*>("acrossConfigurations")) {
        if (box->isVisible())
            return box;
    }
    return nullptr;
}

// Waits for the question to be asked.
QMessageBox* question(MainWindow& window)
{
    QMessageBox* box = nullptr;
    const bool asked = QTest::qWaitFor([&] { return (box = openQuestion(window)) != nullptr; }, 30000);
    return asked ? box : nullptr;
}

// WCAG's contrast ratio of two colours: 1 (the same) to 21 (black on white).
double contrast(const QColor& a, const QColor& b)
{
    const auto luminance = [](const QColor& c) {
        const auto channel = [](double v) { return v <= 0.03928 ? v / 12.92 : std::pow((v + 0.055) / 1.055, 2.4); };
        return 0.2126 * channel(c.redF()) + 0.7152 * channel(c.greenF()) + 0.0722 * channel(c.blueF());
    };
    const double la = luminance(a), lb = luminance(b);
    return (std::max(la, lb) + 0.05) / (std::min(la, lb) + 0.05);
}

// Runs a series of `runs` measured runs on the window's fake GPU and waits for it to end.
bool runSeries(MainWindow& window, int runs)
{
    if (!waitForDevices(window))
        return false;
    window.findChild<QSpinBox*>("runs")->setValue(runs);
    QSignalSpy ended(&window, &MainWindow::planEnded);
    window.findChild<QPushButton*>("run")->click();
    return ended.wait(60000);
}

// A headless run of `options` as gui/app/main.cpp drives it: its exit status, its message and what the window showed
// as it ended.
struct Headless {
    int code = 99;
    QString message;
    QString baselineStatus;
    QString tab;
    std::size_t differenceRows = 0;
};
Headless runHeadless(std::shared_ptr<FakeBackend> backend, const AppOptions& options)
{
    AppExit exit;
    MainWindow window(std::move(backend), options);
    Headless out;
    QObject::connect(&window, &MainWindow::headlessFinished, &window, [&](int code, const QString& text) {
        out.message = text;
        out.baselineStatus = window.baselineStatus();
        out.tab = window.tabs().tabText(window.tabs().currentIndex());
        out.differenceRows = window.difference().rows().size();
        exit.end(window, code);
    });
    QTimer::singleShot(30000, &window, [&] { exit.end(window, 99); });
    window.show();
    out.code = exit.exec();
    return out;
}

}  // namespace

class BaselineTest : public QObject {
    Q_OBJECT
private:
    QTemporaryDir m_dir;

private slots:
    void initTestCase()
    {
        QCoreApplication::setOrganizationName("AsyncScopeTests");
        QCoreApplication::setApplicationName("BaselineTest");
        QSettings().clear();
        QVERIFY(m_dir.isValid());
    }

    void init() { QSettings().clear(); }

    // The slower series against the plain one: the Summary gains the comparison's columns with the engine's words,
    // GPU time is slower and tinted; the Difference tab has a row per tested quantity and exports; the status line
    // gives the verdict; clearing the baseline takes all of it away.
    void aSlowerSeriesIsSaidSlowerEverywhere_AndClearingTakesItAway()
    {
        auto window = shownWindow(noGpu());
        QVERIFY(waitForDevices(*window));
        SummaryTable& table = showSummary(*window);
        const int plainColumns = table.columnCount();
        QCOMPARE(plainColumns, 7);
        QVERIFY(!window->actions().clearBaseline->isEnabled());
        QVERIFY(window->files().openSaved(kSlower));
        QVERIFY(window->files().setBaseline(kBaseline));
        QVERIFY(settled(*window));
        const SessionModel& session = window->session();
        QCOMPARE(session.baselines().state(), State::Compared);

        // Drawn as an overlay named for what it is.
        QVERIFY(session.baseline());
        QCOMPARE(session.overlays().size(), std::size_t(1));
        QVERIFY2(session.overlays().front().label.startsWith("baseline · h200-series"),
            qPrintable(session.overlays().front().label));
        const QStringList legend = window->charts().at(RunCharts::Time).legendNames();
        QVERIFY2(legend.contains(shortNames({ session.source().label(), session.overlays().front().label })[1]),
            qPrintable(legend.join(" | ")));  // cut in the middle where long

        // The Summary: five columns more, in place of the baseline's median column, with the engine's words.
        const BaselineComparison& c = *session.baselines().comparison();
        const QuantityComparison* gpu = c.quantity("gpu_time_ms");
        QVERIFY(gpu);
        QCOMPARE(table.columnCount(), plainColumns + 5);
        for (const char* column : { "Baseline", "Difference", "Interval", "p", "Verdict" })
            QVERIFY2(table.columnNamed(column) >= 0, column);
        const int row = rowNamed(table, "GPU time (ms)");
        QVERIFY(row >= 0);
        QCOMPARE(cellText(table, row, "Verdict"), QString("slower"));
        QCOMPARE(cellText(table, row, "Baseline"), QString::number(gpu->baseline, 'f', 4));
        QCOMPARE(cellText(table, row, "Difference"), QString("+89.90 %"));
        QCOMPARE(cellText(table, row, "Interval"), QString::fromStdString(intervalText(*gpu)));
        QCOMPARE(cellText(table, row, "p"), QString::fromStdString(pValueText(gpu->p)));
        QVERIFY(table.horizontalHeaderItem(table.columnNamed("Interval"))->text().contains("95 %"));
        const QTableWidgetItem* verdict = table.item(row, table.columnNamed("Verdict"));
        QVERIFY(verdict->background().style() != Qt::NoBrush);  // tinted
        // CPU submit time is faster: another tint; a single figure has no verdict and says so in the interval.
        const int submit = rowNamed(table, "CPU submit time (ms)");
        QCOMPARE(cellText(table, submit, "Verdict"), QString("faster"));
        QVERIFY(table.item(submit, table.columnNamed("Verdict"))->background().color() != verdict->background().color());
        const int noise = rowNamed(table, "Noise (%)");
        QVERIFY(noise >= 0);
        QCOMPARE(cellText(table, noise, "Interval"), QString("(one figure)"));
        QVERIFY(cellText(table, noise, "Verdict").isEmpty());
        QVERIFY(!table.horizontalHeaderItem(table.columnNamed("Verdict"))->text().contains("across"));

        // The status line: the engine's headline, the baseline's file named.
        const QString status = window->baselineStatus();
        QVERIFY2(status.startsWith("Baseline h200-series.json: GPU time slower by 89.90 % (interval "), qPrintable(status));
        QVERIFY2(status.contains(QString::fromStdString(c.headline())), qPrintable(status));
        // At 800 × 600 the status line keeps the verdict and its figure, dropping the file's name and the interval
        // first, never cut before the figure.
        const QSize was = window->size();
        window->resize(800, 600);
        QTRY_VERIFY(window->width() <= 800);
        QTRY_VERIFY(!window->baselineStatusShown().isEmpty());
        const QString shown = window->baselineStatusShown();
        QVERIFY2(shown.contains("GPU time slower by 89.90 %") && !shown.endsWith(QStringLiteral("…")),
            qPrintable(shown));
        window->resize(was);

        // The Difference tab: a row per quantity of every run whose baseline is not 0, with its verdict.
        const DifferenceView& difference = window->difference();
        std::size_t tested = 0;
        for (const QuantityComparison& q : c.quantities)
            tested += q.distribution && q.differencePercent ? 1 : 0;
        QVERIFY(tested >= 5);
        QCOMPARE(difference.rows().size(), tested);
        const DifferenceView::Row& first = difference.rows().front();
        QCOMPARE(first.name, QString("GPU time"));
        QCOMPARE(first.verdict, QString("slower"));
        QCOMPARE(first.percent, *gpu->differencePercent);
        QCOMPARE(first.low, *gpu->lowPercent);
        QCOMPARE(first.high, *gpu->highPercent);
        QVERIFY(difference.shown().across.isEmpty());
        QCOMPARE(difference.shown().band, c.settings.minDifferencePercent);
        // It exports as the charts do, through File › Export picture with its tab shown, and is drawn on screen.
        window->tabs().setCurrentWidget(const_cast<DifferenceView*>(&difference));
        // No name, verdict or figure cut, in a window of 800 × 600 and of 1280 × 800.
        for (const QSize size : { QSize(800, 600), QSize(1280, 800) }) {
            window->resize(size);
            QTRY_VERIFY(window->width() <= size.width());
            const QWidget* plot = difference.findChild<QWidget*>("differencePlot");
            QVERIFY(plot && plot->isVisible());
            QTRY_VERIFY(plot->width() < size.width());
            QImage drawn(plot->size(), QImage::Format_ARGB32);
            QPainter painter(&drawn);
            painter.setFont(plot->font());
            const QStringList cut = DifferenceView::paint(painter, QRectF(plot->rect()), plot->palette(),
                difference.shown());
            QVERIFY2(cut.isEmpty(), qPrintable(QString("%1 px: %2").arg(plot->width()).arg(cut.join(" | "))));
        }
        window->resize(was);
        QVERIFY(window->actions().exportPng->isEnabled());
        const QString png = m_dir.filePath("difference.png");
        QVERIFY(window->files().exportPictureTo(png, QSize(1600, 900)));
        QCOMPARE(QImage(png).size(), QSize(1600, 900));
        QVERIFY(!window->grab().isNull());

        // Clearing the baseline removes everything it added.
        QVERIFY(window->actions().clearBaseline->isEnabled());
        window->actions().clearBaseline->trigger();
        QVERIFY(!session.baseline());
        QCOMPARE(session.baselines().state(), State::None);
        QVERIFY(session.overlays().empty());
        showSummary(*window);
        QCOMPARE(table.columnCount(), plainColumns);
        QCOMPARE(table.columnNamed("Verdict"), -1);
        QVERIFY(window->baselineStatus().isEmpty());
        QVERIFY(difference.rows().empty());
        QVERIFY(difference.message().contains("No baseline"));
        QVERIFY(!window->actions().clearBaseline->isEnabled());
        window->tabs().setCurrentWidget(const_cast<DifferenceView*>(&difference));
        QVERIFY(!window->actions().exportPng->isEnabled());
    }

    // Remove overlays takes the baseline with them.
    void removingTheOverlaysRemovesTheBaseline()
    {
        auto window = shownWindow(noGpu());
        QVERIFY(window->files().openSaved(kSlower));
        QVERIFY(window->files().addOverlay(dataFile("h200-machine.csv")));  // the same series as CSV: a file of its own
        QVERIFY(window->files().setBaseline(kBaseline));
        QVERIFY(settled(*window));
        QCOMPARE(window->session().overlays().size(), std::size_t(2));
        SummaryTable& table = showSummary(*window);
        QCOMPARE(table.columnCount(), 7 + 1 + 5);  // the other overlay's median stays beside the comparison
        window->actions().removeOverlays->trigger();
        QVERIFY(!window->session().baseline());
        QCOMPARE(table.columnCount(), 7);
        QVERIFY(window->baselineStatus().isEmpty());
    }

    // The comparison is of the series shown: set before there is one, it waits for it; another file opened is
    // compared again; a baseline replaced is compared in its place.
    void theComparisonFollowsTheSeriesShownAndTheBaseline()
    {
        auto window = shownWindow(noGpu());
        QVERIFY(waitForDevices(*window));
        QVERIFY(window->files().setBaseline(kBaseline));
        QVERIFY(settled(*window));
        QCOMPARE(window->session().baselines().state(), State::NoSeries);
        QVERIFY2(window->baselineStatus().contains("run a series or open one"), qPrintable(window->baselineStatus()));
        QVERIFY(window->difference().rows().empty());

        QVERIFY(window->files().openSaved(kSlower));
        QVERIFY(settled(*window));
        QCOMPARE(window->session().baselines().state(), State::Compared);
        QVERIFY(window->baselineStatus().contains("GPU time slower by"));

        // The baseline itself, opened: every quantity the same, and a box says why.
        QSignalSpy notices(&window->files(), &FileActions::notice);
        QCOMPARE(notices.size(), 0);  // another series opened: nothing to say
        QVERIFY(window->files().openSaved(kBaseline));
        QVERIFY(settled(*window));
        QCOMPARE(notices.size(), 1);
        QVERIFY2(notices.first().first().toString().contains("both the series shown and the baseline"),
            qPrintable(notices.first().first().toString()));
        QVERIFY(window->session().showsBaseline());
        // Drawn once, as the series shown: no baseline line over it, nor in a picture of the chart.
        const auto baselineDrawn = [](const QStringList& names) {
            return std::any_of(names.begin(), names.end(), [](const QString& n) { return n.startsWith("baseline"); });
        };
        QVERIFY(window->session().drawnOverlays().empty());
        QVERIFY2(!baselineDrawn(window->charts().at(RunCharts::Time).legendNames()),
            qPrintable(window->charts().at(RunCharts::Time).legendNames().join(" | ")));
        SummaryTable& table = showSummary(*window);
        QCOMPARE(cellText(table, rowNamed(table, "GPU time (ms)"), "Verdict"), QString("same within noise"));
        QCOMPARE(cellText(table, rowNamed(table, "GPU time (ms)"), "Difference"), QString("+0.00 %"));
        QVERIFY2(window->baselineStatus().contains("GPU time same within noise"), qPrintable(window->baselineStatus()));
        for (const DifferenceView::Row& row : window->difference().rows())
            QCOMPARE(row.kind, Verdict::Same);

        // The slower series as the baseline in its place: the plain one is faster, and only one baseline is drawn.
        QVERIFY(window->files().setBaseline(kSlower));
        QVERIFY(settled(*window));
        QCOMPARE(window->session().overlays().size(), std::size_t(1));
        QVERIFY(window->session().baseline()->path == kSlower);
        QCOMPARE(window->session().drawnOverlays().size(), std::size_t(1));  // another file: drawn again
        QVERIFY(baselineDrawn(window->charts().at(RunCharts::Time).legendNames()));
        QCOMPARE(cellText(table, rowNamed(table, "GPU time (ms)"), "Verdict"), QString("faster"));
        QVERIFY2(window->baselineStatus().startsWith("Baseline h200-machine.json: GPU time faster by"),
            qPrintable(window->baselineStatus()));
    }

    // A file is drawn once: overlaid, then made the baseline, it is the baseline alone; the baseline overlaid again is
    // refused, saying it is drawn already. The series shown made the baseline is said to be compared with itself.
    void theBaselineIsNeverAlsoAnOverlay()
    {
        auto window = shownWindow(noGpu());
        QVERIFY(window->files().openSaved(kSlower));
        QVERIFY(window->files().addOverlay(kBaseline));
        QVERIFY(settled(*window));
        QCOMPARE(window->session().overlays().size(), std::size_t(1));
        QSignalSpy done(&window->files(), &FileActions::done);
        QVERIFY(window->files().setBaseline(kBaseline));
        QVERIFY(settled(*window));
        QCOMPARE(window->session().overlays().size(), std::size_t(1));
        QVERIFY(window->session().baseline() == &window->session().overlays().front());
        QVERIFY(!done.isEmpty());
        QVERIFY2(done.last().first().toString().contains("no longer overlaid, as it is the baseline"),
            qPrintable(done.last().first().toString()));

        QSignalSpy problems(&window->files(), &FileActions::problem);
        QVERIFY(window->files().addOverlay(kBaseline));  // read first, then refused
        QVERIFY(QTest::qWaitFor([&] { return !problems.isEmpty(); }, 10000));
        QVERIFY2(problems.first().first().toString().contains("is the baseline: it is drawn already"),
            qPrintable(problems.first().first().toString()));
        QCOMPARE(window->session().overlays().size(), std::size_t(1));
        QVERIFY(!window->session().showsBaseline());

        // The series shown made the baseline: compared with itself, and said so.
        QSignalSpy notices(&window->files(), &FileActions::notice);
        QVERIFY(window->files().setBaseline(kSlower));
        QVERIFY(settled(*window));
        QVERIFY(window->session().showsBaseline());
        QCOMPARE(notices.size(), 1);
        QVERIFY2(notices.first().first().toString().contains("the comparison is of the series with itself"),
            qPrintable(notices.first().first().toString()));
    }

    // Another configuration than the series shown (the fake GPU's series against an H200's): the window asks before
    // comparing. Cancel leaves no baseline; Compare anyway compares and every view says it is across configurations;
    // the next series of the same configuration is compared without asking again, once it ends.
    void anotherConfigurationAsksFirst()
    {
        auto window = shownWindow(std::make_shared<FakeBackend>());
        QVERIFY(runSeries(*window, 20));
        const SessionModel& session = window->session();
        SummaryTable& table = showSummary(*window);

        QVERIFY(window->files().setBaseline(kBaseline));
        QMessageBox* box = question(*window);
        QVERIFY(box);
        QVERIFY2(box->text().contains("device: NVIDIA H200 → Fake"), qPrintable(box->text()));
        QCOMPARE(session.baselines().state(), State::NeedsConsent);
        QVERIFY(window->baselineStatus().contains("the configurations differ"));
        QVERIFY(window->difference().rows().empty());
        QCOMPARE(table.columnNamed("Verdict"), -1);
        box->button(QMessageBox::Cancel)->click();
        QVERIFY(!session.baseline());
        QVERIFY(session.overlays().empty());
        QCOMPARE(session.baselines().state(), State::None);
        QVERIFY(window->baselineStatus().isEmpty());
        QVERIFY(!openQuestion(*window));

        QVERIFY(window->files().setBaseline(kBaseline));
        box = question(*window);
        QVERIFY(box);
        box->findChild<QPushButton*>("compareAnyway")->click();
        QVERIFY(settled(*window));
        QCOMPARE(session.baselines().state(), State::Compared);
        QVERIFY(session.baselines().comparison()->acrossConfigurations);
        QVERIFY2(window->baselineStatus().contains("across configurations: device NVIDIA H200 → Fake"),
            qPrintable(window->baselineStatus()));
        QVERIFY(!window->baselineStatus().contains("compared anyway"));  // the user was asked
        QVERIFY(table.horizontalHeaderItem(table.columnNamed("Verdict"))->text().contains("across configurations"));
        QVERIFY(window->difference().shown().across.startsWith("Across configurations: device"));
        QVERIFY(!window->difference().rows().empty());

        // A new series: not compared while it runs, compared as it ends, not asked again.
        QSignalSpy ended(window.get(), &MainWindow::planEnded);
        window->findChild<QPushButton*>("run")->click();
        QVERIFY(session.isRunning());
        QCOMPARE(session.baselines().state(), State::Measuring);
        QVERIFY(window->baselineStatus().contains("compared when the series ends"));
        QCOMPARE(table.columnNamed("Verdict"), -1);
        QVERIFY(ended.wait(60000));
        QVERIFY(settled(*window));
        QCOMPARE(session.baselines().state(), State::Compared);
        QVERIFY(!openQuestion(*window));
        QVERIFY(window->baselineStatus().contains("across configurations"));
        QVERIFY(table.columnNamed("Verdict") >= 0);
    }

    // A question answered no for a baseline already compared keeps it, not compared, and says why.
    void declinedForALaterSeriesKeepsTheBaseline()
    {
        auto window = shownWindow(std::make_shared<FakeBackend>());
        QVERIFY(waitForDevices(*window));
        QVERIFY(window->files().openSaved(kSlower));
        QVERIFY(window->files().setBaseline(kBaseline));
        QVERIFY(settled(*window));
        QCOMPARE(window->session().baselines().state(), State::Compared);
        QVERIFY(runSeries(*window, 10));  // the fake GPU: another configuration
        QMessageBox* box = question(*window);
        QVERIFY(box);
        box->button(QMessageBox::Cancel)->click();
        QVERIFY(window->session().baseline());
        QCOMPARE(window->session().baselines().state(), State::Declined);
        QVERIFY2(window->baselineStatus().contains("not compared, the configurations differ (device"),
            qPrintable(window->baselineStatus()));
        QVERIFY(window->difference().message().contains("Not compared"));
    }

    // A file that cannot be a baseline is refused with its name and why, and the window goes on without one: a
    // missing file, one that is not JSON, a comparison of several variants (JSON and CSV), a series without measured
    // runs.
    void aFileThatCannotBeABaselineIsRefusedWithAMessage()
    {
        const QString garbage = m_dir.filePath("garbage.json");
        {
            std::ofstream out(garbage.toStdString());
            out << "{ not json";
        }
        const QString warmupOnly = m_dir.filePath("warmup-only.json");
        {
            std::ofstream out(warmupOnly.toStdString());
            Report report = asyncscope::testing::classicReport(3);
            RunStore runs;
            for (std::size_t i = 0; i < report.runs.size(); ++i) {
                RunResult run = report.runs[i];
                run.warmup = true;  // every run a warm-up: none measured
                runs.push_back(run);
            }
            report.runs = std::move(runs);
            report.outcome->measuredRuns = 0;  // as AsyncScope writes a series stopped during its warm-up
            writeJson(out, report, assessSeries(report));
        }
        const QString threeRuns = m_dir.filePath("three-runs.json");  // fewer than a comparison needs
        {
            std::ofstream out(threeRuns.toStdString());
            const Report few = asyncscope::testing::classicReport(4);  // a warm-up and 3 measured runs
            writeJson(out, few, assessSeries(few));
        }
        auto window = shownWindow(noGpu());
        QVERIFY(waitForDevices(*window));
        QVERIFY(window->files().openSaved(kSlower));
        QVERIFY(settled(*window));
        QSignalSpy problems(&window->files(), &FileActions::problem);

        QVERIFY(!window->files().setBaseline(m_dir.filePath("missing.json")));  // refused at once
        QCOMPARE(problems.size(), 1);
        QVERIFY2(problems.last().first().toString().contains(
                     "cannot use " + m_dir.filePath("missing.json") + " as a baseline: it does not exist"),
            qPrintable(problems.last().first().toString()));

        const struct {
            QString path;
            const char* why;
        } refused[] = {
            { garbage, "garbage.json as a baseline" },
            { dataFile("h200-compare-size.json"), "comparison of several variants" },
            { dataFile("h200-compare-size.csv"), "comparison of several variants" },
            { QStringLiteral(ASYNCSCOPE_TEST_DATA "/machine_record.host.json"), "comparison of several variants" },
            { warmupOnly, "holds 0 measured runs (and 3 warm-ups): a comparison needs at least 5 measured runs" },
            { threeRuns, "holds 3 measured runs (and 1 warm-up): a comparison needs at least 5 measured runs in each" },
        };
        for (const auto& file : refused) {
            problems.clear();
            QVERIFY(window->files().setBaseline(file.path));
            QVERIFY(settled(*window));
            QCOMPARE(problems.size(), 1);
            const QString message = problems.first().first().toString();
            QVERIFY2(message.contains(QFileInfo(file.path).fileName()) && message.contains(file.why),
                qPrintable(message));
            QVERIFY(!window->session().baseline());
            QCOMPARE(window->session().baselines().state(), State::None);
            QVERIFY(window->session().overlays().empty());
            QVERIFY(window->baselineStatus().isEmpty());
        }
        // The window is still usable: a good baseline is compared.
        QVERIFY(window->files().setBaseline(kBaseline));
        QVERIFY(settled(*window));
        QCOMPARE(window->session().baselines().state(), State::Compared);
    }

    // A host's record of one GPU (asyncscope-cli --output) is a baseline, as asyncscope-cli --baseline takes it: the
    // H200's record, and the plain series kept as its host's record, which gives the verdict the series itself gives,
    // in the window and headless. A record of several GPUs is refused, naming them and saying what to compare.
    void aHostRecordOfOneGpuIsABaseline_OneOfSeveralGpusIsRefused()
    {
        const auto plain = readResultFile(kBaseline.toStdString());  // one host, one GPU, one series
        QVERIFY(plain);
        const QString record = m_dir.filePath("h200-series.host.json");
        {
            std::ofstream out(record.toStdString());
            writeHostRecordJson(out, *plain, assessHost(*plain));
        }
        HostReport twoGpus = *plain;
        twoGpus.devices.push_back(twoGpus.devices.front());
        twoGpus.devices.back().device.index = 1;
        const QString several = m_dir.filePath("node7.host.json");
        {
            std::ofstream out(several.toStdString());
            writeHostRecordJson(out, twoGpus, assessHost(twoGpus));
        }

        auto window = shownWindow(noGpu());
        QVERIFY(waitForDevices(*window));
        QSignalSpy problems(&window->files(), &FileActions::problem);
        const QString h200 = dataFile("h200-host-record.host.json");
        const auto h200Series = readSeriesFile(h200.toStdString());
        QVERIFY(h200Series);
        QVERIFY(window->files().setBaseline(h200));
        QVERIFY(settled(*window));
        QVERIFY2(problems.isEmpty(), qPrintable(problems.isEmpty() ? QString() : problems.first().first().toString()));
        QVERIFY(window->session().baseline());
        QCOMPARE(window->session().baseline()->path, h200);
        QCOMPARE(window->session().baseline()->report.runs.size(), h200Series->runs.size());
        QCOMPARE(window->session().baseline()->report.host, std::string("vm"));  // the record's host
        QCOMPARE(window->session().baselines().state(), State::NoSeries);
        QVERIFY2(window->baselineStatus().startsWith("Baseline h200-host-record.host.json: run a series"),
            qPrintable(window->baselineStatus()));
        sessionOf(*window).clearBaseline();

        QVERIFY(window->files().openSaved(kSlower));
        QVERIFY(window->files().setBaseline(record));
        QVERIFY(settled(*window));
        QVERIFY(problems.isEmpty());
        QCOMPARE(window->session().baselines().state(), State::Compared);
        QVERIFY2(window->baselineStatus().startsWith("Baseline h200-series.host.json: GPU time slower by 89.90 %"),
            qPrintable(window->baselineStatus()));

        QVERIFY(window->files().setBaseline(several));
        QVERIFY(settled(*window));
        QCOMPARE(problems.size(), 1);
        const QString message = problems.first().first().toString();
        QVERIFY2(message.contains("cannot use " + several + " as a baseline: it holds the series of 2 GPUs (0, 1)") &&
                message.contains("Write one GPU's series (asyncscope-cli --device N --format json) and compare that"),
            qPrintable(message));
        QVERIFY(window->session().baseline());
        QCOMPARE(window->session().baseline()->path, record);  // the baseline before stays
        QCOMPARE(window->session().baselines().state(), State::Compared);

        const auto parsed = parseAppOptions(
            { "asyncscope", "--open", kSlower, "--baseline", record, "--export-png", m_dir.filePath("record.png") });
        QVERIFY(parsed);
        const Headless headless = runHeadless(noGpu(), *parsed);
        QVERIFY2(headless.code == 0, qPrintable(headless.message));
        QVERIFY2(headless.message.contains("Baseline h200-series.host.json: GPU time slower by 89.90 %"),
            qPrintable(headless.message));
    }

    // The verdicts' tints keep the palette's text readable, in a light and in a dark palette.
    void theVerdictTintsStayReadableInLightAndDarkPalettes()
    {
        auto window = shownWindow(noGpu());
        QVERIFY(window->files().openSaved(kSlower));
        QVERIFY(window->files().setBaseline(kBaseline));
        QVERIFY(settled(*window));
        QPalette dark;
        for (const auto role : { QPalette::Window, QPalette::Base, QPalette::Button })
            dark.setColor(role, QColor(35, 35, 38));
        for (const auto role : { QPalette::WindowText, QPalette::Text, QPalette::ButtonText })
            dark.setColor(role, QColor(230, 230, 230));
        dark.setColor(QPalette::AlternateBase, QColor(45, 45, 48));
        for (const QPalette& palette : { QPalette(Qt::white), dark }) {
            window->setPalette(palette);
            SummaryTable& table = showSummary(*window);
            const int column = table.columnNamed("Verdict");
            QVERIFY(column >= 0);
            for (const char* name : { "GPU time (ms)", "CPU submit time (ms)", "Poll iterations" }) {
                const QTableWidgetItem* item = table.item(rowNamed(table, name), column);
                QVERIFY(item->background().style() != Qt::NoBrush);
                const double ratio = contrast(item->background().color(), item->foreground().color());
                QVERIFY2(ratio >= 4.5, qPrintable(QStringLiteral("%1: %2").arg(name).arg(ratio)));
            }
        }
    }

    // --baseline on the command line, headless: compared and shown in --tab difference, the verdict in the summary
    // line; across configurations it is compared anyway, and the status line says so.
    void theCommandLineComparesHeadless()
    {
        const auto parsed = parseAppOptions({ "asyncscope", "--open", kSlower, "--baseline", kBaseline, "--tab",
            "difference", "--export-png", m_dir.filePath("time.png"), "--screenshot", m_dir.filePath("window.png") });
        QVERIFY(parsed);
        QCOMPARE(parsed->baseline, kBaseline);
        const Headless opened = runHeadless(noGpu(), *parsed);
        QVERIFY2(opened.code == 0, qPrintable(opened.message));
        QVERIFY2(opened.message.contains("Baseline h200-series.json: GPU time slower by 89.90 %"),
            qPrintable(opened.message));
        QVERIFY(opened.baselineStatus.startsWith("Baseline h200-series.json: GPU time slower"));
        QCOMPARE(opened.tab, QString("Difference"));
        QVERIFY(opened.differenceRows >= 5);
        QVERIFY(!QImage(m_dir.filePath("window.png")).isNull());

        AppOptions run;
        run.runs = 10;
        run.baseline = kBaseline;
        run.exportPng = m_dir.filePath("run.png");
        const Headless across = runHeadless(std::make_shared<FakeBackend>(), run);
        QVERIFY2(across.code == 0, qPrintable(across.message));
        QVERIFY2(across.baselineStatus.startsWith("Baseline h200-series.json, compared anyway: GPU time"),
            qPrintable(across.baselineStatus));
        QVERIFY(across.baselineStatus.contains("across configurations: device NVIDIA H200 → Fake"));
        QVERIFY(across.message.contains("compared anyway"));

        // A baseline that cannot be read costs only itself, as a bad overlay does: the status is 2, the file named.
        AppOptions bad = run;
        bad.baseline = dataFile("h200-compare-size.json");
        const Headless refused = runHeadless(std::make_shared<FakeBackend>(), bad);
        QCOMPARE(refused.code, 2);
        QVERIFY2(refused.message.contains("h200-compare-size.json"), qPrintable(refused.message));
        QVERIFY(refused.baselineStatus.isEmpty());
    }

    // --baseline compares one series: not with --compare or --all-gpus; --tab difference is a tab.
    void theOptionGoesWithOneSeries()
    {
        QVERIFY(!parseAppOptions({ "asyncscope", "--baseline", "a.json", "--compare", "wait" }));
        QVERIFY(!parseAppOptions({ "asyncscope", "--baseline", "a.json", "--all-gpus" }));
        const auto help = parseAppOptions({ "asyncscope", "--help" });
        QVERIFY(help && help->earlyExitText && help->earlyExitText->contains("--baseline <FILE>"));
        QVERIFY(help->earlyExitText->contains("difference"));
    }
};

QTEST_MAIN(BaselineTest)
#include "baseline_test.moc"

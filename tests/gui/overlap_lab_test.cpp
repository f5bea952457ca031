// The window's overlap lab: the workload shape in the configuration panel and the settings, the overlap and
// submission comparisons it runs, their charts, and the same headless. The fake backend stands in for the GPU; its
// GPU time follows the overlap model and its submit time grows with the stream calls a shape needs.
#include "fake_backend.hpp"
#include "window_waits.hpp"

#include "gui/app/app_options.hpp"
#include "gui/charts/comparison_view.hpp"
#include "gui/config/config_panel.hpp"
#include "gui/app/file_actions.hpp"
#include "gui/app/main_window.hpp"
#include "gui/session/session_model.hpp"
#include "gui/config/settings_store.hpp"
#include "gui/app/window_actions.hpp"

#include "engine/run/plan_summary.hpp"

#include "cli/cli_options.hpp"

#include <QAction>
#include <QBarCategoryAxis>
#include <QBarSeries>
#include <QBarSet>
#include <QComboBox>
#include <QImage>
#include <QLineEdit>
#include <QLineSeries>
#include <QMessageBox>
#include <QPushButton>
#include <QRegularExpression>
#include <QSettings>
#include <QSignalSpy>
#include <QSpinBox>
#include <QTableWidget>
#include <QTemporaryDir>
#include <QTest>

#include <cmath>
#include <map>

using namespace asyncscope;
using asyncscope::testing::FakeBackend;
using asyncscope::testing::waitForDevices;

namespace {

// Types into a spin box as a person would: the text replaced keystroke by keystroke.
void typeInto(QAbstractSpinBox* box, const QString& text)
{
    box->setFocus();
    box->selectAll();
    QTest::keyClicks(box, text);
}

void typeInto(QLineEdit* edit, const QString& text)
{
    edit->setFocus();
    edit->selectAll();
    QTest::keyClicks(edit, text);
}

template <class Enum>
void choose(MainWindow& window, const char* name, Enum value)
{
    auto* combo = window.findChild<QComboBox*>(name);
    QVERIFY(combo);
    const int index = combo->findData(int(value));
    QVERIFY(index >= 0);
    combo->setCurrentIndex(index);
}

// The chart's line series by name.
std::map<QString, QLineSeries*> linesOf(QChart* chart)
{
    std::map<QString, QLineSeries*> lines;
    for (QAbstractSeries* series : chart->series()) {
        if (auto* line = qobject_cast<QLineSeries*>(series))
            lines[line->name()] = line;
    }
    return lines;
}

QStringList namesOf(QChart* chart)
{
    QStringList names;
    for (QAbstractSeries* series : chart->series())
        names << series->name();
    return names;
}

// A variant of a comparison that could not run, as the plan runner reports one.
void markNotRun(VariantResult& v)
{
    v.report.runs.clear();
    v.report.outcome.reset();
    v.notRun = makeError(ErrorKind::TooLarge, "does not fit");
}

}  // namespace

class OverlapLabTest : public QObject {
    Q_OBJECT
private:
    // A window whose comparison ran to its end, with `runs` measured runs per variant and no warm-up.
    std::unique_ptr<MainWindow> compared(Comparison comparison, int runs, int chunks = 1, int streams = 1)
    {
        auto window = std::make_unique<MainWindow>(std::make_shared<FakeBackend>());
        window->show();
        if (!waitForDevices(*window))
            return nullptr;
        window->findChild<QSpinBox*>("runs")->setValue(runs);
        window->findChild<QSpinBox*>("warmup")->setValue(0);
        window->findChild<QSpinBox*>("chunks")->setValue(chunks);
        window->findChild<QSpinBox*>("streams")->setValue(streams);
        QSignalSpy ended(window.get(), &MainWindow::planEnded);
        window->startComparison(comparison);
        if (!ended.wait(60000) || !window->session().lastComparison())
            return nullptr;
        return window;
    }

    QTemporaryDir m_dir;

private slots:
    void initTestCase()
    {
        QCoreApplication::setOrganizationName("AsyncScopeTests");
        QCoreApplication::setApplicationName("OverlapLabTest");
        QSettings().clear();
        QVERIFY(m_dir.isValid());
    }

    void init() { QSettings().clear(); }

    // With nothing remembered the panel shows asyncAPI's pipeline: one chunk, one stream, stream calls.
    void defaultsAreTheClassicPipeline()
    {
        MainWindow window(std::make_shared<FakeBackend>());
        window.show();
        QVERIFY(waitForDevices(window));
        QCOMPARE(window.findChild<QSpinBox*>("chunks")->value(), 1);
        QCOMPARE(window.findChild<QSpinBox*>("streams")->value(), 1);
        QCOMPARE(window.findChild<QComboBox*>("order")->currentData().toInt(), int(IssueOrder::ByChunk));
        QCOMPARE(window.findChild<QComboBox*>("submission")->currentData().toInt(), int(Submission::Stream));
        QVERIFY(!window.findChild<QComboBox*>("order")->isEnabled());  // one chunk has one order
        const PipelineConfig c = window.findChild<ConfigPanel*>()->config();
        QCOMPARE(c.chunks, 1);
        QCOMPARE(c.streams, 1);
        QVERIFY(shapeText(c).empty());
    }

    void settingsRoundTrip_data()
    {
        QTest::addColumn<int>("chunks");
        QTest::addColumn<int>("streams");
        QTest::addColumn<int>("order");
        QTest::addColumn<int>("submission");
        QTest::addColumn<QString>("orderName");
        QTest::addColumn<QString>("submissionName");
        const int byChunk = int(IssueOrder::ByChunk), byStage = int(IssueOrder::ByStage);
        const int stream = int(Submission::Stream), graph = int(Submission::Graph);
        QTest::newRow("classic") << 1 << 1 << byChunk << stream << "chunk" << "stream";
        QTest::newRow("16x4 by stage, graph") << 16 << 4 << byStage << graph << "stage" << "graph";
        QTest::newRow("4096x4096") << 4096 << 4096 << byChunk << graph << "chunk" << "graph";
        QTest::newRow("one chunk as a graph") << 1 << 1 << byChunk << graph << "chunk" << "graph";
    }

    // The shape set in the panel is written as it changes, by the engine's names, and comes back on the next start.
    void settingsRoundTrip()
    {
        QFETCH(int, chunks);
        QFETCH(int, streams);
        QFETCH(int, order);
        QFETCH(int, submission);
        QFETCH(QString, orderName);
        QFETCH(QString, submissionName);
        {
            MainWindow window(std::make_shared<FakeBackend>());
            window.show();
            QVERIFY(waitForDevices(window));
            // From another shape, so every control changes.
            window.findChild<QSpinBox*>("chunks")->setValue(3);
            window.findChild<QSpinBox*>("streams")->setValue(3);
            choose(window, "order", order == int(IssueOrder::ByChunk) ? IssueOrder::ByStage : IssueOrder::ByChunk);
            choose(window, "submission", submission == int(Submission::Graph) ? Submission::Stream : Submission::Graph);
            window.findChild<QSpinBox*>("streams")->setValue(streams);
            window.findChild<QSpinBox*>("chunks")->setValue(chunks);
            choose(window, "order", IssueOrder(order));
            choose(window, "submission", Submission(submission));
            QCOMPARE(QSettings().value("run/chunks").toInt(), chunks);  // kept as it changes, no close needed
            QCOMPARE(QSettings().value("run/streams").toInt(), streams);
            QCOMPARE(QSettings().value("run/order").toString(), orderName);
            QCOMPARE(QSettings().value("run/submission").toString(), submissionName);
            window.close();
        }
        const GuiSettings loaded = loadSettings();
        QCOMPARE(loaded.config.chunks, chunks);
        QCOMPARE(loaded.config.streams, streams);
        QCOMPARE(int(loaded.config.order), order);
        QCOMPARE(int(loaded.config.submission), submission);

        MainWindow window(std::make_shared<FakeBackend>());
        window.show();
        QVERIFY(waitForDevices(window));
        QCOMPARE(window.findChild<QSpinBox*>("chunks")->value(), chunks);
        QCOMPARE(window.findChild<QSpinBox*>("streams")->value(), streams);
        QCOMPARE(window.findChild<QComboBox*>("order")->currentData().toInt(), order);
        QCOMPARE(window.findChild<QComboBox*>("submission")->currentData().toInt(), submission);
        QCOMPARE(window.findChild<QComboBox*>("order")->isEnabled(), chunks > 1);

        // Through the store alone, too.
        GuiSettings s = defaultSettings();
        s.config.chunks = chunks;
        s.config.streams = streams;
        s.config.order = IssueOrder(order);
        s.config.submission = Submission(submission);
        QSettings().clear();
        saveSettings(s);
        const GuiSettings back = loadSettings();
        QCOMPARE(back.config.chunks, chunks);
        QCOMPARE(back.config.streams, streams);
        QCOMPARE(int(back.config.order), order);
        QCOMPARE(int(back.config.submission), submission);
    }

    // A damaged file: an unknown name keeps the default and says what it accepts; a shape that cannot run (more
    // streams than chunks) falls back to the classic one and leaves the rest as it was.
    void settingsRejectABadShape()
    {
        {
            QSettings q;
            q.setValue("run/submission", "bogus");
            q.setValue("run/order", "stage");
            q.setValue("run/chunks", 4);
            q.setValue("run/streams", 8);
            q.setValue("run/runs", 77);
        }
        QTest::ignoreMessage(QtWarningMsg, QRegularExpression("run/submission is 'bogus', not stream, graph or batch"));
        const GuiSettings s = loadSettings();
        QCOMPARE(s.config.submission, Submission::Stream);
        QCOMPARE(s.config.order, IssueOrder::ByStage);
        QCOMPARE(s.config.chunks, 1);
        QCOMPARE(s.config.streams, 1);
        QCOMPARE(s.config.runs, 77);
    }

    void refusesAShapeThatCannotRun_data()
    {
        QTest::addColumn<QString>("size");
        QTest::addColumn<QString>("chunks");
        QTest::addColumn<QString>("streams");
        QTest::addColumn<QString>("reason");
        QTest::addColumn<int>("fixedChunks");
        QTest::newRow("streams above chunks") << "64 MiB" << "4" << "8"
                                              << "streams must be between 1 and the chunk count (4), not 8" << 8;
        QTest::newRow("chunks above elements") << "8" << "16" << "1" << "16 chunks need at least 16 elements" << 8;
        QTest::newRow("streams above one chunk") << "1 KiB" << "1" << "2"
                                                 << "streams must be between 1 and the chunk count (1), not 2" << 2;
    }

    // A shape the engine cannot run is refused with its reason under the controls, Run stays off, nothing starts
    // (not even a comparison), what was typed stays, and the last valid shape is what the settings keep.
    void refusesAShapeThatCannotRun()
    {
        QFETCH(QString, size);
        QFETCH(QString, chunks);
        QFETCH(QString, streams);
        QFETCH(QString, reason);
        QFETCH(int, fixedChunks);
        auto backend = std::make_shared<FakeBackend>();
        MainWindow window(backend);
        window.show();
        QVERIFY(waitForDevices(window));
        auto* panel = window.findChild<ConfigPanel*>();
        auto* chunksBox = window.findChild<QSpinBox*>("chunks");
        auto* streamsBox = window.findChild<QSpinBox*>("streams");
        typeInto(window.findChild<QLineEdit*>("size"), size);
        QVERIFY2(panel->inputProblem().isEmpty(), qPrintable(panel->inputProblem()));
        typeInto(chunksBox, chunks);
        typeInto(streamsBox, streams);
        QVERIFY2(panel->inputProblem().contains(reason), qPrintable(panel->inputProblem()));
        QVERIFY(!window.runEnabled());
        QCOMPARE(chunksBox->text(), chunks);  // as typed
        QCOMPARE(streamsBox->text(), streams);

        window.findChild<QPushButton*>("run")->click();
        window.startRun();
        auto* box = window.findChild<QMessageBox*>();
        QVERIFY(box);
        QVERIFY2(box->text().contains(reason), qPrintable(box->text()));
        box->close();
        delete box;
        window.startComparison(Comparison::HostMemory);
        QVERIFY(window.findChild<QMessageBox*>());
        QVERIFY(!QTest::qWaitFor([&] { return backend->seriesStarted.load() > 0; }, 200));  // nothing starts
        QVERIFY(!window.session().isRunning());
        QCOMPARE(backend->seriesStarted.load(), 0);
        QCOMPARE(QSettings().value("run/streams", 1).toInt(), 1);  // the refused shape is not remembered
        QCOMPARE(streamsBox->text(), streams);

        // Mending the other control takes the reason away and keeps what was typed.
        chunksBox->setValue(fixedChunks);
        typeInto(window.findChild<QLineEdit*>("size"), "64 MiB");
        QVERIFY2(panel->inputProblem().isEmpty(), qPrintable(panel->inputProblem()));
        QVERIFY(window.runEnabled());
        QCOMPARE(streamsBox->text(), streams);
        QCOMPARE(panel->config().chunks, fixedChunks);
        QCOMPARE(panel->config().streams, streams.toInt());
    }

    // The shape chosen reaches the engine, and the status line and the charts' titles say it in words.
    void shapeOptionsReachThePanel()
    {
        auto backend = std::make_shared<FakeBackend>();
        const auto options = parseAppOptions({ "asyncscope", "--chunks", "16", "--streams", "4", "--submit", "graph" });
        QVERIFY(options.ok());
        MainWindow window(backend, *options);
        window.show();
        QVERIFY(waitForDevices(window));
        QCOMPARE(window.findChild<QSpinBox*>("chunks")->value(), 16);
        QCOMPARE(window.findChild<QSpinBox*>("streams")->value(), 4);
        QSignalSpy ended(&window, &MainWindow::planEnded);
        window.findChild<QSpinBox*>("runs")->setValue(2);
        window.findChild<QPushButton*>("run")->click();
        QVERIFY(ended.wait(10000));
        QCOMPARE(backend->lastConfig().chunks, 16);
        QCOMPARE(backend->lastConfig().submission, Submission::Graph);
    }

    void shapeReachesTheEngineAndIsShown()
    {
        auto backend = std::make_shared<FakeBackend>();
        MainWindow window(backend);
        window.show();
        QVERIFY(waitForDevices(window));
        window.findChild<QSpinBox*>("chunks")->setValue(16);
        window.findChild<QSpinBox*>("streams")->setValue(4);
        choose(window, "order", IssueOrder::ByStage);
        choose(window, "submission", Submission::Graph);
        window.findChild<QSpinBox*>("runs")->setValue(3);
        QSignalSpy ended(&window, &MainWindow::planEnded);
        window.findChild<QPushButton*>("run")->click();
        QVERIFY2(window.statusText().startsWith("Running 64.0 MiB (K = 16, S = 4, by stage, graph) on Fake Big GPU"),
            qPrintable(window.statusText()));
        QVERIFY(ended.wait(10000));
        const PipelineConfig c = backend->lastConfig();
        QCOMPARE(c.chunks, 16);
        QCOMPARE(c.streams, 4);
        QCOMPARE(c.order, IssueOrder::ByStage);
        QCOMPARE(c.submission, Submission::Graph);
        QVERIFY2(window.statusText().startsWith("3 runs (K = 16, S = 4, by stage, graph): median GPU time"),
            qPrintable(window.statusText()));
        const QString title = window.charts().chart(RunCharts::Time)->title();
        QVERIFY2(title.endsWith("K = 16, S = 4, by stage, graph"), qPrintable(title));

        // Back to the classic pipeline: no shape in words.
        window.findChild<QSpinBox*>("streams")->setValue(1);
        window.findChild<QSpinBox*>("chunks")->setValue(1);
        choose(window, "submission", Submission::Stream);
        window.startRun();
        QVERIFY(ended.wait(10000));
        QVERIFY2(window.statusText().startsWith("3 runs: median GPU time"), qPrintable(window.statusText()));
        QCOMPARE(window.charts().chart(RunCharts::Time)->title(), RunCharts::title(RunCharts::Time));
    }

    void overlapRunsTheVariantsTheCliRuns_data()
    {
        QTest::addColumn<QString>("size");     // as typed in the window
        QTest::addColumn<QString>("cliSize");  // as the CLI takes it
        QTest::addColumn<QString>("order");
        QTest::addColumn<QString>("submission");
        QTest::addColumn<int>("variants");
        // K = 1; 2 on 1 or 2 streams; 4 … 64 on 1, 2 or 4 streams; never more chunks than elements.
        QTest::newRow("64 MiB") << "64 MiB" << "64MiB" << "chunk" << "stream" << 1 + 2 + 5 * 3;
        QTest::newRow("16 elements, by stage, graph") << "16" << "16" << "stage" << "graph" << 1 + 2 + 3 * 3;
        QTest::newRow("3 elements") << "3" << "3" << "chunk" << "stream" << 1 + 2;
    }

    // Same device, same options: Compare › Overlap runs exactly the variants the CLI's --compare overlap does, as
    // comparisonPlan gives them, in its order.
    void overlapRunsTheVariantsTheCliRuns()
    {
        QFETCH(QString, size);
        QFETCH(QString, cliSize);
        QFETCH(QString, order);
        QFETCH(QString, submission);
        QFETCH(int, variants);
        auto backend = std::make_shared<FakeBackend>();
        MainWindow window(backend);
        window.show();
        QVERIFY(waitForDevices(window));
        typeInto(window.findChild<QLineEdit*>("size"), size);
        window.findChild<QSpinBox*>("runs")->setValue(2);
        choose(window, "order", *parseName<IssueOrder>(order.toStdString()));
        choose(window, "submission", *parseName<Submission>(submission.toStdString()));
        QSignalSpy ended(&window, &MainWindow::planEnded);
        QVERIFY(window.actions().compareOverlap->isEnabled());
        window.actions().compareOverlap->trigger();
        QVERIFY(!window.actions().compareOverlap->isEnabled());  // one plan at a time
        QVERIFY(ended.wait(60000));
        QVERIFY(window.session().lastComparison());
        const PlanReport& ran = *window.session().lastComparison();
        QCOMPARE(ran.comparison, std::optional(Comparison::Overlap));

        const std::string sizeArg = cliSize.toStdString(), orderArg = order.toStdString();
        const std::string submitArg = submission.toStdString();
        const char* args[] = { "asyncscope-cli", "--device", "1", "--runs", "2", "--size", sizeArg.c_str(), "--order",
            orderArg.c_str(), "--submit", submitArg.c_str(), "--compare", "overlap" };
        const auto cli = parseCommandLine(int(std::size(args)), args);
        QVERIFY2(cli.ok(), cli.ok() ? "" : cli.error().message().c_str());
        QCOMPARE(cli->comparison, std::optional(Comparison::Overlap));
        const auto expected = comparisonPlan(*cli->comparison, cli->config);
        QVERIFY(expected.ok());
        QCOMPARE(int(expected->variants.size()), variants);
        QCOMPARE(ran.variants.size(), expected->variants.size());
        for (std::size_t i = 0; i < ran.variants.size(); ++i) {
            const PipelineConfig& got = ran.variants[i].report.config;
            const PipelineConfig& want = expected->variants[i].config;
            QCOMPARE(ran.variants[i].label, expected->variants[i].label);
            QCOMPARE(got.chunks, want.chunks);
            QCOMPARE(got.streams, want.streams);
            QCOMPARE(got.order, want.order);
            QCOMPARE(got.submission, want.submission);
            QCOMPARE(got.elements, want.elements);
            QCOMPARE(got.device, want.device);
            QVERIFY(ran.variants[i].ran());
        }
        QCOMPARE(window.findChild<ComparisonView*>()->chartCount(), 2);
        auto* table = window.findChild<QTableWidget*>("comparisonTable");
        QCOMPARE(table->rowCount(), variants);
        QCOMPARE(table->horizontalHeaderItem(1)->text(), QString("shape"));
        QCOMPARE(table->item(variants - 1, 1)->text(),
            QString::fromStdString(shapeText(ran.variants.back().report.config)));
    }

    // Speed-up over K = 1 against K: one line per stream count, one point per variant that ran with it, and the
    // model's line dashed; copy throughput the same, with the calibrated peak of both directions across.
    void overlapChartsHaveALinePerStreamCountAndTheModel()
    {
        auto window = compared(Comparison::Overlap, 3);
        QVERIFY(window);
        const PlanReport& report = *window->session().lastComparison();
        QCOMPARE(ComparisonCharts(report).count(), 2);

        const auto speedup = ComparisonCharts(report).build(0);
        QVERIFY2(speedup->title().startsWith("Speed-up over K = 1"), qPrintable(speedup->title()));
        const QString xTitle = speedup->axes(Qt::Horizontal).first()->titleText();
        QVERIFY2(xTitle.contains("log scale") && xTitle.contains("by chunk, stream calls"), qPrintable(xTitle));
        QCOMPARE(namesOf(speedup.get()), QStringList({ "S = 1", "S = 2", "S = 4", "model" }));
        auto lines = linesOf(speedup.get());
        QCOMPARE(lines["S = 1"]->count(), 7);  // K = 1, 2, 4 … 64
        QCOMPARE(lines["S = 2"]->count(), 6);  // K = 2 … 64
        QCOMPARE(lines["S = 4"]->count(), 5);  // K = 4 … 64
        QCOMPARE(lines["model"]->count(), 7);
        QCOMPARE(lines["model"]->pen().style(), Qt::DashLine);
        QCOMPARE(lines["S = 1"]->at(0), QPointF(0.0, 1.0));  // K = 1 is its own baseline
        QCOMPARE(lines["S = 4"]->at(4).x(), 6.0);            // K = 64 on a log2 axis
        QCOMPARE(lines["model"]->at(0), QPointF(0.0, 1.0));
        // One stream serialises the chunks; more overlap them, towards what the model allows.
        QVERIFY(lines["S = 1"]->at(6).y() < 1.1);
        QVERIFY(lines["S = 4"]->at(4).y() > 1.3);
        QVERIFY(lines["model"]->at(6).y() > lines["S = 4"]->at(4).y());
        QVERIFY(lines["model"]->at(6).y() < 2.0);  // both directions share 100 GB/s: under 2x

        const auto throughput = ComparisonCharts(report).build(1);
        QVERIFY2(throughput->title().startsWith("Copy throughput"), qPrintable(throughput->title()));
        QCOMPARE(namesOf(throughput.get()),
            QStringList({ "S = 1", "S = 2", "S = 4", "model", "bidirectional peak" }));
        lines = linesOf(throughput.get());
        QCOMPARE(lines["S = 1"]->count(), 7);
        QCOMPARE(lines["S = 2"]->count(), 6);
        QCOMPARE(lines["S = 4"]->count(), 5);
        QCOMPARE(lines["model"]->count(), 7);
        QLineSeries* peak = lines["bidirectional peak"];
        QCOMPARE(peak->count(), 2);
        QCOMPARE(peak->at(0).y(), FakeBackend::copyPeakValue().bidirectionalGBps);
        QCOMPARE(peak->at(1).y(), FakeBackend::copyPeakValue().bidirectionalGBps);
        QCOMPARE(peak->at(0).x(), 0.0);
        QCOMPARE(peak->at(1).x(), 6.0);
        // The GB/s the chart shows are the summaries': both copies' bytes over the median GPU time.
        const std::vector<SeriesSummary> summaries = summarizePlan(report);
        QCOMPARE(lines["S = 1"]->at(0).y(), summaries.front().value(keys::kCopyRate));
        for (int i = 0; i < lines["S = 4"]->count(); ++i)
            QVERIFY(lines["S = 4"]->at(i).y() <= lines["model"]->at(i + 2).y());

        // The picture: both charts, through the window's export.
        const QString png = m_dir.filePath("overlap.png");
        QVERIFY(window->files().exportPictureTo(png, QSize(1400, 600)));
        const QImage image(png);
        QCOMPARE(image.size(), QSize(1400, 600));
        QSet<QRgb> colours;
        for (int y = 0; y < image.height(); y += 5)
            for (int x = 0; x < image.width(); x += 5)
                colours.insert(image.pixel(x, y));
        QVERIFY(colours.size() > 5);
    }

    // Variants that did not run leave their points out; without the K = 1 baseline there is no speed-up to draw.
    void overlapChartsLeaveOutWhatDidNotRun()
    {
        auto window = compared(Comparison::Overlap, 2);
        QVERIFY(window);
        PlanReport report = *window->session().lastComparison();
        for (VariantResult& v : report.variants) {
            if (v.report.config.chunks == 64 || (v.report.config.chunks == 8 && v.report.config.streams == 2))
                markNotRun(v);
        }
        auto chart = ComparisonCharts(report).build(0);
        auto lines = linesOf(chart.get());
        QCOMPARE(lines["S = 1"]->count(), 6);
        QCOMPARE(lines["S = 2"]->count(), 4);
        QCOMPARE(lines["S = 4"]->count(), 4);
        QCOMPARE(lines["model"]->count(), 6);

        markNotRun(report.variants.front());  // K = 1
        chart = ComparisonCharts(report).build(0);
        lines = linesOf(chart.get());
        QCOMPARE(lines["S = 2"]->count(), 0);
        QVERIFY(!lines.count("model"));
        chart = ComparisonCharts(report).build(1);  // throughput needs no baseline
        lines = linesOf(chart.get());
        QCOMPARE(lines["S = 2"]->count(), 4);
        QCOMPARE(lines["model"]->count(), 5);
        QCOMPARE(lines["bidirectional peak"]->count(), 2);

        for (VariantResult& v : report.variants)
            markNotRun(v);
        chart = ComparisonCharts(report).build(1);  // nothing ran: nothing drawn, no peak to draw it against
        QVERIFY(chart->series().isEmpty());
        chart = ComparisonCharts(report).build(0);
        QVERIFY(chart->series().isEmpty());
    }

    void submissionChartShowsStreamAndGraphBars_data()
    {
        QTest::addColumn<int>("chunks");
        QTest::addColumn<int>("streams");
        QTest::addColumn<QStringList>("shapes");
        QTest::newRow("classic") << 1 << 1 << QStringList { "K=1" };
        QTest::newRow("16 chunks on 4 streams") << 16 << 4 << QStringList { "K=1", "K=16 S=4" };
    }

    // Compare › Submission: stream calls against a CUDA Graph and batched copies at one chunk and at the chosen shape,
    // CPU submit time in one chart and GPU time in the other.
    void submissionChartShowsStreamAndGraphBars()
    {
        QFETCH(int, chunks);
        QFETCH(int, streams);
        QFETCH(QStringList, shapes);
        auto window = compared(Comparison::Submission, 4, chunks, streams);
        QVERIFY(window);
        const PlanReport& report = *window->session().lastComparison();
        QCOMPARE(report.variants.size(), std::size_t(3 * shapes.size()));
        QCOMPARE(ComparisonCharts(report).count(), 2);
        QCOMPARE(window->findChild<ComparisonView*>()->chartCount(), 2);

        for (int index : { 0, 1 }) {
            const auto chart = ComparisonCharts(report).build(index);
            const char* heading = index == 0 ? "CPU submit time" : "GPU time";
            QVERIFY2(chart->title().startsWith(heading), qPrintable(chart->title()));
            QCOMPARE(chart->series().size(), 1);
            auto* bars = qobject_cast<QBarSeries*>(chart->series().first());
            QVERIFY(bars);
            QCOMPARE(bars->count(), 3);
            QCOMPARE(bars->barSets().at(0)->label(), QString("stream calls"));
            QCOMPARE(bars->barSets().at(1)->label(), QString("CUDA Graph"));
            QCOMPARE(bars->barSets().at(2)->label(), QString("batched copies"));
            for (QBarSet* set : bars->barSets()) {
                QCOMPARE(set->count(), int(shapes.size()));
                for (int i = 0; i < set->count(); ++i)
                    QVERIFY(set->at(i) > 0.0);
            }
            auto* axis = qobject_cast<QBarCategoryAxis*>(chart->axes(Qt::Horizontal).first());
            QVERIFY(axis);
            QCOMPARE(axis->categories(), shapes);
            if (index == 0) {
                // A graph launch costs less CPU than the stream calls, the more so the more chunks.
                const int last = int(shapes.size()) - 1;
                QVERIFY(bars->barSets().at(1)->at(last) < bars->barSets().at(0)->at(last));
            }
        }
        const QString png = m_dir.filePath("submission.png");
        QVERIFY(window->files().exportPictureTo(png, QSize(1200, 500)));
        QCOMPARE(QImage(png).size(), QSize(1200, 500));
    }

    void headlessComparisonExitsZero_data()
    {
        QTest::addColumn<QString>("kind");
        QTest::addColumn<int>("variants");
        QTest::newRow("overlap") << "overlap" << 18;
        QTest::newRow("submit") << "submit" << 3;
    }

    // asyncscope --compare overlap|submit --export-png: runs the comparison, saves its charts, exits 0.
    void headlessComparisonExitsZero()
    {
        QFETCH(QString, kind);
        QFETCH(int, variants);
        const QString png = m_dir.filePath("headless-" + kind + ".png");
        const auto options = parseAppOptions(
            { "asyncscope", "--compare", kind, "--runs", "2", "--export-png", png, "--export-size", "1280x600" });
        QVERIFY(options.ok());
        MainWindow window(std::make_shared<FakeBackend>(), *options);
        QSignalSpy finished(&window, &MainWindow::headlessFinished);
        window.show();
        QVERIFY(finished.wait(60000));
        QCOMPARE(finished.first().first().toInt(), 0);
        QCOMPARE(int(window.session().lastComparison()->ranCount()), variants);
        QCOMPARE(QImage(png).size(), QSize(1280, 600));
        QVERIFY(!QSettings().contains("run/chunks"));  // a scripted run leaves the settings alone
    }

    // The Compare menu has both, enabled only when a GPU answers and nothing runs.
    void compareMenuHasOverlapAndSubmission()
    {
        MainWindow window(std::make_shared<FakeBackend>());
        const WindowActions& a = window.actions();
        QVERIFY(!a.compareOverlap->isEnabled());
        QVERIFY(!a.compareSubmission->isEnabled());
        window.show();
        QVERIFY(waitForDevices(window));
        QVERIFY(a.compareOverlap->isEnabled());
        QVERIFY(a.compareSubmission->isEnabled());
        QVERIFY(a.compareOverlap->text().contains("Overlap"));
        QVERIFY(a.compareSubmission->text().contains("CUDA Graph"));
        window.findChild<QSpinBox*>("runs")->setValue(2);
        QSignalSpy ended(&window, &MainWindow::planEnded);
        a.compareSubmission->trigger();
        QVERIFY(!a.compareOverlap->isEnabled());
        QVERIFY(ended.wait(10000));
        QCOMPARE(window.session().lastComparison()->comparison, std::optional(Comparison::Submission));
        QVERIFY(a.compareOverlap->isEnabled());
    }
};

QTEST_MAIN(OverlapLabTest)
#include "overlap_lab_test.moc"

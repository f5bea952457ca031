// A recorded program's iterations on the Timeline tab, from programs recorded on an H100 (tests/data/recordings):
// kernels named by their function (demangled in the tooltip), calls by their own names and what they do (a
// synchronous copy said to be one), no host check row, a hundred kernels an iteration drawn as bands that say how many
// where each is too narrow to draw, and the iterations of one thread of several walked on their own.
#include "fake_backend.hpp"

#include "gui/advice/advice_panel.hpp"
#include "gui/app/file_actions.hpp"
#include "gui/charts/summary_table.hpp"
#include "gui/config/choice_labels.hpp"
#include "gui/app/main_window.hpp"
#include "gui/session/session_model.hpp"
#include "gui/timeline/run_walk.hpp"
#include "gui/timeline/timeline_layout.hpp"
#include "gui/timeline/timeline_panel.hpp"

#include "engine/io/json/json_report.hpp"
#include "engine/model/baseline.hpp"
#include "engine/record/program_report.hpp"

#include <QComboBox>
#include <QLabel>
#include <QSettings>
#include <QTabWidget>
#include <QTemporaryDir>
#include <QTest>
#include <QToolButton>

#include <fstream>
#include <set>

using namespace asyncscope;
using asyncscope::testing::FakeBackend;

namespace {

// The first series of the kept recording `name`.
Report recordedReport(const char* name)
{
    auto series = readKeptRecording(
        std::string(ASYNCSCOPE_TEST_DATA "/recordings/") + name + ".record", IterationRule {}, ProcessChoice {});
    if (!series || series->empty())
        return {};
    return series->front().report;
}

std::vector<const TimelineBlock*> blocksOfKind(const TimelineLayout& layout, SpanKind kind)
{
    std::vector<const TimelineBlock*> found;
    for (const TimelineBlock& b : layout.blocks())
        if (b.span.kind == kind)
            found.push_back(&b);
    return found;
}

// `report` written as JSON in `dir` and opened in a window of no GPU.
std::unique_ptr<MainWindow> windowShowing(const Report& report, const QTemporaryDir& dir)
{
    const QString path = dir.filePath("program.json");
    {
        std::ofstream out(path.toStdString(), std::ios::binary);
        writeJson(out, report, assessSeries(report));
    }
    auto noGpu = std::make_shared<FakeBackend>();
    noGpu->discoveryError = makeError(ErrorKind::NoDriver, "no driver");
    auto window = std::make_unique<MainWindow>(noGpu);
    window->resize(1280, 800);
    window->show();
    if (!window->files().openSaved(path) ||
        !QTest::qWaitFor([&] { return !window->session().isLoading(); }, 30000))
        return nullptr;
    return window;
}

// The place of the finding of `rule` in the window's advice, or -1.
int findingOf(const MainWindow& window, std::string_view rule)
{
    const_cast<SessionModel&>(window.session()).settleAdvice();
    const auto& findings = window.session().advice().parts.front().advice.findings;
    for (std::size_t i = 0; i < findings.size(); ++i)
        if (findings[i].rule == rule)
            return int(i);
    return -1;
}

// The first measured run of `report`.
RunResult measuredRun(const Report& report)
{
    for (std::size_t i = 0; i < report.runs.size(); ++i)
        if (!report.runs.warmup(i))
            return report.runs[i];
    return {};
}

}  // namespace

class ProgramTimelineTest : public QObject {
    Q_OBJECT
private slots:
    void initTestCase() { QSettings().clear(); }

    void kernelsAndCallsAreNamedAndAProgramHasNoCheckRow()
    {
        const Report report = recordedReport("h100-sync_copy");
        QVERIFY(report.program);
        QVERIFY(!report.program->names.empty());
        TimelineLayout layout;
        layout.setRun(measuredRun(report), report.config, &*report.program);
        layout.setPlot(QRectF(100, 0, 1200, 300));
        for (const TimelineRow& row : layout.rows())
            QVERIFY2(row.kind != TimelineRow::Check, qPrintable(row.label));
        QCOMPARE(layout.rows()[1].label, QString("Stream 0"));
        const auto kernels = blocksOfKind(layout, SpanKind::Kernel);
        QVERIFY(!kernels.empty());
        for (const TimelineBlock* k : kernels) {
            QVERIFY2(!k->label.startsWith("kernel"), qPrintable(k->label));  // its function's name
            QVERIFY2(k->name.startsWith(k->label) || k->name.contains(" " + k->label) ||
                    k->name.contains("::" + k->label),
                qPrintable(k->label + " in " + k->name));
            QVERIFY2(!k->name.startsWith("_Z"), qPrintable(k->name));  // demangled
            QVERIFY2(blockToolTip(*k).contains(k->name), qPrintable(blockToolTip(*k)));
        }
        // Its synchronous copies are copies, not "other".
        bool syncCopy = false;
        for (const TimelineBlock* call : blocksOfKind(layout, SpanKind::Api)) {
            QVERIFY2(call->label != "other", qPrintable(blockToolTip(*call)));
            if (call->label == "cudaMemcpy") {
                syncCopy = true;
                QVERIFY2(blockToolTip(*call).contains("cudaMemcpy · synchronous copy or set: the host waits until it "
                                                      "is done"),
                    qPrintable(blockToolTip(*call)));
            }
        }
        QVERIFY(syncCopy);

        // The same run without its program (an older file that names nothing): the kinds' names.
        TimelineLayout unnamed;
        unnamed.setRun(measuredRun(report), report.config);
        QCOMPARE(unnamed.rows()[1].kind, TimelineRow::Check);
        QCOMPARE(blocksOfKind(unnamed, SpanKind::Kernel).front()->label, QString("kernel"));
    }

    void aHundredKernelsAnIterationAreBandedWhereTooNarrowAndDrawnOneByOneZoomedIn()
    {
        const Report report = recordedReport("h100-launch_bound");
        QVERIFY(report.program);
        // The run of the most kernels: an iteration of the program's loop.
        RunResult run;
        for (const RunResult r : report.runs)
            if (r.totalMs(SpanKind::Kernel) > 0.0 && r.spans.size() > run.spans.size())
                run = r;
        TimelineLayout layout;
        layout.setRun(run, report.config, &*report.program);
        layout.setPlot(QRectF(100, 0, 150, 300));  // a narrow window's: a kernel every 1.5 px
        const std::size_t kernels = blocksOfKind(layout, SpanKind::Kernel).size();
        QCOMPARE(kernels, std::size_t(100));
        QVERIFY(!layout.bands().empty());
        std::size_t banded = 0;
        for (const TimelineBand& band : layout.bands()) {
            QVERIFY(band.blocks.size() >= 3);
            for (const std::size_t i : band.blocks)
                QVERIFY(layout.blocks()[i].banded && layout.blocks()[i].row == band.row);
            if (layout.blocks()[band.blocks.front()].span.kind == SpanKind::Kernel) {
                banded += band.blocks.size();
                QCOMPARE(band.label, QString("%1 kernels").arg(band.blocks.size()));
            }
        }
        QVERIFY2(banded >= kernels / 2, qPrintable(QString::number(banded)));
        const auto kernelBand = std::find_if(layout.bands().begin(), layout.bands().end(),
            [&](const TimelineBand& b) { return layout.blocks()[b.blocks.front()].span.kind == SpanKind::Kernel; });
        QVERIFY(kernelBand != layout.bands().end());
        const TimelineBand& band = *kernelBand;
        QCOMPARE(layout.bandAt(band.rect.center()), int(kernelBand - layout.bands().begin()));
        QCOMPARE(layout.blockAt(band.rect.center()), -1);  // a band's blocks are pointed at through it
        const QString tip = bandToolTip(band, layout.blocks());
        QVERIFY2(tip.contains("each too short to draw at this zoom"), qPrintable(tip));
        const QString name = layout.blocks()[band.blocks.front()].label;
        QVERIFY2(tip.contains(QString("%1 × %2").arg(band.blocks.size()).arg(name)), qPrintable(tip));
        QVERIFY2(tip.contains("busy: "), qPrintable(tip));

        // Zoomed in to one kernel's width: each drawn as itself.
        const TimelineBlock* first = blocksOfKind(layout, SpanKind::Kernel).front();
        layout.zoomTo(first->span.beginMs, first->span.beginMs + 20.0 * std::max(1e-4, first->span.ms()));
        for (const TimelineBlock* k : blocksOfKind(layout, SpanKind::Kernel))
            if (k->span.endMs <= layout.visibleEnd() && k->span.beginMs >= layout.visibleBegin())
                QVERIFY(!k->banded);
    }

    void theIterationsOfOneThreadAreWalkedOnTheirOwn()
    {
        QTemporaryDir dir;
        const Report report = recordedReport("h100-threads");
        QVERIFY(report.program && report.program->threads.size() > 1);
        const auto shown = windowShowing(report, dir);
        QVERIFY(shown);
        MainWindow& window = *shown;
        auto* panel = window.findChild<TimelinePanel*>();
        window.tabs().setCurrentWidget(panel);
        auto* thread = panel->findChild<QComboBox*>("walkThread");
        QVERIFY(thread->isVisible());
        QCOMPARE(thread->count(), int(report.program->threads.size()) + 1);
        const RunStore& runs = window.session().report().runs;
        const auto laneOfShown = [&] {
            for (std::size_t i = 0; i < runs.size(); ++i)
                if (runs.index(i) == panel->shownRun())
                    return laneOfRun(runs, i);
            return -1;
        };
        thread->setCurrentIndex(2);  // the second thread
        emit thread->activated(2);
        QCOMPARE(laneOfShown(), 1);
        std::set<int> seen { *panel->shownRun() };
        for (int step = 0; step < 40; ++step) {
            panel->findChild<QToolButton*>("walkPrevious")->click();
            QCOMPARE(laneOfShown(), 1);
            seen.insert(*panel->shownRun());
        }
        QCOMPARE(seen.size(), std::size_t(report.program->threads[1].runs));
        panel->findChild<QToolButton*>("walkSlowest")->click();
        QCOMPARE(laneOfShown(), 1);
        QVERIFY2(panel->findChild<QWidget*>("timelineView") != nullptr, "the view");
        // All threads again: the walk goes through every run.
        thread->setCurrentIndex(0);
        emit thread->activated(0);
        std::set<int> lanes;
        for (int step = 0; step < 12; ++step) {
            panel->findChild<QToolButton*>("walkNext")->click();
            lanes.insert(laneOfShown());
        }
        QVERIFY(lanes.size() > 1);
    }

    void aProgramsFindingsNameTheirIterationsAndLeadToThemOrToTheirFigure()
    {
        QTemporaryDir dir;
        const Report report = recordedReport("h100-sync_copy");
        const auto window = windowShowing(report, dir);
        QVERIFY(window);
        const int synchronous = findingOf(*window, "synchronous-copies");
        QVERIFY(synchronous >= 0);
        const Finding& sync = window->session().advice().parts.front().advice.findings[std::size_t(synchronous)];
        QVERIFY(!sync.runs.empty());  // the iterations that waited in them
        QVERIFY2(sync.evidence.find("(runs ") != std::string::npos, sync.evidence.c_str());
        auto* panel = const_cast<AdvicePanel*>(&window->advice());
        window->tabs().setCurrentWidget(panel);
        QTRY_VERIFY(!panel->findChildren<QWidget*>("finding").isEmpty());
        panel->activateRow(synchronous);
        auto* timeline = window->findChild<TimelinePanel*>();
        QCOMPARE(window->tabs().currentWidget(), static_cast<QWidget*>(timeline));
        QCOMPARE(timeline->shownRun(), std::optional(int(sync.runs.front().first)));

        // A finding about the series as a whole leads to the summary's row of its figure.
        const int pageable = findingOf(*window, "pageable-copies");
        QVERIFY(pageable >= 0);
        const Finding& copies = window->session().advice().parts.front().advice.findings[std::size_t(pageable)];
        const AdvicePanel::Jump jump = AdvicePanel::jumpFor(window->session().advice(), copies);
        QCOMPARE(AdvicePanel::jumpText(jump, copies), QString("Show H2D bandwidth in the summary"));
        window->tabs().setCurrentWidget(panel);
        panel->activateRow(pageable);
        const SummaryTable& summary = window->summary();
        QCOMPARE(window->tabs().currentWidget(), static_cast<const QWidget*>(&summary));
        QCOMPARE(summary.figureAt(summary.currentRow()), std::string("h2d_gbps"));
    }

    void whatToDoNamesTheRecordDialogsControlBesideTheFlag()
    {
        Report report = recordedReport("h100-sync_copy");
        report.program->droppedRecords = 12;
        const Assessment assessed = assessSeries(report);
        const auto dropped = std::find_if(assessed.advice.findings.begin(), assessed.advice.findings.end(),
            [](const Finding& f) { return f.rule == "dropped-records"; });
        QVERIFY(dropped != assessed.advice.findings.end());
        QVERIFY2(dropped->action.find("--duration") != std::string::npos, dropped->action.c_str());
        QCOMPARE(windowControlsOf(QString::fromStdString(dropped->action), true),
            QString("Record dialog › Stop after; Record dialog › Iterations: NVTX range"));
        // A program's finding names no control of the pipeline's panel, whose options set nothing of it; the words
        // after an option are no value of it.
        const QString tooShort = QStringLiteral("time larger chunks (fewer --chunks or a larger --size).");
        QCOMPARE(windowControlsOf(tooShort, true), QString());
        QCOMPARE(windowControlsOf(tooShort), QString("Chunks (K); Size"));
        QCOMPARE(windowControlsOf(QStringLiteral("--chunks 16 --streams 4")), QString("Chunks (K) 16; Streams (S) 4"));

        // The window shows the Record dialog's controls under a program's finding.
        QTemporaryDir dir;
        const auto window = windowShowing(report, dir);
        QVERIFY(window);
        QVERIFY(window->session().advice().program);
        auto* panel = const_cast<AdvicePanel*>(&window->advice());
        window->tabs().setCurrentWidget(panel);
        QTRY_VERIFY(!panel->findChildren<QWidget*>("finding").isEmpty());
        bool shown = false;
        for (const QLabel* action : panel->findChildren<QLabel*>("action"))
            shown = shown || action->text().contains("Record dialog › Stop after");
        QVERIFY(shown);
    }
};

QTEST_MAIN(ProgramTimelineTest)
#include "program_timeline_test.moc"

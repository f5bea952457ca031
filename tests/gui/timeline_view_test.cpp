// The Timeline tab. Runs here are spans constructed in the test (not measured): their rows and blocks, CUPTI's
// traced spans preferred over the events' spans, hit testing and tooltips, zoom and pan through the widget's own
// mouse, wheel and key events, PNG and SVG exports at a chosen size. The window's tab runs a series of the fake
// backend (invented runs, no CUDA) and picks a run through a click on the time chart.
#include "fake_backend.hpp"

#include "gui/charts/chart_view.hpp"
#include "gui/app/file_actions.hpp"
#include "gui/app/main_window.hpp"
#include "gui/session/session_model.hpp"
#include "gui/timeline/timeline_layout.hpp"
#include "gui/timeline/timeline_panel.hpp"
#include "gui/timeline/timeline_view.hpp"
#include "gui/app/window_actions.hpp"

#include <QAction>
#include <QApplication>
#include <QFile>
#include <QImage>
#include <QLabel>
#include <QPushButton>
#include <QSettings>
#include <QSignalSpy>
#include <QSpinBox>
#include <QSvgRenderer>
#include <QTabWidget>
#include <QToolButton>
#include <QTemporaryDir>
#include <QTest>
#include <QWheelEvent>
#include <QXmlStreamReader>
#include <QXYSeries>

#include <algorithm>

using namespace asyncscope;
using asyncscope::testing::FakeBackend;

namespace {

constexpr std::uint64_t kMiB = 1024 * 1024;

// A classic run as the pipeline records it: H2D, kernel, D2H end to end on stream 0, submit then wait, and the
// check of its elements after the wait (constructed here, not measured).
RunResult classicRun()
{
    SerialDurations d;
    d.bytes = 64 * kMiB;
    d.h2dMs = 1.2;
    d.kernelMs = 0.06;
    d.d2hMs = 1.2;
    d.submitMs = 0.05;
    d.waitMs = 2.42;
    RunResult run;
    run.index = 3;
    run.gpuMs = 2.46;
    run.spans = serialSpans(0, d);
    run.spans.push_back({ SpanKind::Check, 0, 0, 0, 64 * kMiB, 2.5, 3.4 });
    return run;
}

// K chunks of 4 MiB over S streams, chunk c on stream c % S, each stream's operations end to end (constructed).
RunResult chunkedRun(int chunks, int streams)
{
    RunResult run;
    run.index = 7;
    std::vector<double> at(std::size_t(streams), 0.0);
    for (int c = 0; c < chunks; ++c) {
        const int s = c % streams;
        double& t = at[std::size_t(s)];
        run.spans.push_back({ SpanKind::H2D, 0, s, c, 4 * kMiB, t, t + 0.08 });
        run.spans.push_back({ SpanKind::Kernel, 0, s, c, 8 * kMiB, t + 0.08, t + 0.09 });
        run.spans.push_back({ SpanKind::D2H, 0, s, c, 4 * kMiB, t + 0.09, t + 0.17 });
        t += 0.17;
        run.gpuMs = std::max(run.gpuMs, t);
    }
    run.spans.push_back({ SpanKind::Submit, 0, 0, 0, 0, 0.0, 0.2 });
    run.spans.push_back({ SpanKind::Wait, 0, 0, 0, 0, 0.2, run.gpuMs + 0.01 });
    return run;
}

// The same run as CUPTI would trace it: the GPU operations 5 µs later than the events say, and a runtime call per
// operation on the submitting thread (constructed).
RunResult tracedRun(int chunks, int streams)
{
    RunResult run = chunkedRun(chunks, streams);
    for (const Span& s : run.spans) {
        if (!onGpu(s.kind))
            continue;
        Span t = s;
        t.beginMs += 0.005;
        t.endMs += 0.005;
        run.traced.push_back(t);
    }
    double at = 0.001;
    for (int c = 0; c < chunks; ++c) {
        for (const ApiCall call : { ApiCall::MemcpyAsync, ApiCall::LaunchKernel, ApiCall::MemcpyAsync }) {
            run.traced.push_back({ SpanKind::Api, 0, 0, 0, 0, at, at + 0.003, call });
            at += 0.004;
        }
    }
    return run;
}

std::vector<const TimelineBlock*> blocksOf(const TimelineLayout& layout, int row)
{
    std::vector<const TimelineBlock*> found;
    for (const TimelineBlock& b : layout.blocks()) {
        if (b.row == row)
            found.push_back(&b);
    }
    return found;
}

int gpuBlocks(const TimelineLayout& layout)
{
    return int(std::count_if(layout.blocks().begin(), layout.blocks().end(),
        [](const TimelineBlock& b) { return onGpu(b.span.kind) && !b.gpuTime; }));
}

QStringList rowLabels(const TimelineLayout& layout)
{
    QStringList labels;
    for (const TimelineRow& row : layout.rows())
        labels << row.label;
    return labels;
}

void wheel(QWidget* widget, QPointF at, QPoint angle, Qt::KeyboardModifiers modifiers = Qt::NoModifier)
{
    QWheelEvent event(at, widget->mapToGlobal(at), QPoint(), angle, Qt::NoButton, modifiers, Qt::NoScrollPhase, false);
    QApplication::sendEvent(widget, &event);
}

void mouse(QWidget* widget, QEvent::Type type, QPointF at, Qt::MouseButton button, Qt::MouseButtons held,
    Qt::KeyboardModifiers modifiers = Qt::NoModifier)
{
    QMouseEvent event(type, at, widget->mapToGlobal(at), button, held, modifiers);
    QApplication::sendEvent(widget, &event);
}

}  // namespace

class TimelineViewTest : public QObject {
    Q_OBJECT
private:
    QTemporaryDir m_dir;

private slots:
    void initTestCase()
    {
        QCoreApplication::setOrganizationName("AsyncScopeTests");
        QCoreApplication::setApplicationName("TimelineViewTest");
        QSettings().clear();
        QVERIFY(m_dir.isValid());
    }

    void rowsOfTheClassicRun()
    {
        TimelineLayout layout;
        layout.setRun(classicRun());
        QCOMPARE(rowLabels(layout), QStringList({ "CPU · submit & wait", "CPU · check threads", "Stream 0" }));
        QVERIFY(!layout.gpuTraced());
        QVERIFY(!layout.cpuTraced());
        QVERIFY(!layout.stagesOff());
        const auto cpu = blocksOf(layout, 0);
        QCOMPARE(cpu.size(), std::size_t(2));
        QCOMPARE(cpu[0]->span.kind, SpanKind::Submit);
        QCOMPARE(cpu[1]->span.kind, SpanKind::Wait);
        const auto check = blocksOf(layout, 1);
        QCOMPARE(check.size(), std::size_t(1));
        QCOMPARE(check[0]->span.kind, SpanKind::Check);
        const auto gpu = blocksOf(layout, 2);
        QCOMPARE(gpu.size(), std::size_t(3));
        QCOMPARE(gpu[0]->label, QString("H2D"));  // one chunk: no chunk numbers
        QCOMPARE(gpu[1]->label, QString("kernel"));
        QCOMPARE(gpu[2]->label, QString("D2H"));
        // The whole run fits, from 0 to past the check's end.
        QCOMPARE(layout.visibleBegin(), 0.0);
        QVERIFY(layout.visibleEnd() >= 3.4);
        QVERIFY(!layout.zoomed());
    }

    void rowsOfSixteenChunksOnFourStreams()
    {
        TimelineLayout layout;
        layout.setRun(chunkedRun(16, 4), 4);
        QCOMPARE(rowLabels(layout), QStringList({ "CPU · submit & wait", "CPU · check threads", "Stream 0", "Stream 1",
                                        "Stream 2", "Stream 3" }));
        QCOMPARE(gpuBlocks(layout), 48);
        for (const TimelineBlock& b : layout.blocks()) {
            if (!onGpu(b.span.kind))
                continue;
            QCOMPARE(b.row, 2 + b.span.chunk % 4);
            QCOMPARE(layout.rows()[std::size_t(b.row)].stream, b.span.chunk % 4);
        }
        const auto stream1 = blocksOf(layout, 3);
        QCOMPARE(stream1.size(), std::size_t(12));
        QCOMPARE(stream1[0]->label, QString("H2D #1"));
        QCOMPARE(stream1[1]->label, QString("kernel #1"));
        // Streams the run was given but no chunk used still get a row.
        layout.setRun(chunkedRun(16, 4), 6);
        QCOMPARE(layout.rows().size(), std::size_t(8));
    }

    void tracedSpansArePreferredWithRuntimeCallsOnTheCpuRow()
    {
        const RunResult run = tracedRun(16, 4);
        TimelineLayout layout;
        layout.setRun(run, 4);
        QVERIFY(layout.gpuTraced());
        QVERIFY(layout.cpuTraced());
        QCOMPARE(gpuBlocks(layout), 48);
        for (const TimelineBlock& b : layout.blocks()) {
            if (!onGpu(b.span.kind))
                continue;
            // The traced time, not the events' one.
            const auto event = std::find_if(run.spans.begin(), run.spans.end(), [&](const Span& s) {
                return s.kind == b.span.kind && s.chunk == b.span.chunk;
            });
            QVERIFY(event != run.spans.end());
            QCOMPARE(b.span.beginMs, event->beginMs + 0.005);
        }
        const auto cpu = blocksOf(layout, 0);
        QCOMPARE(cpu.size(), std::size_t(48 + 1));  // a block per runtime call, and the wait
        QCOMPARE(std::count_if(cpu.begin(), cpu.end(), [](auto b) { return b->span.kind == SpanKind::Api; }), 48);
        QCOMPARE(std::count_if(cpu.begin(), cpu.end(), [](auto b) { return b->span.kind == SpanKind::Wait; }), 1);
        QCOMPARE(std::count_if(cpu.begin(), cpu.end(), [](auto b) { return b->span.kind == SpanKind::Submit; }), 0);
        QCOMPARE(cpu[0]->label, QString("cudaMemcpyAsync"));
        QCOMPARE(cpu[1]->label, QString("cudaLaunchKernel"));

        TimelineView view;
        view.setRun(run, 4);
        QCOMPARE(view.clockText(),
            QString("CUPTI: runtime calls and GPU operations on one clock, 0 = submission begins"));
        view.setRun(chunkedRun(16, 4), 4, "CUPTI is held by another tool");
        QVERIFY2(view.clockText().startsWith("GPU spans: CUDA events, 0 = the start event, recorded as submission begins"),
            qPrintable(view.clockText()));
        QVERIFY2(view.clockText().endsWith("CPU spans: host steady clock, 0 = submission begins"),
            qPrintable(view.clockText()));
        QCOMPARE(view.noteText(), QString("CUPTI not used: CUPTI is held by another tool"));
    }

    void stageEventsOffShowTheGpuTimeAsOneBar()
    {
        RunResult run;
        run.index = 1;
        run.gpuMs = 2.5;
        run.spans.push_back({ SpanKind::Submit, 0, 0, 0, 0, 0.0, 0.04 });
        run.spans.push_back({ SpanKind::Wait, 0, 0, 0, 0, 0.04, 2.52 });
        TimelineLayout layout;
        layout.setRun(run);
        QVERIFY(layout.stagesOff());
        QCOMPARE(rowLabels(layout),
            QStringList({ "CPU · submit & wait", "CPU · check threads", "GPU (start → stop event)" }));
        const auto gpu = blocksOf(layout, 2);
        QCOMPARE(gpu.size(), std::size_t(1));
        QVERIFY(gpu[0]->gpuTime);
        QCOMPARE(gpu[0]->span.beginMs, 0.0);
        QCOMPARE(gpu[0]->span.endMs, 2.5);
        QCOMPARE(gpuBlocks(layout), 0);
        TimelineView view;
        view.setRun(run, 1);
        QVERIFY2(view.noteText().contains("stage events were off"), qPrintable(view.noteText()));
    }

    void hitTestFindsTheBlockAndItsToolTipSaysWhatItDid()
    {
        TimelineLayout layout;
        layout.setRun(chunkedRun(16, 4), 4);
        layout.setPlot(QRectF(100, 10, 1000, 240));
        const auto kernel5 = std::find_if(layout.blocks().begin(), layout.blocks().end(),
            [](const TimelineBlock& b) { return b.span.kind == SpanKind::Kernel && b.span.chunk == 5; });
        QVERIFY(kernel5 != layout.blocks().end());
        const int index = int(kernel5 - layout.blocks().begin());
        QCOMPARE(layout.blockAt(kernel5->rect.center()), index);
        QVERIFY(layout.rowRect(kernel5->row).contains(kernel5->rect.center()));
        const QString tip = blockToolTip(*kernel5);
        for (const char* part : { "kernel", "chunk 5", "stream 1", "bytes: 8.0 MiB", "duration: 10.0 µs", "839 GB/s",
                 "from 0.2500 ms to 0.2600 ms" })
            QVERIFY2(tip.contains(part), qPrintable(part + QString(" not in ") + tip));
        // Between rows, and right of every block: nothing.
        QCOMPARE(layout.blockAt(QPointF(kernel5->rect.center().x(), layout.rowRect(1).top() + 1)), -1);
        QCOMPARE(layout.blockAt(QPointF(1099, layout.rowRect(2).center().y())), -1);

        TimelineLayout classic;
        classic.setRun(classicRun());
        classic.setPlot(QRectF(0, 0, 800, 120));
        const TimelineBlock& h2d = *blocksOf(classic, 2)[0];
        const QString copy = blockToolTip(h2d);
        for (const char* part : { "H2D copy", "chunk 0", "stream 0", "64.0 MiB", "1.20 ms", "55.9 GB/s" })
            QVERIFY2(copy.contains(part), qPrintable(part + QString(" not in ") + copy));
        QCOMPARE(classic.blockAt(h2d.rect.center()), int(&h2d - classic.blocks().data()));

        TimelineLayout traced;
        traced.setRun(tracedRun(2, 1));
        traced.setPlot(QRectF(0, 0, 800, 120));
        const QString call = blockToolTip(*blocksOf(traced, 0)[1]);
        QVERIFY2(call.contains("cudaLaunchKernel · runtime call"), qPrintable(call));
        QVERIFY2(call.contains("duration: 3.00 µs"), qPrintable(call));
    }

    void pageMigrationsHaveARowOfTheirOwn()
    {
        // Managed memory with prefetches, traced: the prefetches on their streams, the migrations below them.
        PipelineConfig config;
        config.streams = 2;
        config.hostMemory = HostMemory::Managed;
        config.managedMigration = ManagedMigration::Prefetch;
        RunResult run = tracedRun(4, 2);
        run.traced.push_back({ SpanKind::MigrateH2D, 0, 0, 0, 2 * kMiB, 0.01, 0.05 });
        run.traced.push_back({ SpanKind::MigrateH2D, 0, 0, 0, 2 * kMiB, 0.05, 0.09 });
        run.traced.push_back({ SpanKind::MigrateD2H, 0, 0, 0, 4 * kMiB, 0.2, 0.3 });
        TimelineLayout layout;
        layout.setRun(run, config);
        QVERIFY(layout.migrationsTraced());
        QCOMPARE(rowLabels(layout),
            QStringList({ "CPU · submit & wait", "CPU · check threads", "Stream 0", "Stream 1",
                "Unified memory · page migrations" }));
        QCOMPARE(layout.rows().back().kind, TimelineRow::Migrations);
        const auto migrations = blocksOf(layout, 4);
        QCOMPARE(migrations.size(), std::size_t(3));
        for (const TimelineBlock* b : migrations)
            QVERIFY(isMigration(b->span.kind));
        QCOMPARE(migrations[0]->label, QString("to device"));
        QCOMPARE(migrations[2]->label, QString("to host"));
        // Nothing else on the row, and no migration on a stream's.
        for (const TimelineBlock& b : layout.blocks())
            QCOMPARE(isMigration(b.span.kind), b.row == 4);
        layout.setPlot(QRectF(0, 0, 800, 300));
        const QString tip = blockToolTip(*migrations[2]);
        for (const char* part : { "page migration to the host · unified memory (CUPTI)", "bytes: 4.0 MiB",
                 "duration: 100", "GB/s" })
            QVERIFY2(tip.contains(part), qPrintable(part + QString(" not in ") + tip));
        QVERIFY2(!tip.contains("chunk"), qPrintable(tip));
        QCOMPARE(layout.blockAt(migrations[2]->rect.center()), int(migrations[2] - layout.blocks().data()));
        // The prefetches are named as what they are.
        const auto prefetch = std::find_if(layout.blocks().begin(), layout.blocks().end(),
            [](const TimelineBlock& b) { return b.span.kind == SpanKind::H2D; });
        QVERIFY(prefetch != layout.blocks().end());
        QCOMPARE(prefetch->label, QString("H2D #0 (prefetch)"));

        // The legend names the migrations, and nothing says they are hidden in the kernel.
        TimelineView view;
        view.setRun(run, config);
        QVERIFY2(!view.noteText().contains("inside the kernel"), qPrintable(view.noteText()));
        const QString path = m_dir.filePath("migrations.svg");
        QCOMPARE(view.exportPicture(path, QSize(1280, 720)), QString());
        QFile svg(path);
        QVERIFY(svg.open(QIODevice::ReadOnly));
        const QString picture = QString::fromUtf8(svg.readAll());
        for (const char* text : { "page migration to the device", "page migration to the host", "Unified memory" })
            QVERIFY2(picture.contains(text), text);

        // Events only: no migration row.
        TimelineLayout events;
        events.setRun(chunkedRun(4, 2), config);
        QVERIFY(!events.migrationsTraced());
        QCOMPARE(events.rows().size(), std::size_t(4));
    }

    void smCopiesAreLabelledAsKernelsThatCopy()
    {
        PipelineConfig config;
        config.streams = 4;
        config.copy = CopyMechanism::Sm;
        TimelineLayout layout;
        layout.setRun(chunkedRun(16, 4), config);
        QCOMPARE(layout.kindName(SpanKind::H2D), QString("H2D copy (SM copy kernel)"));
        QCOMPARE(layout.kindName(SpanKind::D2H), QString("D2H copy (SM copy kernel)"));
        QCOMPARE(layout.kindName(SpanKind::Kernel), QString("kernel"));
        for (const TimelineBlock& b : layout.blocks()) {
            if (b.span.kind == SpanKind::H2D)
                QCOMPARE(b.label, QString("H2D #%1 (SM copy kernel)").arg(b.span.chunk));
            else if (b.span.kind == SpanKind::D2H)
                QCOMPARE(b.label, QString("D2H #%1 (SM copy kernel)").arg(b.span.chunk));
            else if (b.span.kind == SpanKind::Kernel)
                QCOMPARE(b.label, QString("kernel #%1").arg(b.span.chunk));
        }
        const auto h2d = std::find_if(layout.blocks().begin(), layout.blocks().end(),
            [](const TimelineBlock& b) { return b.span.kind == SpanKind::H2D && b.span.chunk == 3; });
        QVERIFY(h2d != layout.blocks().end());
        const QString tip = blockToolTip(*h2d);
        QVERIFY2(tip.startsWith("H2D copy (SM copy kernel) · chunk 3 · stream 3"), qPrintable(tip));

        // The classic run, one chunk: the label without a number.
        config.streams = 1;
        layout.setRun(classicRun(), config);
        QCOMPARE(blocksOf(layout, 2)[0]->label, QString("H2D (SM copy kernel)"));
        // With the copy engines, the plain names.
        layout.setRun(classicRun(), 1);
        QCOMPARE(blocksOf(layout, 2)[0]->label, QString("H2D"));
        QCOMPARE(layout.kindName(SpanKind::H2D), QString("H2D copy"));

        TimelineView view;
        config.streams = 4;
        view.setRun(chunkedRun(16, 4), config);
        const QString path = m_dir.filePath("sm.svg");
        QCOMPARE(view.exportPicture(path, QSize(1280, 720)), QString());
        QFile svg(path);
        QVERIFY(svg.open(QIODevice::ReadOnly));
        QVERIFY(QString::fromUtf8(svg.readAll()).contains("H2D copy (SM copy kernel)"));  // the legend
    }

    void dataMovedInsideTheKernelIsSaidInANote()
    {
        // Managed memory on demand, events only: the kernels alone, the migrations inside them.
        RunResult run;
        run.index = 2;
        run.gpuMs = 9.0;
        run.spans.push_back({ SpanKind::Kernel, 0, 0, 0, 128 * kMiB, 0.0, 9.0 });
        run.spans.push_back({ SpanKind::Submit, 0, 0, 0, 0, 0.0, 0.01 });
        run.spans.push_back({ SpanKind::Wait, 0, 0, 0, 0, 0.01, 9.0 });
        PipelineConfig config;
        config.hostMemory = HostMemory::Managed;
        config.managedMigration = ManagedMigration::OnDemand;
        TimelineView view;
        view.setRun(run, config);
        QVERIFY2(view.noteText().contains("page migrations to the device are inside the kernel's span"),
            qPrintable(view.noteText()));
        QVERIFY(!view.timeline().migrationsTraced());

        config.hostMemory = HostMemory::Mapped;
        view.setRun(run, config);
        QVERIFY2(view.noteText().contains("the kernel reads and writes host memory over the bus"),
            qPrintable(view.noteText()));

        // Traced with its migrations: they have their row, and no note says they are hidden.
        config.hostMemory = HostMemory::Managed;
        run.traced.push_back({ SpanKind::Kernel, 0, 0, 0, 128 * kMiB, 0.02, 9.0 });
        run.traced.push_back({ SpanKind::MigrateH2D, 0, 0, 0, 2 * kMiB, 0.1, 0.4 });
        view.setRun(run, config);
        QVERIFY(view.timeline().migrationsTraced());
        QVERIFY2(!view.noteText().contains("inside the kernel"), qPrintable(view.noteText()));

        // Pinned memory: no note.
        view.setRun(classicRun(), PipelineConfig {});
        QVERIFY(view.noteText().isEmpty());
    }

    void zoomAndPanMaths()
    {
        TimelineLayout layout;
        layout.setRun(chunkedRun(16, 4), 4);
        layout.setPlot(QRectF(0, 0, 1000, 200));
        const double begin = layout.fullBegin(), end = layout.fullEnd();
        QCOMPARE(layout.visibleBegin(), begin);
        QCOMPARE(layout.visibleEnd(), end);
        // Zooming in around a time keeps that time at the same x.
        const double at = begin + 0.3 * (end - begin);
        const double x = layout.xOf(at);
        layout.zoomAround(at, 2.0);
        QVERIFY(layout.zoomed());
        QVERIFY(qFuzzyCompare(layout.visibleEnd() - layout.visibleBegin(), (end - begin) / 2.0));
        QVERIFY(std::abs(layout.xOf(at) - x) < 1e-6);
        // Panning stops at the run's ends.
        layout.pan(-100.0);
        QCOMPARE(layout.visibleBegin(), begin);
        layout.pan(100.0);
        QCOMPARE(layout.visibleEnd(), end);
        // A rubber band's range, in either direction.
        layout.zoomTo(0.6, 0.2);
        QCOMPARE(layout.visibleBegin(), 0.2);
        QVERIFY(qFuzzyCompare(layout.visibleEnd(), 0.6));
        // A new run keeps the zoom the user chose...
        layout.setRun(chunkedRun(16, 4), 4);
        QCOMPARE(layout.visibleBegin(), 0.2);
        // ...and zooming out all the way is no zoom: the next run fits.
        layout.zoomAround(0.4, 1e-3);
        QVERIFY(!layout.zoomed());
        layout.setRun(chunkedRun(64, 4), 4);
        QCOMPARE(layout.visibleEnd(), layout.fullEnd());
        QVERIFY(layout.fullEnd() > end);
        layout.zoomTo(0.1, 0.2);
        layout.resetZoom();
        QVERIFY(!layout.zoomed());
        QCOMPARE(layout.visibleBegin(), layout.fullBegin());
        // Zooming stops at 0.1 µs across.
        layout.zoomAround(0.5, 1e9);
        QVERIFY(qFuzzyCompare(layout.visibleEnd() - layout.visibleBegin(), TimelineLayout::kLeastVisibleMs));
    }

    void ticksAreRoundAndInView()
    {
        TimelineLayout layout;
        layout.setRun(classicRun());
        layout.setPlot(QRectF(0, 0, 900, 120));
        const TimelineTicks ticks = layout.ticks(90.0);
        QCOMPARE(ticks.step, 0.5);
        QCOMPARE(ticks.decimals, 1);
        QCOMPARE(ticks.at.front(), 0.0);
        for (const double t : ticks.at) {
            QVERIFY(t >= layout.visibleBegin() && t <= layout.visibleEnd());
            QVERIFY(std::abs(t / ticks.step - std::round(t / ticks.step)) < 1e-9);
        }
        layout.zoomTo(1.0, 1.003);
        const TimelineTicks fine = layout.ticks(90.0);
        QVERIFY(fine.step <= 0.0005 && fine.step >= 0.0001);
        QVERIFY(fine.at.size() >= 3);
    }

    void wheelBandDoubleClickHomeAndPanDriveTheView()
    {
        TimelineView view;
        view.resize(1000, 420);
        view.setRun(chunkedRun(16, 4), 4);
        view.show();
        QVERIFY(QTest::qWaitForWindowExposed(&view));
        const TimelineLayout& t = view.timeline();
        const QRectF plot = t.plot();
        QVERIFY(plot.width() > 500);
        QSignalSpy zoomChanges(&view, &TimelineView::zoomChanged);
        const double full = t.visibleEnd() - t.visibleBegin();

        // The wheel zooms around the pointer.
        const QPointF pointer(plot.left() + 0.25 * plot.width(), plot.center().y());
        const double under = t.msAt(pointer.x());
        wheel(&view, pointer, QPoint(0, 120));
        QVERIFY(t.zoomed());
        QVERIFY(qFuzzyCompare(t.visibleEnd() - t.visibleBegin(), full / 1.25));
        QVERIFY(std::abs(t.msAt(pointer.x()) - under) < 1e-9);
        QVERIFY(!zoomChanges.isEmpty());
        QCOMPARE(zoomChanges.last().at(0).toBool(), true);

        // Double click: the whole run again.
        QTest::mouseDClick(&view, Qt::LeftButton, Qt::NoModifier, plot.center().toPoint());
        QVERIFY(!t.zoomed());
        QCOMPARE(t.visibleBegin(), t.fullBegin());

        // A left drag zooms to the dragged range.
        const double x0 = plot.left() + 0.2 * plot.width(), x1 = plot.left() + 0.4 * plot.width();
        const double ms0 = t.msAt(x0), ms1 = t.msAt(x1);
        const double y = plot.center().y();
        mouse(&view, QEvent::MouseButtonPress, QPointF(x0, y), Qt::LeftButton, Qt::LeftButton);
        mouse(&view, QEvent::MouseMove, QPointF((x0 + x1) / 2, y), Qt::NoButton, Qt::LeftButton);
        mouse(&view, QEvent::MouseMove, QPointF(x1, y), Qt::NoButton, Qt::LeftButton);
        mouse(&view, QEvent::MouseButtonRelease, QPointF(x1, y), Qt::LeftButton, Qt::NoButton);
        QVERIFY(t.zoomed());
        QVERIFY(std::abs(t.visibleBegin() - ms0) < 1e-9);
        QVERIFY(std::abs(t.visibleEnd() - ms1) < 1e-9);

        // A click without a drag changes nothing.
        mouse(&view, QEvent::MouseButtonPress, QPointF(x0, y), Qt::LeftButton, Qt::LeftButton);
        mouse(&view, QEvent::MouseButtonRelease, QPointF(x0 + 1, y), Qt::LeftButton, Qt::NoButton);
        QVERIFY(std::abs(t.visibleBegin() - ms0) < 1e-9);

        // Shift+drag pans: dragging right shows earlier times, the width stays.
        const double width = t.visibleEnd() - t.visibleBegin();
        const double msPerPixel = width / plot.width();
        mouse(&view, QEvent::MouseButtonPress, QPointF(x1, y), Qt::LeftButton, Qt::LeftButton, Qt::ShiftModifier);
        mouse(&view, QEvent::MouseMove, QPointF(x1 + 50, y), Qt::NoButton, Qt::LeftButton, Qt::ShiftModifier);
        mouse(&view, QEvent::MouseButtonRelease, QPointF(x1 + 50, y), Qt::LeftButton, Qt::NoButton, Qt::ShiftModifier);
        QVERIFY(std::abs(t.visibleBegin() - (ms0 - 50 * msPerPixel)) < 1e-9);
        QVERIFY(qFuzzyCompare(t.visibleEnd() - t.visibleBegin(), width));

        // A middle drag pans too, and a horizontal scroll.
        const double before = t.visibleBegin();
        mouse(&view, QEvent::MouseButtonPress, QPointF(x1, y), Qt::MiddleButton, Qt::MiddleButton);
        mouse(&view, QEvent::MouseMove, QPointF(x1 - 30, y), Qt::NoButton, Qt::MiddleButton);
        mouse(&view, QEvent::MouseButtonRelease, QPointF(x1 - 30, y), Qt::MiddleButton, Qt::NoButton);
        QVERIFY(std::abs(t.visibleBegin() - (before + 30 * msPerPixel)) < 1e-9);
        const double scrolled = t.visibleBegin();
        wheel(&view, plot.center(), QPoint(-120, 0));
        QVERIFY(std::abs(t.visibleBegin() - (scrolled + 0.1 * width)) < 1e-9);

        // Home: the whole run again.
        view.setFocus();
        QTest::keyClick(&view, Qt::Key_Home);
        QVERIFY(!t.zoomed());
        QCOMPARE(t.visibleEnd(), t.fullEnd());
        QCOMPARE(zoomChanges.last().at(0).toBool(), false);
    }

    void blocksAreLaidOutOnceAndPaintedFromTheirRects()
    {
        // 64 chunks x 3 operations on one stream: the rects are ready before any paint, one per block, in the plot.
        TimelineView view;
        view.resize(1200, 400);
        view.setRun(chunkedRun(64, 1), 1);
        const TimelineLayout& t = view.timeline();
        QCOMPARE(gpuBlocks(t), 192);
        for (const TimelineBlock& b : t.blocks()) {
            QVERIFY(b.rect.width() >= 1.0);
            QVERIFY(b.rect.left() >= t.plot().left() - 1e-6 && b.rect.right() <= t.plot().right() + 1e-6);
        }
        QImage image(view.size(), QImage::Format_ARGB32);
        view.render(&image);
        // A block's middle is painted in its kind's colour.
        const TimelineBlock& h2d = *blocksOf(t, 2)[0];
        const QColor painted = image.pixelColor(QPoint(int(h2d.rect.left()) + 2, int(h2d.rect.top()) + 2));
        QCOMPARE(painted, QColor(86, 180, 233));
    }

    void exportsPngAndSvgOfTheChosenSize()
    {
        TimelineView view;
        view.resize(900, 360);
        view.setTitle("Run 8 of 10 · constructed spans");
        view.setRun(tracedRun(16, 4), 4);
        view.zoomIn();
        const double begin = view.timeline().visibleBegin();

        const QString png = m_dir.filePath("timeline.png");
        QCOMPARE(view.exportPicture(png, QSize(1234, 567)), QString());
        QImage image(png);
        QCOMPARE(image.size(), QSize(1234, 567));
        const QString large = m_dir.filePath("timeline-large.png");
        QCOMPARE(view.exportPicture(large, QSize(3200, 1800)), QString());
        QCOMPARE(QImage(large).size(), QSize(3200, 1800));
        QCOMPARE(view.timeline().visibleBegin(), begin);  // the export leaves the view's zoom alone

        const QString svg = m_dir.filePath("timeline.svg");
        QCOMPARE(view.exportPicture(svg, QSize(1400, 700)), QString());
        QFile file(svg);
        QVERIFY(file.open(QIODevice::ReadOnly));
        QXmlStreamReader xml(&file);
        QVERIFY(xml.readNextStartElement());
        QCOMPARE(xml.name().toString(), QString("svg"));
        QVERIFY(xml.attributes().hasAttribute("width"));
        QVERIFY(xml.attributes().hasAttribute("height"));
        QCOMPARE(xml.attributes().value("viewBox").toString(), QString("0 0 1400 700"));
        bool sawTitle = false, sawText = false;
        while (!xml.atEnd()) {
            xml.readNext();
            if (xml.isStartElement() && xml.name() == QLatin1String("title"))
                sawTitle = xml.readElementText().contains("Run 8 of 10");
            if (xml.isCharacters() && xml.text().contains(QLatin1String("Stream 3")))
                sawText = true;
        }
        QVERIFY2(!xml.hasError(), qPrintable(xml.errorString()));
        QVERIFY(sawTitle);
        QVERIFY(sawText);
        QSvgRenderer renderer(svg);
        QVERIFY(renderer.isValid());
        QCOMPARE(renderer.viewBox(), QRect(0, 0, 1400, 700));

        QVERIFY(view.exportPicture(m_dir.filePath("tiny.png"), QSize(8, 8)).contains("outside 16 to 16384"));
        QVERIFY(view.exportPicture(m_dir.filePath("timeline.xyz"), QSize(100, 100)).contains("Unknown picture format"));
    }

    // With the keyboard focus the view is framed in the highlight colour; without it, not; never in a picture.
    void theKeyboardFocusIsFramed()
    {
        TimelineView view;
        view.resize(900, 360);
        view.setRun(classicRun(), 1);
        view.show();
        view.activateWindow();
        QVERIFY(QTest::qWaitForWindowActive(&view));
        view.clearFocus();
        const QImage unfocused = view.grab().toImage();
        view.setFocus(Qt::TabFocusReason);
        QVERIFY(view.hasFocus());
        const QImage focused = view.grab().toImage();
        const QColor highlight = view.palette().color(QPalette::Highlight);
        const QSize size = focused.size();
        for (const QPoint at : { QPoint(0, size.height() / 2), QPoint(size.width() / 2, 0),
                 QPoint(size.width() - 1, size.height() / 2), QPoint(size.width() / 2, size.height() - 1) }) {
            QCOMPARE(focused.pixelColor(at), highlight);
            QVERIFY(unfocused.pixelColor(at) != highlight);
        }
        const QString png = m_dir.filePath("focused.png");
        QCOMPARE(view.exportPicture(png, QSize(900, 360)), QString());
        QVERIFY(QImage(png).pixelColor(0, 180) != highlight);
        view.clearFocus();
        QCOMPARE(view.grab().toImage(), unfocused);
    }

    // A picture of any size is filled: the rows share its height down to the axis, legend and notes at its foot,
    // rather than keeping the window's row height and leaving the rest of the picture blank.
    void exportedRowsFillThePicture_data()
    {
        QTest::addColumn<QSize>("pixels");
        QTest::newRow("1600x900") << QSize(1600, 900);
        QTest::newRow("800x600") << QSize(800, 600);
        QTest::newRow("3200x1800") << QSize(3200, 1800);
    }

    void exportedRowsFillThePicture()
    {
        QFETCH(QSize, pixels);
        TimelineView view;
        view.resize(900, 360);
        view.setTitle("Run 3 of 10 · constructed spans");
        view.setRun(classicRun(), 1);
        QCOMPARE(view.timeline().rows().size(), std::size_t(3));
        const QString png = m_dir.filePath("filled.png");
        QCOMPARE(view.exportPicture(png, pixels), QString());
        const QImage image = QImage(png).convertToFormat(QImage::Format_ARGB32);
        QCOMPARE(image.size(), pixels);
        // The share of a pixel row that is not the background, at its most between two heights.
        const QRgb background = image.pixel(0, 0);
        const auto widestBand = [&image, background](int from, int to) {
            double most = 0.0;
            for (int y = from; y < to; ++y) {
                int drawn = 0;
                for (int x = 0; x < image.width(); ++x)
                    drawn += image.pixel(x, y) != background ? 1 : 0;
                most = std::max(most, double(drawn) / image.width());
            }
            return most;
        };
        // The copies and the kernel across most of the plot: a band that only rows draw (text and swatches leave
        // most of a pixel row blank), found in each third of the picture.
        const int third = pixels.height() / 3;
        QVERIFY2(widestBand(0, third) > 0.4, qPrintable(QString::number(widestBand(0, third))));
        QVERIFY2(widestBand(third, 2 * third) > 0.4, qPrintable(QString::number(widestBand(third, 2 * third))));
        QVERIFY2(widestBand(2 * third, pixels.height()) > 0.4,
            qPrintable(QString::number(widestBand(2 * third, pixels.height()))));
        // The legend and the clock line still at the foot, in the picture.
        QVERIFY(widestBand(pixels.height() - pixels.height() / 10, pixels.height()) > 0.0);
        QCOMPARE(view.timeline().rowRect(0).height(), TimelineLayout::kMaxRowHeight);  // the window's rows as they were
    }

    // The tab's own export buttons ask for a picture in their format (the window's file actions then ask where).
    void exportButtonsAskForTheirFormat()
    {
        SessionModel session(std::make_shared<FakeBackend>());
        TimelinePanel panel(&session);
        QSignalSpy requested(&panel, &TimelinePanel::exportRequested);
        auto* png = panel.findChild<QPushButton*>("exportTimelinePng");
        auto* svg = panel.findChild<QPushButton*>("exportTimelineSvg");
        QVERIFY(png && svg);
        QVERIFY(svg->toolTip().contains("SVG picture"));
        svg->click();
        png->click();
        QCOMPARE(requested.size(), 2);
        QCOMPARE(requested.at(0).at(0).toString(), QString("svg"));
        QCOMPARE(requested.at(1).at(0).toString(), QString("png"));
    }

    void runsAreWalkedByButtonsAndKeys()
    {
        // The fake's run i takes 2.5 + 0.01 (i mod 7) ms: measured runs 1 to 6 grow, the warm-up (run 0) is slowest.
        auto backend = std::make_shared<FakeBackend>();
        MainWindow window(backend, AppOptions {});
        window.show();
        QVERIFY(QTest::qWaitFor([&] { return window.runEnabled(); }, 5000));
        window.findChild<QSpinBox*>("runs")->setValue(6);
        window.findChild<QSpinBox*>("warmup")->setValue(1);
        QSignalSpy ended(&window, &MainWindow::planEnded);
        window.startRun();
        QVERIFY(ended.wait(60000));
        auto* tabs = window.findChild<QTabWidget*>();
        auto* panel = window.findChild<TimelinePanel*>();
        tabs->setCurrentWidget(panel);
        QCOMPARE(panel->shownRun(), std::optional<int>(6));
        const auto click = [&](const char* name) { panel->findChild<QToolButton*>(name)->click(); };
        click("walkFastest");
        QCOMPARE(panel->shownRun(), std::optional<int>(1));  // the warm-up is not among the measured runs
        QVERIFY(!panel->following());
        click("walkSlowest");
        QCOMPARE(panel->shownRun(), std::optional<int>(6));
        click("walkMedian");
        QCOMPARE(panel->shownRun(), std::optional<int>(3));  // the lower middle of six
        click("walkPrevious");
        QCOMPARE(panel->shownRun(), std::optional<int>(2));
        click("walkNext");
        QCOMPARE(panel->shownRun(), std::optional<int>(3));
        QVERIFY2(panel->title().startsWith("Run 3 of 0–6"),
            qPrintable(panel->title()));
        // The keys, with the focus in the tab: [ and ] walk, S, F and M jump.
        panel->findChild<QWidget*>("timelineView")->setFocus();
        QTest::keyClick(panel, Qt::Key_BracketLeft);
        QCOMPARE(panel->shownRun(), std::optional<int>(2));
        QTest::keyClick(panel, Qt::Key_S);
        QCOMPARE(panel->shownRun(), std::optional<int>(6));
        QTest::keyClick(panel, Qt::Key_BracketRight);  // the last run: nowhere further
        QCOMPARE(panel->shownRun(), std::optional<int>(6));
        QTest::keyClick(panel, Qt::Key_F);
        QCOMPARE(panel->shownRun(), std::optional<int>(1));
        QTest::keyClick(panel, Qt::Key_BracketLeft);  // the warm-up before it
        QCOMPARE(panel->shownRun(), std::optional<int>(0));
        QTest::keyClick(panel, Qt::Key_BracketLeft);
        QCOMPARE(panel->shownRun(), std::optional<int>(0));
        QTest::keyClick(panel, Qt::Key_M);
        QCOMPARE(panel->shownRun(), std::optional<int>(3));
    }

    void windowTabShowsTheLastRunAndATimeChartClickPicksOne()
    {
        auto backend = std::make_shared<FakeBackend>();
        AppOptions options;
        options.chunks = 16;
        options.streams = 4;
        MainWindow window(backend, options);
        window.show();
        QVERIFY(QTest::qWaitFor([&] { return window.runEnabled(); }, 5000));
        window.findChild<QSpinBox*>("runs")->setValue(5);
        window.findChild<QSpinBox*>("warmup")->setValue(1);
        QSignalSpy ended(&window, &MainWindow::planEnded);
        window.startRun();
        QVERIFY(ended.wait(60000));

        auto* tabs = window.findChild<QTabWidget*>();
        auto* panel = window.findChild<TimelinePanel*>();
        QVERIFY(panel);
        QCOMPARE(tabs->tabText(tabs->indexOf(panel)), QString("Timeline"));
        QCOMPARE(tabs->indexOf(panel), 3);  // beside the chart tabs
        tabs->setCurrentWidget(panel);      // hidden, it did nothing; shown, it catches up with the series
        QVERIFY(panel->following());
        QCOMPARE(panel->shownRun(), std::optional<int>(5));
        QVERIFY2(panel->title().startsWith("Run 5 of 0–5 · 64.0 MiB · K = 16, S = 4"), qPrintable(panel->title()));
        QVERIFY2(panel->title().contains("· GPU "), qPrintable(panel->title()));
        // Where the header has no room on one line, it takes another: whole, the run and its GPU time in view.
        auto* header = panel->findChild<QLabel*>("timelineTitle");
        QVERIFY(header);
        QCOMPARE(header->text(), panel->title());
        QVERIFY(header->wordWrap());
        const int half = header->fontMetrics().horizontalAdvance(panel->title()) / 2;
        QVERIFY2(header->heightForWidth(half) > header->fontMetrics().height() * 3 / 2,
            "at half its width the title takes two lines");
        const TimelineLayout& t = panel->view().timeline();
        QCOMPARE(t.rows().size(), std::size_t(6));
        QCOMPARE(gpuBlocks(t), 48);

        // File › Export picture, with this tab shown, saves the timeline as shown; so do the tab's own buttons.
        QVERIFY(window.actions().exportPng->isEnabled());
        const QString png = m_dir.filePath("timeline-from-menu.png");
        QVERIFY(window.files().exportPictureTo(png, QSize(1300, 600)));
        QCOMPARE(QImage(png).size(), QSize(1300, 600));

        // A click on run 2's point of the time chart (its GPU time) shows that run; the tab stays.
        tabs->setCurrentIndex(0);
        auto* chartView = qobject_cast<ChartView*>(tabs->currentWidget());
        QVERIFY(chartView);
        QVERIFY(QTest::qWaitForWindowExposed(chartView));
        QChart* chart = chartView->chart();
        QXYSeries* gpu = nullptr;  // the runs' line, whichever place the chart's series give it
        for (QAbstractSeries* series : chart->series()) {
            if (auto* line = qobject_cast<QXYSeries*>(series); line && line->name() == QStringLiteral("GPU time"))
                gpu = line;
        }
        QVERIFY(gpu);
        const QList<QPointF> runs = gpu->points();  // measured runs: run 0, the warm-up, is a mark of its own
        const auto two = std::find_if(runs.begin(), runs.end(), [](const QPointF& p) { return p.x() == 2.0; });
        QVERIFY(two != runs.end());
        const QPointF value = *two;
        const QPoint at = chartView->mapFromScene(chart->mapToScene(chart->mapToPosition(value, gpu)));
        QTest::mouseClick(chartView->viewport(), Qt::LeftButton, Qt::NoModifier, at);
        QTRY_COMPARE(panel->shownRun(), std::optional<int>(2));
        QVERIFY(!panel->following());
        QCOMPARE(tabs->currentIndex(), 0);
        QVERIFY2(panel->title().startsWith("Run 2 of 0–5"), qPrintable(panel->title()));  // as the run axis numbers it
        QCOMPARE(gpu->chart(), chart);  // a click is not a zoom
        QVERIFY(!window.charts().at(RunCharts::Time).isZoomed());

        // "Latest run" follows the last run again; a new series starts by following.
        auto* latest = panel->findChild<QPushButton*>("latestRun");
        QVERIFY(latest->isEnabled());
        latest->click();
        QVERIFY(panel->following());
        QCOMPARE(panel->shownRun(), std::optional<int>(5));
        QVERIFY(!latest->isEnabled());
        panel->showRun(1);
        QCOMPARE(panel->shownRun(), std::optional<int>(1));
        window.findChild<QSpinBox*>("runs")->setValue(7);
        window.startRun();
        QVERIFY(ended.wait(60000));
        QVERIFY(panel->following());
        tabs->setCurrentWidget(panel);  // the time chart was shown: the timeline catches up now
        QCOMPARE(panel->shownRun(), std::optional<int>(7));
        QVERIFY2(panel->title().startsWith("Run 7 of 0–7"), qPrintable(panel->title()));
    }
};

QTEST_MAIN(TimelineViewTest)
#include "timeline_view_test.moc"

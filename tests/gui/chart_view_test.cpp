// The chart view of a run chart: a drag zooms into its rectangle (one along the runs into those runs, the values
// fitted to them); the wheel, + and - zoom the run axis alone, down to single runs drawn with their points, the value
// axis fitted to the runs in view and never losing them; shift+wheel zooms the values alone; Home, 0, a double click
// and a right click show every run again. The value under a resting pointer stays beside it, with its unit, until the
// pointer leaves, and the help on zooming shows only where no run is near; over a column of many runs it names the
// runs and how they are spread; a line on a second axis reads in that axis's unit. Runs are invented
// (tests/fakes/classic_runs.hpp), not measured.
#include "classic_runs.hpp"

#include "gui/charts/chart_view.hpp"
#include "gui/charts/run_charts.hpp"
#include "gui/charts/spread_line.hpp"

#include <QChart>
#include <QHelpEvent>
#include <QLabel>
#include <QLineSeries>
#include <QMouseEvent>
#include <QTest>
#include <QToolTip>
#include <QValueAxis>
#include <QWheelEvent>

#include <cmath>

using namespace asyncscope;
using asyncscope::testing::classicReport;

namespace {

// A series of `runs` runs (run 0 a warm-up) whose GPU time is 2.5 ms + 0.01 ms × (run mod 10) and whose CPU submit
// time is 15 µs + 1 µs × (run mod 10), but for a spike of 9 ms at run `spike`.
Report risingSeries(std::size_t runs, int spike = -1)
{
    Report r = classicReport(runs);
    for (std::size_t i = 0; i < runs; ++i) {
        r.runs.update(i, [i, spike](RunResult& run) {
            run.gpuMs = int(i) == spike ? 9.0 : 2.5 + 0.01 * double(i % 10);
            for (Span& span : run.spans) {
                if (span.kind == SpanKind::Submit)
                    span.endMs = 0.015 + 0.001 * double(i % 10);
            }
        });
    }
    return r;
}

}  // namespace

class ChartViewTest : public QObject {
    Q_OBJECT

    // The time chart of a series, drawn as lines, in a 640 × 400 view.
    struct Fixture {
        RunCharts charts;
        RunChart& time = charts.at(RunCharts::Time);
        QChart* chart = charts.chart(RunCharts::Time);
        QValueAxis* x = qobject_cast<QValueAxis*>(chart->axes(Qt::Horizontal).first());
        QValueAxis* y = qobject_cast<QValueAxis*>(chart->axes(Qt::Vertical).first());
        ChartView view { charts.at(RunCharts::Time) };
        QLineSeries* gpu = nullptr;

        explicit Fixture(std::size_t runs = 6, int spike = -1)
        {
            charts.setStyle(RunCharts::Style::Lines);
            charts.setRuns(risingSeries(runs, spike));
            for (QAbstractSeries* s : chart->series()) {
                if (s->name() == QStringLiteral("GPU time") && qobject_cast<SpreadLine*>(s))
                    gpu = qobject_cast<QLineSeries*>(s);
            }
            view.resize(640, 400);
            view.show();
        }
        // The view position of the value (`run`, `ms`) on GPU time's axes.
        QPoint at(double run, double ms) const
        {
            return view.mapFromScene(chart->mapToScene(chart->mapToPosition(QPointF(run, ms), gpu)));
        }
        // GPU time's runs the plot shows now.
        int runsInView() const
        {
            int n = 0;
            for (const QPointF& p : gpu->points())
                n += p.x() >= x->min() && p.x() <= x->max() && p.y() >= y->min() && p.y() <= y->max() ? 1 : 0;
            return n;
        }
        QString axes() const
        {
            return QStringLiteral("runs %1..%2, values %3..%4").arg(x->min()).arg(x->max()).arg(y->min()).arg(y->max());
        }
    };

    static void wheel(ChartView& view, QPoint at, int notches, Qt::KeyboardModifiers modifiers = Qt::NoModifier)
    {
        QWheelEvent event(QPointF(at), QPointF(view.viewport()->mapToGlobal(at)), QPoint(), QPoint(0, 120 * notches),
            Qt::NoButton, modifiers, Qt::NoScrollPhase, false);
        QApplication::sendEvent(view.viewport(), &event);
    }

    static void drag(ChartView& view, QPoint from, QPoint to)
    {
        QTest::mousePress(view.viewport(), Qt::LeftButton, Qt::NoModifier, from);
        QTest::mouseMove(view.viewport(), (from + to) / 2);
        QTest::mouseMove(view.viewport(), to);
        QTest::mouseRelease(view.viewport(), Qt::LeftButton, Qt::NoModifier, to);
    }

private slots:
    void aDragZoomsIntoItsRectangle()
    {
        Fixture f(2001);
        QVERIFY(QTest::qWaitForWindowExposed(&f.view));
        QTRY_VERIFY(f.gpu->count() > 0);
        // A rectangle around runs 1000 to 1100 and 1 to 2.55 ms: the runs and values under it.
        drag(f.view, f.at(1000, 2.55), f.at(1100, 1.0));
        QVERIFY2(f.time.isZoomed(), qPrintable(f.axes()));
        QVERIFY2(std::abs(f.x->min() - 1000) < 10 && std::abs(f.x->max() - 1100) < 10, qPrintable(f.axes()));
        QVERIFY2(std::abs(f.y->min() - 1.0) < 0.1 && std::abs(f.y->max() - 2.55) < 0.1, qPrintable(f.axes()));
        QTRY_VERIFY(f.runsInView() > 30);
        // A thin one along runs 1400 to 1600: those runs, the values fitted to them (2.5 to 2.59 ms, not as dragged).
        f.view.setFocus();
        QTest::keyClick(&f.view, Qt::Key_Home);
        QVERIFY(!f.time.isZoomed());
        drag(f.view, f.at(1400, 1.0), f.at(1600, 1.0) + QPoint(0, 3));
        QVERIFY2(std::abs(f.x->min() - 1400) < 8 && std::abs(f.x->max() - 1600) < 8, qPrintable(f.axes()));
        QVERIFY2(f.y->min() > 2.3 && f.y->min() <= 2.5 && f.y->max() >= 2.59 && f.y->max() < 2.8, qPrintable(f.axes()));
        QTRY_VERIFY(f.runsInView() >= 190);
        // A double click shows every run again.
        QTest::mouseDClick(f.view.viewport(), Qt::LeftButton, Qt::NoModifier, f.at(700, 1.0));
        QVERIFY(!f.time.isZoomed());
        QCOMPARE(f.x->max(), 2000.5);
    }

    void theWheelAndTheKeysZoomTheRunsDownToSingleRuns()
    {
        Fixture f(200001, 123456);
        QVERIFY(QTest::qWaitForWindowExposed(&f.view));
        QTRY_VERIFY(f.gpu->count() > 0);
        const double top = f.y->max();
        QVERIFY2(top >= 9.0, qPrintable(f.axes()));  // every run: the spike fits
        // Twenty notches towards the spike: the run axis alone zooms, around the pointer; the runs stay in view and the
        // values fit them (GPU time rises 0.01 ms a run: a narrow value range, far above 0).
        for (int notch = 0; notch < 20; ++notch) {
            wheel(f.view, f.at(100000, f.y->min() + (f.y->max() - f.y->min()) / 2), 1);
            QVERIFY2(f.runsInView() > 0, qPrintable(QStringLiteral("notch %1: %2").arg(notch).arg(f.axes())));
        }
        QVERIFY2(f.x->max() - f.x->min() < 200000.0 / 50.0, qPrintable(f.axes()));
        QVERIFY2(f.x->min() < 100000 && f.x->max() > 100000, qPrintable(f.axes()));
        QVERIFY2(f.y->min() > 2.0 && f.y->max() < 3.0, qPrintable(f.axes()));  // fitted, not from 0
        // Ctrl++ (the window's Zoom in) and + go down to single runs: a run and its neighbours, each drawn with its
        // point, as lines, not density.
        f.view.setFocus();
        for (int key = 0; key < 30; ++key)
            QTest::keyClick(&f.view, Qt::Key_Plus);
        QVERIFY2(f.x->max() - f.x->min() <= RunChart::kFewestRuns + 1e-9, qPrintable(f.axes()));
        QTRY_VERIFY2(f.runsInView() >= 2 && f.runsInView() <= 3, qPrintable(f.axes()));
        QVERIFY(f.gpu->pointsVisible());
        QVERIFY(!f.time.densityShown());
        // Arrows scroll along the runs; the values follow them.
        const double before = f.x->min();
        QTest::keyClick(&f.view, Qt::Key_Right);
        QVERIFY(f.x->min() > before);
        QTRY_VERIFY(f.runsInView() >= 2);
        // - zooms out, and a step beyond every run shows every run again, the spike in view.
        for (int key = 0; key < 40 && f.time.isZoomed(); ++key)
            QTest::keyClick(&f.view, Qt::Key_Minus);
        QVERIFY(!f.time.isZoomed());
        QCOMPARE(f.x->max(), 200000.5);
        QCOMPARE(f.y->max(), top);
    }

    void shiftAndTheWheelZoomTheValuesAlone()
    {
        Fixture f(101);
        QVERIFY(QTest::qWaitForWindowExposed(&f.view));
        QTRY_VERIFY(f.gpu->count() > 0);
        const double runsFrom = f.x->min(), runsTo = f.x->max(), span = f.y->max() - f.y->min();
        wheel(f.view, f.at(50, 2.0), 3, Qt::ShiftModifier);
        QCOMPARE(f.x->min(), runsFrom);
        QCOMPARE(f.x->max(), runsTo);
        QVERIFY2(f.y->max() - f.y->min() < span * 0.6, qPrintable(f.axes()));
        QVERIFY2(f.y->min() < 2.0 && f.y->max() > 2.0, qPrintable(f.axes()));  // around the pointer's value
        QVERIFY(f.time.isZoomed());
        // A right click shows every run again, the values fitted again.
        QTest::mouseClick(f.view.viewport(), Qt::RightButton, Qt::NoModifier, f.at(50, 1.0));
        QVERIFY(!f.time.isZoomed());
        QCOMPARE(f.y->max() - f.y->min(), span);
    }

    void theValueUnderThePointerStaysWithItsUnit()
    {
        Fixture f;
        QVERIFY(QTest::qWaitForWindowExposed(&f.view));
        QTRY_COMPARE(f.gpu->count(), 5);  // runs 1 to 5; run 0, the warm-up, is a mark
        const QPoint at = f.at(3, 2.53);
        const QString readout = f.view.readoutAt(at);
        QCOMPARE(readout, QStringLiteral("GPU time\nrun 3: 2.53 ms"));

        // The pointer comes to the run: the readout beside it, and still there after resting (a tooltip went on its
        // own after about half a second).
        const auto moveTo = [&f](const QPoint& to) {
            QMouseEvent move(QEvent::MouseMove, QPointF(to), QPointF(f.view.viewport()->mapToGlobal(to)), Qt::NoButton,
                Qt::NoButton, Qt::NoModifier);
            QApplication::sendEvent(f.view.viewport(), &move);
        };
        moveTo(at);
        QCOMPARE(f.view.shownReadout(), readout);
        QTest::qWait(1500);
        QCOMPARE(f.view.shownReadout(), readout);
        const auto* label = f.view.viewport()->findChild<QLabel*>(QStringLiteral("readout"));
        QVERIFY(label && label->isVisible());
        QVERIFY2(!label->geometry().contains(at), "the readout never covers the point it names");
        QVERIFY(f.view.viewport()->rect().contains(label->geometry()));

        // The hover pause's tooltip event: the readout stays, and no help on zooming covers it.
        QHelpEvent onRun(QEvent::ToolTip, at, f.view.mapToGlobal(at));
        QApplication::sendEvent(&f.view, &onRun);
        QCOMPARE(f.view.shownReadout(), readout);
        QVERIFY(!QToolTip::isVisible() || !QToolTip::text().contains(QStringLiteral("Drag to zoom")));

        const QPoint empty = f.at(2, 1.0);
        QVERIFY(f.view.readoutAt(empty).isEmpty());
        moveTo(empty);
        QVERIFY(f.view.shownReadout().isEmpty());
        QHelpEvent offRuns(QEvent::ToolTip, empty, f.view.mapToGlobal(empty));
        QApplication::sendEvent(&f.view, &offRuns);
        QVERIFY2(QToolTip::text().contains(QStringLiteral("Drag to zoom")), qPrintable(QToolTip::text()));

        // Back on the run, then the pointer leaves the plot: the readout goes with it.
        moveTo(at);
        QCOMPARE(f.view.shownReadout(), readout);
        QEvent leave(QEvent::Leave);
        QApplication::sendEvent(f.view.viewport(), &leave);
        QVERIFY(f.view.shownReadout().isEmpty());
    }

    // With the keyboard focus the view is framed in the highlight colour; without it, not.
    void theKeyboardFocusIsFramed()
    {
        Fixture f;
        f.view.activateWindow();
        QVERIFY(QTest::qWaitForWindowActive(&f.view));
        f.view.clearFocus();
        QVERIFY(!f.view.hasFocus());
        const QImage unfocused = f.view.grab().toImage();
        f.view.setFocus(Qt::TabFocusReason);
        QVERIFY(f.view.hasFocus());
        const QImage focused = f.view.grab().toImage();
        const QColor highlight = f.view.palette().color(QPalette::Highlight);
        const QSize size = focused.size();
        for (const QPoint at : { QPoint(0, size.height() / 2), QPoint(size.width() / 2, 0),
                 QPoint(size.width() - 1, size.height() / 2), QPoint(size.width() / 2, size.height() - 1) }) {
            QCOMPARE(focused.pixelColor(at), highlight);
            QVERIFY(unfocused.pixelColor(at) != highlight);
        }
        f.view.clearFocus();
        QCOMPARE(f.view.grab().toImage(), unfocused);
    }

    void overAColumnOfRunsTheReadoutNamesThemAndTheirSpread()
    {
        Fixture f;
        QVERIFY(QTest::qWaitForWindowExposed(&f.view));
        QTRY_COMPARE(f.gpu->count(), 5);
        auto* medians = new SpreadLine;
        medians->setName(QStringLiteral("GPU time median"));
        // Two columns: runs 0-2 and 3-5, drawn at their middles.
        std::vector<ColumnSpread> columns(2);
        columns[0] = { 0.0, 2.0, 3, 2.40, 2.45, 2.49, 2.55, 2.61 };
        columns[1] = { 3.0, 5.0, 3, 1.40, 1.45, 1.49, 1.55, 1.61 };
        medians->append(1.0, 2.49);
        medians->append(4.0, 1.49);
        medians->setColumns(columns, true);
        for (QAbstractSeries* s : f.chart->series())
            s->hide();  // the runs' lines: the medians stand for their runs here
        f.chart->addSeries(medians);
        medians->attachAxis(f.x);
        medians->attachAxis(f.y);
        auto at = [&](QPointF value) {
            return f.view.mapFromScene(f.chart->mapToScene(f.chart->mapToPosition(value, medians)));
        };
        QCOMPARE(f.view.readoutAt(at({ 1.0, 2.49 })),
            QStringLiteral("GPU time median\nruns 0–2: median 2.49 ms, p5–p95 2.4–2.61 ms"));
        // Within the second column's band, away from its median line.
        QCOMPARE(f.view.readoutAt(at({ 4.4, 1.58 })),
            QStringLiteral("GPU time median\nruns 3–5: median 1.49 ms, p5–p95 1.4–1.61 ms"));
        QVERIFY(f.view.readoutAt(at({ 4.4, 2.9 })).isEmpty());  // above every band
    }

    void aLineOnItsOwnAxisReadsInItsUnit()
    {
        Fixture f(41);
        QVERIFY(QTest::qWaitForWindowExposed(&f.view));
        QTRY_COMPARE(f.gpu->count(), 40);
        QLineSeries* cpu = nullptr;
        for (QAbstractSeries* s : f.chart->series()) {
            if (s->name() == QStringLiteral("CPU submit time") && qobject_cast<SpreadLine*>(s))
                cpu = qobject_cast<QLineSeries*>(s);
        }
        QVERIFY(cpu);
        const QPoint at = f.view.mapFromScene(f.chart->mapToScene(f.chart->mapToPosition(QPointF(2, 17), cpu)));
        QCOMPARE(f.view.readoutAt(at), QStringLiteral("CPU submit time\nrun 2: 17 µs"));
        // Zoomed into runs, each axis fits its own quantity's runs in view: the microseconds' 15 to 24 (the warm-up,
        // run 0, out of view), GPU time's 2.5 to 2.59 ms.
        f.view.setFocus();
        QTest::keyClick(&f.view, Qt::Key_Plus);
        QTest::keyClick(&f.view, Qt::Key_Plus);
        QVERIFY(f.x->min() > 1.0);
        QValueAxis* micro = f.time.cpuAxis();
        QVERIFY2(micro->min() >= 10.0 && micro->min() <= 15.0 && micro->max() >= 24.0 && micro->max() <= 30.0,
            qPrintable(QStringLiteral("%1..%2").arg(micro->min()).arg(micro->max())));
        QVERIFY2(f.y->min() >= 2.0 && f.y->max() <= 3.0, qPrintable(f.axes()));
    }
};

QTEST_MAIN(ChartViewTest)
#include "chart_view_test.moc"

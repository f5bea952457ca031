// The chart view's keyboard zoom and value readout: + zooms around the runs in view, so a short series never leaves
// an empty plot; - stops at every run (never negative runs or times) and a step beyond shows every run again; the
// value under a resting pointer stays beside it, with its unit, until the pointer leaves, and the help on zooming
// shows only where no run is near; over a column of many runs it names the runs and how they are spread; a line on a
// second axis reads in that axis's unit.
#include "gui/charts/chart_view.hpp"
#include "gui/charts/spread_line.hpp"

#include <QChart>
#include <QHelpEvent>
#include <QLabel>
#include <QLineSeries>
#include <QMouseEvent>
#include <QSignalSpy>
#include <QTest>
#include <QToolTip>
#include <QValueAxis>

using namespace asyncscope;

class ChartViewTest : public QObject {
    Q_OBJECT

    // Five runs around 2.5 ms, shown as the time chart shows them: runs 0 to 6, 0 to 3 ms.
    struct Fixture {
        QChart* chart = new QChart;
        QValueAxis* x = new QValueAxis;
        QValueAxis* y = new QValueAxis;
        QLineSeries* series = new QLineSeries;
        ChartView view { chart };

        Fixture()
        {
            series->setName(QStringLiteral("GPU time"));
            for (int run = 1; run <= 5; ++run)
                series->append(run, 2.5 + 0.01 * run);
            chart->addSeries(series);
            x->setTitleText(QStringLiteral("run"));
            y->setTitleText(QStringLiteral("ms"));
            chart->addAxis(x, Qt::AlignBottom);
            chart->addAxis(y, Qt::AlignLeft);
            series->attachAxis(x);
            series->attachAxis(y);
            x->setRange(0, 6);
            y->setRange(0, 3);  // the plot's middle, 1.5 ms, holds no run
            view.resize(640, 400);
            view.show();
        }
        int pointsInView() const
        {
            int n = 0;
            for (const QPointF& p : series->points())
                n += p.x() >= x->min() && p.x() <= x->max() && p.y() >= y->min() && p.y() <= y->max() ? 1 : 0;
            return n;
        }
    };

private slots:
    void zoomingInKeepsTheRunsInView()
    {
        Fixture f;
        for (int step = 0; step < 4; ++step) {
            f.view.zoomIn();
            QVERIFY2(f.pointsInView() > 0, qPrintable(QStringLiteral("step %1: x %2..%3, y %4..%5: no run in view")
                                                          .arg(step).arg(f.x->min()).arg(f.x->max())
                                                          .arg(f.y->min()).arg(f.y->max())));
        }
        QVERIFY(f.x->max() - f.x->min() < 6.0 / 8.0 + 1e-9);
    }

    void zoomingOutStopsAtEveryRunAndThenShowsThemAll()
    {
        Fixture f;
        f.view.zoomIn();
        f.view.zoomIn();
        QSignalSpy reset(&f.view, &ChartView::resetRequested);
        // As the chart's owner answers: every run with tidy axes.
        connect(&f.view, &ChartView::resetRequested, this, [&f] {
            f.x->setRange(0, 6);
            f.y->setRange(0, 3);
        });
        for (int step = 0; step < 6; ++step) {
            f.view.zoomOut();
            QVERIFY2(f.x->min() >= 0.0, qPrintable(QString::number(f.x->min())));
            QVERIFY2(f.y->min() >= 0.0, qPrintable(QString::number(f.y->min())));
            QVERIFY(f.x->max() <= 6.0 + 1e-9);
        }
        QVERIFY2(reset.count() >= 1, "a step out beyond every run shows every run again");
        QCOMPARE(f.pointsInView(), 5);
    }

    void theValueUnderThePointerStaysWithItsUnit()
    {
        Fixture f;
        QVERIFY(QTest::qWaitForWindowExposed(&f.view));
        const QPointF scene = f.chart->mapToPosition(QPointF(3, 2.53), f.series);
        const QPoint at = f.view.mapFromScene(f.chart->mapToScene(scene));
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

        const QPoint empty = f.view.mapFromScene(f.chart->mapToScene(f.chart->mapToPosition(QPointF(1, 4.5), f.series)));
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
        auto* medians = new SpreadLine;
        medians->setName(QStringLiteral("GPU time median"));
        // Two columns: runs 0-2 and 3-5, drawn at their middles.
        std::vector<ColumnSpread> columns(2);
        columns[0] = { 0.0, 2.0, 3, 2.40, 2.45, 2.49, 2.55, 2.61 };
        columns[1] = { 3.0, 5.0, 3, 1.40, 1.45, 1.49, 1.55, 1.61 };
        medians->append(1.0, 2.49);
        medians->append(4.0, 1.49);
        medians->setColumns(columns, true);
        f.chart->removeSeries(f.series);  // the runs' line: the medians stand for its runs here
        delete f.series;
        f.series = nullptr;
        f.chart->addSeries(medians);
        medians->attachAxis(f.x);
        medians->attachAxis(f.y);
        QVERIFY(QTest::qWaitForWindowExposed(&f.view));
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
        Fixture f;
        auto* cpu = new QLineSeries;
        cpu->setName(QStringLiteral("CPU submit time"));
        for (int run = 1; run <= 5; ++run)
            cpu->append(run, 15.0 + run);
        auto* micro = new QValueAxis;
        micro->setTitleText(QStringLiteral("CPU submit µs"));
        micro->setRange(0, 30);
        f.chart->addSeries(cpu);
        f.chart->addAxis(micro, Qt::AlignRight);
        cpu->attachAxis(f.x);
        cpu->attachAxis(micro);
        QVERIFY(QTest::qWaitForWindowExposed(&f.view));
        const QPoint at = f.view.mapFromScene(f.chart->mapToScene(f.chart->mapToPosition(QPointF(2, 17), cpu)));
        QCOMPARE(f.view.readoutAt(at), QStringLiteral("CPU submit time\nrun 2: 17 µs"));
        // + zooms around GPU time's runs, on GPU time's axis: never out to the microseconds' 30.
        for (int step = 0; step < 3; ++step) {
            f.view.zoomIn();
            QVERIFY(f.pointsInView() > 0);
        }
        f.view.zoomOut();
        QVERIFY2(f.y->max() <= 3.0, qPrintable(QString::number(f.y->max())));
    }
};

QTEST_MAIN(ChartViewTest)
#include "chart_view_test.moc"

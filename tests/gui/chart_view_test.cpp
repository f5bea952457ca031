// The chart view's keyboard zoom and value readout: + zooms around the runs in view, so a short series never leaves
// an empty plot; - stops at every run (never negative runs or times) and a step beyond shows every run again; the
// value under a resting pointer stays, with its unit, and the help on zooming shows only where no run is near.
#include "gui/charts/chart_view.hpp"

#include <QChart>
#include <QHelpEvent>
#include <QLineSeries>
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

        // The hover pause's tooltip event: the readout, not the help on zooming.
        QHelpEvent onRun(QEvent::ToolTip, at, f.view.mapToGlobal(at));
        QApplication::sendEvent(&f.view, &onRun);
        QCOMPARE(QToolTip::text(), readout);

        const QPoint empty = f.view.mapFromScene(f.chart->mapToScene(f.chart->mapToPosition(QPointF(1, 4.5), f.series)));
        QVERIFY(f.view.readoutAt(empty).isEmpty());
        QHelpEvent offRuns(QEvent::ToolTip, empty, f.view.mapToGlobal(empty));
        QApplication::sendEvent(&f.view, &offRuns);
        QVERIFY2(QToolTip::text().contains(QStringLiteral("Drag to zoom")), qPrintable(QToolTip::text()));
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
};

QTEST_MAIN(ChartViewTest)
#include "chart_view_test.moc"

// The window on small screens and in each theme: it fits 800×600 and 1024×640 with a saved run and two overlays, in
// the light and the dark look, nothing reaching past the window's edge, narrow charts' legends in rows; Settings ›
// Theme switches every chart (the All GPUs chart too), is remembered, and System gives the desktop's look back.
#include "fake_backend.hpp"
#include "window_waits.hpp"

#include "gui/app/file_actions.hpp"
#include "gui/app/main_window.hpp"
#include "gui/app/theme.hpp"
#include "gui/app/window_actions.hpp"
#include "gui/charts/chart_view.hpp"
#include "gui/charts/framed_chart_view.hpp"
#include "gui/charts/kind_colours.hpp"
#include "gui/session/session_model.hpp"

#include <QAbstractScrollArea>
#include <QAction>
#include <QApplication>
#include <QAreaSeries>
#include <QChart>
#include <QChartView>
#include <QLegend>
#include <QLegendMarker>
#include <QSettings>
#include <QStyle>
#include <QTabWidget>
#include <QTest>

using namespace asyncscope;
using asyncscope::testing::FakeBackend;
using asyncscope::testing::waitForDevices;

namespace {

const QString kData = QStringLiteral(ASYNCSCOPE_TEST_DATA);

// A window showing a saved H200 series with two overlays, as a new user has it after File › Open and Add overlay.
std::unique_ptr<MainWindow> windowWithOverlays()
{
    auto window = std::make_unique<MainWindow>(std::make_shared<FakeBackend>());
    window->files().openFromCommandLine(kData + QStringLiteral("/h200/h200-series.json"),
        { kData + QStringLiteral("/h200/h200-chunked.json"), kData + QStringLiteral("/h200/h200-cupti.json") });
    return window;
}

bool loaded(const MainWindow& window)
{
    return QTest::qWaitFor(
        [&] { return !window.session().isLoading() && window.session().overlays().size() == 2; }, 30000);
}

// Whether `w` lies in what a scroll area scrolls: it may reach past the window, the area shows the rest on demand.
bool scrolled(const QWidget* w)
{
    for (const QWidget* up = w; up && up->parentWidget(); up = up->parentWidget()) {
        if (const auto* area = qobject_cast<const QAbstractScrollArea*>(up->parentWidget()); area && area->viewport() == up)
            return true;
    }
    return false;
}

// Every widget the user sees lies inside the window, or in a scroll area that scrolls to it: none is cut by the
// window's right or bottom edge.
QStringList cutByTheEdge(const QWidget& window)
{
    QStringList cut;
    const QRect inside = window.rect();
    for (const QWidget* w : window.findChildren<QWidget*>()) {
        if (!w->isVisible() || w->isWindow() || w->width() <= 1 || scrolled(w))
            continue;
        const QRect at(w->mapTo(&window, QPoint(0, 0)), w->size());
        if (!inside.contains(at))
            cut << QStringLiteral("%1 %2 at %3,%4 %5×%6")
                       .arg(QString::fromLatin1(w->metaObject()->className()), w->objectName())
                       .arg(at.x()).arg(at.y()).arg(at.width()).arg(at.height());
    }
    return cut;
}

bool darkChart(const QChart* chart)
{
    return chart->theme() == QChart::ChartThemeDark;
}

}  // namespace

class WindowFitTest : public QObject {
    Q_OBJECT

private slots:
    void init()
    {
        QSettings().clear();
        applyTheme(Theme::System);
    }

    void cleanup()
    {
        applyTheme(Theme::System);
        QSettings().clear();
    }

    void fitsSmallScreensInEitherLook_data()
    {
        QTest::addColumn<QSize>("screen");
        QTest::addColumn<bool>("dark");
        QTest::newRow("800×600 light") << QSize(800, 600) << false;
        QTest::newRow("800×600 dark") << QSize(800, 600) << true;
        QTest::newRow("1024×640 light") << QSize(1024, 640) << false;
        QTest::newRow("1024×640 dark") << QSize(1024, 640) << true;
    }

    void fitsSmallScreensInEitherLook()
    {
        QFETCH(QSize, screen);
        QFETCH(bool, dark);
        auto window = windowWithOverlays();
        window->actions().themes[std::size_t(dark ? Theme::Dark : Theme::Light)]->trigger();
        window->show();
        QVERIFY(loaded(*window));
        QVERIFY(waitForDevices(*window));
        // The screen's room less a title bar and a panel's worth: what a maximised window gets.
        const QSize room(screen.width(), screen.height() - 60);
        QVERIFY2(window->minimumSizeHint().width() <= room.width(),
            qPrintable(QStringLiteral("the window needs %1 px").arg(window->minimumSizeHint().width())));
        QVERIFY2(window->minimumSizeHint().height() <= room.height(),
            qPrintable(QStringLiteral("the window needs %1 px high").arg(window->minimumSizeHint().height())));
        window->resize(room);
        for (int tab = 0; tab < window->tabs().count(); ++tab) {
            window->tabs().setCurrentIndex(tab);
            QTest::qWait(20);
            QCOMPARE(window->size(), room);
            const QStringList cut = cutByTheEdge(*window);
            QVERIFY2(cut.isEmpty(), qPrintable(window->tabs().tabText(tab) + QStringLiteral(": ") + cut.join("; ")));
        }
        // A narrow run chart lists its legend's names in rows below the plot, each whole; a wide one shows the legend
        // beside the plot.
        window->tabs().setCurrentIndex(0);
        QTest::qWait(20);
        auto* time = qobject_cast<ChartView*>(window->tabs().currentWidget());
        QVERIFY(time);
        const QStringList names = window->charts().at(RunCharts::Time).legendNames();
        QVERIFY(names.size() >= 5);  // GPU time, CPU submit time, warm-up, the series and its two overlays
        if (time->width() < 700) {
            QVERIFY(!time->chart()->legend()->isAttachedToChart());  // takes no room from the plot
            QTest::qWait(50);
            QVERIFY2(time->legendRowNames() == names, qPrintable(time->legendRowNames().join(" | ") + " ≠ " + names.join(" | ")));
        }
        // The histograms, side by side, list theirs in rows too: the series shown and its two overlays, each whole.
        auto* distribution = window->findChild<QWidget*>(QStringLiteral("distribution"));
        QVERIFY(distribution);
        window->tabs().setCurrentWidget(distribution);
        QTest::qWait(50);
        const QList<FramedChartView*> histograms = distribution->findChildren<FramedChartView*>();
        QCOMPARE(histograms.size(), 2);
        for (const FramedChartView* histogram : histograms) {
            const QStringList rows = histogram->legendRowNames();
            QVERIFY2(rows.size() == 3 && rows.contains(QStringLiteral("saved: h200-series · H200")),
                qPrintable(rows.join(" | ")));
        }
        window->tabs().setCurrentIndex(0);
        window->resize(1600, 900);
        QTest::qWait(20);
        QVERIFY(time->chart()->legend()->isVisible() && time->chart()->legend()->isAttachedToChart());
        QCOMPARE(time->chart()->legend()->alignment(), Qt::AlignRight);
        QVERIFY(time->legendRowNames().isEmpty());
    }

    void aNarrowWindowListsTheLegendOfTheFirstFileItOpens()
    {
        // Small from the start, one file and no overlays: the rows below the chart name what the legend lists.
        auto window = std::make_unique<MainWindow>(std::make_shared<FakeBackend>());
        window->resize(800, 540);
        window->show();
        QVERIFY(waitForDevices(*window));
        window->files().openFromCommandLine(kData + QStringLiteral("/h200/h200-series.json"), {});
        QVERIFY(QTest::qWaitFor([&] { return !window->session().isLoading(); }, 30000));
        window->tabs().setCurrentIndex(0);
        auto* time = qobject_cast<ChartView*>(window->tabs().currentWidget());
        QVERIFY(time && time->width() < 700);
        const QStringList names = window->charts().at(RunCharts::Time).legendNames();
        QVERIFY2(names.contains(QStringLiteral("GPU time")) && names.contains(QStringLiteral("warm-up run")),
            qPrintable(names.join(" | ")));
        QTRY_VERIFY2(time->legendRowNames() == names,
            qPrintable(time->legendRowNames().join(" | ") + " ≠ " + names.join(" | ")));

        // Another file in its place: the warm-up mark keeps its name, and the rows follow.
        window->files().openFromCommandLine(kData + QStringLiteral("/h200/h200-chunked.json"), {});
        QVERIFY(QTest::qWaitFor([&] { return !window->session().isLoading(); }, 30000));
        const QStringList again = window->charts().at(RunCharts::Time).legendNames();
        QVERIFY2(again.contains(QStringLiteral("warm-up run")), qPrintable(again.join(" | ")));
        QTRY_VERIFY2(time->legendRowNames() == again,
            qPrintable(time->legendRowNames().join(" | ") + " ≠ " + again.join(" | ")));
    }

    void everyChartFollowsTheTheme()
    {
        MainWindow window(std::make_shared<FakeBackend>());
        window.show();
        QVERIFY(waitForDevices(window));
        window.actions().themes[std::size_t(Theme::Dark)]->trigger();
        QCoreApplication::processEvents();
        QVERIFY(isDark(QApplication::palette()));
        QCOMPARE(QApplication::style()->name().toLower(), QStringLiteral("fusion"));
        const QList<QChartView*> views = window.findChildren<QChartView*>();
        QVERIFY(views.size() >= 5);  // three run charts, two distributions, the All GPUs chart
        for (const QChartView* view : views)
            QVERIFY2(darkChart(view->chart()), qPrintable(view->chart()->title()));

        window.actions().themes[std::size_t(Theme::Light)]->trigger();
        QCoreApplication::processEvents();
        QVERIFY(!isDark(QApplication::palette()));
        for (const QChartView* view : window.findChildren<QChartView*>())
            QVERIFY2(!darkChart(view->chart()), qPrintable(view->chart()->title()));
    }

    void theDistributionsLegendShowsEachSeriesColourInTheDark()
    {
        auto window = windowWithOverlays();
        window->actions().themes[std::size_t(Theme::Dark)]->trigger();
        window->show();
        QVERIFY(loaded(*window));
        window->tabs().setCurrentIndex(4);  // Distribution
        QTest::qWait(50);
        int checked = 0;
        for (const QChartView* view : window->findChildren<QChartView*>()) {
            for (QAbstractSeries* series : view->chart()->series()) {
                auto* area = qobject_cast<QAreaSeries*>(series);
                if (!area)
                    continue;
                for (const QLegendMarker* marker : view->chart()->legend()->markers(area)) {
                    if (!marker->isVisible())
                        continue;
                    ++checked;
                    const QColor shown = marker->brush().color();
                    QVERIFY2(shown.lightness() > 60 && shown.alpha() > 0,
                        qPrintable(QStringLiteral("%1: marker %2").arg(marker->label(), shown.name(QColor::HexArgb))));
                }
            }
        }
        QVERIFY(checked >= 2);  // the series shown in each distribution's legend
    }

    void theThemeIsRememberedAndSystemGivesTheDesktopsLookBack()
    {
        const QString startStyle = QApplication::style()->name();
        const QPalette startPalette = QApplication::palette();
        {
            MainWindow window(std::make_shared<FakeBackend>());
            QVERIFY(window.actions().themes[std::size_t(Theme::System)]->isChecked());
            window.actions().themes[std::size_t(Theme::Dark)]->trigger();
            QVERIFY(window.actions().themes[std::size_t(Theme::Dark)]->isChecked());
        }
        QCOMPARE(loadSettings().theme, Theme::Dark);
        applyTheme(Theme::System);
        {
            MainWindow window(std::make_shared<FakeBackend>());  // starts dark, as remembered
            QVERIFY(isDark(QApplication::palette()));
            QVERIFY(window.actions().themes[std::size_t(Theme::Dark)]->isChecked());
            window.actions().themes[std::size_t(Theme::System)]->trigger();
            QCOMPARE(QApplication::style()->name(), startStyle);
            QVERIFY(QApplication::palette() == startPalette);
        }
        QCOMPARE(loadSettings().theme, Theme::System);
    }

    void anUnknownThemeInTheSettingsKeepsTheDefault()
    {
        QSettings().setValue("window/theme", QStringLiteral("purple"));
        QCOMPARE(loadSettings().theme, Theme::System);
        QSettings().setValue("window/theme", QStringLiteral("DARK"));
        QCOMPARE(loadSettings().theme, Theme::Dark);
    }
};

QTEST_MAIN(WindowFitTest)
#include "window_fit_test.moc"

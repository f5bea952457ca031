// The wheel over the pipeline panel scrolls it: a spin box or a combo box that the pointer passes over keeps its value
// (and the settings keep theirs) unless the user gave it the keyboard focus first, by a click or Tab.
#include "fake_backend.hpp"
#include "window_waits.hpp"

#include "gui/app/main_window.hpp"

#include <QComboBox>
#include <QScrollArea>
#include <QScrollBar>
#include <QSettings>
#include <QSpinBox>
#include <QTest>
#include <QWheelEvent>
#include <QtTest/qtestspontaneevent.h>

using namespace asyncscope;
using asyncscope::testing::FakeBackend;
using asyncscope::testing::waitForDevices;

namespace {

// One notch of the wheel turned towards the user (down a value) over the middle of `control`, as the window system
// delivers it (spontaneous: a control may take the focus from it).
void turnWheelDownOver(QWidget* control)
{
    const QPoint middle = control->rect().center();
    QWheelEvent wheel(QPointF(middle), QPointF(control->mapToGlobal(middle)), QPoint(), QPoint(0, -120), Qt::NoButton,
        Qt::NoModifier, Qt::NoScrollPhase, false);
    QSpontaneKeyEvent::setSpontaneous(&wheel);
    QApplication::sendEvent(control, &wheel);
}

}  // namespace

class PanelWheelTest : public QObject {
    Q_OBJECT
private:
    std::unique_ptr<MainWindow> m_window;
    QScrollArea* m_scroll = nullptr;

    // Shows `control` in the middle of the panel's scrolled fields, room left to scroll down.
    bool showInPanel(QWidget* control)
    {
        m_scroll->verticalScrollBar()->setValue(0);
        m_scroll->ensureWidgetVisible(control, 0, m_scroll->viewport()->height() / 3);
        return m_scroll->verticalScrollBar()->value() < m_scroll->verticalScrollBar()->maximum();
    }

private slots:
    void initTestCase() { QSettings().clear(); }

    void init()
    {
        m_window = std::make_unique<MainWindow>(std::make_shared<FakeBackend>());
        m_window->resize(800, 600);  // short enough that the panel's fields scroll
        m_window->show();
        m_window->activateWindow();
        QVERIFY(QTest::qWaitForWindowActive(m_window.get()));
        QVERIFY(waitForDevices(*m_window));
        QSpinBox* warmup = m_window->findChild<QSpinBox*>("warmup");
        QVERIFY(warmup);
        m_scroll = qobject_cast<QScrollArea*>(warmup->parentWidget()->parentWidget()->parentWidget());
        QVERIFY(m_scroll);
        QVERIFY2(m_scroll->verticalScrollBar()->maximum() > 0, "the panel's fields fit: nothing to scroll");
    }

    void cleanup()
    {
        m_window.reset();
        QSettings().clear();
    }

    // Warm-up runs under the pointer as the panel scrolls: its value and the saved setting stay.
    void aSpinBoxWithoutFocusLetsThePanelScroll()
    {
        auto* warmup = m_window->findChild<QSpinBox*>("warmup");
        warmup->setValue(3);
        const int saved = m_window->settings().config.warmupRuns;
        QVERIFY(m_window->focusWidget() != warmup);
        QVERIFY(showInPanel(warmup));
        turnWheelDownOver(warmup);
        QCOMPARE(warmup->value(), 3);
        QCOMPARE(m_window->settings().config.warmupRuns, saved);
        QVERIFY(!warmup->hasFocus());  // the wheel gives no focus either
    }

    // Clicked into (or tabbed to) first, it takes the wheel as spin boxes do.
    void aSpinBoxWithFocusTakesTheWheel()
    {
        auto* warmup = m_window->findChild<QSpinBox*>("warmup");
        warmup->setValue(3);
        QVERIFY(showInPanel(warmup));
        warmup->setFocus(Qt::MouseFocusReason);
        QVERIFY(QTest::qWaitFor([&] { return warmup->hasFocus(); }));
        turnWheelDownOver(warmup);
        QCOMPARE(warmup->value(), 2);
    }

    // The same for a choice (Wait): its choice stays until it has the focus.
    void aComboBoxWithoutFocusLetsThePanelScroll()
    {
        auto* wait = m_window->findChild<QComboBox*>("wait");
        QVERIFY(wait);
        QVERIFY(wait->count() > 1);
        wait->setCurrentIndex(0);
        QVERIFY(showInPanel(wait));
        turnWheelDownOver(wait);
        QCOMPARE(wait->currentIndex(), 0);
        QVERIFY(!wait->hasFocus());
        wait->setFocus(Qt::TabFocusReason);
        QVERIFY(QTest::qWaitFor([&] { return wait->hasFocus(); }));
        turnWheelDownOver(wait);
        QCOMPARE(wait->currentIndex(), 1);
    }

    // Every spin box and combo box of the panel: no focus from the wheel.
    void noControlOfThePanelTakesFocusFromTheWheel()
    {
        const auto controls = m_scroll->widget()->findChildren<QWidget*>();
        int checked = 0;
        for (QWidget* control : controls) {
            if (!qobject_cast<QAbstractSpinBox*>(control) && !qobject_cast<QComboBox*>(control))
                continue;
            QVERIFY2(control->focusPolicy() != Qt::WheelFocus, qPrintable(control->objectName()));
            ++checked;
        }
        QVERIFY(checked >= 10);
    }
};

QTEST_MAIN(PanelWheelTest)
#include "panel_wheel_test.moc"

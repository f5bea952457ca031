// Small things of the window that a user trips over: a disabled field's placeholder stands back in the dark look as in
// the light one; Alt and a menu's letter opens that menu, never a control of the pipeline panel; the status line keeps
// naming the saved series shown when the search for GPUs answers after it opened, and after its own message's time.
#include "fake_backend.hpp"
#include "window_waits.hpp"

#include "gui/app/main_window.hpp"
#include "gui/app/record_dialog.hpp"
#include "gui/app/theme.hpp"
#include "gui/config/config_panel.hpp"
#include "gui/session/session_model.hpp"

#include <QAbstractButton>
#include <QApplication>
#include <QComboBox>
#include <QLabel>
#include <QLineEdit>
#include <QMenu>
#include <QMenuBar>
#include <QSettings>
#include <QTemporaryDir>
#include <QTest>

#include <cmath>

using namespace asyncscope;
using asyncscope::testing::FakeBackend;
using asyncscope::testing::waitForDevices;

namespace {

double luminance(const QColor& colour)
{
    const auto linear = [](int channel) {
        const double v = channel / 255.0;
        return v <= 0.04045 ? v / 12.92 : std::pow((v + 0.055) / 1.055, 2.4);
    };
    return 0.2126 * linear(colour.red()) + 0.7152 * linear(colour.green()) + 0.0722 * linear(colour.blue());
}

// WCAG 2's contrast ratio of two colours.
double contrast(const QColor& a, const QColor& b)
{
    const double la = luminance(a), lb = luminance(b);
    return (std::max(la, lb) + 0.05) / (std::min(la, lb) + 0.05);
}

// The letter Alt takes with `text` ("&Settings": 's'); none where it has no mnemonic.
QChar mnemonicOf(const QString& text)
{
    const QKeySequence alt = QKeySequence::mnemonic(text);
    return alt.isEmpty() ? QChar() : QChar(alt[0].key()).toLower();
}

QMenu* menuNamed(const QMenuBar& bar, const QString& text)
{
    for (QAction* action : bar.actions()) {
        if (action->text() == text)
            return action->menu();
    }
    return nullptr;
}

}  // namespace

class WindowDetailsTest : public QObject {
    Q_OBJECT
private slots:
    void initTestCase() { QSettings().clear(); }
    void cleanup()
    {
        applyTheme(Theme::System);
        QSettings().clear();
    }

    // The record dialog's NVTX range field, disabled until a range is asked for: its placeholder is dimmer than the
    // text a disabled field would show, in either look (the dark look's was brighter than any text on it). An enabled
    // field's placeholder stays readable (4.5:1) and still stands back from what is typed.
    void aPlaceholderStandsBackFromTheText_data()
    {
        QTest::addColumn<int>("look");
        QTest::newRow("dark") << int(Theme::Dark);
        QTest::newRow("light") << int(Theme::Light);
    }
    void aPlaceholderStandsBackFromTheText()
    {
        QFETCH(int, look);
        applyTheme(Theme(look));
        QTemporaryDir dir;
        RecordDialog dialog(dir.path());
        QLineEdit* range = dialog.rangeName();
        QVERIFY(!range->isEnabled());
        QVERIFY(!range->placeholderText().isEmpty());
        const QPalette disabled = range->palette();
        QCOMPARE(disabled.currentColorGroup(), QPalette::Disabled);
        const QColor background = disabled.color(QPalette::Base);
        const double placeholder = contrast(disabled.color(QPalette::PlaceholderText), background);
        const double text = contrast(disabled.color(QPalette::Text), background);
        QVERIFY2(placeholder < text,
            qPrintable(QStringLiteral("disabled placeholder %1 against %2 (%3:1), disabled text %4:1")
                           .arg(disabled.color(QPalette::PlaceholderText).name(), background.name())
                           .arg(placeholder, 0, 'f', 2)
                           .arg(text, 0, 'f', 2)));

        QLineEdit* program = dialog.program();
        QVERIFY(program->isEnabled());
        const QPalette enabled = program->palette();
        const double shown = contrast(enabled.color(QPalette::Active, QPalette::PlaceholderText),
            enabled.color(QPalette::Active, QPalette::Base));
        QVERIFY2(shown >= 4.5, qPrintable(QString::number(shown)));
        QVERIFY(shown < contrast(enabled.color(QPalette::Active, QPalette::Text),
                     enabled.color(QPalette::Active, QPalette::Base)));
    }

    // Alt+S opens the Settings menu: no control of the panel takes the letter (Copies took it), nor any other menu's.
    void altAndAMenusLetterOpensThatMenu()
    {
        auto window = std::make_unique<MainWindow>(std::make_shared<FakeBackend>());
        window->show();
        window->activateWindow();
        QVERIFY(QTest::qWaitForWindowActive(window.get()));
        QVERIFY(waitForDevices(*window));

        QStringList menus;
        for (QAction* action : window->menuBar()->actions())
            menus << action->text();
        QVERIFY(menus.size() >= 5);
        auto* panel = window->findChild<ConfigPanel*>();
        QVERIFY(panel);
        QStringList clashes;
        int controls = 0;
        const auto check = [&](const QString& text) {
            const QChar letter = mnemonicOf(text);
            if (letter.isNull())
                return;
            ++controls;
            for (const QString& menu : menus) {
                if (mnemonicOf(menu) == letter)
                    clashes << QStringLiteral("%1 takes Alt+%2 of %3").arg(text, letter.toUpper(), menu);
            }
        };
        for (QLabel* label : panel->findChildren<QLabel*>())
            check(label->text());
        for (QAbstractButton* button : panel->findChildren<QAbstractButton*>())
            check(button->text());
        QVERIFY(controls >= 15);
        QVERIFY2(clashes.isEmpty(), qPrintable(clashes.join("; ")));

        QMenu* settings = menuNamed(*window->menuBar(), QStringLiteral("&Settings"));
        QVERIFY(settings);
        auto* copies = window->findChild<QComboBox*>("copy");
        QVERIFY(copies);
        QTest::keyClick(window.get(), Qt::Key_S, Qt::AltModifier);
        QVERIFY2(QTest::qWaitFor([&] { return settings->isVisible(); }, 3000), "Alt+S did not open Settings");
        QVERIFY(!copies->hasFocus());
        settings->close();
    }

    // A saved series opened as the window starts, the search for GPUs answering after it (no driver here): the
    // status line goes on naming the series shown, not "No GPU can run here", and still does once the opening's own
    // message has had its time. What the GPUs answered is in the line's tooltip and the panel's banner.
    void theStatusLineKeepsNamingTheSeriesShown()
    {
        auto noGpu = std::make_shared<FakeBackend>();
        noGpu->discoveryError = makeError(ErrorKind::NoDriver, "no driver");
        noGpu->discoveryDelay = std::chrono::milliseconds(800);
        AppOptions options;
        options.open = QStringLiteral(ASYNCSCOPE_TEST_DATA "/h200/h200-noise.json");
        MainWindow window(noGpu, options);
        window.show();
        const SessionModel& session = window.session();
        QVERIFY(QTest::qWaitFor([&] { return !session.source().format().isEmpty() && !session.isLoading(); }, 30000));
        QVERIFY(waitForDevices(window));
        QVERIFY(!window.deviceMessage().isEmpty());
        QVERIFY2(window.statusText().startsWith("Showing "), qPrintable(window.statusText()));
        QVERIFY2(window.statusText().contains("h200-noise"), qPrintable(window.statusText()));
        QTest::qWait(6500);  // past the time a transient message stays
        QVERIFY2(window.statusText().startsWith("Showing "), qPrintable(window.statusText()));
    }
};

QTEST_MAIN(WindowDetailsTest)
#include "window_details_test.moc"

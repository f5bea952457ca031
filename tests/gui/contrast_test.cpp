// Every label the window shows is readable in the light and the dark look, and after switching from one to the other
// with the window open: each colour its text is drawn in (the palette's foreground, the palette's link colour where it
// holds a link, a colour its rich text names) at least 4.5:1 against what is drawn behind it (WCAG 2's contrast
// ratio), measured on the window as drawn, tab by tab, with a saved H200 series and its advice shown and the message
// of a computer without a GPU; and File › Open results with a file it could not read. Disabled controls' labels are
// left out, as WCAG leaves them.
#include "fake_backend.hpp"
#include "window_waits.hpp"

#include "gui/app/file_actions.hpp"
#include "gui/app/main_window.hpp"
#include "gui/app/theme.hpp"
#include "gui/gpus/results_window.hpp"
#include "gui/session/session_model.hpp"

#include <QFile>
#include <QImage>
#include <QLabel>
#include <QRegularExpression>
#include <QSettings>
#include <QSignalSpy>
#include <QTabWidget>
#include <QTemporaryDir>
#include <QTest>

#include <cmath>
#include <map>

using namespace asyncscope;
using asyncscope::testing::FakeBackend;
using asyncscope::testing::waitForDevices;

namespace {

constexpr double kLeastContrast = 4.5;

double luminance(const QColor& colour)
{
    const auto linear = [](int channel) {
        const double v = channel / 255.0;
        return v <= 0.04045 ? v / 12.92 : std::pow((v + 0.055) / 1.055, 2.4);
    };
    return 0.2126 * linear(colour.red()) + 0.7152 * linear(colour.green()) + 0.0722 * linear(colour.blue());
}

double contrast(const QColor& a, const QColor& b)
{
    const double la = luminance(a), lb = luminance(b);
    return (std::max(la, lb) + 0.05) / (std::min(la, lb) + 0.05);
}

// The colour most of `area` of `shot` is drawn in: what a label's text stands on.
QColor backgroundOf(const QImage& shot, const QRect& area)
{
    std::map<QRgb, int> counts;
    for (int y = area.top(); y <= area.bottom(); ++y) {
        for (int x = area.left(); x <= area.right(); ++x)
            ++counts[shot.pixel(x, y) | 0xff000000u];
    }
    QRgb most = 0;
    int mostCount = -1;
    for (const auto& [rgb, count] : counts) {
        if (count > mostCount) {
            most = rgb;
            mostCount = count;
        }
    }
    return QColor::fromRgb(most);
}

// The colours a label's text is drawn in.
QList<QColor> textColours(const QLabel* label)
{
    QList<QColor> colours { label->palette().color(QPalette::Active, label->foregroundRole()) };
    const QString text = label->text();
    const bool rich = label->textFormat() == Qt::RichText ||
        (label->textFormat() == Qt::AutoText && Qt::mightBeRichText(text));
    if (!rich)
        return colours;
    if (text.contains(QStringLiteral("<a ")))
        colours << label->palette().color(QPalette::Active, QPalette::Link);
    static const QRegularExpression named(QStringLiteral("color\\s*[:=]\\s*[\"']?(#[0-9a-fA-F]{3,8}|[a-zA-Z]+)"));
    for (auto it = named.globalMatch(text); it.hasNext();)
        colours << QColor::fromString(it.next().captured(1));
    return colours;
}

// Each visible label of `top` whose text is under 4.5:1 against its background, said so.
QStringList unreadable(QWidget* top, const QString& where)
{
    const QImage shot = top->grab().toImage();
    const qreal scale = shot.devicePixelRatio();
    QStringList failures;
    for (QLabel* label : top->findChildren<QLabel*>()) {
        if (!label->isVisibleTo(top) || !label->isEnabled() || label->text().trimmed().isEmpty() ||
            label->width() < 4 || label->height() < 4 || label->objectName() == QStringLiteral("readout"))
            continue;
        const QRect inTop(label->mapTo(top, QPoint(0, 0)), label->size());
        const QRect area = QRect(QPoint(int(inTop.left() * scale), int(inTop.top() * scale)),
            QPoint(int(inTop.right() * scale), int(inTop.bottom() * scale))) & shot.rect();
        if (area.width() < 4 || area.height() < 4)
            continue;  // scrolled out of sight
        const QColor background = backgroundOf(shot, area);
        for (const QColor& colour : textColours(label)) {
            const double ratio = contrast(colour, background);
            if (ratio < kLeastContrast)
                failures << QStringLiteral("%1: \"%2\" (%3) %4 on %5: %6:1")
                                .arg(where, label->text().left(70), label->objectName(), colour.name(),
                                    background.name())
                                .arg(ratio, 0, 'f', 2);
        }
    }
    return failures;
}

}  // namespace

class ContrastTest : public QObject {
    Q_OBJECT

    QTemporaryDir m_dir;

    // Every tab of the window, each shown in turn.
    static QStringList unreadableInEveryTab(MainWindow& window, const QString& look)
    {
        QStringList failures;
        auto* tabs = window.findChild<QTabWidget*>();
        for (int i = 0; i < tabs->count(); ++i) {
            tabs->setCurrentIndex(i);
            QTest::qWait(30);  // laid out and drawn
            failures << unreadable(&window, look + " / " + tabs->tabText(i));
        }
        return failures;
    }

private slots:
    void initTestCase()
    {
        QCoreApplication::setOrganizationName("AsyncScopeTests");
        QCoreApplication::setApplicationName("ContrastTest");
        QSettings().clear();
        QVERIFY(m_dir.isValid());
    }

    void cleanup() { applyTheme(Theme::System); }

    void everyLabelOfTheWindowIsReadableInEitherLook()
    {
        applyTheme(Theme::Light);
        auto noGpu = std::make_shared<FakeBackend>();
        noGpu->discoveryError = makeError(ErrorKind::NoDriver, "no driver");
        MainWindow window(noGpu);
        window.resize(1280, 800);
        window.show();
        QVERIFY(waitForDevices(window));
        QVERIFY(window.files().openSaved(QStringLiteral(ASYNCSCOPE_TEST_DATA "/h200/h200-noise.json")));
        QVERIFY(QTest::qWaitFor([&window] { return !window.session().isLoading(); }, 30000));
        QStringList failures = unreadableInEveryTab(window, QStringLiteral("light"));
        // Switched with the window open, as Settings › Look does, and back.
        applyTheme(Theme::Dark);
        failures << unreadableInEveryTab(window, QStringLiteral("light, then dark"));
        applyTheme(Theme::Light);
        failures << unreadableInEveryTab(window, QStringLiteral("dark, then light"));
        QVERIFY2(failures.isEmpty(), qPrintable(failures.join(QStringLiteral("\n"))));
    }

    void theResultsWindowIsReadableInEitherLook()
    {
        const QString good = QStringLiteral(ASYNCSCOPE_TEST_DATA "/h200/h200-host-record.host.json");
        const QString broken = m_dir.filePath("broken.json");
        QFile file(broken);
        QVERIFY(file.open(QIODevice::WriteOnly));
        file.write("{ not json");
        file.close();
        QStringList failures;
        for (const Theme look : { Theme::Light, Theme::Dark }) {
            applyTheme(look);
            ResultsWindow results;
            results.resize(1000, 600);
            results.show();
            QSignalSpy read(&results, &ResultsWindow::filesRead);
            QVERIFY(results.openFiles({ good, broken }));
            QVERIFY(read.wait(10000));
            QTest::qWait(30);
            failures << unreadable(&results, look == Theme::Light ? QStringLiteral("light") : QStringLiteral("dark"));
            // The other look, with the window open.
            applyTheme(look == Theme::Light ? Theme::Dark : Theme::Light);
            QTest::qWait(30);
            failures << unreadable(&results, QStringLiteral("switched"));
        }
        QVERIFY2(failures.isEmpty(), qPrintable(failures.join(QStringLiteral("\n"))));
    }
};

QTEST_MAIN(ContrastTest)
#include "contrast_test.moc"

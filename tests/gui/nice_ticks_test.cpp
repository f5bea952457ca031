// Axis ticks on round values (gui/nice_ticks): steps of 1, 2 or 5 × 10^n over ranges across decades, tiny and huge
// ranges, a single value and a zero range; every tick a multiple of the step inside the range, and labels at the
// step's digits that read back as the tick (0.5, 1.0, 1.5; never 1.3).
#include "gui/series/nice_ticks.hpp"

#include <QTest>

#include <cmath>
#include <limits>

using namespace asyncscope;

namespace {

// The mantissa of a step: 1, 2 or 5 for a nice one.
double mantissa(double step)
{
    const double m = step / std::pow(10.0, std::floor(std::log10(step) + 1e-9));
    return std::round(m * 1e6) / 1e6;
}

QString label(double value, int decimals)
{
    return QString::asprintf("%.*f", decimals, value);
}

}  // namespace

class NiceTicksTest : public QObject {
    Q_OBJECT
private slots:
    void ticksAreRoundAndInRange_data()
    {
        QTest::addColumn<double>("low");
        QTest::addColumn<double>("high");
        QTest::addColumn<double>("count");
        QTest::addColumn<double>("least");
        QTest::newRow("ms, up to 1.65") << 0.0 << 1.65 << 4.0 << 0.0;
        QTest::newRow("ms, 2.7") << 0.0 << 2.7 << 5.0 << 0.0;
        QTest::newRow("runs, 10000") << 0.0 << 9999.0 << 8.0 << 1.0;
        QTest::newRow("runs, 5") << 0.0 << 4.0 << 8.0 << 1.0;
        QTest::newRow("zoomed runs") << 1234.4 << 1290.7 << 8.0 << 1.0;
        QTest::newRow("across decades") << 0.003 << 4700.0 << 6.0 << 0.0;
        QTest::newRow("negative to positive") << -3.3 << 7.1 << 5.0 << 0.0;
        QTest::newRow("all negative") << -0.00042 << -0.00017 << 5.0 << 0.0;
        QTest::newRow("tiny") << 1.0 << 1.0000003 << 5.0 << 0.0;
        QTest::newRow("nanoseconds") << 1e-9 << 7e-9 << 6.0 << 0.0;
        QTest::newRow("huge") << 0.0 << 3.3e12 << 5.0 << 0.0;
        QTest::newRow("a million runs") << 0.0 << 999999.0 << 10.0 << 1.0;
        QTest::newRow("reversed") << 5.0 << 0.0 << 5.0 << 0.0;
    }

    void ticksAreRoundAndInRange()
    {
        QFETCH(double, low);
        QFETCH(double, high);
        QFETCH(double, count);
        QFETCH(double, least);
        const NiceTicks ticks = niceTicks(low, high, count, least);
        const double m = mantissa(ticks.step);
        QVERIFY2(m == 1.0 || m == 2.0 || m == 5.0, qPrintable(QString::number(ticks.step, 'g', 17)));
        QVERIFY(ticks.step >= least);
        QVERIFY(ticks.values.size() >= 2);
        QVERIFY(double(ticks.values.size()) <= count + 1.0);
        const double from = std::min(low, high), to = std::max(low, high);
        const double slack = ticks.step * 1e-6;
        QStringList labels;
        for (std::size_t i = 0; i < ticks.values.size(); ++i) {
            const double v = ticks.values[i];
            QVERIFY(v >= from - slack && v <= to + slack);
            QVERIFY(std::fabs(v / ticks.step - std::round(v / ticks.step)) < 1e-6);  // a multiple of the step
            if (i > 0)
                QVERIFY(std::fabs(v - ticks.values[i - 1] - ticks.step) < slack);  // none left out
            // The label reads back as the tick: no rounding to a value between ticks.
            const QString text = label(v, ticks.decimals);
            QVERIFY2(std::fabs(text.toDouble() - v) < slack, qPrintable(text));
            labels << text;
        }
        QCOMPARE(QSet<QString>(labels.begin(), labels.end()).size(), labels.size());  // told apart
        // No tick between two that fits: the next multiple either way is outside the range.
        QVERIFY(ticks.values.front() - ticks.step < from - slack);
        QVERIFY(ticks.values.back() + ticks.step > to + slack);
    }

    void millisecondsTickAtHalves()
    {
        const NiceTicks ticks = niceTicks(0.0, 1.65, 4.0);
        QCOMPARE(ticks.step, 0.5);
        QCOMPARE(ticks.decimals, 1);
        QStringList labels;
        for (const double v : ticks.values)
            labels << label(v, ticks.decimals);
        QCOMPARE(labels, (QStringList { "0.0", "0.5", "1.0", "1.5" }));
    }

    void runsTickAtRoundNumbers()
    {
        const NiceTicks ticks = niceTicks(0.0, 9999.0, 8.0, 1.0);
        QCOMPARE(ticks.step, 2000.0);
        QCOMPARE(ticks.decimals, 0);
        QCOMPARE(ticks.values, (std::vector<double> { 0, 2000, 4000, 6000, 8000 }));
        // A few runs: a tick per run, never between two.
        QCOMPARE(niceTicks(0.0, 3.0, 8.0, 1.0).values, (std::vector<double> { 0, 1, 2, 3 }));
    }

    void aSingleValue_data()
    {
        QTest::addColumn<double>("value");
        QTest::addColumn<double>("least");
        QTest::addColumn<double>("step");
        QTest::addColumn<bool>("onTick");
        QTest::newRow("2.5 ms") << 2.5 << 0.0 << 0.5 << true;
        QTest::newRow("2.37 ms") << 2.37 << 0.0 << 0.5 << false;
        QTest::newRow("run 3") << 3.0 << 1.0 << 1.0 << true;
        QTest::newRow("zero") << 0.0 << 0.0 << 1.0 << true;
        QTest::newRow("zero, runs") << 0.0 << 1.0 << 1.0 << true;
        QTest::newRow("negative") << -40.0 << 0.0 << 10.0 << true;
        QTest::newRow("tiny") << 3e-9 << 0.0 << 1e-9 << true;
    }

    void aSingleValue()
    {
        QFETCH(double, value);
        QFETCH(double, least);
        QFETCH(double, step);
        QFETCH(bool, onTick);
        const NiceTicks ticks = niceTicks(value, value, 5.0, least);
        QVERIFY2(std::fabs(ticks.step - step) < step * 1e-9, qPrintable(QString::number(ticks.step, 'g', 17)));
        if (onTick) {
            QCOMPARE(ticks.values.size(), std::size_t(1));
            QVERIFY(std::fabs(ticks.values.front() - value) < step * 1e-9);
        } else {
            QVERIFY(ticks.values.empty());
        }
    }

    void nothingFiniteGivesNoTicks()
    {
        const double inf = std::numeric_limits<double>::infinity();
        QVERIFY(niceTicks(0.0, inf, 5.0).values.empty());
        QVERIFY(niceTicks(std::nan(""), 1.0, 5.0).values.empty());
        QCOMPARE(niceStep(0.0, 5.0), 1.0);
        QCOMPARE(niceStep(-3.0, 5.0, 1.0), 1.0);
        QCOMPARE(niceStep(inf, 5.0), 1.0);
    }

    void stepsAndDecimals()
    {
        QCOMPARE(niceStep(10.0, 8.0, 1.0), 2.0);  // 1.25 a step: 2
        QCOMPARE(niceStep(3.0, 8.0, 1.0), 1.0);   // below a run: one run
        QCOMPARE(niceStep(1.0, 10.0), 0.1);
        QCOMPARE(niceStep(7.0, 1.0), 10.0);
        QCOMPARE(niceStep(0.3, 1.0), 0.5);
        QCOMPARE(niceDecimals(0.5), 1);
        QCOMPARE(niceDecimals(0.05), 2);
        QCOMPARE(niceDecimals(0.001), 3);
        QCOMPARE(niceDecimals(5e-5), 5);
        QCOMPARE(niceDecimals(2.0), 0);
        QCOMPARE(niceDecimals(5e6), 0);
        QCOMPARE(niceCeil(2.1, 0.5), 2.5);
        QCOMPARE(niceCeil(0.1 * 3, 0.1), 0.1 * 3);  // a rounding error above a multiple is on it
        QCOMPARE(niceFloor(2.4, 0.5), 2.0);
        QCOMPARE(niceFloor(-0.1, 0.5), -0.5);
    }
};

QTEST_MAIN(NiceTicksTest)
#include "nice_ticks_test.moc"

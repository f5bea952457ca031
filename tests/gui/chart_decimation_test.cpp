// Min/max decimation of a chart's line (gui/chart_decimation): every pixel column keeps its lowest and highest point,
// the first and last points stay, a zoomed range keeps its neighbours outside, small series pass through untouched,
// and no more than two points per column (and the ends) are handed on. Checked against a direct scan of the points.
#include "gui/series/chart_decimation.hpp"

#include <QElapsedTimer>
#include <QTest>

#include <algorithm>
#include <cmath>
#include <random>

using namespace asyncscope;

namespace {

enum class Shape { Noise, Spikes, Saw, Flat };

// `n` points at x = 0, 1, 2 …, their y by shape; the same for the same arguments.
LinePoints makeLine(std::size_t n, Shape shape, std::size_t firstX = 0)
{
    LinePoints line;
    std::mt19937_64 random(n * 7 + std::size_t(shape));
    std::uniform_real_distribution<double> jitter(2.4, 2.6);
    for (std::size_t i = 0; i < n; ++i) {
        double y = 0.0;
        switch (shape) {
        case Shape::Noise: y = jitter(random); break;
        case Shape::Spikes: y = i % 9973 == 17 ? 40.0 : (i % 7919 == 5 ? 0.01 : 2.5); break;
        case Shape::Saw: y = double(i % 1000); break;
        case Shape::Flat: y = 1.0; break;
        }
        line.append(double(firstX + i), y);
    }
    return line;
}

// The column a point at x falls in, as the decimation defines them.
int columnOf(double x, double low, double high, int columns)
{
    const double width = (high - low) / columns;
    for (int c = 0; c + 1 < columns; ++c) {
        if (x < low + (c + 1) * width)
            return c;
    }
    return columns - 1;
}

}  // namespace

class ChartDecimationTest : public QObject {
    Q_OBJECT
private slots:
    void keepsEveryColumnsLowestAndHighest_data()
    {
        QTest::addColumn<int>("points");
        QTest::addColumn<int>("shape");
        QTest::addColumn<double>("low");
        QTest::addColumn<double>("high");
        QTest::addColumn<int>("columns");
        QTest::newRow("noise, every run") << 100000 << int(Shape::Noise) << 0.0 << 99999.0 << 800;
        QTest::newRow("spikes, every run") << 1000000 << int(Shape::Spikes) << 0.0 << 999999.0 << 1000;
        QTest::newRow("saw, uneven columns") << 54321 << int(Shape::Saw) << 0.0 << 54320.0 << 777;
        QTest::newRow("noise, zoomed") << 200000 << int(Shape::Noise) << 12345.5 << 98765.25 << 640;
        QTest::newRow("spikes, zoomed past the end") << 300000 << int(Shape::Spikes) << 250000.0 << 400000.0 << 500;
        QTest::newRow("saw, wider than the runs") << 1500 << int(Shape::Saw) << -100.0 << 5000.0 << 300;
    }

    void keepsEveryColumnsLowestAndHighest()
    {
        QFETCH(int, points);
        QFETCH(int, shape);
        QFETCH(double, low);
        QFETCH(double, high);
        QFETCH(int, columns);
        const LinePoints line = makeLine(std::size_t(points), Shape(shape));
        const std::vector<std::size_t> kept = line.decimate(low, high, columns);
        QVERIFY(!kept.empty());
        QVERIFY(std::is_sorted(kept.begin(), kept.end()));
        QVERIFY(std::adjacent_find(kept.begin(), kept.end()) == kept.end());  // each point once
        QVERIFY2(kept.size() <= 2 * std::size_t(columns) + 4, qPrintable(QString::number(kept.size())));

        // A direct scan: every column's lowest and highest value among the points in view.
        std::vector<double> lowest(std::size_t(columns), INFINITY), highest(std::size_t(columns), -INFINITY);
        std::size_t firstIn = line.size(), lastIn = 0;
        for (std::size_t i = 0; i < line.size(); ++i) {
            if (line.x(i) < low || line.x(i) > high)
                continue;
            firstIn = std::min(firstIn, i);
            lastIn = i;
            const auto c = std::size_t(columnOf(line.x(i), low, high, columns));
            lowest[c] = std::min(lowest[c], line.y(i));
            highest[c] = std::max(highest[c], line.y(i));
        }
        std::vector<double> keptLowest(std::size_t(columns), INFINITY), keptHighest(std::size_t(columns), -INFINITY);
        for (const std::size_t i : kept) {
            if (line.x(i) < low || line.x(i) > high)
                continue;
            const auto c = std::size_t(columnOf(line.x(i), low, high, columns));
            keptLowest[c] = std::min(keptLowest[c], line.y(i));
            keptHighest[c] = std::max(keptHighest[c], line.y(i));
        }
        for (std::size_t c = 0; c < std::size_t(columns); ++c) {
            QCOMPARE(keptLowest[c], lowest[c]);
            QCOMPARE(keptHighest[c], highest[c]);
        }
        // The first and last points in view stay, and the nearest outside on either side, where there is one.
        QVERIFY(std::binary_search(kept.begin(), kept.end(), firstIn));
        QVERIFY(std::binary_search(kept.begin(), kept.end(), lastIn));
        QCOMPARE(kept.front(), firstIn > 0 ? firstIn - 1 : firstIn);
        QCOMPARE(kept.back(), lastIn + 1 < line.size() ? lastIn + 1 : lastIn);
    }

    // A series' runs one apart keep no x; a point off that rule writes every x out. Both answer every question alike.
    void keptAndImpliedXAnswerAlike()
    {
        const std::size_t n = 150000;
        const LinePoints implied = makeLine(n, Shape::Spikes, 7);
        LinePoints kept = makeLine(n, Shape::Spikes, 7);
        kept.append(double(7 + n + 10), 1.0);  // a gap: x kept from here on
        QCOMPARE(kept.size(), n + 1);
        for (std::size_t i = 0; i < n; i += 997) {
            QCOMPARE(kept.x(i), implied.x(i));
            QCOMPARE(kept.x(i), double(7 + i));
        }
        QCOMPARE(kept.x(n), double(7 + n + 10));
        // Ranges that end well before the gap (the one point either side of the view stays within the common part).
        const std::vector<std::pair<double, double>> ranges { { 7.0, double(n) }, { -50.0, 1000.5 }, { 12.25, 99.75 },
            { 4000.0, 4000.0 }, { 5000.5, 5000.9 }, { double(n) - 500.0, double(n) + 3.0 }, { 0.0, 6.9 } };
        for (const auto& [low, high] : ranges) {
            const QString where = QStringLiteral("[%1, %2]").arg(low).arg(high);
            QCOMPARE(kept.countWithin(low, high), implied.countWithin(low, high));
            QVERIFY2(kept.decimate(low, high, 640) == implied.decimate(low, high, 640), qPrintable(where));
            QVERIFY2(kept.decimate(low, high, 3) == implied.decimate(low, high, 3), qPrintable(where));
            QCOMPARE(kept.rangeWithin(low, high), implied.rangeWithin(low, high));
            const auto a = kept.spread(low, high, 300), b = implied.spread(low, high, 300);
            QCOMPARE(a.size(), b.size());
            for (std::size_t c = 0; c < a.size(); ++c) {
                QCOMPARE(a[c].firstX, b[c].firstX);
                QCOMPARE(a[c].lastX, b[c].lastX);
                QCOMPARE(a[c].count, b[c].count);
                QCOMPARE(a[c].median, b[c].median);
                QCOMPARE(a[c].p95, b[c].p95);
            }
        }
        // Past the gap only the kept line has the far point.
        QCOMPARE(kept.countWithin(double(n + 7), double(n + 20)), std::size_t(1));
        QCOMPARE(implied.countWithin(double(n + 7), double(n + 20)), std::size_t(0));
        QCOMPARE(kept.countWithin(NAN, 10.0), implied.countWithin(NAN, 10.0));
        QCOMPARE(kept.countWithin(3.0, NAN), kept.size());  // below no bound: every point
        QCOMPARE(implied.countWithin(3.0, NAN), implied.size());
    }

    void keepsTheFirstAndLastPoints()
    {
        const LinePoints line = makeLine(250000, Shape::Noise, 3);
        const std::vector<std::size_t> kept = line.decimate(3.0, 250002.0, 1000);
        QCOMPARE(kept.front(), std::size_t(0));
        QCOMPARE(kept.back(), line.size() - 1);
        QVERIFY(kept.size() < 2005);
    }

    void smallSeriesPassThroughUntouched_data()
    {
        QTest::addColumn<int>("points");
        QTest::addColumn<int>("columns");
        QTest::newRow("one") << 1 << 800;
        QTest::newRow("a hundred") << 100 << 800;
        QTest::newRow("two per column") << 1600 << 800;
        QTest::newRow("one column") << 2 << 0;  // below 1 counts as 1
    }

    void smallSeriesPassThroughUntouched()
    {
        QFETCH(int, points);
        QFETCH(int, columns);
        const LinePoints line = makeLine(std::size_t(points), Shape::Noise);
        const std::vector<std::size_t> kept = line.decimate(0.0, double(points - 1), columns);
        QCOMPARE(kept.size(), std::size_t(points));
        for (std::size_t i = 0; i < kept.size(); ++i)
            QCOMPARE(kept[i], i);
    }

    void aZoomedRangeKeepsItsNeighbours()
    {
        // Runs 1000 to 1100 in view at 800 columns: every one of them, and runs 999 and 1101 beyond the edges.
        const LinePoints line = makeLine(100000, Shape::Saw);
        const std::vector<std::size_t> kept = line.decimate(999.5, 1100.5, 800);
        QCOMPARE(kept.size(), std::size_t(103));
        QCOMPARE(kept.front(), std::size_t(999));
        QCOMPARE(kept.back(), std::size_t(1101));
    }

    void aFlatLineKeepsOnePointPerColumn()
    {
        const LinePoints line = makeLine(100000, Shape::Flat);
        const std::vector<std::size_t> kept = line.decimate(0.0, 99999.0, 500);
        QVERIFY(kept.size() <= 500 + 2);
        QCOMPARE(kept.front(), std::size_t(0));
        QCOMPARE(kept.back(), std::size_t(99999));
    }

    void nothingInViewKeepsTheNeighbours()
    {
        LinePoints line;
        QVERIFY(line.decimate(0.0, 10.0, 100).empty());
        for (int i = 0; i < 10000; ++i)
            line.append(i < 5000 ? i : i + 1000, 1.0);  // no points from 5000 to 5999
        const std::vector<std::size_t> gap = line.decimate(5200.0, 5800.0, 2);
        QCOMPARE(gap, (std::vector<std::size_t> { 4999, 5000 }));
        const std::vector<std::size_t> beyond = line.decimate(20000.0, 30000.0, 2);
        QCOMPARE(beyond, (std::vector<std::size_t> { 9999 }));
    }

    void keepsTrackOfTheHighestValue()
    {
        LinePoints line = makeLine(5000, Shape::Spikes);
        QCOMPARE(line.maxY(), 40.0);
        line.clear();
        QVERIFY(line.empty());
        QCOMPARE(line.maxY(), 0.0);
    }

    // Not a pass/fail figure: what a decimation of a million points costs here, for the record.
    void millionPointsDecimateQuickly()
    {
        const LinePoints line = makeLine(1000000, Shape::Noise);
        QElapsedTimer clock;
        clock.start();
        std::size_t kept = 0;
        for (int i = 0; i < 10; ++i)
            kept += line.decimate(0.0, 999999.0, 1000 + i).size();
        qInfo("a million points at 1000 columns: %.2f ms per decimation, %zu points kept",
            double(clock.nsecsElapsed()) / 1e7, kept / 10);
        QVERIFY(kept > 0);
    }

    // Each column's spread against its points sorted here: nearest-rank percentiles, the median of an even count the
    // mean of the middle two; zoomed ranges, a column per point and more columns than points.
    void spreadIsEachColumnsPercentiles_data()
    {
        QTest::addColumn<int>("points");
        QTest::addColumn<int>("shape");
        QTest::addColumn<double>("low");
        QTest::addColumn<double>("high");
        QTest::addColumn<int>("columns");
        QTest::newRow("noise, whole") << 100000 << int(Shape::Noise) << 0.0 << 99999.0 << 997;
        QTest::newRow("saw, zoomed") << 50000 << int(Shape::Saw) << 1234.5 << 40321.0 << 333;
        QTest::newRow("spikes, whole") << 30000 << int(Shape::Spikes) << 0.0 << 29999.0 << 1000;
        QTest::newRow("a point per column") << 500 << int(Shape::Noise) << 0.0 << 499.0 << 500;
        QTest::newRow("more columns than points") << 37 << int(Shape::Noise) << 0.0 << 36.0 << 1000;
        QTest::newRow("flat") << 5000 << int(Shape::Flat) << 0.0 << 4999.0 << 7;
    }

    void spreadIsEachColumnsPercentiles()
    {
        QFETCH(int, points);
        QFETCH(int, shape);
        QFETCH(double, low);
        QFETCH(double, high);
        QFETCH(int, columns);
        const LinePoints line = makeLine(std::size_t(points), Shape(shape));
        std::vector<std::vector<double>> byColumn(static_cast<std::size_t>(columns));
        for (std::size_t i = 0; i < line.size(); ++i) {
            if (line.x(i) >= low && line.x(i) <= high)
                byColumn[std::size_t(columnOf(line.x(i), low, high, columns))].push_back(line.y(i));
        }
        auto rank = [](const std::vector<double>& sorted, double fraction) {
            const auto r = std::size_t(std::ceil(fraction * double(sorted.size())));
            return sorted[std::clamp<std::size_t>(r, 1, sorted.size()) - 1];
        };
        const std::vector<ColumnSpread> spread = line.spread(low, high, columns);
        const std::vector<ColumnSpread> medians = line.spread(low, high, columns, true);
        QCOMPARE(medians.size(), spread.size());
        std::size_t at = 0;
        for (std::vector<double>& values : byColumn) {
            if (values.empty())
                continue;
            std::sort(values.begin(), values.end());
            QVERIFY(at < spread.size());
            const ColumnSpread& c = spread[at];
            const std::size_t n = values.size();
            QCOMPARE(c.count, n);
            QCOMPARE(c.median, n % 2 == 1 ? values[n / 2] : (values[n / 2 - 1] + values[n / 2]) / 2.0);
            QCOMPARE(medians[at].median, c.median);
            QCOMPARE(c.p5, rank(values, 0.05));
            QCOMPARE(c.p25, rank(values, 0.25));
            QCOMPARE(c.p75, rank(values, 0.75));
            QCOMPARE(c.p95, rank(values, 0.95));
            ++at;
        }
        QCOMPARE(at, spread.size());
        QVERIFY(line.spread(double(points) + 1.0, double(points) + 2.0, columns).empty());  // beyond every point
    }

    void theRangeWithinARunRangeIsItsLowestAndHighestPoint()
    {
        LinePoints line;
        for (int i = 0; i < 100000; ++i)
            line.append(i, i == 3 ? 1300.0 : (i == 70000 ? 6.0 : 20.0 + (i % 5)));
        QCOMPARE(line.rangeWithin(0, 99999).value(), std::pair(6.0, 1300.0));
        QCOMPARE(line.rangeWithin(4, 99999).value(), std::pair(6.0, 24.0));
        QCOMPARE(line.rangeWithin(100, 69999.5).value(), std::pair(20.0, 24.0));
        QCOMPARE(line.rangeWithin(3, 3).value(), std::pair(1300.0, 1300.0));
        QCOMPARE(line.rangeWithin(10.5, 11.5).value(), std::pair(21.0, 21.0));
        QVERIFY(!line.rangeWithin(10.2, 10.8).has_value());
        QVERIFY(!line.rangeWithin(100000, 200000).has_value());
        QCOMPARE(line.countWithin(10.0, 19.5), std::size_t(10));
    }
};

QTEST_MAIN(ChartDecimationTest)
#include "chart_decimation_test.moc"

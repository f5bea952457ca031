// The points the run charts draw for one series: for each chart, every measured run's value of each of its
// quantities, the warm-up runs' values apart, and how far they reach. A series being measured is read as its runs
// arrive (each refresh reads only the runs since); a saved one is read once, on the thread that reads its file, so a
// million runs do not hold the window's thread while they are read. No Qt: it runs on any thread.
#pragma once

#include "gui/series/chart_decimation.hpp"
#include "gui/series/new_runs.hpp"

#include "engine/model/run_store.hpp"

#include <array>
#include <vector>

namespace asyncscope {

class SeriesPoints {
public:
    enum Chart { Time, Polls, Stages };
    static constexpr int kChartCount = 3;
    // Time: GPU time, CPU submit time. Polls: poll iterations. Stages: H2D, kernel, D2H (runs that timed them).
    static int quantityCount(Chart chart);

    struct Lines {
        std::vector<LinePoints> points;        // every measured run's value, per quantity
        std::vector<LinePoints> warmupPoints;  // the warm-up runs' values, per quantity: marked, not joined
        double maxX = 0.0;                     // the last run's index
        double maxY = 0.0;                     // the highest measured value, 0 when none is above 0
    };

    SeriesPoints();
    // Reads the runs of `runs` not read yet, or every run when `runs` is not the series read so far (another series,
    // or fewer runs). True when the points changed.
    bool update(const RunStore& runs);
    // Whether these are the points of `runs`, every one of them read: a few runs compared, not the series.
    bool isOf(const RunStore& runs) const;
    const Lines& lines(Chart chart) const { return m_lines[chart]; }

private:
    std::array<Lines, kChartCount> m_lines;
    NewRuns m_read;
};

}  // namespace asyncscope

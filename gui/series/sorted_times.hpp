// A series' measured GPU times and CPU submit times (warm-ups left out, as the statistics leave them out), each kept
// sorted: what the Distribution tab counts into bins. A series being measured is read as its runs arrive (the new
// runs' values sorted and merged in); a saved one is read once, on the thread that reads its file. No Qt.
#pragma once

#include "gui/series/new_runs.hpp"

#include "engine/model/run_store.hpp"

#include <array>
#include <vector>

namespace asyncscope {

class SortedTimes {
public:
    enum Quantity { GpuTime, CpuSubmit };
    static constexpr int kQuantityCount = 2;

    // Reads the runs of `runs` not read yet, or every run when `runs` is not the series read so far. True when the
    // values changed.
    bool update(const RunStore& runs);
    // Whether these are the values of `runs`, every one of them read: a few runs compared, not the series.
    bool isOf(const RunStore& runs) const;
    const std::vector<double>& values(Quantity quantity) const { return m_sorted[quantity]; }

private:
    std::array<std::vector<double>, kQuantityCount> m_sorted;
    NewRuns m_read;
};

}  // namespace asyncscope

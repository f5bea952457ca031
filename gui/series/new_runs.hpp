// Which runs of a series a view has already read, so that as a series grows (the session refreshes views ten times
// a second) each refresh reads only the runs that arrived since, and a series that is not the one read (another
// plan, a saved run opened in its place) is read again from its start.
#pragma once

#include "engine/model/run_store.hpp"

#include <cstddef>
#include <utility>
#include <vector>

namespace asyncscope {

class NewRuns {
public:
    // The position in `runs` of the first run not read yet; 0 when `runs` is not the series read so far (fewer
    // runs, or another run where one was read), which is then to be read again whole. Costs a few runs' reads, not
    // a pass over the series: the runs read are recognised by some of them (the first, those at powers of two,
    // the last).
    std::size_t firstUnread(const RunStore& runs) const;
    // Whether `runs` is the series read so far, every run of it read.
    bool readAll(const RunStore& runs) const;
    // Every run of `runs` is read now (when it is not the series read so far, only its runs).
    void read(const RunStore& runs);
    void forget();

    std::size_t count() const { return m_count; }

private:
    struct Key {
        int index = 0;
        bool warmup = false;
        double startMs = 0.0;
        double gpuMs = 0.0;
        std::uint64_t pollIterations = 0;
        double waitCpuMs = 0.0;
        std::size_t spans = 0;
        bool operator==(const Key& other) const;
    };
    static Key keyOf(const RunStore& runs, std::size_t i);

    std::size_t m_count = 0;
    std::vector<std::pair<std::size_t, Key>> m_marks;  // the runs at positions 2^k - 1 (0, 1, 3, 7 …)
    Key m_last;                                         // the run at m_count - 1
};

}  // namespace asyncscope

// What a view draws of a series, for the two kinds of preparation a series gets (SeriesPoints for the run charts,
// SortedTimes for the distributions; each has update(runs) and isOf(runs)). A saved run's were made with its file,
// off the GUI thread, and are shared as they are; a measured series' are read by the view itself as its runs arrive.
#pragma once

#include "engine/model/run_store.hpp"

#include <memory>
#include <vector>

namespace asyncscope {

// The current series of a view.
template <class Prepared>
class ShownSeries {
public:
    // Shows `runs`: `prepared` where it is of exactly these runs, else the runs read here (only those that arrived
    // since the last call, while they are the same series). True when what is shown changed.
    bool show(const RunStore& runs, std::shared_ptr<const Prepared> prepared)
    {
        if (prepared && prepared->isOf(runs)) {
            const bool changed = m_shown != prepared;
            m_shown = std::move(prepared);
            m_measured.reset();  // a series measured before is read again whole if it comes back
            return changed;
        }
        bool changed = false;
        if (!m_measured || m_shown != m_measured) {
            m_measured = std::make_shared<Prepared>();
            changed = true;  // even with no runs: what was shown before goes
        }
        changed = m_measured->update(runs) || changed;
        m_shown = m_measured;
        return changed;
    }

    const Prepared& get() const { return *m_shown; }

private:
    std::shared_ptr<const Prepared> m_shown = std::make_shared<Prepared>();
    std::shared_ptr<Prepared> m_measured;
};

// A saved run drawn beside the current one: its prepared points or values where they are of its runs, else its runs
// read now.
template <class Prepared>
std::shared_ptr<const Prepared> preparedFor(const RunStore& runs, std::shared_ptr<const Prepared> prepared)
{
    if (prepared && prepared->isOf(runs))
        return prepared;
    auto read = std::make_shared<Prepared>();
    read->update(runs);
    return read;
}

}  // namespace asyncscope

// The saved runs overlaid on the series shown, one of them perhaps the baseline (known by its index), and their
// names: each told apart from the others and from the saved series shown (distinctLabels), the baseline's
// "baseline · NAME". Whoever compares the baseline off the GUI thread settles that before anything here changes.
#pragma once

#include "gui/series/saved_run.hpp"

#include <QStringList>

#include <optional>
#include <vector>

namespace asyncscope {

class OverlayList {
public:
    const std::vector<SavedRun>& items() const { return m_items; }
    const SavedRun* baseline() const { return m_baseline ? &m_items[*m_baseline] : nullptr; }

    void add(SavedRun overlay);
    // `baseline` in place of the baseline before it, if any.
    void setBaseline(SavedRun baseline);
    // False where there was no baseline.
    bool clearBaseline();
    // Every overlay, the baseline among them: true where there was a baseline.
    bool clear();
    // Drops the overlays read from `path`'s file, whatever the path it was named by, but the baseline (the file
    // compared with itself is a check of the comparison): their labels, in their order.
    QStringList dropFile(const QString& path);
    // Names the overlays, after `shown` where there is one (the saved series shown): its name goes to `shownName`.
    // True where an overlay's name changed.
    bool name(const ShownLabel* shown, QString* shownName);

private:
    std::vector<SavedRun> m_items;
    std::optional<std::size_t> m_baseline;  // its index among m_items
};

}  // namespace asyncscope

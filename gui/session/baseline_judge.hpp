// Compares the series shown with the baseline (engine/model/baseline) on a thread of its own, one comparison at a
// time, and hands the comparison back on the thread that asked. A comparison sorts every quantity of both series (a
// million runs: tens to hundreds of ms), reading them in place: whoever owns the two series changes nothing of them
// while one is under way; settle() waits for it and hands it back at once.
#pragma once

#include "engine/model/baseline.hpp"
#include "gui/session/off_thread.hpp"

#include <QObject>

namespace asyncscope {

class BaselineJudge : public QObject {
    Q_OBJECT
public:
    using Work = std::function<BaselineComparison()>;

    explicit BaselineJudge(QObject* parent = nullptr);  // destroyed, it waits for the comparison under way

    // Starts `work` on a thread of its own, after the comparison under way, if any, was handed back. `ticket` comes
    // back with the comparison, so the owner can tell one of series it no longer shows.
    void start(Work work, unsigned ticket);
    bool busy() const { return m_work.busy(); }
    // Waits for the comparison under way, if any, and hands it back (compared()) before returning.
    void settle();

signals:
    void compared(const asyncscope::BaselineComparison& comparison, unsigned ticket);

private:
    OffThread<BaselineComparison> m_work;
};

}  // namespace asyncscope

// Judges what the session shows (gui/series/shown_advice) on a thread of its own, one judgement at a time, and hands
// the advice back on the thread that asked. A judgement reads its series in place, as the views do: whoever owns the
// series changes nothing of it (no runs appended, nothing moved or freed) while one is under way; settle() waits for
// it and hands it back at once.
#pragma once

#include "gui/series/shown_advice.hpp"
#include "gui/session/off_thread.hpp"

#include <QObject>

namespace asyncscope {

class AdviceJudge : public QObject {
    Q_OBJECT
public:
    using Work = std::function<ShownAdvice()>;

    explicit AdviceJudge(QObject* parent = nullptr);  // destroyed, it waits for the judgement under way

    // Starts `work` on a thread of its own, unless a judgement is under way (false). `ticket` comes back with the
    // advice, so the owner can tell a judgement of a series it no longer shows.
    bool start(Work work, unsigned ticket);
    bool busy() const { return m_work.busy(); }
    // Waits for the judgement under way, if any, and hands it back (judged()) before returning.
    void settle();
    // How long the last judgement took, in ms: the owner judges a growing series less often as it grows.
    double lastCostMs() const { return m_work.lastCostMs(); }

signals:
    void judged(const asyncscope::ShownAdvice& advice, unsigned ticket);

private:
    OffThread<ShownAdvice> m_work;
};

}  // namespace asyncscope

// When the advice on the series shown is judged, and what waits for it. A judgement (AdviceJudge, off the GUI thread)
// reads the series in place: what the plan brings that changes the series is held while one is under way and handed
// on after it, in order, one turn of the event loop at a time (inTurn). A series being measured is judged at most
// once a second, and less often once a judgement takes more than a tenth of that (dueWhileMeasuring); what its owner
// judges otherwise (a series as it ends, a saved one, a comparison) it judges at once. A judgement of a series no
// longer shown (forget()) is not shown.
#pragma once

#include "gui/series/shown_advice.hpp"
#include "gui/session/advice_judge.hpp"

#include <QElapsedTimer>
#include <QObject>

#include <deque>
#include <functional>

namespace asyncscope {

class AdviceScheduler : public QObject {
    Q_OBJECT
public:
    explicit AdviceScheduler(QObject* parent = nullptr);

    // The advice on the series shown: empty until it is judged.
    const ShownAdvice& advice() const { return m_advice; }
    // The series shown is another: its advice is forgotten, and a judgement of the last one under way is not shown.
    void forget();
    // Advice judged elsewhere (a saved series', as its file was read) for the series shown now.
    void show(const ShownAdvice& advice);
    // Judges the series shown with `work`, now.
    void judge(AdviceJudge::Work work);
    // Whether a series being measured is due to be judged again: nothing under way or held for a judgement, and a
    // second (or ten times the last judgement's cost) gone since it was last judged while measured.
    bool dueWhileMeasuring() const;
    // Judges the series being measured with `work`, now, and counts the time to the next from here.
    void judgeWhileMeasuring(AdviceJudge::Work work);
    // Calls `event` (the plan's news) now, or, where a judgement reads the series or what came before is held for
    // one, after them, in order.
    void inTurn(std::function<void()> event);
    // Waits for the judgement under way and for what was held for it, so that advice() is of the series as it is
    // now shown.
    void settle();
    // Waits for the judgement under way and drops it, and drops what was held: the owner of the series is going.
    void stop();

signals:
    void changed();

private:
    bool mustWait() const;  // a judgement reads the series, or what came before waits for it
    void handOnHeld();
    void onJudged(const ShownAdvice& advice, unsigned ticket);

    AdviceJudge* m_judge;
    ShownAdvice m_advice;
    unsigned m_ticket = 0;  // of the series shown: a judgement with another is of one no longer shown
    QElapsedTimer m_clock;  // since the series measured now was last judged
    std::deque<std::function<void()>> m_held;  // what the plan brought while a judgement read the series
    bool m_handingOn = false;  // the next held event is due in the event loop
};

}  // namespace asyncscope

#include "gui/session/advice_scheduler.hpp"

#include <algorithm>

namespace asyncscope {

namespace {

// A series being measured is judged again at most this often, and less often once a judgement takes more than a
// tenth of it (a million runs: 20-75 ms on a 2-core machine), so the judging thread takes at most a tenth of a core.
constexpr qint64 kAdviceEveryMs = 1000;
constexpr double kAdviceShareOfTime = 0.1;

}  // namespace

AdviceScheduler::AdviceScheduler(QObject* parent)
    : QObject(parent)
    , m_judge(new AdviceJudge(this))
{
    connect(m_judge, &AdviceJudge::judged, this, &AdviceScheduler::onJudged);
}

void AdviceScheduler::forget()
{
    ++m_ticket;
    m_clock.invalidate();
    if (m_advice.empty() && m_advice.subject.isEmpty())
        return;
    m_advice = {};
    emit changed();
}

void AdviceScheduler::show(const ShownAdvice& advice)
{
    m_advice = advice;
    emit changed();
}

void AdviceScheduler::judge(AdviceJudge::Work work)
{
    m_judge->start(std::move(work), m_ticket);
}

bool AdviceScheduler::dueWhileMeasuring() const
{
    if (mustWait())
        return false;  // what was held for the last judgement goes first
    const double every = std::max(double(kAdviceEveryMs), m_judge->lastCostMs() / kAdviceShareOfTime);
    return !m_clock.isValid() || double(m_clock.elapsed()) >= every;
}

void AdviceScheduler::judgeWhileMeasuring(AdviceJudge::Work work)
{
    m_clock.start();
    judge(std::move(work));
}

void AdviceScheduler::inTurn(std::function<void()> event)
{
    if (mustWait()) {
        m_held.push_back(std::move(event));  // the judgement reads the series: after it, in order
        return;
    }
    event();
}

void AdviceScheduler::settle()
{
    m_judge->settle();
    while (!m_held.empty()) {
        const std::function<void()> event = std::move(m_held.front());
        m_held.pop_front();
        event();
        m_judge->settle();  // the plan's end starts its last judgement
    }
}

void AdviceScheduler::stop()
{
    disconnect(m_judge, nullptr, this, nullptr);  // its advice is of no use now
    m_judge->settle();
    m_held.clear();
}

bool AdviceScheduler::mustWait() const
{
    return m_judge->busy() || !m_held.empty();
}

void AdviceScheduler::handOnHeld()
{
    // One a turn of the event loop, as the run thread's come (PlanController): the runs that piled up while a
    // judgement read the series (a tenth of a second's or more at a million runs a second) reach the views in steps
    // they draw at once, the window's input and painting between them.
    if (m_held.empty() || m_judge->busy() || m_handingOn)
        return;
    m_handingOn = true;
    QMetaObject::invokeMethod(this, [this] {
        m_handingOn = false;
        if (m_judge->busy() || m_held.empty())
            return;  // a judgement started meanwhile: its end goes on
        const std::function<void()> event = std::move(m_held.front());
        m_held.pop_front();
        event();
        handOnHeld();
    }, Qt::QueuedConnection);
}

void AdviceScheduler::onJudged(const ShownAdvice& advice, unsigned ticket)
{
    handOnHeld();  // nothing reads the series now
    if (ticket != m_ticket)
        return;  // of a series no longer shown
    show(advice);
}

}  // namespace asyncscope

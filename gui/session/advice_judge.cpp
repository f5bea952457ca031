#include "gui/session/advice_judge.hpp"

#include <QMetaObject>

#include <chrono>

namespace asyncscope {

AdviceJudge::AdviceJudge(QObject* parent)
    : QObject(parent)
{
}

AdviceJudge::~AdviceJudge()
{
    if (m_thread.joinable())
        m_thread.join();
}

bool AdviceJudge::start(Work work, unsigned ticket)
{
    if (busy())
        return false;
    m_ticket = ticket;
    const unsigned judgement = ++m_judgements;
    m_thread = std::thread([this, work = std::move(work), judgement] {
        const auto began = std::chrono::steady_clock::now();
        m_result = work();
        m_lastCostMs = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - began).count();
        // Queued to the asking thread, which joins this one there, unless settle() did so first (and another
        // judgement may be under way by then). An object deleted meanwhile takes the call with it.
        QMetaObject::invokeMethod(this, [this, judgement] {
            if (judgement == m_judgements)
                collect();
        }, Qt::QueuedConnection);
    });
    return true;
}

void AdviceJudge::settle()
{
    collect();
}

void AdviceJudge::collect()
{
    if (!m_thread.joinable())
        return;
    m_thread.join();
    ShownAdvice advice = std::move(m_result);
    m_result = {};
    emit judged(advice, m_ticket);
}

}  // namespace asyncscope

#include "gui/session/baseline_judge.hpp"

#include <QMetaObject>

namespace asyncscope {

BaselineJudge::BaselineJudge(QObject* parent)
    : QObject(parent)
{
}

BaselineJudge::~BaselineJudge()
{
    if (m_thread.joinable())
        m_thread.join();
}

void BaselineJudge::start(Work work, unsigned ticket)
{
    collect();  // one thread at a time: the one before is handed back first
    m_ticket = ticket;
    const unsigned mine = ++m_started;
    m_thread = std::thread([this, work = std::move(work), mine] {
        m_result = work();
        // Queued to the asking thread, which joins this one there, unless settle() did so first (and another
        // comparison may be under way by then). An object deleted meanwhile takes the call with it.
        QMetaObject::invokeMethod(this, [this, mine] {
            if (mine == m_started)
                collect();
        }, Qt::QueuedConnection);
    });
}

void BaselineJudge::settle()
{
    collect();
}

void BaselineJudge::collect()
{
    if (!m_thread.joinable())
        return;
    m_thread.join();
    BaselineComparison comparison = std::move(m_result);
    m_result = {};
    emit compared(comparison, m_ticket);
}

}  // namespace asyncscope

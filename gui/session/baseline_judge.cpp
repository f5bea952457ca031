#include "gui/session/baseline_judge.hpp"

namespace asyncscope {

BaselineJudge::BaselineJudge(QObject* parent)
    : QObject(parent)
    , m_work(this, [this](BaselineComparison comparison, unsigned ticket) { emit compared(comparison, ticket); })
{
}

void BaselineJudge::start(Work work, unsigned ticket)
{
    m_work.start(std::move(work), ticket);
}

void BaselineJudge::settle()
{
    m_work.settle();
}

}  // namespace asyncscope

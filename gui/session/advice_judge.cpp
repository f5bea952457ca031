#include "gui/session/advice_judge.hpp"

namespace asyncscope {

AdviceJudge::AdviceJudge(QObject* parent)
    : QObject(parent)
    , m_work(this, [this](ShownAdvice advice, unsigned ticket) { emit judged(advice, ticket); })
{
}

bool AdviceJudge::start(Work work, unsigned ticket)
{
    if (busy())
        return false;
    m_work.start(std::move(work), ticket);
    return true;
}

void AdviceJudge::settle()
{
    m_work.settle();
}

}  // namespace asyncscope

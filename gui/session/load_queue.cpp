#include "gui/session/load_queue.hpp"

#include "gui/session/report_loader.hpp"

#include "engine/io/input_file.hpp"

#include <algorithm>

namespace asyncscope {

LoadQueue::LoadQueue(Deliver deliver, QObject* parent)
    : QObject(parent)
    , m_deliver(std::move(deliver))
    , m_loader(new ReportLoader(this))
{
    connect(m_loader, &ReportLoader::progress, this, &LoadQueue::progress);  // queued from the reading thread
    connect(m_loader, &ReportLoader::finished, this, &LoadQueue::onLoaded);
}

Status LoadQueue::push(Load load)
{
    if (Status unreadable = checkReadableFile(load.path.toStdString()))
        return unreadable;
    m_loads.push_back(std::move(load));
    if (m_loads.size() == 1)
        loadNext();
    return std::nullopt;
}

bool LoadQueue::opensSeries() const
{
    return std::any_of(m_loads.begin(), m_loads.end(), [](const Load& l) { return !l.overlay; });
}

void LoadQueue::cancel()
{
    if (m_loads.empty())
        return;
    m_loads.erase(m_loads.begin() + 1, m_loads.end());
    m_loader->cancel();
}

void LoadQueue::loadNext()
{
    if (m_loads.empty())
        return;
    m_loader->start(m_loads.front().path, m_loads.front().baseline ? SavedRunUse::Baseline : SavedRunUse::Series);
    emit started(m_loads.front().path);
}

void LoadQueue::onLoaded()
{
    if (m_loads.empty())
        return;
    const Load load = m_loads.front();
    m_loads.pop_front();
    Result<SavedRun> saved = m_loader->takeResult();
    loadNext();  // before anyone hears of this one, so isLoading() says whether more are coming
    m_deliver(load, std::move(saved));
}

}  // namespace asyncscope

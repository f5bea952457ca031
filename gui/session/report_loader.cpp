#include "gui/session/report_loader.hpp"

#include <QMetaObject>

#include <atomic>
#include <chrono>
#include <condition_variable>
#include <mutex>

namespace asyncscope {

struct ReportLoader::Read {
    std::atomic<bool> cancel { false };
    std::mutex mutex;
    std::condition_variable ended;
    ReportLoader* loader = nullptr;  // null once the loader is gone: nothing is posted to it then
    std::optional<Result<SavedRun>> result;
    bool done = false;

    // Runs `call(loader)` on the loader's thread, if the loader is still there. Under the mutex, so the loader
    // cannot go between the look and the post (its end clears `loader` under the same mutex); a call posted to a
    // loader that goes before it runs is dropped with the loader.
    template <class Call>
    void post(Call call)
    {
        std::lock_guard lock(mutex);
        if (loader)
            QMetaObject::invokeMethod(loader, [call = std::move(call), to = loader] { call(to); }, Qt::QueuedConnection);
    }
};

ReportLoader::ReportLoader(QObject* parent)
    : QObject(parent)
{
}

ReportLoader::~ReportLoader()
{
    if (!m_thread.joinable())
        return;
    std::unique_lock lock(m_read->mutex);
    m_read->cancel = true;
    m_read->loader = nullptr;
    const bool ended = m_read->ended.wait_for(
        lock, std::chrono::milliseconds(kEndWaitMs), [read = m_read.get()] { return read->done; });
    lock.unlock();
    if (ended)
        m_thread.join();
    else
        m_thread.detach();  // blocked in a read that does not end: it holds only what it shares, and ends with that
}

bool ReportLoader::start(const QString& path, SavedRunUse use)
{
    if (m_thread.joinable())
        return false;
    m_path = path;
    m_result.reset();
    m_read = std::make_shared<Read>();
    m_read->loader = this;
    m_thread = std::thread([read = m_read, path, use] {
        auto result = readSavedRun(
            path,
            [read](double fraction) {
                std::lock_guard lock(read->mutex);  // the loader does not go while it says so
                if (read->loader)
                    emit read->loader->progress(fraction);
            },
            &read->cancel, use);
        {
            std::lock_guard lock(read->mutex);
            read->result.emplace(std::move(result));
            read->done = true;
        }
        read->ended.notify_all();
        read->post([](ReportLoader* to) { to->onEnded(); });
    });
    return true;
}

void ReportLoader::onEnded()
{
    if (!m_thread.joinable())
        return;
    m_thread.join();  // it has posted this as its last act
    {
        std::lock_guard lock(m_read->mutex);
        m_result = std::move(m_read->result);
    }
    m_read.reset();
    emit finished();
}

void ReportLoader::cancel()
{
    if (const auto read = m_read)
        read->cancel = true;
}

Result<SavedRun> ReportLoader::takeResult()
{
    if (!m_result || m_thread.joinable())
        return makeError(ErrorKind::Io, "no file has been read");
    Result<SavedRun> result = std::move(*m_result);
    m_result.reset();
    return result;
}

}  // namespace asyncscope

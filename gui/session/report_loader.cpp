#include "gui/session/report_loader.hpp"

#include <QThread>

namespace asyncscope {

ReportLoader::ReportLoader(QObject* parent)
    : QObject(parent)
{
}

ReportLoader::~ReportLoader()
{
    if (!m_thread)
        return;
    cancel();
    m_thread->wait();
    delete m_thread;
}

bool ReportLoader::start(const QString& path)
{
    if (m_thread)
        return false;
    m_cancel = false;
    m_path = path;
    m_result.reset();
    m_thread = QThread::create([this, path] {
        m_result.emplace(readSavedRun(path, [this](double fraction) { emit progress(fraction); }, &m_cancel));
    });
    m_thread->setObjectName(QStringLiteral("AsyncScope file"));
    // Queued to this object's thread: the read's result is complete once the thread has finished.
    connect(m_thread, &QThread::finished, this, [this] {
        m_thread->wait();
        m_thread->deleteLater();
        m_thread = nullptr;
        emit finished();
    });
    m_thread->start();
    return true;
}

void ReportLoader::cancel()
{
    m_cancel = true;
}

Result<SavedRun> ReportLoader::takeResult()
{
    if (!m_result || m_thread)
        return makeError(ErrorKind::Io, "no file has been read");
    Result<SavedRun> result = std::move(*m_result);
    m_result.reset();
    return result;
}

}  // namespace asyncscope

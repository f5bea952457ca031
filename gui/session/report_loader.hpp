// Reads a saved run on a thread of its own, so the window stays usable while a big file loads: the fraction read as
// it reads, the saved run or why not when it is done, and a cancel that stops the read within a block.
#pragma once

#include "gui/series/saved_run.hpp"

#include <QObject>
#include <QString>

#include <atomic>
#include <optional>

class QThread;

namespace asyncscope {

class ReportLoader : public QObject {
    Q_OBJECT
public:
    explicit ReportLoader(QObject* parent = nullptr);
    ~ReportLoader() override;  // cancels a read in progress and waits for its thread

    // Starts reading `path` (JSON or CSV by suffix); false, and nothing started, while a read is in progress.
    bool start(const QString& path);
    // Asks the read in progress to stop; it ends with ErrorKind::Cancelled. Any thread.
    void cancel();
    bool isRunning() const { return m_thread != nullptr; }
    const QString& path() const { return m_path; }
    // Once finished: the saved run, or why not. Taken once; an error if there is nothing to take.
    Result<SavedRun> takeResult();

signals:
    // The fraction of the file read, at most about a hundred times a read. Emitted on the reading thread: a
    // receiver on another thread hears it queued.
    void progress(double fraction);
    // The read ended (read, failed or cancelled) and its thread is gone; on the loader's thread.
    void finished();

private:
    QThread* m_thread = nullptr;
    std::atomic<bool> m_cancel { false };
    QString m_path;
    std::optional<Result<SavedRun>> m_result;  // written by the reading thread, read once it has ended
};

}  // namespace asyncscope

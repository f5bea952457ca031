// Reads a saved run on a thread of its own, so the window stays usable while a big file loads: the fraction read as
// it reads, the saved run or why not when it is done, and a cancel that stops the read within a block. A read that
// does not end (a FIFO put where a file was checked, a stalled network disk) never holds up the window: the loader's
// end waits for it a bounded time, then leaves it to end on its own, with nothing of the loader left for it to touch.
#pragma once

#include "gui/series/saved_run.hpp"

#include <QObject>
#include <QString>

#include <memory>
#include <thread>

namespace asyncscope {

class ReportLoader : public QObject {
    Q_OBJECT
public:
    explicit ReportLoader(QObject* parent = nullptr);
    ~ReportLoader() override;  // cancels a read in progress and waits for it, at most kEndWaitMs

    // How long the loader's end waits for a read in progress before leaving it behind.
    static constexpr int kEndWaitMs = 2000;

    // Starts reading `path` (JSON or CSV by suffix) as `use` takes it; false, and nothing started, while a read is in
    // progress.
    bool start(const QString& path, SavedRunUse use = SavedRunUse::Series);
    // Asks the read in progress to stop; it ends with ErrorKind::Cancelled. On the loader's thread, or from a
    // receiver of progress().
    void cancel();
    bool isRunning() const { return m_thread.joinable(); }
    const QString& path() const { return m_path; }
    // Once finished: the saved run, or why not. Taken once; an error if there is nothing to take.
    Result<SavedRun> takeResult();

signals:
    // The fraction of the file read, at most about a hundred times a read. Emitted on the reading thread: a
    // receiver on another thread hears it queued; one connected directly must not wait for the loader's thread.
    void progress(double fraction);
    // The read ended (read, failed or cancelled) and its thread is gone; on the loader's thread.
    void finished();

private:
    struct Read;  // what the reading thread shares with the loader, kept alive by both

    void onEnded();

    std::thread m_thread;
    std::shared_ptr<Read> m_read;
    QString m_path;
    std::optional<Result<SavedRun>> m_result;
};

}  // namespace asyncscope

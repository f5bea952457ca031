// The saved runs asked for, read one at a time in the order asked for, each on a thread of its own (ReportLoader).
// Each read or failed file is handed to its owner after the next one has started, so that isLoading() then says
// whether more are coming.
#pragma once

#include "gui/series/saved_run.hpp"

#include <QObject>
#include <QString>

#include <deque>
#include <functional>

namespace asyncscope {

class ReportLoader;

class LoadQueue : public QObject {
    Q_OBJECT
public:
    struct Load {
        QString path;
        bool overlay = false;
        bool baseline = false;  // an overlay that is the baseline
    };
    // Called on the queue's thread with each file asked for: the saved run, or why not (ErrorKind::Cancelled where
    // cancel() stopped it).
    using Deliver = std::function<void(const Load& load, Result<SavedRun> saved)>;

    explicit LoadQueue(Deliver deliver, QObject* parent = nullptr);

    // Reads `load` once the files asked for before it are read. Refused at once where its path is not a regular file
    // this process may read (checkReadableFile: a directory or a device fails at once, a FIFO would hold the
    // reading thread, a missing file).
    Status push(Load load);
    // A file asked for is being read or waits its turn.
    bool isLoading() const { return !m_loads.empty(); }
    // A file being read or waiting its turn is to be shown in place of the series (not overlaid).
    bool opensSeries() const;
    // Stops the read in progress (handed on as cancelled) and forgets the files waiting their turn.
    void cancel();

signals:
    void started(const QString& path);
    void progress(double fraction);  // of the file being read

private:
    void loadNext();
    void onLoaded();

    Deliver m_deliver;
    ReportLoader* m_loader;
    std::deque<Load> m_loads;  // the first is being read
};

}  // namespace asyncscope

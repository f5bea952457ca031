// File › Record a program…: the program run under the recorder (engine/record) on a thread of its own, while the
// window stays usable. Its recording, its output and its report (JSON, format 4) are kept side by side, so nothing of
// it is lost; the report is then opened as any saved series is. Stopping it (the progress dialog's Stop, the window
// closing) stops the program as Ctrl+C stops `asyncscope-cli record`, and what was recorded is kept.
#pragma once

#include "engine/record/iterations.hpp"
#include "engine/record/program_recorder.hpp"

#include <QObject>
#include <QString>

#include <atomic>
#include <thread>

namespace asyncscope {

struct RecordingPlan {
    RecordRequest request;  // command, folder, environment, duration; the libraries and file names are filled in
    IterationRule rule;
    QString reportPath;  // the report; beside it NAME.record (the record stream) and NAME.output.txt (the output)
};

// The files kept beside a report: "run.json" → "run.record", "run.output.txt".
QString recordingPathFor(const QString& reportPath);
QString outputPathFor(const QString& reportPath);

class ProgramRecording : public QObject {
    Q_OBJECT
public:
    explicit ProgramRecording(QObject* parent = nullptr);
    ~ProgramRecording() override;  // stops a program still running and waits for the recorder

    bool busy() const { return m_thread.joinable(); }
    // Starts recording; one at a time (false while one is under way).
    bool start(RecordingPlan plan);
    // Stops the program, keeping what was recorded: finished() or failed() follows.
    void stop() { m_stop = true; }

signals:
    // The report is written: `summary` says how the program ended and how many runs it gave.
    void finished(const QString& reportPath, const QString& summary);
    void failed(const QString& message);

private:
    void collect();

    std::thread m_thread;
    std::atomic<bool> m_stop { false };
};

}  // namespace asyncscope

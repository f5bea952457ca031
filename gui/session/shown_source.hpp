// Where the series shown comes from: measured here, or a saved file, named as the views title it ("saved: NAME"), in
// the file's format, and, where the file is a recorded program's report, that program (what ran, how its iterations
// were found, how it ended, its processes and threads) and the GPU its work ran on. The views that show a program as
// a program (the left panel, the summary's rows a program has not) bind to it; the session sets it as the series
// shown changes.
#pragma once

#include "gui/series/saved_run.hpp"

#include "engine/model/device.hpp"
#include "engine/model/program_info.hpp"

#include <QObject>
#include <QString>

#include <optional>

namespace asyncscope {

class ShownSource : public QObject {
    Q_OBJECT
public:
    explicit ShownSource(QObject* parent = nullptr);

    // "saved: NAME" while a saved series is shown, told apart from the overlays; empty for a series measured here.
    const QString& label() const { return m_label; }
    // The saved series' file and its format ("JSON format 4", "CSV"); empty while a series measured here is shown.
    const QString& path() const { return m_path; }
    const QString& format() const { return m_format; }
    // The recorded program the series shown is of, or nothing (the built-in pipeline's series).
    const ProgramInfo* program() const { return m_program ? &*m_program : nullptr; }
    // The GPU the program's work ran on (where there is a program).
    const DeviceInfo& device() const { return m_device; }

    // A saved series is shown in place of the one before: its file, format and program.
    void showFile(const SavedRun& saved);
    // A series is measured here: no file, no program.
    void clear();
    void setLabel(const QString& label) { m_label = label; }

signals:
    // The file or the program shown changed (a new label alone is told by the views' own signals).
    void changed();

private:
    QString m_label;
    QString m_path;
    QString m_format;
    std::optional<ProgramInfo> m_program;
    DeviceInfo m_device;
};

}  // namespace asyncscope

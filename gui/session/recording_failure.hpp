// What the window says of a program that ran under the recorder and left nothing to show (none of its processes
// initialised CUDA): how it ended (its exit status, the signal that ended it, or that the user stopped it), the last
// lines it printed, and what to do. A program whose CUDA calls failed (no driver, no device: its output says so) is
// told from one that never called CUDA, and from one that failed before it could.
#pragma once

#include "engine/record/program_recorder.hpp"

#include <QString>
#include <QStringList>

namespace asyncscope {

// The last `count` lines of the file at `path` that hold more than blanks, each cut to 160 characters; none where it
// cannot be read.
QStringList lastLinesOf(const QString& path, int count);

// The message for `outcome`, the program named `shownProgram` as the recorder names it, its output kept at
// `outputPath`.
QString nothingRecordedText(const RecordOutcome& outcome, const QString& shownProgram, const QString& outputPath);

}  // namespace asyncscope

// Every file the window writes goes through here: a QSaveFile, so that a write that fails (a full disk, a folder
// the user may not write to, an encoder that gives up) leaves an existing file as it was. Each returns an empty
// string on success, otherwise a sentence for the user saying what went wrong.
#pragma once

#include <QIODevice>
#include <QSize>
#include <QString>

#include <functional>
#include <ostream>

namespace asyncscope {

// Streams what `write` puts into the stream to `path` through a small buffer: the file is never held in memory.
QString saveStream(const QString& path, const std::function<void(std::ostream&)>& write);

// Hands the open file to `write` (a picture's encoder, an SVG generator), which returns an empty string or why it
// failed.
QString saveDevice(const QString& path, const std::function<QString(QIODevice&)>& write);

// Why a picture of `pixels` cannot be written to `path` (a size outside 16 to 16384 pixels, a suffix that names no
// format Qt writes), or an empty string. SVG is always known.
QString pictureProblem(const QString& path, QSize pixels);
// Why `path` names no picture format this build writes (by its suffix); empty where it does.
QString pictureFormatProblem(const QString& path);
bool isSvgPath(const QString& path);

}  // namespace asyncscope

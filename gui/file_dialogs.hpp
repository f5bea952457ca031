// The file dialogs of the window: where to save an export, which saved run to open or overlay. Each opens in the
// folder it is given, large enough to show names whole; the window remembers a folder only once a file there was
// written or read.
#pragma once

#include <QSize>
#include <QString>

class QWidget;

namespace asyncscope {

// Empty when the user cancels.
QString askSavePath(QWidget* parent, const QString& folder, const QString& title, const QString& name,
    const QString& filter);
QString askSavedRunPath(QWidget* parent, const QString& folder, const QString& title);
// Where and how large to save a picture, PNG or SVG by `format`: the path (suggested as `name`.`format` in `folder`),
// then the pixel size, starting from `size`, which takes the size chosen. Empty when the user cancels either.
QString askPicturePath(QWidget* parent, const QString& folder, const QString& title, const QString& name,
    const QString& format, QSize& size);

}  // namespace asyncscope

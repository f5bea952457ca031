// The file dialogs of the window: where to save an export, which saved run to open or overlay, which result files
// to merge. Each opens in the
// folder it is given, large enough to show names whole; the window remembers a folder only once a file there was
// written or read.
#pragma once

#include <QSize>
#include <QString>
#include <QStringList>

#include <array>
#include <functional>

class QPushButton;
class QWidget;

namespace asyncscope {

// Empty when the user cancels.
QString askSavePath(QWidget* parent, const QString& folder, const QString& title, const QString& name,
    const QString& filter);
QString askSavedRunPath(QWidget* parent, const QString& folder, const QString& title);
// Result files the CLI wrote (JSON), one or many.
QStringList askResultPaths(QWidget* parent, const QString& folder);
// Where and how large to save a picture, PNG or SVG by `format`: the path (suggested as `name`.`format` in `folder`),
// then the pixel size, starting from `size`, which takes the size chosen. Empty when the user cancels either.
QString askPicturePath(QWidget* parent, const QString& folder, const QString& title, const QString& name,
    const QString& format, QSize& size);
// A tab's "Export PNG…" and "Export SVG…" buttons, named `stem`Png and `stem`Svg, their tooltips saying they save
// `what`; a click calls `request` with "png" or "svg" (the window's file actions then ask where and how large).
std::array<QPushButton*, 2> makePictureButtons(
    const QString& stem, const QString& what, std::function<void(const QString& format)> request);

}  // namespace asyncscope

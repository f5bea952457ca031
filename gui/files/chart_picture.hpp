// Charts as pictures: PNG (or another raster format) or SVG by the file's suffix, rendered at a fixed pixel size
// that does not depend on the screen, written through save_file.
#pragma once

#include <QChart>
#include <QList>
#include <QSize>
#include <QString>

#include <functional>

namespace asyncscope {

// Renders charts that belong to no view or scene side by side (in two rows where there are more than three) into
// one picture of `pixels`. `laidOut`, when given, is called once the charts have their size in the picture, with the
// picture's pixels per unit of that size (charts are laid out at a screen's size and scaled up): lines decimated per
// pixel column are drawn again for it there.
// Returns an empty string on success, otherwise a sentence saying what went wrong.
QString saveChartsPicture(const QList<QChart*>& charts, const QString& title, const QString& path, QSize pixels,
    const std::function<void(double scale)>& laidOut = {});

}  // namespace asyncscope

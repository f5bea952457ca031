// The GPUs of a host side by side as a bar chart: H2D and D2H GB/s per GPU, each GPU's link nominal rate marked
// across its bars, slow GPUs named so on the axis. Built afresh for the tab and for pictures.
#pragma once

#include "engine/run/side_by_side.hpp"

#include <QChart>
#include <QSize>
#include <QString>

#include <memory>
#include <vector>

namespace asyncscope {

// Rows without a device (a host's error) are left out. `title` heads the chart; `dark` gives it the dark chart theme
// (on screen, with a dark palette; pictures are light, as every export is).
std::unique_ptr<QChart> buildAllGpusChart(const std::vector<SideBySideRow>& rows, const QString& title,
    bool dark = false);

// The chart as a picture (PNG, JPG or SVG by suffix) of `pixels`; empty, or why it could not be written.
QString exportAllGpusChart(const std::vector<SideBySideRow>& rows, const QString& title, const QString& path,
    QSize pixels);

// The rows as the CLI's CSV (writeSideBySideCsv); empty, or why the file could not be written.
QString exportSideBySideCsv(const std::vector<SideBySideRow>& rows, const QString& path);

}  // namespace asyncscope

// Asks for the pixel size of an exported picture.
#pragma once

#include <QSize>

#include <optional>

class QWidget;

namespace asyncscope {

// The size chosen, or empty when the user cancels.
std::optional<QSize> askPixelSize(QWidget* parent, QSize current);

}  // namespace asyncscope

// Help › About: the version, what the app shows, the CUDA runtime and driver.
#pragma once

#include "engine/model/device.hpp"

class QWidget;

namespace asyncscope {

void showAboutDialog(QWidget* parent, const Platform& platform);

}  // namespace asyncscope

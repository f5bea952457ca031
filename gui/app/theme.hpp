// The window's look: the desktop's own (system), or light or dark on Qt's Fusion style with a palette the app ships,
// so a dark look needs no style package of the desktop's. Charts, the timeline and every view follow the palette.
#pragma once

#include "gui/config/settings_store.hpp"

class QPalette;

namespace asyncscope {

// Fusion's palettes as the app ships them: every role of every colour group set, the disabled texts readable.
QPalette lightPalette();
QPalette darkPalette();

// Applies `theme` to the application: its style and palette. System gives back the style and palette the application
// started with (the desktop's, or what -style chose). Every widget gets a PaletteChange event when the palette changes.
void applyTheme(Theme theme);

}  // namespace asyncscope

// Spin boxes and combo boxes that take the mouse wheel only while they have the keyboard focus. Scrolling a panel of
// them moves the panel as the pointer passes over a control; a value changes by the wheel only once the user has
// clicked into its control or tabbed to it.
#pragma once

class QWidget;

namespace asyncscope {

// Every spin box and combo box inside `root`, now: no focus from the wheel, and a wheel turned over one without the
// focus goes on to what holds it (a scroll area scrolls). Call it after the controls are made.
void takeWheelOnlyWithFocus(QWidget* root);

}  // namespace asyncscope

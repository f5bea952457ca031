#include "gui/config/wheel_with_focus.hpp"

#include <QAbstractSpinBox>
#include <QComboBox>
#include <QEvent>
#include <QObject>
#include <QWidget>

namespace asyncscope {

namespace {

// A wheel turned over a control without the focus: left to the control's parents, as though it had not been there.
class WheelWithFocus final : public QObject {
public:
    using QObject::QObject;

protected:
    bool eventFilter(QObject* watched, QEvent* event) override
    {
        if (event->type() != QEvent::Wheel)
            return false;
        auto* control = qobject_cast<QWidget*>(watched);
        if (!control || control->hasFocus())
            return false;
        event->ignore();  // handled here, not accepted: the application offers it to the parents
        return true;
    }
};

void guard(QWidget* control, QObject* filter)
{
    control->setFocusPolicy(Qt::StrongFocus);  // not Qt::WheelFocus: turning the wheel over it gives no focus
    control->installEventFilter(filter);
}

}  // namespace

void takeWheelOnlyWithFocus(QWidget* root)
{
    auto* filter = new WheelWithFocus(root);
    for (QAbstractSpinBox* box : root->findChildren<QAbstractSpinBox*>())
        guard(box, filter);
    for (QComboBox* box : root->findChildren<QComboBox*>())
        guard(box, filter);
}

}  // namespace asyncscope

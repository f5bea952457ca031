#include "gui/app/problem_box.hpp"

#include <QMessageBox>

namespace asyncscope {

void showProblemBox(QWidget& window, const QString& text)
{
    if (!window.isVisible()) {
        QMetaObject::invokeMethod(&window, [&window, text] {  // dropped where the window goes first
            if (window.isVisible())
                showProblemBox(window, text);
        }, Qt::QueuedConnection);
        return;
    }
    auto* box = new QMessageBox(QMessageBox::Warning, QObject::tr("AsyncScope"), text, QMessageBox::Ok, &window);
    box->setAttribute(Qt::WA_DeleteOnClose);
    box->open();
}

}  // namespace asyncscope

#include "gui/app/app_exit.hpp"

#include <QCoreApplication>
#include <QWidget>

namespace asyncscope {

void AppExit::end(QWidget& window, int code)
{
    if (!m_code)
        m_code = code;
    window.close();
    QCoreApplication::exit(*m_code);
}

int AppExit::exec()
{
    if (m_code)
        return *m_code;  // decided before the loop ran: it would wait for a window that is already closed
    const int loop = QCoreApplication::exec();
    return m_code.value_or(loop);
}

}  // namespace asyncscope

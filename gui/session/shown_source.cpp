#include "gui/session/shown_source.hpp"

namespace asyncscope {

ShownSource::ShownSource(QObject* parent)
    : QObject(parent)
{
}

void ShownSource::showFile(const SavedRun& saved)
{
    m_path = saved.path;
    m_format = saved.format;
    m_program = saved.report.program;
    m_device = m_program ? saved.report.device : DeviceInfo {};
    emit changed();
}

void ShownSource::clear()
{
    const bool had = !m_path.isEmpty() || m_program;
    m_label.clear();
    m_path.clear();
    m_format.clear();
    m_program.reset();
    m_device = {};
    if (had)
        emit changed();
}

}  // namespace asyncscope

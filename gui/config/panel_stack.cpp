#include "gui/config/panel_stack.hpp"

#include "gui/config/config_panel.hpp"
#include "gui/config/program_panel.hpp"
#include "gui/session/shown_source.hpp"

namespace asyncscope {

PanelStack::PanelStack(ConfigPanel* pipeline, const ShownSource& source, QWidget* parent)
    : QStackedWidget(parent)
    , m_pipeline(pipeline)
    , m_program(new ProgramPanel)
{
    addWidget(m_pipeline);
    addWidget(m_program);
    connect(&source, &ShownSource::changed, this, [this, &source] { follow(source); });
    connect(m_program, &ProgramPanel::pipelineRequested, this, [this] { setCurrentWidget(m_pipeline); });
    follow(source);
}

bool PanelStack::showsProgram() const
{
    return currentWidget() == m_program;
}

void PanelStack::follow(const ShownSource& source)
{
    if (source.program()) {
        m_program->showProgram(source);
        setCurrentWidget(m_program);
    } else {
        setCurrentWidget(m_pipeline);
    }
}

}  // namespace asyncscope

// The window's left panel: the pipeline's settings (ConfigPanel), or, while a recorded program's report is shown, the
// program (ProgramPanel), following the session's ShownSource. A series of the pipeline shown again, or a run
// started, brings the pipeline's panel back; so does the program panel's "Pipeline settings".
#pragma once

#include <QStackedWidget>

namespace asyncscope {

class ConfigPanel;
class ProgramPanel;
class ShownSource;

class PanelStack : public QStackedWidget {
    Q_OBJECT
public:
    // Holds `pipeline` (made by the caller, who keeps using it) and a program panel of its own.
    PanelStack(ConfigPanel* pipeline, const ShownSource& source, QWidget* parent = nullptr);

    ProgramPanel* program() const { return m_program; }
    bool showsProgram() const;

private:
    void follow(const ShownSource& source);

    ConfigPanel* m_pipeline;
    ProgramPanel* m_program;
};

}  // namespace asyncscope

// The pipeline panel's controls, in the form that scrolls where the window is short: the GPU and a banner under it
// that says why none can run, the size, the value added, the
// workload's shape, the runs and warm-up runs, the memory lab's choices, the wait, the check, the stages, the
// timeline's source and the stop rule with its noise target. What each is (its label, range and tooltip), what it
// reads into a configuration, and which apply to the other choices; what they mean together is the panel's.
#pragma once

#include "gui/config/control_problems.hpp"
#include "gui/config/memory_choices.hpp"

#include <QWidget>

#include <functional>

class QCheckBox;
class QComboBox;
class QDoubleSpinBox;
class QLabel;
class QLineEdit;
class QSpinBox;

namespace asyncscope {

class WorkloadShapeBox;

class PipelineForm : public QWidget {
    Q_OBJECT
public:
    explicit PipelineForm(QWidget* parent = nullptr);

    // The choices into `config`: all but the GPU, the size and the shape's K and S (the panel's, as last valid).
    void readInto(PipelineConfig& config) const;
    // Enables the controls that can be edited (`editable`) and apply to the choices made; the GPU's where a GPU is
    // known (`devices`). Those that do not apply say why in their tooltips.
    void setEditable(bool editable, bool devices);
    // The banner's and the refusal's colours, for a dark palette or a light one.
    void showColours(bool dark);

    QComboBox* device = nullptr;
    QLabel* deviceMessage = nullptr;  // why no GPU can run, where none can
    QLineEdit* size = nullptr;
    QSpinBox* value = nullptr;
    WorkloadShapeBox* shape = nullptr;
    QSpinBox* runs = nullptr;
    QSpinBox* warmup = nullptr;
    MemoryChoices memory;
    QComboBox* wait = nullptr;
    QComboBox* check = nullptr;
    QCheckBox* stages = nullptr;
    QComboBox* traceSource = nullptr;
    QComboBox* stopRule = nullptr;
    QDoubleSpinBox* noiseTarget = nullptr;
    // Why input was refused, under the control it concerns: a number field's keystroke (its own), the size, the
    // shape's K and S, and a combination of host memory and copies (the panel's).
    ControlProblems problems;
};

}  // namespace asyncscope

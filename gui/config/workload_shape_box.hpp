// The pipeline panel's "Workload shape" group: how the buffer is cut and handed to the GPU. The chunks (K), the
// streams they take in turn (S), the order the calls are issued in, the submission (stream calls, a CUDA graph or
// batched copies) and batch submission's overlap flag, which applies only to it. One chunk on one stream, submitted
// as stream calls, is asyncAPI's classic pipeline.
#pragma once

#include "gui/config/panel_fields.hpp"

#include "engine/model/config.hpp"

#include <QGroupBox>

#include <functional>

class QCheckBox;
class QComboBox;
class QSpinBox;

namespace asyncscope {

class WorkloadShapeBox : public QGroupBox {
    Q_OBJECT
public:
    // `refuse` says why a keystroke in K or S was refused, and when their text is a value again.
    explicit WorkloadShapeBox(const RefuseInput& refuse, QWidget* parent = nullptr);

    // The order, the submission and the overlap flag into `config` (K and S are the panel's: as last typed validly).
    void readInto(PipelineConfig& config) const;
    Submission submission() const;
    // Enables the overlap flag where batch submission is chosen and the panel can be edited, and says why not
    // where it is not chosen.
    void showApplicable(bool editable);

    QSpinBox* chunks = nullptr;
    QSpinBox* streams = nullptr;
    QComboBox* order = nullptr;
    QComboBox* submissionBox = nullptr;
    QCheckBox* preferOverlap = nullptr;
};

}  // namespace asyncscope

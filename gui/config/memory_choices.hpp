// The memory lab's choices in the pipeline panel: the host memory (each kind's item saying what it is for), what
// copies it, and managed memory's migration and advice. Only those that apply to the memory chosen are enabled: the
// copies for memory that is copied, the managed options for managed memory; the others say why not in their tooltips.
#pragma once

#include "engine/model/config.hpp"

class QComboBox;
class QFormLayout;

namespace asyncscope {

class MemoryChoices {
public:
    // Makes the choices and adds their rows to `form`.
    void addRows(QFormLayout* form);

    // `config`'s memory, copies and managed choices, in that order.
    void show(const PipelineConfig& config);
    // The choices into `config`: copies only where the memory chosen is copied; the managed choices whatever it is
    // (a comparison's variants of managed memory take them from here).
    void readInto(PipelineConfig& config) const;
    HostMemory memory() const;
    CopyMechanism copyChosen() const;  // as chosen, even while the memory chosen is not copied
    // Enables the choices that apply to the memory chosen, where the panel can be edited, and says why the others
    // do not apply.
    void showApplicable(bool editable);

    QComboBox* hostMemory = nullptr;
    QComboBox* copy = nullptr;
    QComboBox* managedMigration = nullptr;
    QComboBox* managedAdvice = nullptr;
};

}  // namespace asyncscope

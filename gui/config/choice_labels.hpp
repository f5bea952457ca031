// What the window calls each choice of the pipeline's configuration, and combo boxes filled from the engine's name
// tables (engine/model/names.hpp): every value of an enum appears, in the table's order, with its label here and the
// name the CLI, the settings and the files use as the item's tooltip. A value added to an enum without a label here
// is a compiler warning (-Wswitch), not a choice missing from the window.
#pragma once

#include "gui/config/panel_fields.hpp"

#include "engine/model/config.hpp"
#include "engine/model/names.hpp"

#include <QComboBox>
#include <QString>

namespace asyncscope {

QString choiceLabel(HostMemory value);
QString choiceLabel(CopyMechanism value);
QString choiceLabel(ManagedMigration value);
QString choiceLabel(ManagedAdvice value);
QString choiceLabel(WaitMode value);
QString choiceLabel(CheckMode value);
QString choiceLabel(IssueOrder value);
QString choiceLabel(Submission value);
QString choiceLabel(TraceSource value);
QString choiceLabel(StopRule value);

// The window's controls that set what the CLI options in `text` set, with their values: the pipeline panel's
// ("Chunks (K) 16; Streams (S) 4", "Submission: CUDA Graph"), the Compare menu's ("Compare › Overlap: chunks ×
// streams"), and for a recorded `program` the Record dialog's instead of the panel's ("Record dialog › Stop after");
// empty where `text` names none.
QString windowControlsOf(const QString& text, bool program = false);

// What a kind of host memory is for and what it costs, in a sentence or two: its item's tooltip.
QString choicePurpose(HostMemory value);

// A combo box holding every value of Enum (its int as the item's data), named `objectName`.
template <class Enum>
QComboBox* choiceBox(const char* objectName)
{
    auto* box = new WordComboBox;
    box->setObjectName(QString::fromLatin1(objectName));
    for (const auto& [value, name] : EnumNames<Enum>::entries) {
        box->addItem(choiceLabel(value), int(value));
        box->setItemData(box->count() - 1, QString::fromLatin1(name), Qt::ToolTipRole);
    }
    return box;
}

}  // namespace asyncscope

#include "gui/pixel_size_dialog.hpp"

#include <QDialog>
#include <QDialogButtonBox>
#include <QFormLayout>
#include <QSpinBox>

namespace asyncscope {

std::optional<QSize> askPixelSize(QWidget* parent, QSize current)
{
    QDialog dialog(parent);
    dialog.setWindowTitle(QObject::tr("Picture size"));
    auto* width = new QSpinBox;
    auto* height = new QSpinBox;
    for (QSpinBox* box : { width, height }) {
        box->setRange(16, 16384);
        box->setSuffix(QObject::tr(" px"));
    }
    width->setValue(current.width());
    height->setValue(current.height());
    auto* buttons = new QDialogButtonBox(QDialogButtonBox::Ok | QDialogButtonBox::Cancel);
    QObject::connect(buttons, &QDialogButtonBox::accepted, &dialog, &QDialog::accept);
    QObject::connect(buttons, &QDialogButtonBox::rejected, &dialog, &QDialog::reject);
    auto* form = new QFormLayout(&dialog);
    form->addRow(QObject::tr("Width:"), width);
    form->addRow(QObject::tr("Height:"), height);
    form->addRow(buttons);
    if (dialog.exec() != QDialog::Accepted)
        return std::nullopt;
    return QSize(width->value(), height->value());
}

}  // namespace asyncscope

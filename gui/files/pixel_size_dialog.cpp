#include "gui/files/pixel_size_dialog.hpp"

#include <QDialog>
#include <QDialogButtonBox>
#include <QFormLayout>
#include <QLabel>
#include <QLineEdit>

namespace asyncscope {

namespace {

constexpr int kLeast = 16;
constexpr int kMost = 16384;

}  // namespace

std::optional<QSize> askPixelSize(QWidget* parent, QSize current)
{
    QDialog dialog(parent);
    dialog.setWindowTitle(QObject::tr("Picture size"));
    auto* width = new QLineEdit(QString::number(current.width()));
    auto* height = new QLineEdit(QString::number(current.height()));
    width->setObjectName("width");
    height->setObjectName("height");
    auto* problem = new QLabel;
    problem->setObjectName("problem");
    problem->setWordWrap(true);
    auto* buttons = new QDialogButtonBox(QDialogButtonBox::Ok | QDialogButtonBox::Cancel);
    QObject::connect(buttons, &QDialogButtonBox::rejected, &dialog, &QDialog::reject);
    QSize chosen;
    // A size out of range stays as typed, with the reason, until it is corrected or the dialog is cancelled.
    QObject::connect(buttons, &QDialogButtonBox::accepted, &dialog, [&] {
        int values[2] = {};
        QLineEdit* edits[2] = { width, height };
        for (int i = 0; i < 2; ++i) {
            bool ok = false;
            values[i] = edits[i]->text().trimmed().toInt(&ok);
            if (!ok || values[i] < kLeast || values[i] > kMost) {
                problem->setText(QObject::tr("The %1 must be a whole number of pixels from %2 to %3, not '%4'.")
                                     .arg(i == 0 ? QObject::tr("width") : QObject::tr("height"))
                                     .arg(kLeast)
                                     .arg(kMost)
                                     .arg(edits[i]->text()));
                edits[i]->setFocus();
                return;
            }
        }
        chosen = QSize(values[0], values[1]);
        dialog.accept();
    });
    auto* form = new QFormLayout(&dialog);
    form->addRow(QObject::tr("&Width (px):"), width);
    form->addRow(QObject::tr("&Height (px):"), height);
    form->addRow(problem);
    form->addRow(buttons);
    if (dialog.exec() != QDialog::Accepted)
        return std::nullopt;
    return chosen;
}

}  // namespace asyncscope

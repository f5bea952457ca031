#include "gui/files/pixel_size_dialog.hpp"

#include <QDialog>
#include <QDialogButtonBox>
#include <QFormLayout>
#include <QLabel>
#include <QLineEdit>
#include <QPushButton>

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
    problem->setMinimumWidth(problem->fontMetrics().averageCharWidth() * 40);  // room to wrap into, not a sliver
    auto* buttons = new QDialogButtonBox(QDialogButtonBox::Ok | QDialogButtonBox::Cancel);
    QObject::connect(buttons, &QDialogButtonBox::rejected, &dialog, &QDialog::reject);
    QSize chosen;
    // Each value is checked as it is typed: one out of range stays as typed, with the reason in full below it and OK
    // off, until it is corrected or the dialog is cancelled.
    const auto check = [&]() -> bool {
        int values[2] = {};
        QLineEdit* edits[2] = { width, height };
        QString why;
        for (int i = 0; i < 2 && why.isEmpty(); ++i) {
            bool ok = false;
            values[i] = edits[i]->text().trimmed().toInt(&ok);
            if (!ok || values[i] < kLeast || values[i] > kMost)
                why = QObject::tr("The %1 must be a whole number of pixels from %2 to %3, not '%4'.")
                          .arg(i == 0 ? QObject::tr("width") : QObject::tr("height"))
                          .arg(kLeast)
                          .arg(kMost)
                          .arg(edits[i]->text());
        }
        problem->setText(why);
        problem->setVisible(!why.isEmpty());
        buttons->button(QDialogButtonBox::Ok)->setEnabled(why.isEmpty());
        dialog.adjustSize();  // the whole reason shows: the dialog grows to hold it
        if (why.isEmpty())
            chosen = QSize(values[0], values[1]);
        return why.isEmpty();
    };
    QObject::connect(width, &QLineEdit::textChanged, &dialog, check);
    QObject::connect(height, &QLineEdit::textChanged, &dialog, check);
    QObject::connect(buttons, &QDialogButtonBox::accepted, &dialog, [&] {
        if (check())
            dialog.accept();
    });
    auto* form = new QFormLayout(&dialog);
    form->addRow(QObject::tr("&Width (px):"), width);
    form->addRow(QObject::tr("&Height (px):"), height);
    form->addRow(problem);
    form->addRow(buttons);
    check();
    if (dialog.exec() != QDialog::Accepted)
        return std::nullopt;
    return chosen;
}

}  // namespace asyncscope

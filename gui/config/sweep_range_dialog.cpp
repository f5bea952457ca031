#include "gui/config/sweep_range_dialog.hpp"

#include "engine/model/size_parse.hpp"

#include <QDialog>
#include <QDialogButtonBox>
#include <QFormLayout>
#include <QLabel>
#include <QLineEdit>

namespace asyncscope {

std::optional<std::pair<std::size_t, std::size_t>> askSweepRange(QWidget* parent)
{
    QDialog dialog(parent);
    dialog.setWindowTitle(QObject::tr("Size sweep"));
    auto* from = new QLineEdit(QStringLiteral("4KiB"));  // kSweepMinBytes and kSweepMaxBytes, as typed
    auto* to = new QLineEdit(QStringLiteral("1GiB"));
    auto* problem = new QLabel;
    problem->setWordWrap(true);
    auto* buttons = new QDialogButtonBox(QDialogButtonBox::Ok | QDialogButtonBox::Cancel);
    auto* form = new QFormLayout(&dialog);
    form->addRow(new QLabel(QObject::tr("Powers of two from the smallest size to the largest (bytes with a unit, "
                                        "or elements).")));
    form->addRow(QObject::tr("Smallest:"), from);
    form->addRow(QObject::tr("Largest:"), to);
    form->addRow(problem);
    form->addRow(buttons);
    std::pair<std::size_t, std::size_t> range;
    QObject::connect(buttons, &QDialogButtonBox::rejected, &dialog, &QDialog::reject);
    QObject::connect(buttons, &QDialogButtonBox::accepted, &dialog, [&] {
        auto low = parseElementCount(from->text().toStdString());
        auto high = parseElementCount(to->text().toStdString());
        if (!low || !high) {
            problem->setText(QString::fromStdString((!low ? low.error() : high.error()).message()));
            return;
        }
        range = { *low * sizeof(int), *high * sizeof(int) };
        dialog.accept();
    });
    if (dialog.exec() != QDialog::Accepted)
        return std::nullopt;
    return range;
}

}  // namespace asyncscope

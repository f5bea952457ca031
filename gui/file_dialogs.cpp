#include "gui/file_dialogs.hpp"

#include "gui/pixel_size_dialog.hpp"

#include <QFileDialog>
#include <QFileInfo>

namespace asyncscope {

namespace {

QString run(QFileDialog& dialog)
{
    const QFontMetrics metrics(dialog.font());
    dialog.resize(metrics.averageCharWidth() * 110, metrics.lineSpacing() * 30);
    if (dialog.exec() != QDialog::Accepted || dialog.selectedFiles().isEmpty())
        return {};
    return dialog.selectedFiles().first();
}

}  // namespace

QString askSavePath(QWidget* parent, const QString& folder, const QString& title, const QString& name,
    const QString& filter)
{
    QFileDialog dialog(parent, title, folder + '/' + name, filter);
    dialog.setAcceptMode(QFileDialog::AcceptSave);
    dialog.setFileMode(QFileDialog::AnyFile);
    dialog.setDefaultSuffix(QFileInfo(name).suffix());
    return run(dialog);
}

QString askSavedRunPath(QWidget* parent, const QString& folder, const QString& title)
{
    QFileDialog dialog(parent, title, folder,
        QObject::tr("Saved runs (*.json *.csv);;JSON files (*.json);;CSV files (*.csv)"));
    dialog.setAcceptMode(QFileDialog::AcceptOpen);
    dialog.setFileMode(QFileDialog::ExistingFile);
    return run(dialog);
}

QString askPicturePath(QWidget* parent, const QString& folder, const QString& title, const QString& name,
    const QString& format, QSize& size)
{
    const QString path = askSavePath(parent, folder, title, name + "." + format,
        format == "svg" ? QObject::tr("SVG pictures (*.svg)") : QObject::tr("PNG pictures (*.png)"));
    if (path.isEmpty())
        return {};
    const auto chosen = askPixelSize(parent, size);
    if (!chosen)
        return {};
    size = *chosen;
    return path;
}

}  // namespace asyncscope

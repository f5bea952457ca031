#include "gui/file_dialogs.hpp"

#include <QFileDialog>
#include <QFileInfo>

namespace asyncscope {

namespace {

QString remembered(GuiSettings& settings, const QString& path)
{
    if (!path.isEmpty())
        settings.lastFolder = QFileInfo(path).absolutePath();
    return path;
}

}  // namespace

QString askSavePath(QWidget* parent, GuiSettings& settings, const QString& title, const QString& name,
    const QString& filter)
{
    return remembered(settings, QFileDialog::getSaveFileName(parent, title, settings.lastFolder + '/' + name, filter));
}

QString askOverlayPath(QWidget* parent, GuiSettings& settings)
{
    return remembered(settings,
        QFileDialog::getOpenFileName(parent, QObject::tr("Overlay saved run"), settings.lastFolder,
            QObject::tr("Saved runs (*.json *.csv);;JSON files (*.json);;CSV files (*.csv)")));
}

}  // namespace asyncscope

#include "gui/files/file_dialogs.hpp"

#include "gui/files/pixel_size_dialog.hpp"
#include "gui/files/save_file.hpp"

#include <QFileDialog>
#include <QFileInfo>
#include <QHeaderView>
#include <QMessageBox>
#include <QPushButton>
#include <QScreen>
#include <QTimer>
#include <QTreeView>

#include <iterator>

namespace asyncscope {

namespace {

QString run(QFileDialog& dialog)
{
    // Wide enough for whole names and every column of the detail view (size, type, date), within the screen.
    const QFontMetrics metrics(dialog.font());
    QSize size(metrics.averageCharWidth() * 150, metrics.lineSpacing() * 30);
    if (const QScreen* screen = dialog.screen())
        size = size.boundedTo(screen->availableSize() * 9 / 10);
    dialog.resize(size);
    // Qt's own dialog (where the desktop offers none) sizes its columns for short texts ("97....KiB", "3 Dec ...:26");
    // its widgets are made as it shows.
    QTimer::singleShot(0, &dialog, [&dialog, metrics] {
        const auto* view = dialog.findChild<QTreeView*>();
        if (!view)
            return;
        QHeaderView* header = view->header();
        header->setStretchLastSection(false);
        header->setSectionResizeMode(0, QHeaderView::Stretch);
        const int widths[] = { 0, 12, 20, 24 };  // characters: size, type, date modified
        for (int column = 1; column < header->count() && column < int(std::size(widths)); ++column)
            header->resizeSection(column, metrics.averageCharWidth() * widths[column]);
    });
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

QStringList askResultPaths(QWidget* parent, const QString& folder)
{
    QFileDialog dialog(parent, QObject::tr("Open results"), folder,
        QObject::tr("Result files (*.json);;All files (*)"));
    dialog.setAcceptMode(QFileDialog::AcceptOpen);
    dialog.setFileMode(QFileDialog::ExistingFiles);
    return run(dialog).isEmpty() ? QStringList() : dialog.selectedFiles();
}

QString askPicturePath(QWidget* parent, const QString& folder, const QString& title, const QString& name,
    const QString& format, QSize& size)
{
    const QString path = askSavePath(parent, folder, title, name + "." + format,
        format == "svg" ? QObject::tr("SVG pictures (*.svg)") : QObject::tr("PNG pictures (*.png)"));
    if (path.isEmpty())
        return {};
    // A name no picture can have is said at once, not after its size was asked for.
    if (const QString problem = pictureFormatProblem(path); !problem.isEmpty()) {
        QMessageBox::warning(parent, title, problem);
        return {};
    }
    const auto chosen = askPixelSize(parent, size);
    if (!chosen)
        return {};
    size = *chosen;
    return path;
}

std::array<QPushButton*, 2> makePictureButtons(
    const QString& stem, const QString& what, std::function<void(const QString& format)> request)
{
    std::array<QPushButton*, 2> buttons { new QPushButton(QObject::tr("Export PN&G…")),
        new QPushButton(QObject::tr("Export S&VG…")) };
    const std::array<QString, 2> formats { QStringLiteral("png"), QStringLiteral("svg") };
    for (std::size_t i = 0; i < buttons.size(); ++i) {
        QPushButton* button = buttons[i];
        const QString format = formats[i];
        button->setObjectName(stem + (i == 0 ? QStringLiteral("Png") : QStringLiteral("Svg")));
        button->setToolTip(QObject::tr("Save %1 as a %2 picture of the size you choose.").arg(what, format.toUpper()));
        button->setAutoDefault(false);
        QObject::connect(button, &QPushButton::clicked, button, [request, format] { request(format); });
    }
    return buttons;
}

}  // namespace asyncscope

#include "gui/files/chart_picture.hpp"

#include "gui/files/save_file.hpp"

#include <QFileInfo>
#include <QGraphicsLayout>
#include <QGraphicsScene>
#include <QImage>
#include <QPainter>
#include <QSvgGenerator>

namespace asyncscope {

QString saveChartsPicture(const QList<QChart*>& charts, const QString& title, const QString& path, QSize pixels,
    const std::function<void(double scale)>& laidOut)
{
    if (QString problem = pictureProblem(path, pixels); !problem.isEmpty())
        return problem;

    // Charts are laid out at a size a screen would show them and scaled up to large pictures, so their text grows
    // with the picture instead of shrinking to a few pixels of a poster.
    const double scale = std::max(1.0, std::min(pixels.width() / 1280.0, pixels.height() / 720.0));
    QGraphicsScene scene;
    const QRectF area(QPointF(0, 0), QSizeF(pixels) / scale);
    const QRectF target(QPointF(0, 0), QSizeF(pixels));
    // One row, or two where more than three charts would each be too narrow to read.
    const qsizetype rows = charts.size() > 3 ? 2 : 1;
    const qsizetype columns = std::max<qsizetype>(1, (charts.size() + rows - 1) / rows);
    const double width = area.width() / columns;
    const double height = area.height() / rows;
    for (qsizetype i = 0; i < charts.size(); ++i) {
        scene.addItem(charts[i]);
        charts[i]->setGeometry(QRectF(double(i % columns) * width, double(i / columns) * height, width, height));
    }
    scene.setSceneRect(area);
    if (laidOut) {
        laidOut(scale);
        // Axes whose ticks changed ask for a new layout on the event loop's next turn, which a picture rendered now
        // would not see; so do legends whose entries came or went (a look that changed with the picture's width): the legend is
        // laid out first, then the chart around its new size.
        for (QChart* chart : charts) {
            if (QGraphicsLayout* legend = chart->legend()->layout())
                legend->activate();
            if (QGraphicsLayout* layout = chart->layout())
                layout->activate();
        }
    }

    const QString saved = saveDevice(path, [&](QIODevice& file) -> QString {
        if (isSvgPath(path)) {
            QSvgGenerator generator;
            generator.setOutputDevice(&file);
            generator.setSize(pixels);
            generator.setViewBox(target);
            generator.setTitle(title);
            generator.setDescription(QStringLiteral("AsyncScope chart"));
            QPainter painter(&generator);
            painter.setRenderHint(QPainter::Antialiasing);
            scene.render(&painter, target, area);
            return {};
        }
        QImage image(pixels, QImage::Format_ARGB32_Premultiplied);
        image.fill(Qt::white);
        {
            QPainter painter(&image);
            painter.setRenderHint(QPainter::Antialiasing);
            scene.render(&painter, target, area);
        }
        const QString suffix = QFileInfo(path).suffix().toLower();
        if (!image.save(&file, suffix.toLatin1().constData()))
            return QObject::tr("Encoding the picture as %1 failed.").arg(suffix.toUpper());
        return {};
    });
    for (QChart* chart : charts)
        scene.removeItem(chart);  // the caller keeps ownership
    return saved;
}

}  // namespace asyncscope

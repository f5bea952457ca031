#include "gui/chart_exporter.hpp"

#include "gui/comparison_view.hpp"

#include "engine/io/csv_report.hpp"
#include "engine/io/json_report.hpp"

#include <QDir>
#include <QFileInfo>
#include <QGraphicsLayout>
#include <QGraphicsScene>
#include <QImage>
#include <QImageWriter>
#include <QPainter>
#include <QSaveFile>
#include <QSvgGenerator>

#include <sstream>

namespace asyncscope {

namespace {

QString openFailure(const QSaveFile& file)
{
    return QObject::tr("Cannot write %1: %2. Choose a folder you may write to.")
        .arg(QDir::toNativeSeparators(file.fileName()), file.errorString());
}

QString commit(QSaveFile& file)
{
    if (!file.commit())
        return QObject::tr("Writing %1 failed: %2.").arg(QDir::toNativeSeparators(file.fileName()), file.errorString());
    return {};
}

QString writeText(const QString& path, const std::string& text)
{
    QSaveFile file(path);
    if (!file.open(QIODevice::WriteOnly))
        return openFailure(file);
    if (file.write(text.data(), static_cast<qint64>(text.size())) != static_cast<qint64>(text.size())) {
        file.cancelWriting();
        return QObject::tr("Writing %1 failed: %2.").arg(QDir::toNativeSeparators(path), file.errorString());
    }
    return commit(file);
}

}  // namespace

QString saveChartsPicture(const QList<QChart*>& charts, const QString& title, const QString& path, QSize pixels,
    const std::function<void(double scale)>& laidOut)
{
    if (pixels.width() < 16 || pixels.height() < 16 || pixels.width() > 16384 || pixels.height() > 16384)
        return QObject::tr("The picture size %1 x %2 is outside 16 to 16384 pixels.")
            .arg(pixels.width())
            .arg(pixels.height());
    const QString suffix = QFileInfo(path).suffix().toLower();
    const bool svg = suffix == QLatin1String("svg");
    if (!svg && !QImageWriter::supportedImageFormats().contains(suffix.toLatin1()))
        return QObject::tr("Unknown picture format '%1': use .png, .jpg or .svg.").arg(suffix);

    // Charts are laid out at a size a screen would show them and scaled up to large pictures, so their text grows
    // with the picture instead of shrinking to a few pixels of a poster.
    const double scale = std::max(1.0, std::min(pixels.width() / 1280.0, pixels.height() / 720.0));
    QGraphicsScene scene;
    const QRectF area(QPointF(0, 0), QSizeF(pixels) / scale);
    const QRectF target(QPointF(0, 0), QSizeF(pixels));
    const double width = area.width() / std::max<qsizetype>(1, charts.size());
    for (qsizetype i = 0; i < charts.size(); ++i) {
        scene.addItem(charts[i]);
        charts[i]->setGeometry(QRectF(i * width, 0, width, area.height()));
    }
    scene.setSceneRect(area);
    if (laidOut) {
        laidOut(scale);
        // Axes whose ticks changed ask for a new layout on the event loop's next turn, which a picture rendered now
        // would not see.
        for (QChart* chart : charts) {
            if (QGraphicsLayout* layout = chart->layout())
                layout->activate();
        }
    }

    QSaveFile file(path);
    bool written = file.open(QIODevice::WriteOnly);
    if (written && svg) {
        QSvgGenerator generator;
        generator.setOutputDevice(&file);
        generator.setSize(pixels);
        generator.setViewBox(target);
        generator.setTitle(title);
        generator.setDescription(QStringLiteral("AsyncScope chart"));
        QPainter painter(&generator);
        painter.setRenderHint(QPainter::Antialiasing);
        scene.render(&painter, target, area);
    } else if (written) {
        QImage image(pixels, QImage::Format_ARGB32_Premultiplied);
        image.fill(Qt::white);
        {
            QPainter painter(&image);
            painter.setRenderHint(QPainter::Antialiasing);
            scene.render(&painter, target, area);
        }
        written = image.save(&file, suffix.toLatin1().constData());
        if (!written) {
            file.cancelWriting();
            return QObject::tr("Encoding the picture as %1 failed.").arg(suffix.toUpper());
        }
    }
    for (QChart* chart : charts)
        scene.removeItem(chart);  // the caller keeps ownership
    if (!file.isOpen())
        return openFailure(file);
    return commit(file);
}

QString exportChart(const Report& report, const QString& source, const std::vector<SavedRun>& overlays,
    RunCharts::Kind kind, const QString& path, QSize pixels)
{
    RunCharts charts;
    charts.setOverlays(overlays);
    charts.setRuns(report, source);
    // Decimated from every run for the picture's own width.
    return saveChartsPicture({ charts.chart(kind) }, RunCharts::title(kind), path, pixels,
        [&charts](double scale) { charts.setPixelScale(scale); });
}

QString exportComparisonChart(const PlanReport& comparison, const QString& path, QSize pixels)
{
    std::vector<std::unique_ptr<QChart>> owned;
    QList<QChart*> charts;
    for (int i = 0; i < comparisonChartCount(comparison); ++i) {
        owned.push_back(buildComparisonChart(comparison, i));
        charts.append(owned.back().get());
    }
    return saveChartsPicture(charts, charts.first()->title(), path, pixels);
}

namespace {

// CSV or JSON by the file's suffix, written with the engine's writers.
template <class Data>
QString exportBySuffix(const QString& path, const Data& data, void (*csv)(std::ostream&, const Data&),
    void (*json)(std::ostream&, const Data&))
{
    const QString suffix = QFileInfo(path).suffix().toLower();
    std::ostringstream out;
    if (suffix == QLatin1String("csv"))
        csv(out, data);
    else if (suffix == QLatin1String("json"))
        json(out, data);
    else
        return QObject::tr("Unknown data format '%1': use .csv or .json.").arg(suffix);
    return writeText(path, out.str());
}

}  // namespace

QString exportData(const Report& report, const QString& path)
{
    return exportBySuffix(path, report, &writeCsv, &writeJson);
}

QString exportComparisonData(const PlanReport& comparison, const QString& path)
{
    return exportBySuffix(path, comparison, &writeComparisonCsv, &writeComparisonJson);
}

}  // namespace asyncscope

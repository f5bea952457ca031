#include "gui/files/data_export.hpp"

#include "gui/files/save_file.hpp"

#include "engine/io/csv/csv_report.hpp"
#include "engine/io/json/json_report.hpp"

#include <QFileInfo>
#include <QObject>

namespace asyncscope {

namespace {

// CSV or JSON by the file's suffix, written with the engine's writers.
template <class Data>
QString exportBySuffix(const QString& path, const Data& data, void (*csv)(std::ostream&, const Data&),
    void (*json)(std::ostream&, const Data&))
{
    const QString suffix = QFileInfo(path).suffix().toLower();
    if (suffix == QLatin1String("csv"))
        return saveStream(path, [&](std::ostream& out) { csv(out, data); });
    if (suffix == QLatin1String("json"))
        return saveStream(path, [&](std::ostream& out) { json(out, data); });
    return QObject::tr("Unknown data format '%1': use .csv or .json.").arg(suffix);
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

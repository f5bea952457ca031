#include "gui/files/data_export.hpp"

#include "gui/files/save_file.hpp"

#include "engine/io/csv/csv_report.hpp"
#include "engine/io/json/json_report.hpp"

#include <QFileInfo>
#include <QObject>

namespace asyncscope {

namespace {

// CSV or JSON by the file's suffix, written with the engine's writers.
template <class Csv, class Json>
QString exportBySuffix(const QString& path, const Csv& csv, const Json& json)
{
    const QString suffix = QFileInfo(path).suffix().toLower();
    if (suffix == QLatin1String("csv"))
        return saveStream(path, csv);
    if (suffix == QLatin1String("json"))
        return saveStream(path, json);
    return QObject::tr("Unknown data format '%1': use .csv or .json.").arg(suffix);
}

}  // namespace

QString exportData(const Report& report, const Assessment& assessed, const QString& path)
{
    return exportBySuffix(path, [&](std::ostream& out) { writeCsv(out, report); },
        [&](std::ostream& out) { writeJson(out, report, assessed); });
}

QString exportComparisonData(const PlanReport& comparison, const std::vector<Assessment>& assessed, const QString& path)
{
    return exportBySuffix(path, [&](std::ostream& out) { writeComparisonCsv(out, comparison, assessed); },
        [&](std::ostream& out) { writeComparisonJson(out, comparison, assessed); });
}

}  // namespace asyncscope

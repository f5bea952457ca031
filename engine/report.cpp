#include "engine/report.hpp"

namespace asyncscope {

std::optional<ReportFormat> parseReportFormat(const std::string& text)
{
    if (text == "text")
        return ReportFormat::Text;
    if (text == "csv")
        return ReportFormat::Csv;
    if (text == "json")
        return ReportFormat::Json;
    return std::nullopt;
}

}  // namespace asyncscope

#include "gui/charts/spread_line.hpp"

namespace asyncscope {

void SpreadLine::setColumns(std::vector<ColumnSpread> columns, bool banded)
{
    m_columns = std::move(columns);
    m_banded = banded && !m_columns.empty();
}

QString SpreadLine::describe(std::size_t i, const QString& unit) const
{
    if (i >= m_columns.size())
        return {};
    const ColumnSpread& c = m_columns[i];
    const QString suffix = unit.isEmpty() ? QString() : QStringLiteral(" ") + unit;
    auto value = [](double v) { return QString::number(v, 'g', 5); };
    if (c.count == 1)
        return tr("run %1: %2").arg(c.firstX, 0, 'f', 0).arg(value(c.median) + suffix);
    if (!m_banded)  // an overlay's medians: its spread is not drawn, nor computed
        return tr("runs %1–%2: median %3").arg(c.firstX, 0, 'f', 0).arg(c.lastX, 0, 'f', 0).arg(value(c.median) + suffix);
    return tr("runs %1–%2: median %3, p5–p95 %4–%5")
        .arg(c.firstX, 0, 'f', 0)
        .arg(c.lastX, 0, 'f', 0)
        .arg(value(c.median) + suffix)
        .arg(value(c.p5))
        .arg(value(c.p95) + suffix);
}

}  // namespace asyncscope

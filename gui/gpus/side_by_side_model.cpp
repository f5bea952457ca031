#include "gui/gpus/side_by_side_model.hpp"

#include "gui/series/shown_name.hpp"

#include <QBrush>
#include <QColor>

namespace asyncscope {

namespace {

// "-" for figures the row does not have (0: unknown), as the CLI's table writes them.
QString figure(double value, int decimals)
{
    return value > 0.0 ? QString::number(value, 'f', decimals) : QStringLiteral("-");
}

}  // namespace

void SideBySideModel::setRows(std::vector<SideBySideRow> rows)
{
    beginResetModel();
    m_rows = std::move(rows);
    endResetModel();
}

int SideBySideModel::rowCount(const QModelIndex& parent) const
{
    return parent.isValid() ? 0 : int(m_rows.size());
}

int SideBySideModel::columnCount(const QModelIndex& parent) const
{
    return parent.isValid() ? 0 : ColumnCount;
}

QString SideBySideModel::flagsText(const SideBySideRow& row)
{
    if (!row.errorKind.empty())
        return QStringLiteral("%1: %2").arg(shownName(row.errorKind), shownName(row.error));
    return QString::fromStdString(row.flagsText());
}

QColor SideBySideModel::tint(const SideBySideRow& row)
{
    if (!row.errorKind.empty())
        return QColor(255, 205, 205);  // could not run
    if (row.has(RowFlag::Slow) || row.has(RowFlag::SlowInSet))
        return QColor(255, 214, 153);  // slower than its siblings
    if (row.has(RowFlag::BelowLink))
        return QColor(255, 240, 170);  // slower than its link allows
    return {};
}

QVariant SideBySideModel::data(const QModelIndex& index, int role) const
{
    if (!index.isValid() || index.row() >= int(m_rows.size()))
        return {};
    const SideBySideRow& r = m_rows[std::size_t(index.row())];
    const auto text = [](const std::string& s) { return shownName(s); };  // a file's names, cut
    if (role == Qt::BackgroundRole) {
        const QColor colour = tint(r);
        return colour.isValid() ? QVariant(QBrush(colour)) : QVariant();
    }
    if (role == Qt::ForegroundRole)
        return tint(r).isValid() ? QVariant(QBrush(Qt::black)) : QVariant();  // readable on the tint in dark themes
    if (role == Qt::TextAlignmentRole) {
        const bool number = index.column() == Gpu || index.column() == Numa || index.column() >= LinkGBps;
        return number && index.column() != Flags ? QVariant(int(Qt::AlignRight | Qt::AlignVCenter)) : QVariant();
    }
    if (role == kSortRole) {
        switch (index.column()) {
        case Gpu: return r.device;
        case Numa: return r.numaNode ? *r.numaNode : -1;
        case Link: return r.link.generation * 100 + r.link.width;
        case LinkGBps: return r.linkGBps();
        case H2d: return r.h2dGBps;
        case D2h: return r.d2hGBps;
        case GpuTime: return r.gpuMs;
        default: return data(index, Qt::DisplayRole);
        }
    }
    if (role == Qt::ToolTipRole && index.column() == Host && !r.file.empty())
        return tr("Read from %1").arg(text(r.file));
    if (role == Qt::ToolTipRole && index.column() == Link)
        return tr("Now %1, at most %2").arg(text(r.link.text()), text(r.maxLink.text()));
    if (role == Qt::ToolTipRole && !r.binding.empty())
        return tr("Worker thread: %1").arg(text(r.binding));
    if (role != Qt::DisplayRole)
        return {};
    switch (index.column()) {
    case Host: return text(r.host);
    case Gpu: return r.device >= 0 ? QVariant(r.device) : QVariant(QStringLiteral("-"));
    case Name: return text(r.name);
    case BusId: return text(r.pciBusId);
    case Numa: return r.numaNode ? QVariant(*r.numaNode) : QVariant(QStringLiteral("-"));
    case Link: return r.link.generation > 0 ? text(r.link.text()) : QStringLiteral("-");
    case LinkGBps: return figure(r.linkGBps(), 1);
    case H2d: return figure(r.h2dGBps, 2);
    case D2h: return figure(r.d2hGBps, 2);
    case GpuTime: return figure(r.gpuMs, 3);
    case Flags: return flagsText(r);
    default: return {};
    }
}

QVariant SideBySideModel::headerData(int section, Qt::Orientation orientation, int role) const
{
    if (orientation != Qt::Horizontal || role != Qt::DisplayRole)
        return QAbstractTableModel::headerData(section, orientation, role);
    switch (section) {
    case Host: return tr("Host");
    case Gpu: return tr("GPU");
    case Name: return tr("Name");
    case BusId: return tr("Bus id");
    case Numa: return tr("NUMA node");
    case Link: return tr("Link");
    case LinkGBps: return tr("Link GB/s");
    case H2d: return tr("H2D GB/s");
    case D2h: return tr("D2H GB/s");
    case GpuTime: return tr("GPU time (ms)");
    case Flags: return tr("Flags");
    default: return {};
    }
}

}  // namespace asyncscope

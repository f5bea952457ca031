// GPUs side by side as a table model: a row per GPU (or per host that could not run), columns as the CLI's table
// has them. Numbers sort as numbers through kSortRole (a QSortFilterProxyModel with that sort role); flagged rows
// and hosts with an error are tinted.
#pragma once

#include "engine/run/side_by_side.hpp"

#include <QAbstractTableModel>

#include <vector>

namespace asyncscope {

class SideBySideModel : public QAbstractTableModel {
    Q_OBJECT
public:
    enum Column { Host, Gpu, Name, BusId, Numa, Link, LinkGBps, H2d, D2h, GpuTime, Flags, ColumnCount };
    static constexpr int kSortRole = Qt::UserRole + 1;

    using QAbstractTableModel::QAbstractTableModel;

    void setRows(std::vector<SideBySideRow> rows);
    const std::vector<SideBySideRow>& rows() const { return m_rows; }

    int rowCount(const QModelIndex& parent = {}) const override;
    int columnCount(const QModelIndex& parent = {}) const override;
    QVariant data(const QModelIndex& index, int role) const override;
    QVariant headerData(int section, Qt::Orientation orientation, int role) const override;

    // A row's flags, or its error, in words ("slow, below link"; "no-driver: …").
    static QString flagsText(const SideBySideRow& row);
    // The tint of a row: flagged or failed rows stand out; none otherwise.
    static QColor tint(const SideBySideRow& row);

private:
    std::vector<SideBySideRow> m_rows;
};

}  // namespace asyncscope

// File › Open results…: result files (host records, hosts' errors, series reports, as asyncscope-cli writes them)
// merged into one table, a row per host and GPU, outliers tinted and a host that could not run as a row saying why;
// sortable by any column, numbers as numbers; exported as the CLI's CSV. A file that cannot be read is named and the
// others still show.
#pragma once

#include "gui/gpus/side_by_side_model.hpp"

#include "engine/run/device_plan.hpp"

#include <QDialog>
#include <QStringList>

class QLabel;
class QPushButton;
class QSortFilterProxyModel;
class QTableView;

namespace asyncscope {

class ResultsWindow : public QDialog {
    Q_OBJECT
public:
    // Its table's CSV export first asks in `folder`.
    explicit ResultsWindow(const QString& folder = {}, QWidget* parent = nullptr);

    // Reads the files and shows those read, merged. Returns one sentence per file that could not be read (empty
    // when every file was read); the window shows them as well.
    QStringList openFiles(const QStringList& paths);

    const std::vector<SideBySideRow>& rows() const { return m_model->rows(); }
    const std::vector<HostReport>& hosts() const { return m_hosts; }
    QTableView* table() const { return m_table; }
    QString problemsText() const;
    // Writes the merged rows with writeSideBySideCsv; empty, or why not.
    QString exportCsv(const QString& path) const;

private:
    std::vector<HostReport> m_hosts;
    QStringList m_problems;
    QString m_folder;
    SideBySideModel* m_model;
    QSortFilterProxyModel* m_proxy;
    QTableView* m_table;
    QLabel* m_summary;
    QLabel* m_problemsLabel;
    QPushButton* m_exportCsv;
};

}  // namespace asyncscope

// File › Open results…: result files (host records, hosts' errors, series reports, as asyncscope-cli writes them)
// merged into one table, a row per host and GPU, outliers tinted and a host that could not run as a row saying why;
// sortable by any column, numbers as numbers; exported as the CLI's CSV. A file that cannot be read is named and the
// others still show. The files are read on a thread of their own: a big or slow one leaves the window usable.
#pragma once

#include "gui/gpus/side_by_side_model.hpp"

#include "engine/run/device_plan.hpp"

#include <QDialog>
#include <QStringList>

class QThread;

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
    ~ResultsWindow() override;  // waits for a read in progress

    // Starts reading the files (a path that is not a regular file is refused without being opened); filesRead says
    // when those read are shown, merged. False, and nothing started, while a read is in progress.
    bool openFiles(const QStringList& paths);
    bool isReading() const { return m_reading != nullptr; }

    const std::vector<SideBySideRow>& rows() const { return m_model->rows(); }
    const std::vector<HostReport>& hosts() const { return m_hosts; }
    // The line above the table: hosts (by name), rows, how many are flagged.
    QString summaryText() const;
    QTableView* table() const { return m_table; }
    QString problemsText() const;
    // Writes the merged rows with writeSideBySideCsv; empty, or why not.
    QString exportCsv(const QString& path) const;

signals:
    // The files asked for are read and those read shown: one sentence per file that could not be read (empty when
    // every file was), which the window shows as well.
    void filesRead(const QStringList& problems);

protected:
    void changeEvent(QEvent* event) override;

private:
    void showRead(const std::vector<std::string>& files, std::vector<Result<HostReport>> read);
    void showColours();  // the files not shown in the palette's problem colour, light or dark

    QThread* m_reading = nullptr;
    std::vector<HostReport> m_hosts;
    std::vector<std::string> m_files;  // each host's file
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

#include "gui/gpus/results_window.hpp"

#include "gui/charts/kind_colours.hpp"
#include "gui/gpus/all_gpus_chart.hpp"
#include "gui/files/file_dialogs.hpp"
#include "gui/series/shown_name.hpp"

#include "engine/io/input_file.hpp"
#include "engine/io/result_file.hpp"

#include <QDialogButtonBox>
#include <QEvent>
#include <QFileInfo>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QMessageBox>
#include <QPushButton>
#include <QScreen>
#include <QSortFilterProxyModel>
#include <QTableView>
#include <QThread>
#include <QVBoxLayout>

#include <algorithm>
#include <set>
#include <memory>

namespace asyncscope {

ResultsWindow::ResultsWindow(const QString& folder, QWidget* parent)
    : QDialog(parent)
    , m_folder(folder)
    , m_model(new SideBySideModel(this))
    , m_proxy(new QSortFilterProxyModel(this))
    , m_table(new QTableView)
    , m_summary(new QLabel)
    , m_problemsLabel(new QLabel)
    , m_exportCsv(new QPushButton(tr("Export CSV…")))
{
    setWindowTitle(tr("AsyncScope — results"));
    m_proxy->setSourceModel(m_model);
    m_proxy->setSortRole(SideBySideModel::kSortRole);
    m_table->setModel(m_proxy);
    m_table->horizontalHeader()->setSortIndicator(-1, Qt::AscendingOrder);  // the files' order until a click
    m_table->setSortingEnabled(true);
    m_table->setSelectionBehavior(QAbstractItemView::SelectRows);
    m_table->setEditTriggers(QAbstractItemView::NoEditTriggers);
    m_table->verticalHeader()->hide();
    m_table->verticalHeader()->setDefaultSectionSize(m_table->fontMetrics().height() + 6);  // compact rows
    m_table->horizontalHeader()->setStretchLastSection(true);
    m_summary->setWordWrap(true);
    m_summary->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_problemsLabel->setWordWrap(true);
    m_problemsLabel->setTextInteractionFlags(Qt::TextSelectableByMouse);
    showColours();
    m_problemsLabel->hide();
    m_exportCsv->setToolTip(tr("Save the table as CSV, as asyncscope-cli --merge --format csv writes it"));
    m_exportCsv->setEnabled(false);

    auto* buttons = new QDialogButtonBox(QDialogButtonBox::Close);
    buttons->addButton(m_exportCsv, QDialogButtonBox::ActionRole);
    connect(buttons, &QDialogButtonBox::rejected, this, &QDialog::reject);
    connect(m_exportCsv, &QPushButton::clicked, this, [this] {
        const QString path = askSavePath(this, m_folder, tr("Export the merged table"), QStringLiteral("merged.csv"),
            tr("CSV (*.csv)"));
        if (path.isEmpty())
            return;
        m_folder = QFileInfo(path).absolutePath();
        if (const QString failure = exportCsv(path); !failure.isEmpty())
            QMessageBox::warning(this, windowTitle(), failure);
    });
    auto* layout = new QVBoxLayout(this);
    layout->addWidget(m_summary);
    layout->addWidget(m_problemsLabel);
    layout->addWidget(m_table, 1);
    layout->addWidget(buttons);
    // As wide as a fleet's table reads well, but never beyond the screen: the table scrolls, the buttons stay in view.
    const QRect room = screen() ? screen()->availableGeometry() : QRect(0, 0, 1100, 520);
    resize(std::min(1100, room.width() * 9 / 10), std::min(520, room.height() * 9 / 10));
}

ResultsWindow::~ResultsWindow()
{
    if (m_reading)
        m_reading->wait();  // regular files only: each read ends
    delete m_reading;
}

bool ResultsWindow::openFiles(const QStringList& paths)
{
    if (m_reading)
        return false;
    std::vector<std::string> files;
    for (const QString& path : paths)
        files.push_back(path.toStdString());
    auto read = std::make_shared<std::vector<Result<HostReport>>>();
    m_reading = QThread::create([files, read] {
        for (const std::string& file : files) {
            if (Status unreadable = checkReadableFile(file))  // a directory, a FIFO, a device: never opened
                read->push_back(*unreadable);
            else
                read->push_back(readResultFile(file));
        }
    });
    m_reading->setObjectName(QStringLiteral("AsyncScope results"));
    // Queued to this window's thread: what was read is complete once the thread has finished.
    connect(m_reading, &QThread::finished, this, [this, files, read] {
        m_reading->wait();
        m_reading->deleteLater();
        m_reading = nullptr;
        showRead(files, std::move(*read));
    });
    m_summary->setText(tr("Reading %n file(s)…", nullptr, int(paths.size())));
    m_reading->start();
    return true;
}

void ResultsWindow::showRead(const std::vector<std::string>& files, std::vector<Result<HostReport>> read)
{
    QStringList problems;
    for (std::size_t i = 0; i < read.size(); ++i) {
        if (read[i]) {
            m_hosts.push_back(std::move(*read[i]));
            m_files.push_back(files[i]);
        } else {
            problems << QString::fromStdString(read[i].error().message());
        }
    }
    m_problems << problems;
    m_model->setRows(mergeRows(m_hosts, m_files));
    m_table->resizeColumnsToContents();

    const auto& rows = m_model->rows();
    const auto flagged = std::count_if(rows.begin(), rows.end(),
        [](const SideBySideRow& r) { return !r.flags.empty() || !r.errorKind.empty(); });
    QStringList parts;
    // Hosts by name: a host's several records (a run a day, each GPU in a file of its own) are one host.
    std::set<std::string> names;
    for (const HostReport& h : m_hosts)
        names.insert(h.host);
    const QString hosts = tr("%n host(s)", nullptr, int(names.size()));
    parts << (names.size() == m_hosts.size() ? hosts
                                             : tr("%n record(s) from %1", nullptr, int(m_hosts.size())).arg(hosts))
          << tr("%n row(s)", nullptr, int(rows.size()))
          << (flagged ? tr("%n flagged", nullptr, int(flagged)) : tr("none flagged"));
    for (const HostAggregate& a : aggregatesOf(m_hosts)) {
        if (a.bandwidth.gbps > 0.0)
            parts << tr("%1 all at once: %2 GB/s").arg(shownName(a.host)).arg(a.bandwidth.gbps, 0, 'f', 1);
    }
    m_summary->setText(parts.join(QStringLiteral("; ")) +
        tr(". Tinted rows: at least %1 % below their host's or the whole set's median, under %2 % of their link, or a "
           "host that could not run.")
            .arg(int(kSlowFraction * 100))
            .arg(int(kBelowLinkFraction * 100)));
    m_problemsLabel->setText(problemsText());
    m_problemsLabel->setVisible(!m_problems.isEmpty());
    m_exportCsv->setEnabled(!rows.empty());
    emit filesRead(problems);
}

QString ResultsWindow::summaryText() const
{
    return m_summary->text();
}

QString ResultsWindow::problemsText() const
{
    return m_problems.isEmpty() ? QString() : tr("Not shown: %1").arg(m_problems.join(QStringLiteral("; ")));
}

QString ResultsWindow::exportCsv(const QString& path) const
{
    return exportSideBySideCsv(m_model->rows(), path);
}

void ResultsWindow::changeEvent(QEvent* event)
{
    QDialog::changeEvent(event);
    if (event->type() == QEvent::PaletteChange)
        showColours();
}

void ResultsWindow::showColours()
{
    showAsProblem(*m_problemsLabel, palette());
}

}  // namespace asyncscope

#include "gui/gpus/all_gpus_panel.hpp"

#include "gui/charts/kind_colours.hpp"
#include "gui/gpus/all_gpus_chart.hpp"
#include "gui/session/plan_controller.hpp"

#include <QChartView>
#include <QCheckBox>
#include <QComboBox>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QPushButton>
#include <QSortFilterProxyModel>
#include <QSplitter>
#include <QTableView>
#include <QVBoxLayout>

#include <algorithm>

namespace asyncscope {

namespace {


}  // namespace

AllGpusPanel::AllGpusPanel(PlanController* controller, QWidget* parent)
    : QWidget(parent)
    , m_controller(controller)
    , m_mode(new QComboBox)
    , m_bind(new QCheckBox(tr("Local CPUs")))
    , m_run(new QPushButton(tr("Run on all GPUs")))
    , m_cancel(new QPushButton(tr("Cancel")))
    , m_exportChart(new QPushButton(tr("Export chart…")))
    , m_exportCsv(new QPushButton(tr("Export CSV…")))
    , m_summary(new QLabel)
    , m_chartView(new QChartView)
    , m_model(new SideBySideModel(this))
    , m_proxy(new QSortFilterProxyModel(this))
    , m_table(new QTableView)
{
    m_mode->addItem(tr("One GPU at a time"), int(DeviceMode::OneAtATime));
    m_mode->addItem(tr("All at once"), int(DeviceMode::AllAtOnce));
    m_mode->setToolTip(tr("One at a time gives each GPU's clean figures; all at once shares the host's PCIe switches, "
                          "memory and CPUs between them and gives the aggregate bandwidth"));
    m_bind->setObjectName("localCpus");
    m_bind->setChecked(true);
    m_bind->setToolTip(tr("Run each GPU's worker thread on the CPUs of its own NUMA node, where its host buffers then "
                          "come from, here and for every series and comparison of the window, as the CLI does; the "
                          "table's tooltips and the status bar say what each got"));
    m_run->setToolTip(tr("Run the configured series on every GPU of this host"));
    m_cancel->setToolTip(tr("Stop every GPU"));
    m_exportChart->setToolTip(tr("Save the chart as a picture (PNG; SVG from the File menu)"));
    m_exportCsv->setToolTip(tr("Save the table as CSV, as asyncscope-cli writes it"));
    m_summary->setWordWrap(true);
    m_summary->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_summary->setText(tr("Runs the configured series on every GPU and flags any at least %1 % below the host's "
                          "median or under %2 % of its link's nominal rate.")
                           .arg(int(kSlowFraction * 100))
                           .arg(int(kBelowLinkFraction * 100)));

    m_chartView->setRenderHint(QPainter::Antialiasing);
    showChart(buildAllGpusChart({}, chartTitle(), isDark(palette())));
    m_proxy->setSourceModel(m_model);
    m_proxy->setSortRole(SideBySideModel::kSortRole);
    m_table->setModel(m_proxy);
    m_table->setSortingEnabled(true);
    m_table->sortByColumn(SideBySideModel::Gpu, Qt::AscendingOrder);
    m_table->setSelectionBehavior(QAbstractItemView::SelectRows);
    m_table->setEditTriggers(QAbstractItemView::NoEditTriggers);
    m_table->verticalHeader()->hide();
    m_table->verticalHeader()->setDefaultSectionSize(m_table->fontMetrics().height() + 6);  // compact rows
    m_table->horizontalHeader()->setStretchLastSection(true);
    m_table->hideColumn(SideBySideModel::Host);

    // Two rows, so the tab fits a narrow window: what runs, then what the run found and its exports.
    auto* controls = new QHBoxLayout;
    controls->addWidget(m_mode);
    controls->addWidget(m_bind);
    controls->addStretch(1);
    controls->addWidget(m_run);
    controls->addWidget(m_cancel);
    auto* found = new QHBoxLayout;
    found->addWidget(m_summary, 1);
    found->addWidget(m_exportChart, 0, Qt::AlignTop);
    found->addWidget(m_exportCsv, 0, Qt::AlignTop);
    auto* split = new QSplitter(Qt::Vertical);
    split->addWidget(m_chartView);
    split->addWidget(m_table);
    split->setStretchFactor(0, 1);
    split->setStretchFactor(1, 1);  // eight GPUs' rows fit under the chart in a window of 1280 x 800
    auto* layout = new QVBoxLayout(this);
    layout->addLayout(controls);
    layout->addLayout(found);
    layout->addWidget(split, 1);

    connect(m_run, &QPushButton::clicked, this, &AllGpusPanel::runRequested);
    connect(m_cancel, &QPushButton::clicked, this, &AllGpusPanel::cancel);
    connect(m_exportChart, &QPushButton::clicked, this, [this] { emit exportRequested(QStringLiteral("png")); });
    connect(m_exportCsv, &QPushButton::clicked, this, &AllGpusPanel::exportTableRequested);
    connect(m_controller, &PlanController::deviceEnded, this, &AllGpusPanel::onDeviceEnded);
    connect(m_controller, &PlanController::hostFinished, this, &AllGpusPanel::onHostFinished);
    updateButtons();
}

DeviceMode AllGpusPanel::mode() const
{
    return DeviceMode(m_mode->currentData().toInt());
}

void AllGpusPanel::setMode(DeviceMode mode)
{
    m_mode->setCurrentIndex(m_mode->findData(int(mode)));
}

bool AllGpusPanel::bindsToLocalCpus() const
{
    return m_bind->isChecked();
}

void AllGpusPanel::setBindToLocalCpus(bool bind)
{
    m_bind->setChecked(bind);
}

void AllGpusPanel::setCanRun(bool canRun)
{
    m_canRun = canRun;
    updateButtons();
}

bool AllGpusPanel::isRunning() const
{
    return m_running;
}

Status AllGpusPanel::start(const Plan& plan, const Platform& platform)
{
    if (m_controller->isRunning())
        return makeError(ErrorKind::Usage, "a run is already going", "Wait for it or cancel it.");
    if (platform.devices.empty())
        return makeError(ErrorKind::NoDevice, "no CUDA device to run on");
    DevicePlan devices;
    for (const DeviceInfo& d : platform.devices)
        devices.devices.push_back(d.index);
    devices.mode = mode();
    devices.bindToLocalCpus = bindsToLocalCpus();
    devices.plan = plan;
    if (!m_controller->start(devices, platform, PlanController::Delivery::PerDevice))
        return makeError(ErrorKind::Usage, "the GPUs' run thread is not available");
    m_running = true;
    m_planned = devices.devices.size();
    m_host = HostReport {};
    m_host.mode = devices.mode;
    m_host.driverVersion = platform.driverVersion;
    m_host.runtimeVersion = platform.runtimeVersion;
    showHost(m_host);
    m_summary->setText(tr("Running %n GPU(s) %1…", nullptr, int(m_planned))
                           .arg(devices.mode == DeviceMode::AllAtOnce ? tr("all at once") : tr("one at a time")));
    updateButtons();
    emit runningChanged(true);
    return std::nullopt;
}

void AllGpusPanel::cancel()
{
    if (!isRunning())
        return;
    m_controller->cancel();
    m_summary->setText(tr("Cancelling…"));
}

void AllGpusPanel::shutdown()
{
    m_controller->shutdown();
}

void AllGpusPanel::onDeviceEnded(const DeviceResult& result)
{
    if (!isRunning())
        return;  // the host's record came first and has it
    m_host.devices.push_back(result);
    showHost(m_host);
    m_summary->setText(tr("%1 of %2 GPUs done…").arg(m_host.devices.size()).arg(m_planned));
}

void AllGpusPanel::onHostFinished(const HostReport& host)
{
    if (!m_running)
        return;  // the session's plan
    m_running = false;
    showHost(host);
    updateButtons();
    emit runningChanged(false);
    emit finished(host);
}

void AllGpusPanel::showHost(const HostReport& host)
{
    if (&host != &m_host)
        m_host = host;
    std::vector<SideBySideRow> rows = sideBySideRows(m_host);
    showChart(buildAllGpusChart(rows, chartTitle(), isDark(palette())));
    m_model->setRows(std::move(rows));
    m_table->resizeColumnsToContents();
    m_summary->setText(summaryText());
    updateButtons();
}

QString AllGpusPanel::summaryText() const
{
    if (m_host.error)
        return QString::fromStdString(m_host.error->message());
    const auto& rows = m_model->rows();
    if (rows.empty())
        return {};
    QStringList parts;
    parts << tr("%n GPU(s) %1", nullptr, int(rows.size()))
                 .arg(m_host.mode == DeviceMode::AllAtOnce ? tr("all at once") : tr("one at a time"));
    const auto flagged = std::count_if(rows.begin(), rows.end(),
        [](const SideBySideRow& r) { return !r.flags.empty() || !r.errorKind.empty(); });
    parts << (flagged ? tr("%n flagged", nullptr, int(flagged)) : tr("none flagged"));
    if (m_host.aggregate) {
        const AggregateBandwidth& a = *m_host.aggregate;
        parts << (a.gbps > 0.0 ? tr("aggregate %1 GB/s over %2 ms with %3 GPUs copying together")
                                     .arg(a.gbps, 0, 'f', 1)
                                     .arg(a.overlapMs, 0, 'f', 1)
                                     .arg(a.devices)
                               : tr("no aggregate: the GPUs' runs did not overlap"));
    }
    if (const Error* failure = m_host.failure())
        parts << QString::fromStdString(failure->message());
    return parts.join(QStringLiteral("; "));
}

QString AllGpusPanel::chartTitle() const
{
    const QString host = QString::fromStdString(m_host.host);
    return host.isEmpty() ? tr("Copy bandwidth per GPU") : tr("Copy bandwidth per GPU on %1").arg(host);
}

QString AllGpusPanel::exportChart(const QString& path, QSize pixels) const
{
    return exportAllGpusChart(m_model->rows(), chartTitle(), path, pixels);
}

QString AllGpusPanel::exportCsv(const QString& path) const
{
    return exportSideBySideCsv(m_model->rows(), path);
}

void AllGpusPanel::showChart(std::unique_ptr<QChart> chart)
{
    // The view owns its chart (a default one from the start) and lets go of it when given another.
    QChart* old = m_chartView->chart();
    m_chartView->setChart(chart.release());
    delete old;
}

void AllGpusPanel::changeEvent(QEvent* event)
{
    if (event->type() == QEvent::PaletteChange)
        showChart(buildAllGpusChart(m_model->rows(), chartTitle(), isDark(palette())));
    QWidget::changeEvent(event);
}

void AllGpusPanel::updateButtons()
{
    const bool running = isRunning();
    m_run->setEnabled(!running && m_canRun);
    m_mode->setEnabled(!running);
    m_bind->setEnabled(!running);
    m_cancel->setEnabled(running);
    const bool rows = !m_model->rows().empty();
    m_exportChart->setEnabled(rows && !running);
    m_exportCsv->setEnabled(rows && !running);
}

}  // namespace asyncscope

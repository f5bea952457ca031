#include "gui/summary_table.hpp"

#include "engine/statistics.hpp"

#include <QHeaderView>

namespace asyncscope {

namespace {

const QStringList kColumns { "min", "median", "mean", "max", "stddev", "noise %", "p95" };
enum Row { GpuTime, CpuSubmit, Polls, WaitCpu, H2d, Kernel, D2h, H2dRate, D2hRate, KernelRate, RowCount };
const QStringList kRows { "GPU time (ms)", "CPU submit time (ms)", "poll iterations", "CPU time while waiting (ms)",
    "H2D (ms)", "kernel (ms)", "D2H (ms)", "H2D (GB/s, decimal)", "D2H (GB/s, decimal)",
    "kernel effective (GB/s, decimal)" };

}  // namespace

SummaryTable::SummaryTable(QWidget* parent)
    : QTableWidget(RowCount, static_cast<int>(kColumns.size()), parent)
{
    setHorizontalHeaderLabels(kColumns);
    setVerticalHeaderLabels(kRows);
    setEditTriggers(QAbstractItemView::NoEditTriggers);
    horizontalHeader()->setSectionResizeMode(QHeaderView::Stretch);
    for (int r = 0; r < rowCount(); ++r) {
        for (int c = 0; c < columnCount(); ++c) {
            auto* item = new QTableWidgetItem;
            item->setTextAlignment(Qt::AlignRight | Qt::AlignVCenter);
            setItem(r, c, item);
        }
    }
}

void SummaryTable::setRuns(const std::vector<RunResult>& runs, std::size_t bytesPerCopy)
{
    const SeriesSummary s = summarizeRuns(runs, bytesPerCopy);
    auto fill = [this](int row, const Summary* summary, int decimals) {
        const double values[] = { summary ? summary->min : 0, summary ? summary->median : 0,
            summary ? summary->mean : 0, summary ? summary->max : 0, summary ? summary->stddev : 0,
            summary ? summary->noisePercent : 0, summary ? summary->p95 : 0 };
        for (int c = 0; c < columnCount(); ++c)
            item(row, c)->setText(summary && summary->count ? QString::number(values[c], 'f', c == 5 ? 2 : decimals) : "");
    };
    fill(GpuTime, &s.gpuMs, 4);
    fill(CpuSubmit, &s.cpuSubmitMs, 4);
    fill(Polls, &s.pollIterations, 0);
    fill(WaitCpu, &s.waitCpuMs, 4);
    fill(H2d, s.stagesTimed ? &s.h2dMs : nullptr, 4);
    fill(Kernel, s.stagesTimed ? &s.kernelMs : nullptr, 4);
    fill(D2h, s.stagesTimed ? &s.d2hMs : nullptr, 4);
    const double rates[] = { s.h2dGBps, s.d2hGBps, s.kernelGBps };
    for (int i = 0; i < 3; ++i) {
        fill(H2dRate + i, nullptr, 0);
        item(H2dRate + i, 1)->setText(s.stagesTimed ? QString::number(rates[i], 'f', 1) : "");  // from median times
    }
}

}  // namespace asyncscope

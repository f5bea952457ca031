#include "gui/summary_table.hpp"

#include "engine/statistics.hpp"

#include <QHeaderView>

namespace asyncscope {

namespace {

const QStringList kColumns { "min", "median", "mean", "max", "stddev", "noise %", "p95" };
enum Row {
    GpuTime, CpuSubmit, Polls, WaitCpu, H2d, Kernel, D2h, H2dRate, D2hRate, KernelRate,
    PeakH2d, PeakD2h, SerialBound, OverBound, RowCount
};
const QStringList kRows { "GPU time (ms)", "CPU submit time (ms)", "poll iterations", "CPU time while waiting (ms)",
    "H2D (ms)", "kernel (ms)", "D2H (ms)", "H2D (GB/s, decimal)", "D2H (GB/s, decimal)",
    "kernel effective (GB/s, decimal)", "host peak H2D, pinned (GB/s)", "host peak D2H, pinned (GB/s)",
    "serial PCIe bound (ms)", "GPU time / serial bound" };

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

void SummaryTable::setRuns(const std::vector<RunResult>& runs, std::size_t bytesPerCopy,
    const std::optional<CopyPeak>& peak)
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
    // Single figures go in the median column: rates from the median stage times, and the calibration.
    const double bound = peak ? serialBoundMs(bytesPerCopy, *peak) : 0.0;
    const struct {
        int row;
        bool known;
        double value;
        int decimals;
    } singles[] = { { H2dRate, s.stagesTimed, s.h2dGBps, 1 }, { D2hRate, s.stagesTimed, s.d2hGBps, 1 },
        { KernelRate, s.stagesTimed, s.kernelGBps, 1 }, { PeakH2d, bool(peak), peak ? peak->h2dGBps : 0.0, 1 },
        { PeakD2h, bool(peak), peak ? peak->d2hGBps : 0.0, 1 }, { SerialBound, bound > 0.0, bound, 4 },
        { OverBound, bound > 0.0 && s.measuredRuns > 0, bound > 0.0 ? s.gpuMs.median / bound : 0.0, 3 } };
    for (const auto& single : singles) {
        fill(single.row, nullptr, 0);
        item(single.row, 1)->setText(single.known ? QString::number(single.value, 'f', single.decimals) : "");
    }
}

}  // namespace asyncscope

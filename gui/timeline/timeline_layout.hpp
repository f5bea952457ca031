// What the timeline shows of one run, worked out without painting: its rows, a block per span, the time range in
// view and its zoom, where each block lies at a given size, which block a point falls on, the ticks of the time
// axis, and what a block's tooltip says.
#pragma once

#include "engine/model/config.hpp"
#include "engine/model/program_info.hpp"
#include "engine/model/run_result.hpp"

#include <QRectF>
#include <QString>

#include <vector>

namespace asyncscope {

struct TimelineRow {
    enum Kind { Cpu, Check, Stream, GpuTime, Migrations };
    Kind kind = Cpu;
    int stream = 0;  // of a Stream row
    QString label;
};

struct TimelineBlock {
    Span span;
    int row = 0;
    bool gpuTime = false;  // the GPU time as a whole (start event to stop event): a run without stage events
    QString label;         // what the block says where it is wide enough: "H2D #3", "cudaMemcpyAsync"
    QRectF rect;           // where it lies in the plot as placed last (see TimelineLayout::setPlot)
    QString kindName;      // what its kind is in this run: "H2D copy (SM copy kernel)"; empty: spanKindName's
    QString name;          // a recorded program's kernel (demangled) or call ("cudaMemcpy"); empty where none is given
    QString role;          // what a call does to the iteration: "synchronous copy: the host waits until it is done"
    bool banded = false;   // drawn in a band with its neighbours, too narrow to draw one by one (TimelineBand)
};

// Blocks next to each other on a row, each too narrow to draw (under kBandBlockPixels, closer than kBandGapPixels):
// drawn as one band that says how many it holds.
struct TimelineBand {
    int row = 0;
    QRectF rect;
    std::vector<std::size_t> blocks;   // the blocks it holds: their places in blocks(), by begin
    double busyMs = 0.0;               // their durations summed
    QString label;                     // "37 kernels", "120 operations"
};

struct TimelineTicks {
    double step = 1.0;
    int decimals = 0;         // for labels of multiples of `step`
    std::vector<double> at;   // in ms, inside the range in view
};

class TimelineLayout {
public:
    // The rows and blocks of `run`. The CPU row holds stream 0's submit and wait spans; when `run.traced` is not
    // empty, its runtime calls (Api) and the wait instead. The check row holds the check spans. GPU operations come
    // from `run.traced` when it holds any (CUPTI), otherwise from `run.spans` (CUDA events), on one row per stream
    // (at least `streams` rows, at most kMaxStreams). Spans no run can have (times not finite, an end before the
    // begin, a GPU stream outside 0 to kMaxStreams - 1) are left out. A run without GPU spans (stage events off) has
    // one GPU time row instead, its block from 0 to the GPU time. Managed memory's page migrations, where CUPTI
    // traced them, have a row of their own below the streams. The range in view is fitted to the run unless the user
    // zoomed. With `config`, the copies are named by what makes them ("H2D (SM copy kernel)", "H2D (prefetch)").
    // With `program` (a recorded program's run): its kernels and calls named from the program's names, the CPU row
    // the run's thread's (its CPU spans' stream), and no host check row.
    void setRun(const RunResult& run, int streams = 1);
    void setRun(const RunResult& run, const PipelineConfig& config, const ProgramInfo* program = nullptr);
    void clear();

    bool empty() const { return m_rows.empty(); }
    const std::vector<TimelineRow>& rows() const { return m_rows; }
    const std::vector<TimelineBlock>& blocks() const { return m_blocks; }
    bool gpuTraced() const { return m_gpuTraced; }  // GPU blocks from CUPTI
    bool cpuTraced() const { return m_cpuTraced; }  // CPU row from CUPTI's runtime calls
    bool stagesOff() const { return m_stagesOff; }
    bool migrationsTraced() const { return m_migrations; }  // a row of page migrations
    // What a kind is called in this run: spanKindName's, the copies with what makes them where it is no copy engine.
    QString kindName(SpanKind kind) const;

    // The run's whole time range, and the part in view.
    double fullBegin() const { return m_fullBegin; }
    double fullEnd() const { return m_fullEnd; }
    double visibleBegin() const { return m_begin; }
    double visibleEnd() const { return m_end; }
    bool zoomed() const { return m_zoomed; }
    // `factor` above 1 zooms in, keeping `ms` where it is on the screen.
    void zoomAround(double ms, double factor);
    void zoomTo(double begin, double end);
    // Moves the range in view by `ms` (later when positive), within the run's range.
    void pan(double ms);
    void resetZoom();

    // The rectangle the rows share, in pixels: places every block in it.
    void setPlot(const QRectF& plot);
    // Each row's most height, in pixels (kMaxRowHeight unless set): rows share the plot's height up to it, from its
    // top. A picture's rows fill it (infinity).
    void setMaxRowHeight(double pixels);
    double maxRowHeight() const { return m_maxRowHeight; }
    const QRectF& plot() const { return m_plot; }
    QRectF rowRect(int row) const;
    double xOf(double ms) const;
    double msAt(double x) const;
    // The index of the block under `point`, or -1. Blocks narrower than a few pixels are hit across that width;
    // blocks in a band are not (bandAt).
    int blockAt(const QPointF& point) const;
    // The bands as placed last, by row and time; the index of the one under `point`, or -1.
    const std::vector<TimelineBand>& bands() const { return m_bands; }
    int bandAt(const QPointF& point) const;
    // Round ticks (1, 2 or 5 times a power of ten) about `pixelsPerTick` apart over the range in view.
    TimelineTicks ticks(double pixelsPerTick = 90.0) const;

    static constexpr double kLeastVisibleMs = 1e-4;  // zooming stops at 0.1 µs across the plot
    static constexpr double kMaxRowHeight = 64.0;     // a row's most height in the window
    static constexpr double kBandBlockPixels = 2.0;   // a block narrower than this may go into a band
    static constexpr double kBandGapPixels = 2.0;     // … with its neighbour when they are closer than this

private:
    void setVisible(double begin, double end);
    void place();
    void band();  // the bands of the blocks as placed

    static constexpr std::size_t kLeastBanded = 3;  // fewer thin blocks are drawn as they are

    std::vector<TimelineRow> m_rows;
    std::vector<TimelineBlock> m_blocks;
    std::vector<TimelineBand> m_bands;
    std::vector<std::size_t> m_order;  // the blocks by row, then by begin
    bool m_gpuTraced = false;
    bool m_cpuTraced = false;
    bool m_stagesOff = false;
    bool m_migrations = false;
    QString m_copyMechanism;  // "SM copy kernel", "prefetch"; empty for the copy engines
    double m_fullBegin = 0.0, m_fullEnd = 1.0;
    double m_begin = 0.0, m_end = 1.0;
    bool m_zoomed = false;
    QRectF m_plot;
    double m_maxRowHeight = kMaxRowHeight;
};

// "H2D copy", "kernel", "D2H copy", "CPU submit", "CPU wait", "host check", "runtime call", "page migration to the
// device", "page migration to the host".
QString spanKindName(SpanKind kind);
// "412 µs", "2.49 ms", "12.3 ms".
QString formatDuration(double ms);
// Kind, chunk, stream, bytes, duration, GB/s (copies, kernels and migrations), the runtime call (Api), begin and end.
QString blockToolTip(const TimelineBlock& block);
// How many operations of which kinds, their names (the commonest first), their time summed, and the range they span.
QString bandToolTip(const TimelineBand& band, const std::vector<TimelineBlock>& blocks);

}  // namespace asyncscope

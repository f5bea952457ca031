// One run on one time axis, drawn with QPainter (gui/timeline/timeline_painting): a row for the CPU's submit and wait
// (or, traced by CUPTI, its runtime calls and wait), a row for the host check, a row per CUDA stream with each chunk's
// copies and kernel (SM copies named as the copy kernels they are), a row of managed memory's page migrations where
// CUPTI traced them; round ticks and grid lines in ms, a legend of colours by kind and a line on how the clocks are
// aligned.
// The wheel zooms around the pointer, a drag zooms to the dragged range, shift+drag, a middle drag or a horizontal
// scroll pans; a double click or Home shows the whole run again. Pointing at a block names what it did. With the
// keyboard focus the view is framed in the palette's highlight colour.
#pragma once

#include "gui/timeline/timeline_layout.hpp"
#include "gui/timeline/timeline_painting.hpp"

#include <QSize>
#include <QString>
#include <QWidget>

#include <optional>
#include <utility>

namespace asyncscope {

class TimelineView : public QWidget {
    Q_OBJECT
public:
    explicit TimelineView(QWidget* parent = nullptr);

    // Shows `run` of a series on `streams` streams; `traceNote` says why CUPTI was asked for and not used (or is
    // empty). The zoom stays if the user zoomed, otherwise the run fits.
    void setRun(const RunResult& run, int streams, const QString& traceNote = {});
    // The same for a run of `config`: its copies named by what makes them, and a note where the run moves data
    // inside other spans (mapped memory: the kernel reads and writes host memory over the bus; managed memory on
    // demand without traced migrations: the migrations are inside the kernel's span).
    // `unrecorded`, where not empty, fills the host check's row of a run that holds no check: why ("not recorded
    // (JSON format 2)"). With `program`, a recorded program's run: TimelineLayout::setRun says what it changes.
    void setRun(const RunResult& run, const PipelineConfig& config, const QString& traceNote = {},
        const QString& unrecorded = {}, const ProgramInfo* program = nullptr);
    // No run: `message` in place of the rows.
    void clear(const QString& message);
    // Named at the top of exported pictures ("Run 12 of 50 · …"); the window shows it in a label instead.
    void setTitle(const QString& title) { m_texts.title = title; }

    const TimelineLayout& timeline() const { return m_layout; }
    QString clockText() const { return m_texts.clock; }        // how the clocks are aligned
    QString noteText() const { return m_texts.note; }          // stage events off, CUPTI not used, data moved unseen
    QString checkRowText() const { return m_texts.checkRow; }  // what fills an empty host check row; or empty

    void zoomIn();
    void zoomOut();
    void resetZoom();

    // Renders what the view shows, the same range in view, at `pixels`, the rows sharing the picture's height: PNG
    // (or another raster format) or SVG by the file's suffix. An empty string on success, otherwise what went wrong.
    QString exportPicture(const QString& path, QSize pixels) const;

    QSize sizeHint() const override { return { 900, 360 }; }
    QSize minimumSizeHint() const override { return { 320, 200 }; }

signals:
    void zoomChanged(bool zoomed);

protected:
    bool event(QEvent* event) override;
    void paintEvent(QPaintEvent* event) override;
    void resizeEvent(QResizeEvent* event) override;
    void changeEvent(QEvent* event) override;
    void wheelEvent(QWheelEvent* event) override;
    void mousePressEvent(QMouseEvent* event) override;
    void mouseMoveEvent(QMouseEvent* event) override;
    void mouseReleaseEvent(QMouseEvent* event) override;
    void mouseDoubleClickEvent(QMouseEvent* event) override;
    void keyPressEvent(QKeyEvent* event) override;

private:
    std::optional<std::pair<double, double>> dragBand() const;  // from and to x while a drag zooms; none else
    void relayout();      // after a resize, a new run, a font change
    void zoomed();        // after the range in view changed: ticks, repaint, signal
    void endDrag();

    TimelineLayout m_layout;
    TimelineFrame m_frame;
    TimelineTexts m_texts;
    enum class Drag { None, Band, Pan } m_drag = Drag::None;
    double m_dragFromX = 0.0;
    double m_dragToX = 0.0;
    double m_panFromBegin = 0.0;
};

}  // namespace asyncscope

// A run chart's view to explore runs: drag to zoom into a rectangle (a thin one along the runs: into those runs), the
// wheel and + and - zoom the runs around the pointer or the middle (shift+wheel the values), arrows scroll; 0, Home, a
// double click or a right click show every run again. The zoom is the chart's (RunChart); the view turns the mouse and
// keys into it. The pointer over a point shows its run and value beside it (the readout, a label of the view's own
// that stays while the pointer rests and goes as it leaves). The legend sits beside the plot, or in rows below it
// when the view is narrower than 700 px (FramedChartView).
#pragma once

#include "gui/charts/framed_chart_view.hpp"
#include "gui/charts/run_chart.hpp"

#include <optional>

class QLabel;
class QRubberBand;

namespace asyncscope {

class ChartView : public FramedChartView {
    Q_OBJECT
public:
    explicit ChartView(RunChart& chart, QWidget* parent = nullptr);

    // Keyboard and menu zoom: the runs by 2 around the middle of those in view, out no further than every run.
    void zoomIn();
    void zoomOut();
    // "GPU time\nrun 2: 2.4992 ms": the value of the run nearest the view position `viewPos`, empty when none is
    // within reach. Over a line of column medians (SpreadLine), or within its column's p5-p95 band, the runs of the
    // column and their spread: "GPU time median\nruns 1200–1350: median 2.49 ms, p5–p95 2.45–2.61 ms". The unit is
    // the last word of the line's value axis's title.
    QString readoutAt(const QPoint& viewPos) const;
    // The readout shown beside the pointer now; empty when none is.
    QString shownReadout() const;
    // What to do while the chart has nothing to show ("Run (Ctrl+R) … or drop a file here"), in the middle of the
    // plot; empty: nothing is said.
    void setWhatToDo(const QString& text);
    QString whatToDo() const;

protected:
    bool event(QEvent* event) override;
    void keyPressEvent(QKeyEvent* event) override;
    void mousePressEvent(QMouseEvent* event) override;
    void mouseMoveEvent(QMouseEvent* event) override;
    void mouseReleaseEvent(QMouseEvent* event) override;
    void mouseDoubleClickEvent(QMouseEvent* event) override;
    void wheelEvent(QWheelEvent* event) override;
    bool viewportEvent(QEvent* event) override;
    void resizeEvent(QResizeEvent* event) override;

private:
    QRectF plotInView() const;  // the chart's plot, in the view's coordinates
    // Shows the readout at the view position `viewPos` (beside it, within the view), or hides it where it is empty.
    void showReadout(const QPoint& viewPos);

    RunChart& m_runChart;
    void placeWhatToDo();

    QLabel* m_readout;
    QLabel* m_whatToDo;
    QRubberBand* m_band;       // the rectangle being dragged, in the viewport
    std::optional<QPoint> m_dragFrom;  // where a left press on the plot began, while the button is held
};

}  // namespace asyncscope

// A chart view to explore runs: drag to zoom into a rectangle, the wheel to zoom around the pointer, + and - keys,
// arrows to scroll, 0, Home or a right click to show every run again; the pointer over a point shows its run and value
// beside it (the readout, a label of the view's own that stays while the pointer rests and goes as it leaves). The
// legend sits beside the plot, or in rows below it when the view is narrower than 700 px (FramedChartView). The
// keyboard's zoom follows the first value axis; a chart's second one
// (another unit) is its owner's to fit.
#pragma once

#include "gui/charts/framed_chart_view.hpp"

class QLabel;

namespace asyncscope {

class ChartView : public FramedChartView {
    Q_OBJECT
public:
    explicit ChartView(QChart* chart, QWidget* parent = nullptr);

    // Keyboard and menu zoom: by 2 around the middle of the runs in view, out no further than every run.
    void zoomIn();
    void zoomOut();
    // "GPU time\nrun 2: 2.4992 ms": the value of the run nearest the view position `viewPos`, empty when none is
    // within reach. Over a line of column medians (SpreadLine), or within its column's p5-p95 band, the runs of the
    // column and their spread: "GPU time median\nruns 1200–1350: median 2.49 ms, p5–p95 2.45–2.61 ms". The unit is
    // the last word of the line's value axis's title.
    QString readoutAt(const QPoint& viewPos) const;
    // The readout shown beside the pointer now; empty when none is.
    QString shownReadout() const;

signals:
    // The chart should show every run again with tidy axes; whoever owns the chart's data answers.
    void resetRequested();

protected:
    bool event(QEvent* event) override;
    void keyPressEvent(QKeyEvent* event) override;
    void mouseReleaseEvent(QMouseEvent* event) override;
    void mouseMoveEvent(QMouseEvent* event) override;
    void wheelEvent(QWheelEvent* event) override;
    bool viewportEvent(QEvent* event) override;

private:
    void zoomByKey(double factor);
    // Shows the readout at the view position `viewPos` (beside it, within the view), or hides it where it is empty.
    void showReadout(const QPoint& viewPos);

    QLabel* m_readout;
};

}  // namespace asyncscope

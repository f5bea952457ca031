// A chart view to explore runs: drag to zoom into a rectangle, the wheel to zoom around the pointer, + and - keys,
// arrows to scroll, 0, Home or a right click to show every run again; hovering a point shows its run and value.
#pragma once

#include <QChartView>

namespace asyncscope {

class ChartView : public QChartView {
    Q_OBJECT
public:
    explicit ChartView(QChart* chart, QWidget* parent = nullptr);

    void zoomIn();
    void zoomOut();

signals:
    // The chart should show every run again with tidy axes; whoever owns the chart's data answers.
    void resetRequested();

protected:
    void keyPressEvent(QKeyEvent* event) override;
    void mouseReleaseEvent(QMouseEvent* event) override;
    void mouseMoveEvent(QMouseEvent* event) override;
    void wheelEvent(QWheelEvent* event) override;
};

}  // namespace asyncscope

// A chart view with rubber-band zoom: drag to zoom, + and - keys, arrows to scroll, 0 or Home to reset.
#pragma once

#include <QChartView>

namespace asyncscope {

class ChartView : public QChartView {
    Q_OBJECT
public:
    explicit ChartView(QChart* chart, QWidget* parent = nullptr);

public slots:
    void resetZoom();

protected:
    void keyPressEvent(QKeyEvent* event) override;
};

}  // namespace asyncscope

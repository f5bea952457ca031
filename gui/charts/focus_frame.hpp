// Where the keys go shows: a frame in the palette's highlight colour around a view that has the keyboard focus (the
// charts, the timeline, the difference plot), drawn over what the view shows and never into its pictures.
// FramedChartView is a chart view that draws it.
#pragma once

#include <QChartView>

class QPainter;
class QPalette;

namespace asyncscope {

// Draws the frame just inside `area`.
void paintFocusFrame(QPainter& painter, const QRect& area, const QPalette& palette);

class FramedChartView : public QChartView {
    Q_OBJECT
public:
    explicit FramedChartView(QChart* chart, QWidget* parent = nullptr);

protected:
    void focusInEvent(QFocusEvent* event) override;
    void focusOutEvent(QFocusEvent* event) override;
    void drawForeground(QPainter* painter, const QRectF& rect) override;
};

}  // namespace asyncscope

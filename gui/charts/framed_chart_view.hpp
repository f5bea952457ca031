// A chart view as the window shows one: framed in the palette's highlight colour while it has the keyboard focus
// (gui/charts/focus_frame.hpp), never in its pictures; and, narrower than a width its owner gives, its legend listed in
// rows below the chart, each name whole, where a legend beside the plot would leave it too little room and one row
// below it would cut every name short. The chart's owner keeps deciding what the legend shows: the rows list the
// entries it shows.
#pragma once

#include <QChartView>
#include <QStringList>

#include <functional>

class QLabel;

namespace asyncscope {

class FramedChartView : public QChartView {
    Q_OBJECT
public:
    // Narrower than `rowsBelowPx` pixels, the legend goes in rows below the chart.
    explicit FramedChartView(QChart* chart, int rowsBelowPx, QWidget* parent = nullptr);

    // The names the rows below the chart list in place of its legend, in order; empty while the legend is shown.
    QStringList legendRowNames() const;
    // The entries the legend lists, by name, as its owner keeps them: the rows list those (without it, the markers
    // that are visible).
    void setLegendListing(std::function<QStringList()> listed);

protected:
    // The chart's legend lists other entries, or names them anew: the rows follow once the legend has laid them out.
    void legendChanged();
    void focusInEvent(QFocusEvent* event) override;
    void focusOutEvent(QFocusEvent* event) override;
    void drawForeground(QPainter* painter, const QRectF& rect) override;
    void resizeEvent(QResizeEvent* event) override;

private:
    void updateLegendRows();

    int m_rowsBelowPx;
    QLabel* m_legendRows = nullptr;
    QStringList m_rowNames;
    std::function<QStringList()> m_listed;
    bool m_narrow = false;
};

}  // namespace asyncscope

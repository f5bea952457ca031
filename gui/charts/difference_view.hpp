// The Difference tab: the series shown against the baseline as a forest plot. A row per quantity the comparison
// tested (one measured in every run of both series, whose baseline median is not 0): the difference of the medians in
// % of the baseline's as a point, its interval as a bar, against a line at 0 and a shaded band of ±the smallest
// difference that counts; the row names the quantity and its verdict, in the verdict's colour, and gives the figures
// at its right. The title names both series and says where the comparison is one across configurations. Without a
// comparison the tab says why (no baseline, nothing to compare yet, the configurations differ). Its own buttons ask
// for it to be exported as PNG or SVG (the window's file actions ask where and how large).
#pragma once

#include "engine/model/baseline.hpp"

#include <QSize>
#include <QString>
#include <QStringList>
#include <QWidget>

#include <vector>

class QPainter;

namespace asyncscope {

class SessionModel;

class DifferenceView : public QWidget {
    Q_OBJECT
public:
    struct Row {
        QString name;     // "GPU time"
        QString verdict;  // "slower", "same within noise"
        Verdict kind = Verdict::Same;
        double percent = 0.0;  // the difference of the medians, in % of the baseline's
        double low = 0.0;      // its interval, in %
        double high = 0.0;
    };
    // What the plot shows: its title lines and rows, or the message said in their place.
    struct Shown {
        QString title;
        QString subtitle;  // "baseline · a · H200 → saved: b · H200"
        QString across;    // the blocking differences, where it is a comparison across configurations
        QString blocks;    // where either series is one block: what its interval leaves out
        QString message;   // shown where there are no rows
        double band = 0.0;        // ±minDifferencePercent
        double confidence = 0.95;
        std::vector<Row> rows;
    };

    explicit DifferenceView(const SessionModel* session, QWidget* parent = nullptr);

    const Shown& shown() const { return m_shown; }
    const std::vector<Row>& rows() const { return m_shown.rows; }
    // Where there are no rows: why not.
    const QString& message() const { return m_shown.message; }
    bool hasPlot() const { return !m_shown.rows.empty(); }

    // Writes the plot to `path` (PNG or SVG by suffix) at `pixels`, on a light background as the charts are: empty
    // when written, else why not.
    QString exportPicture(const QString& path, QSize pixels) const;

    // Draws `shown` into `area` in the colours of `palette`: the tab and the pictures draw the same way. Titles and
    // the caption wrap; a name, verdict or figure too wide for its column is cut with an ellipsis, and returned.
    static QStringList paint(QPainter& painter, const QRectF& area, const QPalette& palette, const Shown& shown);

public slots:
    // The session's series, baseline or comparison changed.
    void refresh();

signals:
    void exportRequested(const QString& format);  // "png" or "svg"

private:
    const SessionModel* m_session;
    QWidget* m_plot = nullptr;
    Shown m_shown;
};

}  // namespace asyncscope

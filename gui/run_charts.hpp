// The charts of a series: time per run (GPU vs CPU submit, warm-ups marked), poll iterations, stage times.
// Used by the window (inside chart views) and by the exporter (rendered off-screen at a fixed size).
#pragma once

#include "engine/model/run_result.hpp"

#include <QChart>
#include <QLineSeries>
#include <QPointer>
#include <QScatterSeries>
#include <QString>
#include <QValueAxis>

#include <array>
#include <vector>

namespace asyncscope {

class RunCharts {
public:
    enum Kind { Time, Polls, Stages };
    static constexpr int kKindCount = 3;
    static QString title(Kind kind);

    RunCharts();
    ~RunCharts();  // deletes the charts no view or scene has taken
    RunCharts(const RunCharts&) = delete;
    RunCharts& operator=(const RunCharts&) = delete;

    QChart* chart(Kind kind) const { return m_charts[kind]; }

    // Replaces every series' points in one go (QXYSeries::replace) and rescales axes that are not zoomed.
    void setRuns(const std::vector<RunResult>& runs);
    // A saved series drawn dashed beside the current one on the time chart; empty runs remove it.
    void setOverlay(const std::vector<RunResult>& runs, const QString& label);

    int pointCount(Kind kind) const;  // points in the chart's first series

private:
    QChart* makeChart(Kind kind, const QString& yTitle);
    QLineSeries* addLine(Kind kind, const QString& name, const QColor& color);
    void rescale(Kind kind, double maxX, double maxY);

    std::array<QPointer<QChart>, kKindCount> m_charts;
    std::array<QValueAxis*, kKindCount> m_x {};
    std::array<QValueAxis*, kKindCount> m_y {};
    QLineSeries* m_gpu = nullptr;
    QLineSeries* m_cpu = nullptr;
    QScatterSeries* m_warmup = nullptr;
    QLineSeries* m_overlayGpu = nullptr;
    QLineSeries* m_overlayCpu = nullptr;
    QLineSeries* m_polls = nullptr;
    QLineSeries* m_h2d = nullptr;
    QLineSeries* m_kernel = nullptr;
    QLineSeries* m_d2h = nullptr;
    double m_overlayMaxX = 0.0;
    double m_overlayMaxY = 0.0;
};

}  // namespace asyncscope

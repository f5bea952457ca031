#include "gui/app/help_pages.hpp"

#include <QAction>
#include <QFile>

namespace asyncscope {

QString guidePage()
{
    return QObject::tr(
        "<h2>AsyncScope</h2>"
        "<p>AsyncScope runs the asyncAPI pipeline on the GPU you choose: a host buffer is copied to the device, a "
        "kernel adds a value to every element, and the result is copied back, all on one stream. CUDA calls return "
        "at once, so the CPU is free while the GPU works; the window shows how much.</p>"
        "<h3>Running</h3>"
        "<p>Choose the GPU, the size (elements, or bytes with a unit such as <i>64 MiB</i>), the value, the runs and "
        "how to wait, then <b>Run</b>. Every element of every run is checked against the value it must hold.</p>"
        "<p><b>Workload shape</b> cuts the buffer into K chunks spread over S streams, issued chunk by chunk or "
        "stage by stage, and submitted as stream calls or as one CUDA Graph launch. One chunk on one stream is "
        "asyncAPI's pipeline; chunks on several streams let one chunk's copy overlap another's kernel or the copy the "
        "other way.</p>"
        "<h3>What the tabs show</h3>"
        "<ul><li><b>Time</b>: GPU time from CUDA events against CPU submit time from the host clock, per run. "
        "Grey dots mark warm-up runs, which the statistics leave out. A long series is drawn as the lowest and the "
        "highest run of each pixel column, so no spike is lost; zooming draws the runs in view again from every "
        "run.</li>"
        "<li><b>Poll iterations</b>: how often the CPU asked whether the GPU was done: work it could have done "
        "instead.</li>"
        "<li><b>Stages</b>: host-to-device copy, kernel and device-to-host copy, timed by events between them.</li>"
        "<li><b>Timeline</b>: one run on one time axis: the CPU's submit and wait (traced by CUPTI, each runtime "
        "call), the host check, and every chunk's copies and kernel on a row per stream. It follows the latest run; "
        "a click on a point of the Time chart shows that run, <b>Latest run</b> follows again. Point at a block for "
        "its bytes, duration and GB/s; the wheel and a drag zoom, shift+drag pans, a double click shows the whole "
        "run.</li>"
        "<li><b>Distribution</b>: histograms of GPU time and CPU submit time over the measured runs, the median "
        "and p95 marked; each overlay's histogram beside them on the same bins, in a colour of its own. Point at a "
        "bin for its range and every series' share of it.</li>"
        "<li><b>Summary</b>: min, median, mean, max, standard deviation, noise and p95 of every quantity; bandwidth "
        "in decimal GB/s; this host's copy peak and the serial PCIe bound.</li>"
        "<li><b>Comparison</b>: pinned against pageable memory, spin against blocking wait, a size sweep, overlap "
        "(speed-up over K = 1 and copy throughput for K = 1 to 64 chunks on 1, 2 and 4 streams, beside the overlap "
        "model's bound, dashed) or submission (CPU submit time and GPU time, stream calls against a CUDA Graph) from "
        "the Compare menu.</li>"
        "<li><b>All GPUs</b>: the configuration run on every GPU of this host, one at a time or all at once, H2D and "
        "D2H GB/s per GPU against its link's nominal rate, a GPU slower than its siblings or its link tinted; "
        "<b>File › Open results</b> puts result files of many hosts in one such table.</li></ul>"
        "<h3>Saved runs</h3>"
        "<p><b>File › Open saved run</b> shows a JSON or CSV export in every tab, marked as saved. <b>File › Add "
        "overlay</b> draws saved runs beside the current one: a colour is a quantity, a line pattern is a run. Both "
        "work without a GPU, to study another machine's figures.</p>"
        "<p><b>File › Export trace</b> writes the series, or the comparison shown, as a Chrome trace: every run's "
        "spans on one time axis, a track per stream and per CPU thread, for Perfetto UI or chrome://tracing.</p>"
        "<p>The command line does the same headless: <tt>asyncscope --help</tt>, and <tt>asyncscope-cli</tt> for "
        "terminals; <tt>man asyncscope</tt> describes both.</p>");
}

QString shortcutsPage(const QList<QAction*>& actions)
{
    QString rows;
    auto row = [&rows](const QString& keys, const QString& what) {
        rows += QStringLiteral("<tr><td><b>%1</b></td><td>%2</td></tr>").arg(keys.toHtmlEscaped(), what.toHtmlEscaped());
    };
    for (const QAction* a : actions)
        row(a->shortcut().toString(QKeySequence::NativeText), a->text().remove('&').remove(QStringLiteral("…")));
    row(QStringLiteral("Ctrl+R"), QObject::tr("Run"));
    row(QStringLiteral("Esc"), QObject::tr("Cancel the run"));
    QString chart;
    auto chartRow = [&chart](const QString& keys, const QString& what) {
        chart += QStringLiteral("<tr><td><b>%1</b></td><td>%2</td></tr>").arg(keys.toHtmlEscaped(), what.toHtmlEscaped());
    };
    chartRow(QObject::tr("Drag"), QObject::tr("Zoom into a rectangle"));
    chartRow(QObject::tr("Wheel"), QObject::tr("Zoom in or out around the pointer"));
    chartRow(QObject::tr("+ / -"), QObject::tr("Zoom in or out"));
    chartRow(QObject::tr("Arrows"), QObject::tr("Scroll"));
    chartRow(QObject::tr("0, Home, right click"), QObject::tr("Show every run again"));
    chartRow(QObject::tr("Pointer on a point"), QObject::tr("Its run and value"));
    return QObject::tr("<h3>Window</h3><p>These work wherever the keyboard focus is.</p><table cellpadding=4>%1</table>"
                       "<h3>Charts</h3><p>Click a chart first for its keys.</p><table cellpadding=4>%2</table>")
        .arg(rows, chart);
}

QString licencePage()
{
    QFile file(QStringLiteral(":/text/LICENSE"));
    const QString text = file.open(QIODevice::ReadOnly) ? QString::fromUtf8(file.readAll())
                                                        : QObject::tr("The licence text is missing from this build.");
    return QStringLiteral("<pre style=\"white-space: pre-wrap\">%1</pre>").arg(text.toHtmlEscaped());
}

}  // namespace asyncscope

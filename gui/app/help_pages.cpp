#include "gui/app/help_pages.hpp"

#include <QAction>
#include <QFile>
#include <QRegularExpression>

namespace asyncscope {

namespace {

// The guide's parts: what AsyncScope is, running a series and what the tabs show, saved runs, the command line.
QString guideIntro()
{
    return QObject::tr(
        "<h2>AsyncScope</h2>"
        "<p>AsyncScope runs the asyncAPI pipeline on the GPU you choose: a host buffer is copied to the device, a "
        "kernel adds a value to every element, and the result is copied back, all on one stream. CUDA calls return "
        "at once, so the CPU is free while the GPU works; the window shows how much.</p>");
}

QString guideRunning()
{
    return QObject::tr(
        "<h3>Running</h3>"
        "<p>Choose the GPU, the size (elements, or bytes with a unit such as <i>64 MiB</i>), the value, the runs and "
        "how to wait, then <b>Run</b>. Every element of every run is checked against the value it must hold.</p>"
        "<p><b>Workload shape</b> cuts the buffer into K chunks spread over S streams, issued chunk by chunk or "
        "stage by stage, and submitted as stream calls, as one CUDA Graph launch or with each stream's copies in "
        "one cudaMemcpyBatchAsync call. One chunk on one stream is "
        "asyncAPI's pipeline; chunks on several streams let one chunk's copy overlap another's kernel or the copy the "
        "other way.</p>"
        "<h3>What the tabs show</h3>"
        "<ul><li><b>Time</b>: GPU time from CUDA events against CPU submit time from the host clock, per run. "
        "Grey dots mark warm-up runs, which the statistics leave out. A long series is drawn as the lowest and the "
        "highest run of each pixel column, so no spike is lost; zooming draws the runs in view again from every "
        "run, down to single runs, and fits the values to them.</li>"
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
        "<li><b>Difference</b>: the series shown against the baseline (<b>File › Compare with baseline</b>): for each "
        "quantity of every run, the difference of the medians in % of the baseline's as a point, its 95 % interval "
        "as a bar, against 0 and the band of differences too small to count; each row says slower, faster or the "
        "same.</li>"
        "<li><b>Advice</b>: what limits the series shown and whether its figures can be trusted: a row per finding, "
        "most severe first, with the figures it rests on and one thing to do: transfer-bound (with the overlap "
        "model's best chunks and streams), overlap headroom, pageable copies, submit-bound, check-bound, too short "
        "to time, another process on the GPU, the PCIe link below its best, clocks held low, noise and its likeliest "
        "cause. Click a row, or Tab to it and press Enter, to see what it concerns: its runs zoomed in the Time "
        "chart, a run's stages on the timeline, the summary or the comparison. The machine's state (clocks, "
        "temperature, power, the link, the processes on the GPU) is read through NVML four times a second while a "
        "series runs; without NVML the tab says which rules were not checked, and why. While a series runs it is "
        "judged once a second, and again with the machine's state when it ends; a comparison's findings come by "
        "variant. A warning or worse shows as a badge at the right of the status line, which opens the tab. "
        "<b>Copy</b> and <b>File › Export advice</b> give it as text or Markdown.</li>"
        "<li><b>Comparison</b>: pinned against pageable memory, spin against blocking wait, a size sweep, overlap "
        "(speed-up over K = 1 and copy throughput for K = 1 to 64 chunks on 1, 2 and 4 streams, beside the overlap "
        "model's bound, dashed), submission (CPU submit time and GPU time, stream calls against a CUDA Graph and "
        "batched copies) or memory (every kind of host memory and both copy mechanisms, a chart per quantity; "
        "<b>Help › Memory lab</b> explains what they show) from the Compare menu. A variant that cannot run on this "
        "GPU or with these choices is listed in the table with the reason.</li>"
        "<li><b>All GPUs</b>: the configuration run on every GPU of this host, one at a time or all at once, H2D and "
        "D2H GB/s per GPU against its link's nominal rate, a GPU slower than its siblings or its link tinted; "
        "<b>File › Open results</b> opens result files of many hosts in a window of its own, one such table.</li></ul>");
}

QString guideSaved()
{
    return QObject::tr(
        "<h3>Saved runs</h3>"
        "<p><b>File › Open saved run</b> shows a JSON or CSV export in every tab, marked as saved. <b>File › Add "
        "overlay</b> draws saved runs beside the current one: a colour is a quantity, a line pattern is a run. Both "
        "work without a GPU, to study another machine's figures.</p>"
        "<p><b>File › Compare with baseline</b> (Ctrl+B) takes a saved series as the baseline: it is drawn as an "
        "overlay named \"baseline · …\", and the series shown (a run once it ends, or a file opened) is compared with "
        "it quantity by quantity, as <tt>asyncscope-cli --baseline</tt> compares: the Summary tab gains the "
        "baseline's median, the difference, its interval, p and a verdict (slower red, faster green), the Difference "
        "tab plots them, and the status line gives the verdict on GPU time. Where the two configurations differ "
        "(device, driver, size, shape, memory …) the window asks before comparing across them, and every view then "
        "says so. <b>File › Clear baseline</b> takes it away.</p>"
        "<p><b>File › Export trace</b> writes the series, or the comparison shown, as a Chrome trace: every run's "
        "spans on one time axis, a track per stream and per CPU thread, for Perfetto UI or chrome://tracing.</p>"
        "<p>A saved comparison (<tt>asyncscope-cli --compare … --format json</tt>, or <b>Compare › Export comparison "
        "as JSON</b>) opens into the Comparison tab the same way, the memory lab's charts included.</p>");
}

QString guideRecording()
{
    return QObject::tr(
        "<h3>Your own program</h3>"
        "<p><b>File › Record a program</b> (Ctrl+Shift+R) runs a CUDA program of yours under the recorder, with no "
        "rebuild: its copies, kernels and CUDA calls are recorded, and its iterations (an NVTX range that repeats, or "
        "the work between two host synchronizations) become runs, shown as a saved series is: the Time chart, the "
        "timeline of its streams, the advice, and a baseline to compare with. The dialog keeps the program, its "
        "arguments, environment and folder for the next time. The report, its recording and the program's output "
        "are kept side by side; <tt>asyncscope-cli record</tt> does the same from a terminal, and "
        "<tt>asyncscope FILE</tt> opens its report. Recording needs a GPU that can run here.</p>");
}

QString guideCommandLine()
{
    return QObject::tr(
        "<p>The command line does the same headless: <tt>asyncscope --help</tt>, and <tt>asyncscope-cli</tt> for "
        "terminals; <tt>man asyncscope</tt> describes both.</p>");
}

}  // namespace

QString guidePage(bool canRun)
{
    // Without a GPU that can run, what works here comes first: saved runs.
    if (!canRun)
        return guideIntro() +
            QObject::tr("<p><b>No GPU can run here</b>: saved runs and comparisons, from this app or the CLI on "
                        "another machine, open without one. <b>File › Open saved run</b> (Ctrl+O), or drop a file "
                        "on the window.</p>") +
            guideSaved() + guideRunning() + guideRecording() + guideCommandLine();
    return guideIntro() + guideRunning() + guideSaved() + guideRecording() + guideCommandLine();
}

QString memoryLabPage()
{
    return QObject::tr(
        "<h2>Memory lab</h2>"
        "<p><b>Compare › Memory</b> runs the configuration, at its size and shape, with every kind of host buffer: "
        "pageable, pinned, write-combined, registered, pinned with the other copy mechanism, mapped (zero-copy), and "
        "managed with prefetches and on demand. Each chart shows one quantity, a bar per variant that has it; the "
        "table below holds every figure. A variant this GPU or these choices cannot run (batch submission with "
        "memory that has no copies, for instance) is not run, and the table says why.</p>"
        "<h3>Pageable memory</h3>"
        "<p>The copy engines can only reach page-locked memory: the GPU reads host memory by physical address, and "
        "the operating system may move or swap out a pageable page at any time. So <tt>cudaMemcpyAsync</tt> from "
        "<tt>malloc</tt> memory is staged: the driver copies the data with the CPU into pinned buffers of its own and "
        "the copy engine takes it from there, piece by piece. The copy is slower than the link, and the call is "
        "\"async\" in name only: the CPU does the staging, so <i>CPU submit time</i> grows with the size and overlap "
        "with other work is lost. Nsight Systems flags it as an asynchronous copy from pageable memory.</p>"
        "<h3>Pinned, write-combined and registered memory</h3>"
        "<p>All three are page-locked, so the copy engines move them directly by DMA and the copies run at the link's "
        "rate: their H2D and D2H bars should stand level with each other. <i>Write-combined</i> memory "
        "(<tt>cudaHostAllocWriteCombined</tt>) is not cached by the CPU: the CPU writes it in bursts, fast, but its "
        "reads are very slow. The host check reads every element, so a write-combined series shows the cost there "
        "(the check's time on the Timeline, and the CPU time while waiting when the check runs after each run); use "
        "it for buffers the CPU only fills and the GPU only reads.</p>"
        "<p><i>Registered</i> memory is ordinary memory pinned in place with <tt>cudaHostRegister</tt>: the way to "
        "copy fast from a buffer you did not allocate (a file mapping, a library's buffer). Registering costs time "
        "once: the driver locks every page and maps it for the GPU, and <tt>cudaHostUnregister</tt> undoes it. The "
        "registration chart shows both for the series' host buffers. Registering pays where the buffer is copied "
        "often: compare its cost with what the faster copies save over pageable copies per run, times the runs. For "
        "a buffer copied once, staging through pageable copies may cost less.</p>"
        "<h3>SM copies</h3>"
        "<p>An SM copy is no copy engine at all: a kernel whose threads load from one pointer and store to another, "
        "the host side reached through its mapped device pointer, so every access crosses the bus as the threads "
        "make it. It takes SMs from your kernels and needs pinned memory, but it can help where the copy engines are "
        "busy or where many small pieces would each cost a <tt>cudaMemcpyAsync</tt>; where the engines are free, "
        "their bars and the SM copies' show which is faster on this machine. Batch submission hands copies to the "
        "copy engines, so it does not go with SM copies.</p>"
        "<h3>Mapped memory (zero-copy)</h3>"
        "<p>Mapped memory is pinned memory with a device pointer (<tt>cudaHostGetDevicePointer</tt>): the kernel "
        "reads and writes the host buffer itself, over the bus, and nothing is copied, so there are no H2D or D2H "
        "bars. All the traffic is in the kernel's time: compare its <i>GPU time</i> with the copying variants'. It "
        "pays for data touched once and sequentially; data read again and again is better copied into device "
        "memory first.</p>"
        "<h3>Managed memory</h3>"
        "<p><tt>cudaMallocManaged</tt> gives one pointer valid on host and device; the driver migrates pages to "
        "whichever touches them. With <b>prefetch</b>, <tt>cudaMemPrefetchAsync</tt> moves the whole buffer to the "
        "GPU before the kernel and back to the host after it, where the copies would be: bulk migrations that come "
        "close to copies. <b>On demand</b> has no prefetches: the kernel's first touch of each page faults, the GPU "
        "stalls while the driver moves it, and the host check's faults bring the pages back, outside the GPU time. "
        "Faulting moves small pieces with a round trip each, so it is much slower than a bulk move; it suits data "
        "whose pattern of use is not known in advance. <b>Managed advice</b> (<tt>cudaMemAdvise</tt>) says where "
        "the pages should preferably live, or that they are mostly read, so that a copy is kept on each side.</p>"
        "<h3>Batch submission</h3>"
        "<p><tt>cudaMemcpyBatchAsync</tt> (CUDA 12.8 and later) hands a stream's copies one way to the runtime in "
        "one call instead of a <tt>cudaMemcpyAsync</tt> each. What it saves is CPU time per copy: compare the "
        "<i>CPU submit time</i> of stream calls and batches in <b>Compare › Submission</b> at many chunks; the GPU "
        "time should stay close. <b>Prefer overlap with compute</b> sets "
        "<tt>cudaMemcpyFlagPreferOverlapWithCompute</tt> on the batch's copies, asking for a copy path that runs "
        "beside kernels.</p>"
        "<h3>Reading the bound ratio</h3>"
        "<p><i>GPU time / serial bound</i> divides the GPU time by what the pipeline would take if it did nothing but "
        "copy the buffer to the device and back, one copy after the other, at this host's measured pinned peak "
        "(the kernel's time left out). Near 1, the run is as fast as serial copies allow and its time is the "
        "link's; well above 1, something else costs: staging (pageable), page faults (managed on demand), a slow "
        "kernel reading over the bus (mapped), or a long kernel. Below 1 needs traffic both ways at once: several "
        "chunks on several streams, or a kernel that reads and writes host memory as it goes (mapped memory).</p>");
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
    chartRow(QObject::tr("Drag"), QObject::tr("Zoom into a rectangle; a thin one along the runs, into those runs"));
    chartRow(QObject::tr("Wheel"), QObject::tr("Zoom the runs in or out around the pointer, down to single runs; "
                                               "the values fit the runs in view"));
    chartRow(QObject::tr("Shift+wheel"), QObject::tr("Zoom the values around the pointer"));
    chartRow(QObject::tr("+ / -"), QObject::tr("Zoom the runs in or out"));
    chartRow(QObject::tr("Left / Right, Up / Down"), QObject::tr("Scroll the runs, the values"));
    chartRow(QObject::tr("0, Home, double click, right click"), QObject::tr("Show every run again"));
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
    // The file's paragraphs, each reflowed to the window's width: its own line breaks would wrap it a second time.
    QString html;
    for (const QString& paragraph : text.split(QRegularExpression(QStringLiteral("\\n\\s*\\n")), Qt::SkipEmptyParts))
        html += QStringLiteral("<p>%1</p>").arg(paragraph.simplified().toHtmlEscaped());
    return html;
}

}  // namespace asyncscope

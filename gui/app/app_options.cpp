#include "gui/app/app_options.hpp"

#include "engine/model/size_parse.hpp"
#include "engine/run/plan.hpp"

#include <QCommandLineParser>
#include <QCoreApplication>

namespace asyncscope {

namespace {

Error usage(const QString& text)
{
    return makeError(ErrorKind::Usage, text.toStdString(), "See asyncscope --help.");
}

// A choice option (--order stage): `target` takes the named value, or the usage error names what T accepts.
template <typename T>
std::optional<Error> takeChoice(
    const QCommandLineParser& parser, const QCommandLineOption& option, std::optional<T>& target)
{
    if (!parser.isSet(option))
        return std::nullopt;
    target = parseName<T>(parser.value(option).toStdString());
    if (target)
        return std::nullopt;
    return usage("--" + option.names().constLast() + " takes " + QString::fromStdString(acceptedNames<T>()) +
        ", not '" + parser.value(option) + "'");
}

template <typename T>
QCommandLineOption choiceOption(const char* name, const char* what, const char* valueName)
{
    return QCommandLineOption(QString::fromLatin1(name),
        QString::fromLatin1(what) + ": " + QString::fromStdString(acceptedNames<T>()) + '.', QString::fromLatin1(valueName));
}

// Every option of the app with its help text: what --help lists, what the command line is read with, and what the man
// page lists (appManOptions). Qt's own options come on top, hidden but for --help-all.
struct Definitions {
    // Qt's addHelpOption() and addVersionOption() would make these, in these words; they are ours so that the man
    // page lists them as --help does.
    QCommandLineOption help { { "h", "help" }, "Displays help on commandline options." };
    QCommandLineOption helpAll { "help-all", "Displays help, including generic Qt options." };
    QCommandLineOption version { { "v", "version" }, "Displays version information." };
    QCommandLineOption device { { "d", "device" }, "CUDA device index.", "N" };
    QCommandLineOption size { { "s", "size" }, "Elements (16777216) or bytes with a unit (64MiB).", "SIZE" };
    QCommandLineOption runs { { "r", "runs" }, "Measured runs.", "N" };
    QCommandLineOption run { "run", "Start a run at once." };
    QCommandLineOption chunks { "chunks", "Chunks the buffer is split into (1: the classic pipeline).", "K" };
    QCommandLineOption streams { "streams", "Streams the chunks take in turn (1 to K).", "S" };
    QCommandLineOption order = choiceOption<IssueOrder>("order", "Issue order of the chunks", "ORDER");
    QCommandLineOption submit = choiceOption<Submission>("submit", "Submission", "HOW");
    QCommandLineOption traceSource =
        choiceOption<TraceSource>("trace-source", "Where the timeline comes from", "SOURCE");
    QCommandLineOption hostMemory = choiceOption<HostMemory>("host-memory", "Host memory of the buffer", "KIND");
    QCommandLineOption copy = choiceOption<CopyMechanism>("copy", "What moves the bytes", "MECHANISM");
    QCommandLineOption migration =
        choiceOption<ManagedMigration>("managed-migration", "How managed memory reaches the GPU", "HOW");
    QCommandLineOption advice =
        choiceOption<ManagedAdvice>("managed-advice", "cudaMemAdvise for managed memory", "ADVICE");
    QCommandLineOption compare { "compare",
        "Run a comparison: " + QString::fromStdString(runnableComparisonText()) + '.', "KIND" };
    QCommandLineOption sweepMin { "sweep-min", "Smallest size of --compare size.", "SIZE", "4KiB" };
    QCommandLineOption sweepMax { "sweep-max", "Largest size of --compare size.", "SIZE", "1GiB" };
    QCommandLineOption open { "open",
        "Show a saved series (JSON or CSV export) in every tab; no GPU needed. With --export-png: export its time "
        "chart, quit.",
        "FILE" };
    QCommandLineOption overlay {
        "overlay", "Overlay a saved run (JSON or CSV export) on the run charts; give it again for more.", "FILE" };
    QCommandLineOption baseline { "baseline",
        "Compare the series shown (run or --open's) with a saved series (JSON or CSV export): the Summary and "
        "Difference tabs and the status line say, quantity by quantity, whether it is slower, faster or the same. "
        "With --export-png it is compared even across configurations, and the status line says so.",
        "FILE" };
    QCommandLineOption exportPng { "export-png",
        "Run (or read --open's file), export the time chart as PNG to FILE, quit.", "FILE" };
    QCommandLineOption screenshot { "screenshot", "With --export-png: also save the whole window to FILE.", "FILE" };
    QCommandLineOption exportTimeline { "export-timeline",
        "With --export-png: also export the last run's timeline to FILE (PNG or SVG by suffix).", "FILE" };
    QCommandLineOption allGpus { "all-gpus",
        "Run the series on every GPU, one at a time, and show them side by side (All GPUs tab); with --export-png "
        "export their chart." };
    QCommandLineOption allAtOnce { "all-at-once", "With --all-gpus: every GPU at the same time." };
    QCommandLineOption noNumaBinding { "no-numa-binding",
        "Leave the run thread of each GPU unbound instead of on its NUMA node's CPUs (every run, as in the CLI)." };
    QCommandLineOption exportSize { "export-size", "Pixel size of the exported chart.", "WxH", "1600x900" };
    QCommandLineOption tab { "tab",
        "Show this tab from the start and when a run ends (and in --screenshot): time, poll-iterations, stages, "
        "timeline, distribution, summary, difference, advice, comparison or all-gpus.",
        "NAME" };
    QCommandLineOption theme { "theme",
        "The look for this start: system (the desktop's), light or dark (Fusion with AsyncScope's colours); "
        "Settings › Theme keeps a choice.",
        "NAME" };

    QList<QCommandLineOption> listed() const
    {
        return { help, helpAll, version, device, size, runs, chunks, streams, order, submit, traceSource, hostMemory,
            copy, migration, advice, run, compare, sweepMin, sweepMax, open, overlay, baseline, exportPng, screenshot,
            exportTimeline, allGpus, allAtOnce, noNumaBinding, exportSize, tab, theme };
    }
};

}  // namespace

Result<AppOptions> parseAppOptions(const QStringList& arguments)
{
    QCommandLineParser parser;
    parser.setApplicationDescription(
        QStringLiteral("AsyncScope: see asynchronous CUDA execution, GPU time against CPU submit time."));
    const Definitions d;
    parser.addOptions(d.listed());
    // Files as a desktop hands them over (the .desktop file's %F, "Open With", a file dropped on the launcher).
    parser.addPositionalArgument(QStringLiteral("FILE"),
        QStringLiteral("Files to open, as --open takes the first and --overlay the others: a saved series, a "
                       "comparison, a host's record or a kept recording."),
        QStringLiteral("[FILE…]"));
    // Qt's own options (-style Adwaita-Dark, -platform offscreen …) are for QApplication, which takes them after this
    // parser has run; they are accepted here and left alone. --help lists the app's options, --help-all these too.
    parser.setSingleDashWordOptionMode(QCommandLineParser::ParseAsLongOptions);
    struct QtOption {
        const char* name;
        const char* value;  // null: a flag
        const char* what;
    };
    static constexpr QtOption kQtOptions[] = {
        { "platform", "NAME", "the window system plugin: xcb, wayland, offscreen …" },
        { "platformpluginpath", "PATH", "where platform plugins are looked for" },
        { "platformtheme", "NAME", "the platform theme" },
        { "plugin", "NAME", "an extra plugin to load" },
        { "qwindowgeometry", "WxH+X+Y", "the main window's geometry" },
        { "qwindowicon", "FILE", "the main window's icon" },
        { "qwindowtitle", "TITLE", "the main window's title" },
        { "session", "ID", "restore a session" },
        { "display", "NAME", "the X display" },
        { "geometry", "WxH+X+Y", "the main window's geometry" },
        { "style", "NAME", "the widget style: Fusion, Windows …" },
        { "stylesheet", "FILE", "a Qt style sheet" },
        { "reverse", nullptr, "right-to-left layout" },
        { "widgetcount", nullptr, "print the widgets left undestroyed at exit" },
        { "nograb", nullptr, "never grab the mouse or keyboard" },
        { "dograb", nullptr, "grab even where a debugger runs" },
        { "sync", nullptr, "X11 synchronous mode, for debugging" },
    };
    QString qtHelp = QStringLiteral("\nQt options (single dash, for the window system):\n");
    for (const QtOption& o : kQtOptions) {
        QCommandLineOption qt(QString::fromLatin1(o.name), QString(),
            o.value ? QString::fromLatin1(o.value) : QString());
        qt.setFlags(QCommandLineOption::HiddenFromHelp);
        parser.addOption(qt);
        const QString spelled = '-' + QString::fromLatin1(o.name) + (o.value ? ' ' + QString::fromLatin1(o.value) : "");
        qtHelp += QStringLiteral("  %1  %2\n").arg(spelled, -27).arg(QString::fromUtf8(o.what));
    }

    if (!parser.parse(arguments))
        return usage(parser.errorText());
    AppOptions options;
    // --help-all adds Qt's own options to the help.
    const bool helpAll = parser.isSet(d.helpAll);
    if (parser.isSet(d.help) && !helpAll) {
        options.earlyExitText = parser.helpText();
        return options;
    }
    if (helpAll) {
        options.earlyExitText = parser.helpText() + qtHelp;
        return options;
    }
    if (parser.isSet(d.version)) {
        options.earlyExitText = QCoreApplication::applicationName() + ' ' + QCoreApplication::applicationVersion() + '\n';
        return options;
    }

    bool ok = false;
    if (parser.isSet(d.device)) {
        const int index = parser.value(d.device).toInt(&ok);
        if (!ok || index < 0)
            return usage("--device needs a device index (0, 1, ...), not '" + parser.value(d.device) + "'");
        options.device = index;
    }
    if (parser.isSet(d.size)) {
        auto elements = parseElementCount(parser.value(d.size).toStdString());
        if (!elements)
            return elements.error();
        options.elements = *elements;
    }
    if (parser.isSet(d.runs)) {
        const int count = parser.value(d.runs).toInt(&ok);
        if (!ok || count < 1)
            return usage("--runs needs a whole number of at least 1, not '" + parser.value(d.runs) + "'");
        options.runs = count;
    }
    for (auto [option, value] :
        { std::pair { &d.chunks, &options.chunks }, std::pair { &d.streams, &options.streams } }) {
        if (!parser.isSet(*option))
            continue;
        const int count = parser.value(*option).toInt(&ok);
        if (!ok || count < 1)
            return usage("--" + option->names().constFirst() + " needs a whole number of at least 1, not '" +
                parser.value(*option) + "'");
        *value = count;
    }
    for (const std::optional<Error>& bad : { takeChoice(parser, d.order, options.order),
             takeChoice(parser, d.submit, options.submission), takeChoice(parser, d.traceSource, options.traceSource),
             takeChoice(parser, d.hostMemory, options.hostMemory), takeChoice(parser, d.copy, options.copy),
             takeChoice(parser, d.migration, options.managedMigration),
             takeChoice(parser, d.advice, options.managedAdvice) }) {
        if (bad)
            return *bad;
    }
    if (parser.isSet(d.compare)) {  // a comparison of processes is made by recording a program, not run
        options.comparison = parseRunnableComparison(parser.value(d.compare).toStdString());
        if (!options.comparison)
            return usage("--compare takes " + QString::fromStdString(runnableComparisonText()) + ", not '" +
                parser.value(d.compare) + "'");
    }
    const QStringList wh = parser.value(d.exportSize).split('x');
    const int w = wh.value(0).toInt(&ok);
    bool okH = false;
    const int h = wh.value(1).toInt(&okH);
    if (wh.size() != 2 || !ok || !okH || w < 16 || h < 16 || w > 16384 || h > 16384)
        return usage("--export-size needs WIDTHxHEIGHT between 16 and 16384 pixels, not '" + parser.value(d.exportSize) + "'");
    options.exportSize = QSize(w, h);
    options.open = parser.value(d.open);
    options.overlays = parser.values(d.overlay);
    QStringList files = parser.positionalArguments();
    if (!files.isEmpty()) {
        if (!options.open.isEmpty())
            return usage("'" + files.first() + "' and --open " + options.open +
                " both name the file to open; give one (more files overlay it: --overlay)");
        options.open = files.takeFirst();
        options.overlays = files + options.overlays;
    }
    options.baseline = parser.value(d.baseline);
    for (auto [option, bytes] : { std::pair { &d.sweepMin, &options.sweepMinBytes }, std::pair { &d.sweepMax, &options.sweepMaxBytes } }) {
        auto elements = parseElementCount(parser.value(*option).toStdString());
        if (!elements)
            return elements.error();
        *bytes = *elements * sizeof(int);
    }
    options.runNow = parser.isSet(d.run);
    options.exportPng = parser.value(d.exportPng);
    options.screenshot = parser.value(d.screenshot);
    options.tab = parser.value(d.tab).toLower();
    static const QStringList kTabs = { "time", "poll-iterations", "stages", "timeline", "distribution", "summary",
        "difference", "advice", "comparison", "all-gpus" };
    if (!options.tab.isEmpty() && !kTabs.contains(options.tab))
        return usage(QStringLiteral("--tab %1 is not a tab; accepted: %2").arg(parser.value(d.tab), kTabs.join(", ")));
    if (parser.isSet(d.theme)) {
        options.theme = themeFromKey(parser.value(d.theme));
        if (!options.theme)
            return usage(QStringLiteral("--theme %1 is not a theme; accepted: %2")
                             .arg(parser.value(d.theme), themeKeys().join(", ")));
    }
    if (!options.screenshot.isEmpty() && options.exportPng.isEmpty())
        return usage("--screenshot goes with --export-png");
    options.exportTimeline = parser.value(d.exportTimeline);
    if (!options.exportTimeline.isEmpty() && options.exportPng.isEmpty())
        return usage("--export-timeline goes with --export-png");
    if (!options.exportTimeline.isEmpty() && options.comparison)
        return usage("--export-timeline shows one run of a series; it does not go with --compare");
    if (!options.open.isEmpty() && (options.runNow || options.comparison))
        return usage(QStringLiteral("--open shows a saved series; it does not go with --%1")
                         .arg(options.runNow ? QStringLiteral("run") : QStringLiteral("compare")));
    options.allGpus = parser.isSet(d.allGpus);
    options.allAtOnce = parser.isSet(d.allAtOnce);
    if (options.allAtOnce && !options.allGpus)
        return usage("--all-at-once goes with --all-gpus");
    options.numaBinding = !parser.isSet(d.noNumaBinding);
    if (options.allGpus && (options.comparison || !options.open.isEmpty() || !options.exportTimeline.isEmpty()))
        return usage("--all-gpus runs one series on every GPU; it does not go with --compare, --open or "
                     "--export-timeline");
    if (!options.baseline.isEmpty() && (options.comparison || options.allGpus))
        return usage(QStringLiteral("--baseline compares one series with a saved one; it does not go with --%1")
                         .arg(options.comparison ? QStringLiteral("compare") : QStringLiteral("all-gpus")));
    return options;
}

void AppOptions::applyShape(PipelineConfig& config) const
{
    config.chunks = chunks.value_or(config.chunks);
    config.streams = streams.value_or(config.streams);
    config.order = order.value_or(config.order);
    config.submission = submission.value_or(config.submission);
    config.traceSource = traceSource.value_or(config.traceSource);
    config.hostMemory = hostMemory.value_or(config.hostMemory);
    config.copy = copy.value_or(config.copy);
    config.managedMigration = managedMigration.value_or(config.managedMigration);
    config.managedAdvice = managedAdvice.value_or(config.managedAdvice);
}

std::vector<ManOption> appManOptions()
{
    std::vector<ManOption> listed;
    for (const QCommandLineOption& option : Definitions().listed()) {
        if (option.flags().testFlag(QCommandLineOption::HiddenFromHelp))
            continue;
        ManOption m;
        for (const QString& name : option.names())
            m.names.push_back((name.size() == 1 ? "-" : "--") + name.toStdString());
        m.value = option.valueName().toStdString();
        m.description = option.description().toStdString();
        m.defaultValue = option.defaultValues().join(", ").toStdString();
        listed.push_back(std::move(m));
    }
    return listed;
}

}  // namespace asyncscope

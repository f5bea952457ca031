// Benchmark (not a test): does the window's GUI thread keep answering while it takes in a lot of runs? A heartbeat
// timer on the GUI thread (every 5 ms) records how late each beat comes; a beat later than its interval is a stall of
// the event loop, which a person at the window feels as a frozen window. Measured while the real MainWindow
//   (a) runs series of 10 000, 100 000 and 1 000 000 runs on the fake backend at full speed (no pause between
//       runs), one after the other, and
//   (b) opens a series of 1 000 000 runs of the classic pipeline, written first as the CLI writes it, in JSON and in
//       CSV, through the window's file actions, until the series is shown and drawn;
//   (c) overlays the JSON file on the CSV one, then shows the Distribution tab (both series counted into bins), then
//       opens the CSV file again with that tab shown;
//   (d) shows the Advice tab, then runs the shortest session again with it shown.
// The sessions' machine state comes from a fake probe that lists another process on the GPU: the advice's
// interference rule, its costliest, reads every run whenever the series is judged (once a second while it runs).
// Prints one table: scenario, duration, longest stall, p99 stall, heartbeats, and under each scenario the events the
// GUI thread handled during its longest stall and what handled them; the goal is a longest stall of 50 ms. Then the
// process's resident memory at the start and after the longest session (the window holds that series then); the
// goal is at most 400 MB more than at the start; and what a run of a live series costs, the memory after the longest
// session less that after the shortest, per run: the goal is at most 250 B.
// It uses no Qt Test and needs no library the app does not, so it runs with the Qt libraries of the portable bundle
// on a host without Qt (lib/gl-fallback holds the GL dispatch libraries such a host may lack), on one line:
//   B=BUNDLE; LD_LIBRARY_PATH=$B/lib:$B/lib/gl-fallback QT_PLUGIN_PATH=$B/plugins FONTCONFIG_FILE=$B/etc/fonts.conf
//   QT_QPA_PLATFORM=offscreen ./asyncscope_bench_gui_stall [session runs, comma-separated] [file runs]
#include "classic_runs.hpp"
#include "fake_backend.hpp"
#include "fake_machine_probe.hpp"

#include "gui/app/file_actions.hpp"
#include "gui/app/main_window.hpp"
#include "gui/config/config_panel.hpp"
#include "gui/session/plan_controller.hpp"
#include "gui/session/session_model.hpp"

#include "engine/io/csv/csv_report.hpp"
#include "engine/io/json/json_report.hpp"
#include "engine/model/advice.hpp"

#include <QApplication>
#include <QElapsedTimer>
#include <QEventLoop>
#include <QMetaEnum>
#include <QSettings>
#include <QSpinBox>
#include <QStringList>
#include <QTabWidget>
#include <QTemporaryDir>
#include <QThread>
#include <QTimer>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <string>
#include <utility>
#include <vector>

using namespace asyncscope;

namespace {

constexpr int kBeatMs = 5;
constexpr double kGoalMs = 50.0;
constexpr int kSettleMs = 1000;  // after the work is done: the repaints it asked for are measured too
constexpr double kMemoryGoalMB = 400.0;  // growth of resident memory over the longest session
constexpr double kMemoryGoalBytesPerRun = 250.0;  // the longest session's memory less the shortest's, per run

// The process's resident memory in MB (VmRSS), or a negative number where /proc does not say.
double residentMB()
{
    std::ifstream status("/proc/self/status");
    std::string line;
    while (std::getline(status, line)) {
        if (line.rfind("VmRSS:", 0) == 0)
            return std::strtod(line.c_str() + 6, nullptr) / 1024.0;  // given in kB
    }
    return -1.0;
}

// The application, noting each event the GUI thread handled at the top of its event loop for longer than
// kEventNotedNs: when it began, how long it took and which object handled it (a queued signal reaches its receiver as
// a MetaCall; a repaint reaches the window as UpdateRequest). A stall is then told as the events inside it. Other
// threads' events pass through notify() too and are left out.
class TimedApplication : public QApplication {
public:
    struct Event {
        qint64 startNs = 0;
        qint64 ns = 0;
        QString what;
    };

    TimedApplication(int& argc, char** argv)
        : QApplication(argc, argv)
    {
        m_clock.start();
    }

    bool notify(QObject* receiver, QEvent* event) override
    {
        if (m_depth > 0 || QThread::currentThread() != thread())
            return QApplication::notify(receiver, event);
        ++m_depth;
        const qint64 start = m_clock.nsecsElapsed();
        const QEvent::Type type = event->type();  // the event may be gone once handled
        const char* className = receiver->metaObject()->className();
        const bool handled = QApplication::notify(receiver, event);
        const qint64 ns = m_clock.nsecsElapsed() - start;
        --m_depth;
        if (ns > kEventNotedNs) {
            const char* typeName = QMetaEnum::fromType<QEvent::Type>().valueToKey(type);
            m_events.push_back({ start, ns, QStringLiteral("%1 to %2").arg(typeName ? typeName : "event", className) });
        }
        return handled;
    }

    // Nanoseconds on the clock the events' starts are noted on.
    qint64 now() const { return m_clock.nsecsElapsed(); }

    // The events noted since the last call, and forgets them.
    std::vector<Event> takeEvents() { return std::exchange(m_events, {}); }

private:
    static constexpr qint64 kEventNotedNs = 500000;
    int m_depth = 0;
    QElapsedTimer m_clock;
    std::vector<Event> m_events;
};

TimedApplication* timedApp()
{
    return static_cast<TimedApplication*>(QCoreApplication::instance());
}

// "21.3 ms MetaCall to QGraphicsScene, 7.1 ms MetaCall to asyncscope::ReportLoader and 3 more (2.0 ms)": the events
// that began between two beats, longest first.
QString eventsBetween(std::vector<TimedApplication::Event> events, qint64 fromNs, qint64 toNs)
{
    const auto outside = [&](const TimedApplication::Event& e) { return e.startNs < fromNs || e.startNs >= toNs; };
    events.erase(std::remove_if(events.begin(), events.end(), outside), events.end());
    std::sort(events.begin(), events.end(), [](const auto& a, const auto& b) { return a.ns > b.ns; });
    constexpr std::size_t kNamed = 3;
    QStringList named;
    qint64 restNs = 0;
    for (std::size_t i = 0; i < events.size(); ++i) {
        if (i < kNamed)
            named << QStringLiteral("%1 ms %2").arg(double(events[i].ns) / 1e6, 0, 'f', 1).arg(events[i].what);
        else
            restNs += events[i].ns;
    }
    if (named.isEmpty())
        return QStringLiteral("no event over 0.5 ms");
    QString text = named.join(QStringLiteral(", "));
    if (events.size() > kNamed)
        text += QStringLiteral(" and %1 more (%2 ms)").arg(events.size() - kNamed).arg(double(restNs) / 1e6, 0, 'f', 1);
    return text;
}

struct Figures {
    double seconds = 0.0;
    double longestMs = 0.0;
    double p99Ms = 0.0;
    QString inLongest;  // the events the GUI thread handled during the longest stall
    std::size_t beats = 0;
};

// A timer on the GUI thread that notes how late each of its beats comes.
class Heartbeat {
public:
    Heartbeat()
    {
        m_timer.setTimerType(Qt::PreciseTimer);
        m_timer.setInterval(kBeatMs);
        QObject::connect(&m_timer, &QTimer::timeout, [this] { beat(); });
    }

    void start()
    {
        timedApp()->takeEvents();
        m_stallsNs.clear();
        m_last = timedApp()->now();
        m_longestFrom = m_longestTo = m_last;
        m_timer.start();
    }

    // The figures since start(); `seconds` is the work's duration, measured by the caller.
    Figures stop(double seconds)
    {
        beat();  // the gap since the last beat counts too
        m_timer.stop();
        Figures f;
        f.inLongest = eventsBetween(timedApp()->takeEvents(), m_longestFrom, m_longestTo);
        f.seconds = seconds;
        f.beats = m_stallsNs.size();
        if (m_stallsNs.empty())
            return f;
        std::vector<qint64> sorted = m_stallsNs;
        std::sort(sorted.begin(), sorted.end());
        f.longestMs = double(sorted.back()) / 1e6;
        f.p99Ms = double(sorted[std::min(sorted.size() - 1, sorted.size() * 99 / 100)]) / 1e6;
        return f;
    }

private:
    void beat()
    {
        const qint64 now = timedApp()->now();
        const qint64 stall = std::max<qint64>(0, now - m_last - qint64(kBeatMs) * 1000000);
        if (m_stallsNs.empty() || stall > m_longestNs) {
            m_longestNs = stall;
            m_longestFrom = m_last;
            m_longestTo = now;
        }
        m_stallsNs.push_back(stall);
        m_last = now;
    }

    QTimer m_timer;
    qint64 m_last = 0;
    qint64 m_longestNs = 0;
    qint64 m_longestFrom = 0, m_longestTo = 0;  // the beats around the longest stall
    std::vector<qint64> m_stallsNs;
};

// Runs the event loop until `sender` emits `signal`; false after `timeoutMs` without it.
template <class Sender, class Signal>
bool waitFor(const Sender* sender, Signal signal, int timeoutMs)
{
    QEventLoop loop;
    QTimer::singleShot(timeoutMs, &loop, [&loop] { loop.exit(1); });
    QObject::connect(sender, signal, &loop, [&loop] { loop.exit(0); });
    return loop.exec() == 0;
}

void settle(int ms)
{
    QEventLoop loop;
    QTimer::singleShot(ms, &loop, &QEventLoop::quit);
    loop.exec();
}

bool writeSeries(const std::string& json, const std::string& csv, std::size_t runs)
{
    const Report report = testing::classicReport(runs);
    std::ofstream jsonOut(json, std::ios::binary);
    writeJson(jsonOut, report, assessSeries(report));
    std::ofstream csvOut(csv, std::ios::binary);
    writeCsv(csvOut, report);
    jsonOut.flush();
    csvOut.flush();
    return bool(jsonOut) && bool(csvOut);
}

struct Row {
    std::string scenario;
    Figures figures;
    bool ok = true;
};

Row session(MainWindow& window, int runs, const char* where = "")
{
    Row row { "session of " + std::to_string(runs) + " runs, fake GPU at full speed" + where, {}, false };
    window.findChild<ConfigPanel*>()->showOwnSettings();  // a saved series shown shows its configuration, not editable
    window.findChild<QSpinBox*>(QStringLiteral("runs"))->setValue(runs);
    window.findChild<QSpinBox*>(QStringLiteral("warmup"))->setValue(0);
    Heartbeat heartbeat;
    heartbeat.start();
    QElapsedTimer clock;
    clock.start();
    window.startRun();
    const bool ended = waitFor(&window, &MainWindow::planEnded, 600000);
    const double seconds = double(clock.nsecsElapsed()) / 1e9;
    settle(kSettleMs);
    row.figures = heartbeat.stop(seconds);
    row.ok = ended && window.session().report().runs.size() == std::size_t(runs);
    if (!row.ok)
        std::fprintf(stderr, "the session ended with %zu runs of %d\n", window.session().report().runs.size(), runs);
    return row;
}

// Opens the file, or overlays it, through the window's file actions, and waits until it is shown and drawn.
Row open(MainWindow& window, const QString& path, const char* format, std::size_t runs, bool overlay = false,
    const char* where = "")
{
    Row row { std::string(overlay ? "overlay" : "open") + " a " + std::to_string(runs) + "-run " + format + " file" +
            where,
        {}, false };
    const SessionModel* model = &window.session();
    bool failed = false;
    QObject::connect(model, &SessionModel::loadFailed, model, [&failed](const QString&, bool, const Error& error) {
        failed = true;
        std::fprintf(stderr, "%s\n", error.message().c_str());
    });
    Heartbeat heartbeat;
    heartbeat.start();
    QElapsedTimer clock;
    clock.start();
    if (!(overlay ? window.files().addOverlay(path) : window.files().openSaved(path)))
        return row;
    QEventLoop loop;
    QTimer::singleShot(600000, &loop, [&loop] { loop.exit(1); });
    QObject::connect(model, &SessionModel::savedLoaded, &loop, [&loop] { loop.exit(0); });
    QObject::connect(model, &SessionModel::loadFailed, &loop, [&loop] { loop.exit(1); });
    const bool loaded = loop.exec() == 0;
    const double seconds = double(clock.nsecsElapsed()) / 1e9;
    settle(kSettleMs);
    row.figures = heartbeat.stop(seconds);
    row.ok = loaded && !failed &&
        (overlay ? !model->overlays().empty() && model->overlays().back().report.runs.size() == runs
                 : model->report().runs.size() == runs);
    QObject::disconnect(model, &SessionModel::loadFailed, model, nullptr);
    return row;
}

// Shows the window's tab named `name`: a hidden view catches up with the series when it shows.
Row showTab(MainWindow& window, const QString& name)
{
    Row row { "show the " + name.toStdString() + " tab", {}, false };
    auto* tabs = window.findChild<QTabWidget*>();
    int index = -1;
    for (int i = 0; tabs && i < tabs->count(); ++i) {
        if (tabs->tabText(i).remove(QLatin1Char('&')) == name)
            index = i;
    }
    if (index < 0) {
        std::fprintf(stderr, "the window has no %s tab\n", qPrintable(name));
        return row;
    }
    Heartbeat heartbeat;
    heartbeat.start();
    QElapsedTimer clock;
    clock.start();
    tabs->setCurrentIndex(index);
    const double seconds = double(clock.nsecsElapsed()) / 1e9;
    settle(kSettleMs);
    row.figures = heartbeat.stop(seconds);
    row.ok = true;
    return row;
}

}  // namespace

int main(int argc, char* argv[])
{
    TimedApplication app(argc, argv);
    QCoreApplication::setOrganizationName(QStringLiteral("AsyncScopeBench"));
    QCoreApplication::setApplicationName(QStringLiteral("GuiStallBench"));
    QSettings().clear();  // the window starts from the defaults every time

    std::vector<long> sessions;
    for (const QString& text : QString::fromLocal8Bit(argc > 1 ? argv[1] : "10000,100000,1000000").split(',')) {
        bool number = false;
        const long runs = text.toLong(&number);
        sessions.push_back(number ? runs : 0);
    }
    const long fileRuns = argc > 2 ? std::strtol(argv[2], nullptr, 10) : 1000000;
    const bool sessionsValid =
        std::all_of(sessions.begin(), sessions.end(), [](long runs) { return runs >= 1 && runs <= 10000000; });
    if (!sessionsValid || fileRuns < 1) {
        std::fprintf(stderr,
            "usage: asyncscope_bench_gui_stall [session runs, each 1..10000000, comma-separated] [file runs]\n");
        return 2;
    }
    QTemporaryDir dir;
    if (!dir.isValid()) {
        std::fprintf(stderr, "no temporary folder: %s\n", qPrintable(dir.errorString()));
        return 1;
    }
    const QString json = dir.filePath(QStringLiteral("series.json"));
    const QString csv = dir.filePath(QStringLiteral("series.csv"));
    auto backend = std::make_shared<testing::FakeBackend>();  // runDelay 0: runs come as fast as they are made
    MainWindow window(backend);
    auto probe = std::make_shared<testing::FakeMachineProbe>();
    probe->addProcess(4321, "other");
    window.session().controller()->setMachineProbe(probe);
    window.show();
    QElapsedTimer waited;
    waited.start();
    while (!window.runEnabled() && waited.elapsed() < 30000)
        settle(10);
    if (!window.runEnabled()) {
        std::fprintf(stderr, "the fake devices never came: %s\n", qPrintable(window.deviceMessage()));
        return 1;
    }

    const double startMB = residentMB();
    const long longest = *std::max_element(sessions.begin(), sessions.end());
    const long shortest = *std::min_element(sessions.begin(), sessions.end());
    double afterLongestMB = startMB, afterShortestMB = startMB;
    std::vector<Row> rows;
    for (const long runs : sessions) {
        rows.push_back(session(window, int(runs)));
        if (runs == longest)
            afterLongestMB = residentMB();
        if (runs == shortest)
            afterShortestMB = residentMB();
    }
    // The files are written after the sessions, so that the memory measured is the sessions' alone.
    QElapsedTimer clock;
    clock.start();
    if (!writeSeries(json.toStdString(), csv.toStdString(), std::size_t(fileRuns))) {
        std::fprintf(stderr, "cannot write the series into %s\n", qPrintable(dir.path()));
        return 1;
    }
    std::printf("%ld-run series written as JSON and CSV in %.1f s\n", fileRuns, double(clock.elapsed()) / 1e3);
    rows.push_back(open(window, json, "JSON", std::size_t(fileRuns)));
    rows.push_back(open(window, csv, "CSV", std::size_t(fileRuns)));
    rows.push_back(open(window, json, "JSON", std::size_t(fileRuns), true));
    rows.push_back(showTab(window, QStringLiteral("Distribution")));
    rows.push_back(open(window, csv, "CSV", std::size_t(fileRuns), false, ", Distribution shown"));
    rows.push_back(showTab(window, QStringLiteral("Advice")));
    rows.push_back(session(window, int(sessions.front()), ", Advice shown"));
    window.close();

    std::printf("\nGUI thread heartbeat every %d ms, %s platform, %d cores\n", kBeatMs,
        qPrintable(QGuiApplication::platformName()), QThread::idealThreadCount());
    std::printf("%-60s %10s %15s %11s %11s\n", "scenario", "duration", "longest stall", "p99 stall", "heartbeats");
    bool allOk = true, goal = true;
    for (const Row& r : rows) {
        std::printf("%-60s %8.2f s %12.1f ms %8.1f ms %11zu%s\n", r.scenario.c_str(), r.figures.seconds,
            r.figures.longestMs, r.figures.p99Ms, r.figures.beats, r.ok ? "" : "  (failed)");
        std::printf("    in the longest stall: %s\n", qPrintable(r.figures.inLongest));
        allOk = allOk && r.ok;
        goal = goal && r.figures.longestMs <= kGoalMs;
    }
    std::printf("goal, longest stall <= %.0f ms: %s\n", kGoalMs, goal ? "met" : "missed");
    std::printf("resident memory: %.0f MB at the start, %.0f MB after the %ld-run session (%+.0f MB; goal <= %.0f MB "
                "more: %s)\n",
        startMB, afterLongestMB, longest, afterLongestMB - startMB, kMemoryGoalMB,
        afterLongestMB - startMB <= kMemoryGoalMB ? "met" : "missed");
    if (longest > shortest) {
        // What each run of a live series costs the window: the longest session's memory less the shortest one's.
        const double perRun = (afterLongestMB - afterShortestMB) * 1048576.0 / double(longest - shortest);
        std::printf("per run of a live series: %.0f B (resident memory after the %ld-run session less after the "
                    "%ld-run one; goal <= %.0f B: %s)\n",
            perRun, longest, shortest, kMemoryGoalBytesPerRun, perRun <= kMemoryGoalBytesPerRun ? "met" : "missed");
    }
    return allOk ? 0 : 1;
}

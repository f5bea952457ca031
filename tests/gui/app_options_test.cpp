#include "gui/app/app_options.hpp"
#include "gui/app/help_pages.hpp"

#include <QTest>

using namespace asyncscope;

class AppOptionsTest : public QObject {
    Q_OBJECT
private slots:
    void parsesHeadlessRun()
    {
        const auto o = parseAppOptions({ "asyncscope", "--device", "1", "--size", "64MiB", "--runs", "50",
            "--export-png", "out.png", "--export-size", "1920x1080", "--screenshot", "win.png", "--overlay", "h200.csv",
            "--overlay", "a100.json" });
        QVERIFY(o.ok());
        QCOMPARE(*o->device, 1);
        QCOMPARE(*o->elements, std::size_t(16) << 20);
        QCOMPARE(*o->runs, 50);
        QVERIFY(o->headless());
        QCOMPARE(o->exportSize, QSize(1920, 1080));
        QCOMPARE(o->screenshot, QString("win.png"));
        QCOMPARE(o->overlays, QStringList({ "h200.csv", "a100.json" }));  // in order, each one
    }

    // Files given as a desktop gives them (`asyncscope FILE…`, the .desktop file's %F): the first opened as --open
    // opens it, the others overlaid on it.
    void opensFilesGivenAsArguments()
    {
        const auto one = parseAppOptions({ "asyncscope", "run.record" });
        QVERIFY2(one.ok(), one.ok() ? "" : one.error().message().c_str());
        QCOMPARE(one->open, QString("run.record"));
        QVERIFY(one->overlays.isEmpty());
        QVERIFY(!one->headless());
        const auto three = parseAppOptions({ "asyncscope", "a.json", "b.csv", "--overlay", "c.json", "d.json" });
        QVERIFY2(three.ok(), three.ok() ? "" : three.error().message().c_str());
        QCOMPARE(three->open, QString("a.json"));
        QCOMPARE(three->overlays, (QStringList { "b.csv", "d.json", "c.json" }));
    }

    // --open: a saved series in place of a run, headless or not; it does not go with a run.
    void parsesOpen()
    {
        const auto o = parseAppOptions({ "asyncscope", "--open", "h200.json", "--export-png", "out.png" });
        QVERIFY2(o.ok(), o.ok() ? "" : o.error().message().c_str());
        QCOMPARE(o->open, QString("h200.json"));
        QVERIFY(o->headless());
        QVERIFY(!o->runNow);
        for (const QStringList& extra : { QStringList { "--run" }, QStringList { "--compare", "wait" } }) {
            const auto refused = parseAppOptions(QStringList { "asyncscope", "--open", "h200.json" } + extra);
            QVERIFY(!refused.ok());
            QCOMPARE(refused.error().kind, ErrorKind::Usage);
            QVERIFY2(QString::fromStdString(refused.error().message()).contains("--open shows a saved series"),
                refused.error().message().c_str());
        }
    }

    // --tab names the tab to show, in any case; a name that is no tab is refused with the ones there are.
    void parsesTab()
    {
        const auto o = parseAppOptions({ "asyncscope", "--tab", "Advice" });
        QVERIFY2(o.ok(), o.ok() ? "" : o.error().message().c_str());
        QCOMPARE(o->tab, QString("advice"));
        const auto refused = parseAppOptions({ "asyncscope", "--tab", "charts" });
        QVERIFY(!refused.ok());
        QCOMPARE(refused.error().kind, ErrorKind::Usage);
        QVERIFY2(QString::fromStdString(refused.error().message()).contains("accepted: time, poll-iterations"),
            refused.error().message().c_str());
    }

    // Qt's own options are left to QApplication, and short options still work beside them.
    void acceptsQtOptionsAndShortOnes()
    {
        const auto o = parseAppOptions({ "asyncscope", "-style", "Adwaita-Dark", "-platform", "offscreen", "-s", "4KiB",
            "-r", "3", "-reverse" });
        QVERIFY2(o.ok(), o.ok() ? "" : o.error().message().c_str());
        QCOMPARE(*o->elements, std::size_t(1024));
        QCOMPARE(*o->runs, 3);
    }

    void parsesEveryComparison_data()
    {
        QTest::addColumn<QString>("name");
        QTest::addColumn<int>("comparison");
        QTest::newRow("host-memory") << "host-memory" << int(Comparison::HostMemory);
        QTest::newRow("wait") << "wait" << int(Comparison::Wait);
        QTest::newRow("size") << "size" << int(Comparison::Size);
        QTest::newRow("overlap") << "overlap" << int(Comparison::Overlap);
        QTest::newRow("submit") << "submit" << int(Comparison::Submission);
        QTest::newRow("memory") << "memory" << int(Comparison::Memory);
    }

    // --compare takes the engine's names, the CLI's spelling.
    void parsesEveryComparison()
    {
        QFETCH(QString, name);
        QFETCH(int, comparison);
        const auto o = parseAppOptions({ "asyncscope", "--compare", name });
        QVERIFY2(o.ok(), o.ok() ? "" : o.error().message().c_str());
        QCOMPARE(int(*o->comparison), comparison);
    }

    void namesEveryComparisonWhenOneIsUnknown()
    {
        const auto o = parseAppOptions({ "asyncscope", "--compare", "graphs" });
        QVERIFY(!o.ok());
        QCOMPARE(o.error().kind, ErrorKind::Usage);
        QVERIFY2(
            QString::fromStdString(o.error().message()).contains("host-memory, wait, size, overlap, submit or memory"),
            o.error().message().c_str());
    }

    void parsesTheShapeAsTheCliDoes()
    {
        const auto o = parseAppOptions(
            { "asyncscope", "--chunks", "16", "--streams", "4", "--order", "stage", "--submit", "graph",
                "--trace-source", "cupti" });
        QVERIFY2(o.ok(), o.ok() ? "" : o.error().message().c_str());
        PipelineConfig c;
        o->applyShape(c);
        QCOMPARE(c.chunks, 16);
        QCOMPARE(c.streams, 4);
        QCOMPARE(c.order, IssueOrder::ByStage);
        QCOMPARE(c.submission, Submission::Graph);
        QCOMPARE(c.traceSource, TraceSource::Cupti);
        PipelineConfig untouched;  // options not given leave the configuration alone
        untouched.chunks = 8;
        parseAppOptions({ "asyncscope" })->applyShape(untouched);
        QCOMPARE(untouched.chunks, 8);
        QCOMPARE(untouched.submission, Submission::Stream);
        QCOMPARE(untouched.traceSource, TraceSource::Events);
        QCOMPARE(untouched.hostMemory, HostMemory::Pinned);
    }

    void parsesTheMemoryChoicesAsTheCliDoes()
    {
        const auto o = parseAppOptions({ "asyncscope", "--host-memory", "managed", "--managed-migration", "on-demand",
            "--managed-advice", "read-mostly", "--copy", "sm" });
        QVERIFY2(o.ok(), o.ok() ? "" : o.error().message().c_str());
        PipelineConfig c;
        o->applyShape(c);
        QCOMPARE(c.hostMemory, HostMemory::Managed);
        QCOMPARE(c.managedMigration, ManagedMigration::OnDemand);
        QCOMPARE(c.managedAdvice, ManagedAdvice::ReadMostly);
        QCOMPARE(c.copy, CopyMechanism::Sm);
        const auto bad = parseAppOptions({ "asyncscope", "--host-memory", "huge" });
        QVERIFY(!bad.ok());
        const std::string expected = "--host-memory takes " + acceptedNames<HostMemory>() + ", not 'huge'";
        QCOMPARE(QString::fromStdString(bad.error().message()),
            QString::fromStdString(expected + ". See asyncscope --help."));
    }

    void rejectsBadInput_data()
    {
        QTest::addColumn<QStringList>("arguments");
        QTest::newRow("size 0") << QStringList { "--size", "0" };
        QTest::newRow("size junk") << QStringList { "--size", "abc" };
        QTest::newRow("runs 0") << QStringList { "--runs", "0" };
        QTest::newRow("device -1") << QStringList { "--device", "-1" };
        QTest::newRow("device word") << QStringList { "--device", "first" };
        QTest::newRow("export size") << QStringList { "--export-png", "x.png", "--export-size", "10" };
        QTest::newRow("screenshot alone") << QStringList { "--screenshot", "x.png" };
        QTest::newRow("timeline alone") << QStringList { "--export-timeline", "t.png" };
        QTest::newRow("timeline of a comparison")
            << QStringList { "--export-png", "x.png", "--export-timeline", "t.png", "--compare", "wait" };
        QTest::newRow("unknown option") << QStringList { "--frobnicate" };
        QTest::newRow("a file and --open") << QStringList { "a.json", "--open", "b.json" };
        QTest::newRow("chunks 0") << QStringList { "--chunks", "0" };
        QTest::newRow("streams word") << QStringList { "--streams", "four" };
        QTest::newRow("order unknown") << QStringList { "--order", "random" };
        QTest::newRow("submit unknown") << QStringList { "--submit", "magic" };
        QTest::newRow("trace source unknown") << QStringList { "--trace-source", "nsys" };
        QTest::newRow("copy unknown") << QStringList { "--copy", "dma" };
        QTest::newRow("migration unknown") << QStringList { "--managed-migration", "eager" };
        QTest::newRow("advice unknown") << QStringList { "--managed-advice", "none-at-all" };
    }

    void rejectsBadInput()
    {
        QFETCH(QStringList, arguments);
        arguments.prepend("asyncscope");
        const auto o = parseAppOptions(arguments);
        QVERIFY(!o.ok());
        QCOMPARE(o.error().kind, ErrorKind::Usage);
        QVERIFY(!o.error().message().empty());
    }

    // The licence reads as paragraphs the window wraps once, not the file's lines wrapped again; the guide says what
    // Open results does.
    void helpPagesReadAsTheyShould()
    {
        Q_INIT_RESOURCE(resources);  // the app library's resources, which a test that uses none of its widgets drops
        const QString licence = licencePage();
        QVERIFY2(licence.count(QStringLiteral("<p>")) >= 3, qPrintable(licence));
        QVERIFY(!licence.contains('\n'));
        QVERIFY(!licence.contains(QStringLiteral("<pre")));
        QVERIFY(licence.contains(QStringLiteral("Permission is hereby granted, free of charge, to any person obtaining a "
                                                "copy of this software")));
        const QString guide = guidePage(true);
        QVERIFY(guide.contains(QStringLiteral("Open results</b> opens result files of many hosts in a window of its own")));
        // Where a GPU runs, running comes first; without one, saved runs do, and how to open one; the same guide.
        QVERIFY(guide.indexOf(QStringLiteral("<h3>Running</h3>")) < guide.indexOf(QStringLiteral("<h3>Saved runs</h3>")));
        const QString withoutGpu = guidePage(false);
        QVERIFY(withoutGpu.indexOf(QStringLiteral("<h3>Saved runs</h3>")) <
            withoutGpu.indexOf(QStringLiteral("<h3>Running</h3>")));
        QVERIFY(withoutGpu.contains(QStringLiteral("No GPU can run here")));
        QVERIFY(withoutGpu.contains(QStringLiteral("drop a file")));
        for (const QString& part : { QStringLiteral("<h3>What the tabs show</h3>"), QStringLiteral("man asyncscope") })
            QVERIFY(guide.contains(part) && withoutGpu.contains(part));
    }
};

QTEST_MAIN(AppOptionsTest)
#include "app_options_test.moc"

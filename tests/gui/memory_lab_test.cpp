// The memory lab in the window: the host memory choices and the controls that go with them, their settings, Compare ›
// Memory's charts and table, and the help page that explains them. On the fake backend, offscreen.
#include "fake_backend.hpp"
#include "window_waits.hpp"

#include "gui/app/app_options.hpp"
#include "gui/app/file_actions.hpp"
#include "gui/app/help_pages.hpp"
#include "gui/app/main_window.hpp"
#include "gui/app/text_page_dialog.hpp"
#include "gui/app/window_actions.hpp"
#include "gui/charts/comparison_view.hpp"
#include "gui/charts/memory_charts.hpp"
#include "gui/config/choice_labels.hpp"
#include "gui/config/settings_store.hpp"
#include "gui/session/session_model.hpp"

#include "engine/run/plan_summary.hpp"

#include <QAction>
#include <QBarCategoryAxis>
#include <QBarSet>
#include <QChartView>
#include <QCheckBox>
#include <QComboBox>
#include <QHorizontalBarSeries>
#include <QImage>
#include <QLabel>
#include <QPushButton>
#include <QRegularExpression>
#include <QSet>
#include <QSettings>
#include <QSignalSpy>
#include <QSpinBox>
#include <QTableWidget>
#include <QTemporaryDir>
#include <QTest>
#include <QValueAxis>

#include <algorithm>

using namespace asyncscope;
using asyncscope::testing::FakeBackend;
using asyncscope::testing::waitForDevices;

namespace {

template <class Enum>
void choose(MainWindow& window, const char* name, Enum value)
{
    auto* combo = window.findChild<QComboBox*>(name);
    QVERIFY2(combo, name);
    const int index = combo->findData(int(value));
    QVERIFY(index >= 0);
    combo->setCurrentIndex(index);
}

// The reason shown under host memory: where a combination of memory and copies is refused.
QString inputProblem(const MainWindow& window)
{
    const auto* problem = window.findChild<QLabel*>("problem_hostMemory");
    return problem && problem->isVisibleTo(&window) ? problem->text() : QString();
}

bool runButtonEnabled(const MainWindow& window)
{
    return window.findChild<QPushButton*>("run")->isEnabled();
}

// The plan's labels of the variants that ran, in plan order.
QStringList ranLabels(const PlanReport& report)
{
    QStringList labels;
    for (const VariantResult& v : report.variants) {
        if (v.ran())
            labels << QString::fromStdString(v.label);
    }
    return labels;
}

// A chart's bars: its one horizontal bar series, or null.
QHorizontalBarSeries* barsOf(QChart* chart)
{
    if (chart->series().size() != 1)
        return nullptr;
    return qobject_cast<QHorizontalBarSeries*>(chart->series().first());
}

// The categories from the top down (the axis holds them from the bottom up).
QStringList rowsOf(QChart* chart)
{
    const auto axes = chart->axes(Qt::Vertical);
    auto* axis = axes.isEmpty() ? nullptr : qobject_cast<QBarCategoryAxis*>(axes.first());
    if (!axis)
        return {};
    QStringList rows = axis->categories();
    std::reverse(rows.begin(), rows.end());
    return rows;
}

QString valueAxisTitle(QChart* chart)
{
    const auto axes = chart->axes(Qt::Horizontal);
    return axes.isEmpty() ? QString() : axes.first()->titleText();
}

// Mapped memory refused as a GPU without host mapping would refuse it.
std::shared_ptr<FakeBackend> refusingMapped()
{
    auto backend = std::make_shared<FakeBackend>();
    backend->refuse = [](const PipelineConfig& c) -> Status {
        if (c.hostMemory != HostMemory::Mapped)
            return std::nullopt;
        return makeError(ErrorKind::Unsupported, "this GPU cannot map host memory into its address space",
            "Choose another kind of host memory.");
    };
    return backend;
}

}  // namespace

class MemoryLabTest : public QObject {
    Q_OBJECT

    // Runs Compare › Memory from the menu on `backend`, two measured runs per variant.
    std::unique_ptr<MainWindow> comparedMemory(std::shared_ptr<FakeBackend> backend)
    {
        auto window = std::make_unique<MainWindow>(std::move(backend));
        window->show();
        if (!waitForDevices(*window))
            return nullptr;
        window->findChild<QSpinBox*>("runs")->setValue(2);
        window->findChild<QSpinBox*>("warmup")->setValue(0);
        QSignalSpy ended(window.get(), &MainWindow::planEnded);
        window->actions().compareMemory->trigger();
        if (!ended.wait(60000) || !window->session().lastComparison())
            return nullptr;
        return window;
    }

    QTemporaryDir m_dir;

private slots:
    void initTestCase()
    {
        QCoreApplication::setOrganizationName("AsyncScopeTests");
        QCoreApplication::setApplicationName("MemoryLabTest");
        QSettings().clear();
        QVERIFY(m_dir.isValid());
    }

    void init() { QSettings().clear(); }

    // Every kind of host memory, in the engine's order, each with a tooltip on what it is for and its name.
    void hostMemoryListsEveryKindWithWhatItIsFor()
    {
        MainWindow window(std::make_shared<FakeBackend>());
        auto* box = window.findChild<QComboBox*>("hostMemory");
        QVERIFY(box);
        QCOMPARE(box->count(), int(EnumNames<HostMemory>::entries.size()));
        QSet<QString> tips;
        for (int i = 0; i < box->count(); ++i) {
            const auto [value, name] = EnumNames<HostMemory>::entries[std::size_t(i)];
            QCOMPARE(box->itemData(i).toInt(), int(value));
            QCOMPARE(box->itemText(i), choiceLabel(value));
            const QString tip = box->itemData(i, Qt::ToolTipRole).toString();
            QVERIFY2(tip.contains(choicePurpose(value).toHtmlEscaped()), qPrintable(tip));
            QVERIFY2(tip.contains(QString::fromLatin1(name)), qPrintable(tip));
            tips.insert(tip);
        }
        QCOMPARE(tips.size(), box->count());  // a tooltip of its own for each
        QVERIFY(box->itemData(box->findData(int(HostMemory::Registered)), Qt::ToolTipRole)
                    .toString()
                    .contains("cudaHostRegister"));
        QVERIFY(box->itemData(box->findData(int(HostMemory::WriteCombined)), Qt::ToolTipRole)
                    .toString()
                    .contains("reads it very slowly"));

        auto* submission = window.findChild<QComboBox*>("submission");
        QCOMPARE(submission->count(), 3);
        QVERIFY(submission->findData(int(Submission::Batch)) >= 0);
        for (const char* name : { "copy", "managedMigration", "managedAdvice" })
            QVERIFY2(window.findChild<QComboBox*>(name), name);
        QCOMPARE(window.findChild<QComboBox*>("copy")->count(), 2);
        QCOMPARE(window.findChild<QComboBox*>("managedMigration")->count(), 2);
        QCOMPARE(window.findChild<QComboBox*>("managedAdvice")->count(), 4);
        QVERIFY(window.findChild<QCheckBox*>("preferOverlap"));
    }

    void controlsApplyWhereTheyMatter_data()
    {
        QTest::addColumn<int>("memory");
        QTest::addColumn<int>("submission");
        QTest::addColumn<bool>("copies");
        QTest::addColumn<bool>("managed");
        QTest::addColumn<bool>("overlap");
        QTest::addColumn<QString>("copyTip");  // what the copies' tooltip says
        const int stream = int(Submission::Stream), graph = int(Submission::Graph), batch = int(Submission::Batch);
        QTest::newRow("pinned, stream") << int(HostMemory::Pinned) << stream << true << false << false << "SM copy";
        QTest::newRow("pageable, batch") << int(HostMemory::Pageable) << batch << true << false << true << "SM copy";
        QTest::newRow("write-combined, graph")
            << int(HostMemory::WriteCombined) << graph << true << false << false << "SM copy";
        QTest::newRow("registered, batch") << int(HostMemory::Registered) << batch << true << false << true
                                           << "SM copy";
        QTest::newRow("mapped, stream") << int(HostMemory::Mapped) << stream << false << false << false
                                        << "never copied";
        QTest::newRow("managed, graph") << int(HostMemory::Managed) << graph << false << true << false
                                        << "pages migrate";
    }

    // Copies for the kinds that copy, the managed choices for managed memory, prefer overlap for batch submission;
    // a disabled control's tooltip says why.
    void controlsApplyWhereTheyMatter()
    {
        QFETCH(int, memory);
        QFETCH(int, submission);
        QFETCH(bool, copies);
        QFETCH(bool, managed);
        QFETCH(bool, overlap);
        QFETCH(QString, copyTip);
        MainWindow window(std::make_shared<FakeBackend>());
        window.show();
        QVERIFY(waitForDevices(window));
        choose(window, "hostMemory", HostMemory(memory));
        choose(window, "submission", Submission(submission));
        auto* copy = window.findChild<QComboBox*>("copy");
        auto* migration = window.findChild<QComboBox*>("managedMigration");
        auto* advice = window.findChild<QComboBox*>("managedAdvice");
        auto* preferOverlap = window.findChild<QCheckBox*>("preferOverlap");
        QCOMPARE(copy->isEnabled(), copies);
        QCOMPARE(migration->isEnabled(), managed);
        QCOMPARE(advice->isEnabled(), managed);
        QCOMPARE(preferOverlap->isEnabled(), overlap);
        QVERIFY2(copy->toolTip().contains(copyTip), qPrintable(copy->toolTip()));
        for (QWidget* w : { static_cast<QWidget*>(migration), static_cast<QWidget*>(advice) })
            QVERIFY2(w->toolTip().contains("Only managed memory") != managed, qPrintable(w->toolTip()));
        QVERIFY2(preferOverlap->toolTip().contains("only batch submission uses it") != overlap,
            qPrintable(preferOverlap->toolTip()));
        QVERIFY(runButtonEnabled(window));  // each of these can run
        QVERIFY2(inputProblem(window).isEmpty(), qPrintable(inputProblem(window)));
    }

    // SM copies chosen and then memory that is never copied: the copies do not apply, so the series runs with the
    // copy engines' name and nothing is refused; the choice comes back with memory that copies.
    void aCopyChoiceThatDoesNotApplyIsLeftOut()
    {
        auto backend = std::make_shared<FakeBackend>();
        MainWindow window(backend);
        window.show();
        QVERIFY(waitForDevices(window));
        window.findChild<QSpinBox*>("runs")->setValue(2);
        choose(window, "copy", CopyMechanism::Sm);
        choose(window, "hostMemory", HostMemory::Mapped);
        QVERIFY(runButtonEnabled(window));
        QVERIFY(inputProblem(window).isEmpty());
        QSignalSpy ended(&window, &MainWindow::planEnded);
        window.startRun();
        QVERIFY(ended.wait(10000));
        QCOMPARE(backend->lastConfig().hostMemory, HostMemory::Mapped);
        QCOMPARE(backend->lastConfig().copy, CopyMechanism::CopyEngine);
        choose(window, "hostMemory", HostMemory::Pinned);
        QCOMPARE(window.findChild<QComboBox*>("copy")->currentData().toInt(), int(CopyMechanism::Sm));
    }

    void combinationsThatCannotRunAreRefused_data()
    {
        QTest::addColumn<int>("memory");
        QTest::addColumn<int>("copy");
        QTest::addColumn<QString>("reason");
        QTest::newRow("batch with managed") << int(HostMemory::Managed) << int(CopyMechanism::CopyEngine)
                                            << "batch submission batches cudaMemcpyAsync copies";
        QTest::newRow("batch with mapped") << int(HostMemory::Mapped) << int(CopyMechanism::CopyEngine)
                                           << "mapped host memory has none";
        QTest::newRow("batch with SM copies") << int(HostMemory::Pinned) << int(CopyMechanism::Sm)
                                              << "SM copies are kernels";
    }

    // Batch submission with memory or copies it cannot take: Run is disabled with the engine's reason under the
    // controls; a comparison still runs (its variants that cannot run say why); stream submission clears it.
    void combinationsThatCannotRunAreRefused()
    {
        QFETCH(int, memory);
        QFETCH(int, copy);
        QFETCH(QString, reason);
        MainWindow window(std::make_shared<FakeBackend>());
        window.show();
        QVERIFY(waitForDevices(window));
        choose(window, "copy", CopyMechanism(copy));
        choose(window, "hostMemory", HostMemory(memory));
        choose(window, "submission", Submission::Batch);
        QVERIFY(!runButtonEnabled(window));
        QVERIFY2(inputProblem(window).contains(reason), qPrintable(inputProblem(window)));
        QVERIFY(window.actions().compareMemory->isEnabled());
        choose(window, "submission", Submission::Stream);
        QVERIFY(runButtonEnabled(window));
        QVERIFY2(inputProblem(window).isEmpty(), qPrintable(inputProblem(window)));
    }

    // The memory choices are written as they change, by the engine's names, and come back on the next start.
    void settingsRoundTripOfTheMemoryChoices()
    {
        {
            MainWindow window(std::make_shared<FakeBackend>());
            window.show();
            QVERIFY(waitForDevices(window));
            choose(window, "submission", Submission::Batch);
            window.findChild<QCheckBox*>("preferOverlap")->setChecked(true);
            choose(window, "submission", Submission::Graph);
            choose(window, "hostMemory", HostMemory::Managed);
            choose(window, "managedMigration", ManagedMigration::OnDemand);
            choose(window, "managedAdvice", ManagedAdvice::PreferHost);
            choose(window, "hostMemory", HostMemory::Registered);
            choose(window, "copy", CopyMechanism::Sm);
            QSettings q;
            QCOMPARE(q.value("run/hostMemory").toString(), QString("registered"));
            QCOMPARE(q.value("run/copy").toString(), QString("sm"));
            QCOMPARE(q.value("run/managedMigration").toString(), QString("on-demand"));
            QCOMPARE(q.value("run/managedAdvice").toString(), QString("prefer-host"));
            QCOMPARE(q.value("run/preferOverlap").toBool(), true);
            QCOMPARE(q.value("run/submission").toString(), QString("graph"));
            window.close();
        }
        const GuiSettings loaded = loadSettings();
        QCOMPARE(loaded.config.hostMemory, HostMemory::Registered);
        QCOMPARE(loaded.config.copy, CopyMechanism::Sm);
        QCOMPARE(loaded.config.managedMigration, ManagedMigration::OnDemand);
        QCOMPARE(loaded.config.managedAdvice, ManagedAdvice::PreferHost);
        QVERIFY(loaded.config.preferOverlap);

        MainWindow window(std::make_shared<FakeBackend>());
        window.show();
        QVERIFY(waitForDevices(window));
        QCOMPARE(window.findChild<QComboBox*>("hostMemory")->currentData().toInt(), int(HostMemory::Registered));
        QCOMPARE(window.findChild<QComboBox*>("copy")->currentData().toInt(), int(CopyMechanism::Sm));
        QCOMPARE(window.findChild<QComboBox*>("managedMigration")->currentData().toInt(),
            int(ManagedMigration::OnDemand));
        QCOMPARE(window.findChild<QComboBox*>("managedAdvice")->currentData().toInt(), int(ManagedAdvice::PreferHost));
        QVERIFY(window.findChild<QCheckBox*>("preferOverlap")->isChecked());
        QVERIFY(!window.findChild<QCheckBox*>("preferOverlap")->isEnabled());  // graph submission
        QVERIFY(window.findChild<QComboBox*>("copy")->isEnabled());
        QVERIFY(!window.findChild<QComboBox*>("managedMigration")->isEnabled());

        // Through the store alone, too, every value of each.
        for (const auto& [memory, name] : EnumNames<HostMemory>::entries) {
            for (const auto& [advice, adviceName] : EnumNames<ManagedAdvice>::entries) {
                GuiSettings s = defaultSettings();
                s.config.hostMemory = memory;
                s.config.managedAdvice = advice;
                s.config.managedMigration = ManagedMigration::OnDemand;
                s.config.copy = CopyMechanism::Sm;
                s.config.preferOverlap = true;
                s.config.submission = Submission::Batch;
                QSettings().clear();
                saveSettings(s);
                const GuiSettings back = loadSettings();
                QCOMPARE(back.config.hostMemory, memory);
                QCOMPARE(back.config.managedAdvice, advice);
                QCOMPARE(back.config.managedMigration, ManagedMigration::OnDemand);
                QCOMPARE(back.config.copy, CopyMechanism::Sm);
                QVERIFY(back.config.preferOverlap);
                QCOMPARE(back.config.submission, Submission::Batch);
            }
        }
    }

    // A damaged file: an unknown name keeps the default and says what it accepts, the others stay as stored.
    void settingsRejectUnknownMemoryChoices()
    {
        {
            QSettings q;
            q.setValue("run/hostMemory", "managed");
            q.setValue("run/copy", "dma");
            q.setValue("run/managedMigration", "sometimes");
            q.setValue("run/managedAdvice", "read-mostly");
        }
        QTest::ignoreMessage(QtWarningMsg, QRegularExpression("run/copy is 'dma', not ce or sm; using ce"));
        QTest::ignoreMessage(QtWarningMsg,
            QRegularExpression("run/managedMigration is 'sometimes', not prefetch or on-demand; using prefetch"));
        const GuiSettings s = loadSettings();
        QCOMPARE(s.config.hostMemory, HostMemory::Managed);
        QCOMPARE(s.config.copy, CopyMechanism::CopyEngine);
        QCOMPARE(s.config.managedMigration, ManagedMigration::Prefetch);
        QCOMPARE(s.config.managedAdvice, ManagedAdvice::ReadMostly);
    }

    // Compare › Memory: a chart per quantity with a bar per variant that ran, in plan order from the top, values
    // labelled; the variant the GPU refused is named under each chart and in the table, with its reason.
    void compareMemoryDrawsAChartPerQuantity()
    {
        auto window = comparedMemory(refusingMapped());
        QVERIFY(window);
        const PlanReport& report = *window->session().lastComparison();
        QCOMPARE(report.comparison, std::optional(Comparison::Memory));
        QCOMPARE(report.variants.size(), std::size_t(8));
        QCOMPARE(report.ranCount(), std::size_t(7));
        const QStringList ran = ranLabels(report);
        QCOMPARE(ran, QStringList({ "pageable", "pinned", "write-combined", "registered", "pinned, SM copies",
                          "managed, prefetch", "managed, on-demand" }));

        const ComparisonCharts charts(report);
        const std::vector<SeriesSummary> summaries = summarizePlan(report);
        const bool registration = memoryChartCount(report, summaries) == 7;  // where the summaries carry its cost
        QCOMPARE(charts.count(), registration ? 7 : 6);
        QCOMPARE(window->findChild<ComparisonView*>()->chartCount(), charts.count());
        const char* titles[] = { "H2D copy rate", "D2H copy rate", "GPU time", "CPU submit time",
            "CPU time used while waiting", "GPU time / serial PCIe bound" };
        for (int i = 0; i < 6; ++i) {
            const auto chart = charts.build(i);
            QVERIFY2(chart->title().startsWith(titles[i]), qPrintable(chart->title()));
            QHorizontalBarSeries* bars = barsOf(chart.get());
            QVERIFY(bars);
            QCOMPARE(bars->count(), 1);
            QVERIFY(bars->isLabelsVisible());
            QBarSet* set = bars->barSets().first();
            // A bar per variant that ran; on-demand migration has no PCIe bound to be compared with.
            const bool bound = i == 5;
            const QStringList rows = bound ? QStringList(ran.mid(0, ran.size() - 1)) : ran;
            QCOMPARE(set->count(), int(rows.size()));
            for (int b = 0; b < set->count(); ++b)  // the fake's runs use no CPU time while waiting
                QVERIFY2(i == 4 ? set->at(b) == 0.0 : set->at(b) > 0.0, titles[i]);
            QCOMPARE(rowsOf(chart.get()), rows);
            const QString note = valueAxisTitle(chart.get());
            QVERIFY2(note.contains("mapped (not run)"), qPrintable(note));
            QVERIFY2(!bound || note.contains("managed, on-demand (on-demand migration has no PCIe bound)"),
                qPrintable(note));
        }
        // The bars hold the summaries' values: the GPU time chart's top bar is pageable's median.
        const auto gpu = charts.build(2);
        const QList<QBarSet*> sets = barsOf(gpu.get())->barSets();
        QCOMPARE(sets.first()->at(sets.first()->count() - 1), summaries.front().median(keys::kGpuTime));

        // The table: a row per variant, the refused one with its reason.
        auto* table = window->findChild<QTableWidget*>("comparisonTable");
        QVERIFY(table);
        QCOMPARE(table->rowCount(), 8);
        const int reasonColumn = table->columnCount() - 1;
        QCOMPARE(table->horizontalHeaderItem(reasonColumn)->text(), QString("not run"));
        for (int row = 0; row < table->rowCount(); ++row) {
            const bool mapped = table->verticalHeaderItem(row)->text() == "mapped";
            const QString reason = table->item(row, reasonColumn)->text();
            QVERIFY2(reason.contains("cannot map host memory") == mapped, qPrintable(reason));
        }

        const QString png = m_dir.filePath("memory.png");
        QVERIFY(window->files().exportPictureTo(png, QSize(1600, 900)));
        QCOMPARE(QImage(png).size(), QSize(1600, 900));

        // However narrow the tab, a chart keeps room for its row labels: fewer columns, and the charts scroll.
        auto* view = window->findChild<ComparisonView*>();
        window->resize(1000, 760);
        QTRY_VERIFY(view->width() < 1000);
        for (QChartView* chart : view->findChildren<QChartView*>())
            QTRY_VERIFY2(chart->width() >= 380, qPrintable(QString::number(chart->width())));
    }

    // A comparison saved as the CLI and the window write it opens without a GPU: the Comparison tab shows it as it
    // showed the comparison measured, its charts and its table with the variant that did not run; its exports work;
    // overlaying it is refused, saying where it opens. The series shown stays.
    void aSavedComparisonOpensWithoutAGpu()
    {
        auto measured = comparedMemory(refusingMapped());
        QVERIFY(measured);
        const int charts = measured->findChild<ComparisonView*>()->chartCount();
        const QString path = m_dir.filePath("memory-lab.json");
        QVERIFY(measured->files().exportComparisonTo(path));
        measured.reset();

        auto noGpu = std::make_shared<FakeBackend>();
        noGpu->discoveryError = makeError(ErrorKind::NoDriver, "no driver");
        MainWindow window(noGpu);
        window.show();
        QVERIFY(waitForDevices(window));
        auto* view = window.findChild<ComparisonView*>();
        QCOMPARE(view->chartCount(), 0);
        bool told = false;
        for (const QLabel* label : view->findChildren<QLabel*>())
            told = told || label->text().contains("open a saved one");
        QVERIFY2(told, "the empty Comparison tab says a saved comparison opens");
        QSignalSpy opened(&window.session(), &SessionModel::comparisonOpened);
        QVERIFY(window.files().openSaved(path));
        QVERIFY(opened.wait(20000));
        // The read's progress dialog goes with it, as for a series.
        QTRY_VERIFY(!window.findChild<QWidget*>("loadProgress"));
        const PlanReport& read = *window.session().lastComparison();
        QCOMPARE(read.comparison, std::optional(Comparison::Memory));
        QCOMPARE(read.variants.size(), std::size_t(8));
        QCOMPARE(read.ranCount(), std::size_t(7));
        QCOMPARE(window.tabs().currentWidget(), static_cast<QWidget*>(view));
        QCOMPARE(view->chartCount(), charts);
        auto* table = window.findChild<QTableWidget*>("comparisonTable");
        QVERIFY(table);
        QCOMPARE(table->rowCount(), 8);
        QVERIFY2(window.statusText().contains("memory comparison of 7 variant(s)"), qPrintable(window.statusText()));
        QVERIFY(window.actions().exportComparisonJson->isEnabled());
        const QString again = m_dir.filePath("memory-lab-again.json");
        QVERIFY(window.files().exportComparisonTo(again));
        QVERIFY(window.session().report().runs.empty());  // no series was shown, and none is now

        QSignalSpy failed(&window.session(), &SessionModel::loadFailed);
        QVERIFY(window.files().addOverlay(path));  // started: how it went comes later
        QVERIFY(failed.wait(20000));
        const QString why = QString::fromStdString(failed.first().at(2).value<Error>().message());
        QVERIFY2(why.contains("opens in the Comparison tab"), qPrintable(why));
        QVERIFY(window.session().overlays().empty());
    }

    // The columns follow the width: up to half the charts in a row, none narrower than a bar chart needs.
    void chartColumnsFollowTheWidth()
    {
        QCOMPARE(chartColumns(7, 3000), 4);
        QCOMPARE(chartColumns(7, 1200), 3);
        QCOMPARE(chartColumns(7, 800), 2);
        QCOMPARE(chartColumns(7, 200), 1);
        QCOMPARE(chartColumns(2, 3000), 2);
        QCOMPARE(chartColumns(1, 3000), 1);
    }

    // Variants without copies have no copy-rate bar, and the chart says why.
    void variantsWithoutCopiesHaveNoRateBar()
    {
        auto window = comparedMemory(std::make_shared<FakeBackend>());
        QVERIFY(window);
        PlanReport report = *window->session().lastComparison();
        QCOMPARE(report.ranCount(), std::size_t(8));
        std::vector<SeriesSummary> summaries = summarizePlan(report);
        // Mapped and managed on demand make no copies: their summaries hold no copy rate.
        for (std::size_t i = 0; i < report.variants.size(); ++i) {
            if (hasCopies(report.variants[i].report.config))
                continue;
            auto& figures = summaries[i].figures;
            figures.erase(std::remove_if(figures.begin(), figures.end(),
                              [](const Figure& f) { return f.key == keys::kH2dRate || f.key == keys::kD2hRate; }),
                figures.end());
        }
        const auto h2d = memoryChart(report, summaries, 0);
        QCOMPARE(barsOf(h2d.get())->barSets().first()->count(), 6);
        QVERIFY(!rowsOf(h2d.get()).contains("mapped"));
        const QString note = valueAxisTitle(h2d.get());
        QVERIFY2(note.contains("mapped; managed, on-demand (no copies)"), qPrintable(note));
        const auto gpu = memoryChart(report, summaries, 2);
        QCOMPARE(barsOf(gpu.get())->barSets().first()->count(), 8);
        QVERIFY2(!valueAxisTitle(gpu.get()).contains("no bar"), qPrintable(valueAxisTitle(gpu.get())));
    }

    // The registration chart: only where a variant registered its buffers, a bar pair for each such variant.
    void registrationCostOnlyForVariantsThatHaveIt()
    {
        auto window = comparedMemory(std::make_shared<FakeBackend>());
        QVERIFY(window);
        const PlanReport& report = *window->session().lastComparison();
        std::vector<SeriesSummary> summaries = summarizePlan(report);
        for (SeriesSummary& s : summaries) {
            s.figures.erase(std::remove_if(s.figures.begin(), s.figures.end(),
                                [](const Figure& f) { return f.key.rfind("host_", 0) == 0; }),
                s.figures.end());
        }
        QCOMPARE(memoryChartCount(report, summaries), 6);
        std::size_t registered = 0;
        while (report.variants[registered].report.config.hostMemory != HostMemory::Registered)
            ++registered;
        summaries[registered].figures.push_back(
            { std::string(keys::kHostRegisterMs), "Host registration", ValueKind::Duration, 3.25 });
        summaries[registered].figures.push_back(
            { std::string(keys::kHostUnregisterMs), "Host unregistration", ValueKind::Duration, 0.75 });
        QCOMPARE(memoryChartCount(report, summaries), 7);
        const auto chart = memoryChart(report, summaries, 6);
        QVERIFY2(chart->title().startsWith("Registration cost"), qPrintable(chart->title()));
        QCOMPARE(rowsOf(chart.get()), QStringList { "registered" });
        const QList<QBarSet*> sets = barsOf(chart.get())->barSets();
        QCOMPARE(sets.size(), 2);
        QCOMPARE(sets[0]->label(), QString("cudaHostRegister"));
        QCOMPARE(sets[0]->count(), 1);
        QCOMPARE(sets[0]->at(0), 3.25);
        QCOMPARE(sets[1]->at(0), 0.75);
        QVERIFY(chart->legend()->isVisible());
    }

    // asyncscope --compare memory --export-png: runs every kind, saves the charts, exits 0.
    void headlessMemoryComparisonExitsZero()
    {
        const QString png = m_dir.filePath("headless-memory.png");
        const auto options = parseAppOptions(
            { "asyncscope", "--compare", "memory", "--runs", "2", "--export-png", png, "--export-size", "1280x720" });
        QVERIFY(options.ok());
        MainWindow window(std::make_shared<FakeBackend>(), *options);
        QSignalSpy finished(&window, &MainWindow::headlessFinished);
        window.show();
        QVERIFY(finished.wait(60000));
        QCOMPARE(finished.first().first().toInt(), 0);
        QCOMPARE(window.session().lastComparison()->comparison, std::optional(Comparison::Memory));
        QCOMPARE(int(window.session().lastComparison()->ranCount()), 8);
        QCOMPARE(QImage(png).size(), QSize(1280, 720));
    }

    // The Compare menu's entry, enabled only when a GPU answers and nothing runs.
    void compareMenuHasMemory()
    {
        MainWindow window(std::make_shared<FakeBackend>());
        const QAction* memory = window.actions().compareMemory;
        QVERIFY(!memory->isEnabled());
        window.show();
        QVERIFY(waitForDevices(window));
        QVERIFY(memory->isEnabled());
        QVERIFY(memory->text().contains("Memory"));
        QVERIFY(window.actions().compareSubmission->text().contains("batched copies"));
    }

    // Help › Memory lab: a page on what the lab's results mean, with no measured figure of its own.
    void helpHasAMemoryLabPage()
    {
        const QString page = memoryLabPage();
        for (const char* topic : { "Pageable memory", "staged", "Write-combined", "cudaHostRegister", "SM copies",
                 "zero-copy", "cudaMemPrefetchAsync", "page faults", "cudaMemcpyBatchAsync",
                 "cudaMemcpyFlagPreferOverlapWithCompute", "serial bound" })
            QVERIFY2(page.contains(topic, Qt::CaseInsensitive), topic);
        QVERIFY2(!page.contains(QRegularExpression("\\d\\s*(GB/s|ms|µs)")), "a figure on the page");
        QVERIFY(guidePage(true).contains("Memory lab"));

        MainWindow window(std::make_shared<FakeBackend>());
        QAction* action = window.actions().memoryLab;
        QVERIFY(action);
        QCOMPARE(action->text().remove('&'), QString("Memory lab"));
        action->trigger();
        TextPageDialog* dialog = nullptr;
        QVERIFY(QTest::qWaitFor([&] {
            for (auto* d : window.findChildren<TextPageDialog*>()) {
                if (d->windowTitle() == "Memory lab")
                    dialog = d;
            }
            return dialog != nullptr;
        }, 2000));
        QVERIFY(dialog->isVisible());
    }
};

QTEST_MAIN(MemoryLabTest)
#include "memory_lab_test.moc"

#include "gui/app/record_dialog.hpp"

#include "gui/app/report_path_check.hpp"
#include "gui/charts/kind_colours.hpp"
#include "gui/config/panel_fields.hpp"

#include "engine/record/program_recorder.hpp"

#include <QComboBox>
#include <QDateTime>
#include <QDialogButtonBox>
#include <QDir>
#include <QDoubleSpinBox>
#include <QEvent>
#include <QFileDialog>
#include <QFileInfo>
#include <QFormLayout>
#include <QHBoxLayout>
#include <QLabel>
#include <QLineEdit>
#include <QMenu>
#include <QPlainTextEdit>
#include <QProcess>
#include <QPushButton>
#include <QRegularExpression>
#include <QToolButton>
#include <QVBoxLayout>

#include <functional>

namespace asyncscope {

namespace {

// A line edit and a Browse… button on one row: the row is the control problems are shown under.
QWidget* withBrowse(QLineEdit* edit, const QString& name, const std::function<void()>& browse)
{
    auto* row = new QWidget;
    row->setObjectName(name);
    auto* layout = new QHBoxLayout(row);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addWidget(edit, 1);
    auto* button = new QPushButton(QObject::tr("Browse…"));
    button->setAutoDefault(false);  // Return in the dialog is Record, wherever the focus is
    QObject::connect(button, &QPushButton::clicked, row, browse);
    layout->addWidget(button);
    return row;
}

// The environment's lines, NAME=VALUE each (blank lines skipped); the first that is not, by its line number.
std::vector<std::pair<std::string, std::string>> environmentOf(const QString& text, QString* problem)
{
    static const QRegularExpression name(QStringLiteral("^[A-Za-z_][A-Za-z0-9_]*$"));
    std::vector<std::pair<std::string, std::string>> set;
    const QStringList lines = text.split(QLatin1Char('\n'));
    for (qsizetype i = 0; i < lines.size(); ++i) {
        const QString line = lines[i].trimmed();
        if (line.isEmpty())
            continue;
        const qsizetype equals = line.indexOf(QLatin1Char('='));
        if (equals <= 0 || !name.match(line.left(equals)).hasMatch()) {
            if (problem && problem->isEmpty())
                *problem = QObject::tr("Line %1, '%2', is not NAME=VALUE").arg(i + 1).arg(line.left(60));
            continue;
        }
        set.emplace_back(line.left(equals).toStdString(), line.mid(equals + 1).toStdString());
    }
    return set;
}

}  // namespace

RecordDialog::RecordDialog(const QString& reportFolder, QWidget* parent)
    : QDialog(parent)
    , m_reportFolder(reportFolder)
{
    setWindowTitle(tr("Record a program"));
    auto* fields = new QWidget;  // the form's own widget: a problem's line goes under its control's row
    auto* form = new QFormLayout(fields);
    form->setContentsMargins(0, 0, 0, 0);
    form->setRowWrapPolicy(QFormLayout::WrapLongRows);

    auto* intro = new QLabel(tr("Runs a CUDA program under the recorder (no rebuild needed) and shows its iterations as "
                                "runs: an NVTX range that repeats, or the work between two host synchronizations."));
    intro->setWordWrap(true);
    form->addRow(intro);
    m_device = new QLabel;
    m_device->setObjectName(QStringLiteral("deviceProblem"));
    m_device->setWordWrap(true);
    m_device->setTextFormat(Qt::PlainText);
    m_device->hide();
    form->addRow(m_device);

    m_program = new QLineEdit;
    m_program->setPlaceholderText(tr("./app, or a name on PATH"));
    QWidget* programRow = withBrowse(m_program, QStringLiteral("program"), [this] {
        const QString chosen = QFileDialog::getOpenFileName(this, tr("Program to record"), m_folder->text());
        if (!chosen.isEmpty())
            m_program->setText(QDir::toNativeSeparators(chosen));
    });
    m_recent = new QToolButton;
    m_recent->setObjectName(QStringLiteral("recentPrograms"));
    m_recent->setText(tr("Recent"));
    m_recent->setToolTip(tip(tr("The programs recorded lately, the latest first")));
    m_recent->setPopupMode(QToolButton::InstantPopup);
    m_recent->setMenu(new QMenu(m_recent));
    static_cast<QHBoxLayout*>(programRow->layout())->insertWidget(1, m_recent);
    form->addRow(tr("&Program:"), programRow);
    m_arguments = new QLineEdit;
    m_arguments->setObjectName(QStringLiteral("arguments"));
    m_arguments->setPlaceholderText(tr("as in a shell: --size 64 \"two words\""));
    form->addRow(tr("&Arguments:"), m_arguments);
    m_folder = new QLineEdit;
    m_folder->setPlaceholderText(tr("where the program runs (AsyncScope's folder when empty)"));
    QWidget* folderRow = withBrowse(m_folder, QStringLiteral("folder"), [this] {
        const QString chosen = QFileDialog::getExistingDirectory(this, tr("Working folder"), m_folder->text());
        if (!chosen.isEmpty())
            m_folder->setText(QDir::toNativeSeparators(chosen));
    });
    form->addRow(tr("&Working folder:"), folderRow);
    m_environment = new QPlainTextEdit;
    m_environment->setObjectName(QStringLiteral("environment"));
    m_environment->setPlaceholderText(tr("NAME=VALUE, one a line (added to AsyncScope's own)"));
    m_environment->setTabChangesFocus(true);
    m_environment->setFixedHeight(fontMetrics().lineSpacing() * 4);
    form->addRow(tr("&Environment:"), m_environment);
    m_iterations = new QComboBox;
    m_iterations->setObjectName(QStringLiteral("iterations"));
    m_iterations->addItem(tr("Automatic: a repeated NVTX range, else host synchronizations"), QStringLiteral("auto"));
    m_iterations->addItem(tr("Host synchronizations end each"), QStringLiteral("sync"));
    m_iterations->addItem(tr("Each NVTX range named:"), QStringLiteral("nvtx"));
    form->addRow(tr("&Iterations:"), m_iterations);
    m_rangeName = new QLineEdit;
    m_rangeName->setObjectName(QStringLiteral("rangeName"));
    m_rangeName->setPlaceholderText(tr("the range's name (empty: the outermost that repeats)"));
    m_rangeName->setEnabled(false);
    form->addRow(tr("NVTX &range:"), m_rangeName);
    connect(m_iterations, &QComboBox::currentIndexChanged, this,
        [this] { m_rangeName->setEnabled(m_iterations->currentData().toString() == QLatin1String("nvtx")); });
    m_duration = new RefusingDoubleSpinBox(0.0, 24 * 3600.0, tr("Stop after"),
        [this](QWidget* control, const QString& reason) { m_problems.setTyped(control, reason); });
    m_duration->setObjectName(QStringLiteral("duration"));
    m_duration->setDecimals(1);
    m_duration->setSuffix(tr(" s"));
    m_duration->setSpecialValueText(tr("when it ends"));
    form->addRow(tr("&Stop after:"), m_duration);
    m_report = new QLineEdit;
    QWidget* reportRow = withBrowse(m_report, QStringLiteral("report"), [this] {
        const QString chosen = QFileDialog::getSaveFileName(this, tr("Save the report as"), m_report->text(),
            tr("AsyncScope report (*.json)"));
        if (!chosen.isEmpty()) {
            m_report->setText(QDir::toNativeSeparators(chosen));
            m_reportEdited = true;
        }
    });
    form->addRow(tr("Save &report as:"), reportRow);
    connect(m_report, &QLineEdit::textEdited, this, [this] { m_reportEdited = true; });
    connect(m_program, &QLineEdit::textChanged, this, &RecordDialog::suggestReportName);

    for (QWidget* control : { programRow, static_cast<QWidget*>(m_arguments), folderRow,
             static_cast<QWidget*>(m_environment), static_cast<QWidget*>(m_duration), reportRow })
        m_problems.add(control);
    m_problems.applyPalette(palette());
    // The report path as typed, from the first keystroke; the others again as they change once Record found fault.
    connect(m_report, &QLineEdit::textChanged, this, &RecordDialog::checkReport);
    const auto again = [this](bool (RecordDialog::*check)()) {
        return [this, check] {
            if (m_checked)
                (this->*check)();
        };
    };
    connect(m_program, &QLineEdit::textChanged, this, again(&RecordDialog::checkProgram));
    connect(m_folder, &QLineEdit::textChanged, this, again(&RecordDialog::checkFolder));
    connect(m_folder, &QLineEdit::textChanged, this, again(&RecordDialog::checkProgram));  // looked for in the folder
    connect(m_arguments, &QLineEdit::textChanged, this, again(&RecordDialog::checkArguments));
    connect(m_environment, &QPlainTextEdit::textChanged, this, again(&RecordDialog::checkEnvironment));

    // Parented before setDefault(): a button is the dialog's default only once it sits in the dialog.
    auto* buttons = new QDialogButtonBox(QDialogButtonBox::Cancel, this);
    QPushButton* recordButton = buttons->addButton(tr("&Record"), QDialogButtonBox::AcceptRole);
    recordButton->setDefault(true);
    connect(buttons, &QDialogButtonBox::accepted, this, &RecordDialog::record);
    connect(buttons, &QDialogButtonBox::rejected, this, &QDialog::reject);
    auto* layout = new QVBoxLayout(this);
    layout->addWidget(fields);
    layout->addStretch(1);
    layout->addWidget(buttons);
    fill(loadRecordSettings());
    suggestReportName();
    m_program->setFocus();
    resize(sizeHint().expandedTo(QSize(560, 0)));
}

void RecordDialog::fill(const RecordSettings& s)
{
    m_program->setText(s.program);
    m_arguments->setText(s.arguments);
    m_folder->setText(s.folder);
    m_environment->setPlainText(s.environment);
    m_iterations->setCurrentIndex(std::max(0, m_iterations->findData(s.iterations)));
    m_rangeName->setText(s.rangeName);
    m_duration->setValue(s.stopAfterSeconds);
    m_recentPrograms = s.recentPrograms;
    QMenu* menu = m_recent->menu();
    menu->clear();
    for (const QString& program : m_recentPrograms)
        menu->addAction(program, this, [this, program] { m_program->setText(program); });
    m_recent->setEnabled(!m_recentPrograms.isEmpty());
}

void RecordDialog::startFrom(const RecordSettings& settings)
{
    fill(settings);
    suggestReportName();
}

RecordSettings RecordDialog::remembered() const
{
    RecordSettings s;
    s.program = m_program->text().trimmed();
    s.arguments = m_arguments->text();
    s.folder = m_folder->text().trimmed();
    s.environment = m_environment->toPlainText();
    s.iterations = m_iterations->currentData().toString();
    s.rangeName = m_rangeName->text().trimmed();
    s.stopAfterSeconds = m_duration->value();
    s.recentPrograms = withRecent(m_recentPrograms, s.program);
    return s;
}

void RecordDialog::setDeviceProblem(const QString& sentence)
{
    m_device->setText(sentence.isEmpty() ? QString()
                                         : tr("%1 A program's CUDA calls will fail here: recording it shows how it "
                                              "failed, not its GPU work. Record on a computer with a GPU and open the "
                                              "report here (File › Open saved run…).")
                                               .arg(sentence));
    m_device->setVisible(!sentence.isEmpty());
    showAsProblem(*m_device, palette());
}

QString RecordDialog::deviceProblem() const
{
    return m_device->isHidden() ? QString() : m_device->text();
}

void RecordDialog::suggestReportName()
{
    if (m_reportEdited)
        return;
    QString base = QFileInfo(m_program->text().trimmed()).fileName();
    base.replace(QRegularExpression(QStringLiteral("[^A-Za-z0-9._-]")), QStringLiteral("_"));
    if (base.isEmpty())
        base = QStringLiteral("program");
    const QString stamp = QDateTime::currentDateTime().toString(QStringLiteral("yyyyMMdd-HHmmss"));
    m_report->setText(QDir::toNativeSeparators(QDir(m_reportFolder).filePath(base + "-" + stamp + ".json")));
}

bool RecordDialog::checkFolder()
{
    const QString folder = m_folder->text().trimmed();
    QString problem;
    if (!folder.isEmpty() && !QFileInfo(folder).isDir())
        problem = tr("%1 is not a folder").arg(folder);
    m_problems.setChecked(m_folder->parentWidget(), problem);
    return problem.isEmpty();
}

bool RecordDialog::checkProgram()
{
    const QString folder = m_folder->text().trimmed();
    const QString program = m_program->text().trimmed();
    QString problem;
    if (program.isEmpty()) {
        problem = tr("Name the program to record");
    } else if (folder.isEmpty() || QFileInfo(folder).isDir()) {
        if (auto found = findProgram(program.toStdString(), folder.toStdString()); !found)
            problem = QString::fromStdString(found.error().message());
    }
    m_problems.setChecked(m_program->parentWidget(), problem);
    return problem.isEmpty();
}

bool RecordDialog::checkArguments()
{
    const bool closed = m_arguments->text().count(QLatin1Char('"')) % 2 == 0;
    m_problems.setChecked(m_arguments, closed ? QString() : tr("A quotation mark (\") is not closed"));
    return closed;
}

bool RecordDialog::checkEnvironment()
{
    QString problem;
    environmentOf(m_environment->toPlainText(), &problem);
    m_problems.setChecked(m_environment, problem);
    return problem.isEmpty();
}

bool RecordDialog::checkReport()
{
    const QString problem = reportPathProblem(m_report->text());
    m_problems.setChecked(m_report->parentWidget(), problem);
    return problem.isEmpty();
}

bool RecordDialog::check()
{
    m_checked = true;
    // Each checked, whatever the others found: every problem shows at once. A keystroke a field refused is said
    // under it but keeps nothing from Record: the field kept its value, as the line says.
    const bool folder = checkFolder();
    const bool program = checkProgram();
    const bool arguments = checkArguments();
    const bool environment = checkEnvironment();
    const bool report = checkReport();
    return folder && program && arguments && environment && report;
}

void RecordDialog::record()
{
    if (!check())
        return;
    QDir().mkpath(QFileInfo(m_report->text().trimmed()).absolutePath());  // the suggested folder, made on first use
    saveRecordSettings(remembered());
    accept();
}

RecordingPlan RecordDialog::plan() const
{
    RecordingPlan plan;
    plan.request.command.push_back(m_program->text().trimmed().toStdString());
    for (const QString& word : QProcess::splitCommand(m_arguments->text()))
        plan.request.command.push_back(word.toStdString());
    plan.request.workingFolder = m_folder->text().trimmed().toStdString();
    plan.request.environment = environmentOf(m_environment->toPlainText(), nullptr);
    if (m_duration->value() > 0.0)
        plan.request.durationSeconds = m_duration->value();
    const QString by = m_iterations->currentData().toString();
    plan.rule.by = by == QLatin1String("sync") ? IterationRule::By::Sync
        : by == QLatin1String("nvtx")          ? IterationRule::By::Nvtx
                                               : IterationRule::By::Auto;
    if (plan.rule.by == IterationRule::By::Nvtx)
        plan.rule.range = m_rangeName->text().trimmed().toStdString();
    plan.reportPath = QDir::fromNativeSeparators(m_report->text().trimmed());
    return plan;
}

void RecordDialog::changeEvent(QEvent* event)
{
    if (event->type() == QEvent::PaletteChange) {
        m_problems.applyPalette(palette());
        showAsProblem(*m_device, palette());
    }
    QDialog::changeEvent(event);
}

}  // namespace asyncscope

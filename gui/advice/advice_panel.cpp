#include "gui/advice/advice_panel.hpp"

#include "gui/config/choice_labels.hpp"
#include "gui/files/advice_export.hpp"
#include "gui/session/session_model.hpp"

#include <QApplication>
#include <QClipboard>
#include <QGridLayout>
#include <QHBoxLayout>
#include <QKeyEvent>
#include <QLabel>
#include <QPainter>
#include <QPushButton>
#include <QRegularExpression>
#include <QScrollArea>
#include <QScrollBar>
#include <QVBoxLayout>

#include <functional>

namespace asyncscope {

QColor severityColour(Severity severity)
{
    switch (severity) {
    case Severity::Severe: return QColor(0xc6, 0x28, 0x28);
    case Severity::Warning: return QColor(0xb4, 0x53, 0x09);
    case Severity::Suggestion: return QColor(0x1d, 0x63, 0xb8);
    case Severity::Info: return QColor(0x5b, 0x67, 0x70);
    }
    return QColor(0x5b, 0x67, 0x70);
}

namespace {

QString severityWord(Severity s)
{
    return QString::fromUtf8(nameOf(s));
}

QLabel* wrappingLabel(const QString& text, const QString& name)
{
    auto* label = new QLabel(text);
    label->setObjectName(name);
    label->setWordWrap(true);
    label->setTextFormat(Qt::PlainText);
    return label;
}

// A heading or a note in the list: its text in the window's colours, bold where it heads.
QLabel* noteLabel(const QString& text, const QString& name, bool heading = false)
{
    QLabel* label = wrappingLabel(text, name);
    if (heading) {
        QFont font = label->font();
        font.setBold(true);
        label->setFont(font);
    }
    return label;
}

}  // namespace

// One finding: its severity's mark, title, evidence, action and where a click leads, in a card that takes the
// keyboard focus (Tab, or the arrow keys from the next row) and answers a click, Enter or Space.
class FindingRow : public QWidget {
public:
    FindingRow(const Finding& finding, const QString& jump, int marksWidth, bool program)
        : m_colour(severityColour(finding.severity))
    {
        setObjectName(QStringLiteral("finding"));
        setFocusPolicy(Qt::StrongFocus);
        setAttribute(Qt::WA_Hover);
        setCursor(Qt::PointingHandCursor);
        const QString word = severityWord(finding.severity);
        const QString title = QString::fromStdString(finding.title);
        m_title = word + QStringLiteral(": ") + title;
        setAccessibleName(m_title);
        setAccessibleDescription(QString::fromStdString(finding.evidence));
        setToolTip(jump);

        auto* mark = new QLabel(word.toUpper());
        mark->setObjectName(QStringLiteral("severity"));
        mark->setAlignment(Qt::AlignCenter);
        mark->setMinimumWidth(marksWidth);
        mark->setSizePolicy(QSizePolicy::Fixed, QSizePolicy::Fixed);
        // Its own colours whatever the theme: white on the severity's colour.
        mark->setStyleSheet(QStringLiteral("QLabel { color: #ffffff; background-color: %1; border-radius: 3px;"
                                           " padding: 2px 6px; font-weight: bold; }")
                                .arg(m_colour.name()));
        QLabel* heading = noteLabel(title, QStringLiteral("title"), true);
        QLabel* evidence = wrappingLabel(QString::fromStdString(finding.evidence) + QLatin1Char('.'),
            QStringLiteral("evidence"));
        const QString todo = QString::fromStdString(finding.action).toHtmlEscaped();
        // The CLI's options it names, as the window's controls too.
        const QString controls = windowControlsOf(QString::fromStdString(finding.action), program);
        auto* action = new QLabel(QStringLiteral("<b>%1</b> %2").arg(AdvicePanel::tr("Do:"), todo) +
            (controls.isEmpty() ? QString()
                                : QStringLiteral("<br><b>%1</b> %2")
                                      .arg(AdvicePanel::tr("In the window:"), controls.toHtmlEscaped())));
        action->setObjectName(QStringLiteral("action"));
        action->setWordWrap(true);
        action->setTextFormat(Qt::RichText);
        QLabel* where = wrappingLabel(jump + QStringLiteral(" ›"), QStringLiteral("jump"));
        where->setForegroundRole(QPalette::Link);  // the palette's, light or dark, as the theme changes
        for (QLabel* label : { heading, evidence, action, where })
            label->setAttribute(Qt::WA_TransparentForMouseEvents);  // a click anywhere on the card is the card's

        auto* grid = new QGridLayout(this);
        grid->setContentsMargins(kStripe + 8, 8, 10, 8);
        grid->setHorizontalSpacing(10);
        grid->setVerticalSpacing(3);
        grid->addWidget(mark, 0, 0, Qt::AlignTop);
        grid->addWidget(heading, 0, 1);
        grid->addWidget(evidence, 1, 1);
        grid->addWidget(action, 2, 1);
        grid->addWidget(where, 3, 1);
        grid->setColumnStretch(1, 1);
    }

    // A "Try it" button under the finding that suggests a shape: `tried` runs it.
    void offerTry(const SuggestedShape& shape, std::function<void()> tried)
    {
        auto* button = new QPushButton(AdvicePanel::tr("Try it: run K=%1 S=%2 beside this shape (predicted %3 ms)")
                                           .arg(shape.chunks)
                                           .arg(shape.streams)
                                           .arg(shape.predictedMs, 0, 'f', 3));
        button->setObjectName(QStringLiteral("adviceTry"));
        button->setToolTip(AdvicePanel::tr("Runs an overlap comparison of this shape and the advised one on this "
                                           "GPU, with the model's prediction beside what each achieves "
                                           "(asyncscope-cli --try-advice)"));
        connect(button, &QPushButton::clicked, this, std::move(tried));
        static_cast<QGridLayout*>(layout())->addWidget(button, 4, 1, Qt::AlignLeft);
    }

    const QString& title() const { return m_title; }
    std::function<void()> activated;
    std::function<void(FindingRow*)> focused;
    std::function<void(FindingRow*, int)> arrowed;  // Up (-1) or Down (+1) from this row

protected:
    void paintEvent(QPaintEvent*) override
    {
        QPainter p(this);
        p.setRenderHint(QPainter::Antialiasing);
        const QPalette& pal = palette();
        QColor fill = pal.color(QPalette::Base);
        if (underMouse())
            fill = blend(fill, pal.color(QPalette::Highlight), 0.12);
        const QRectF card = QRectF(rect()).adjusted(1.0, 1.0, -1.0, -1.0);
        const bool focus = hasFocus();
        p.setPen(focus ? QPen(pal.color(QPalette::Highlight), 2.0) : QPen(pal.color(QPalette::Mid), 1.0));
        p.setBrush(fill);
        p.drawRoundedRect(card, 4.0, 4.0);
        // A stripe of the severity's colour down the left edge: the list reads by colour at a glance.
        p.setPen(Qt::NoPen);
        p.setBrush(m_colour);
        p.drawRoundedRect(QRectF(card.left() + 1.5, card.top() + 1.5, kStripe, card.height() - 3.0), 2.0, 2.0);
    }
    void mouseReleaseEvent(QMouseEvent* event) override
    {
        if (event->button() != Qt::LeftButton || !rect().contains(event->position().toPoint()))
            return QWidget::mouseReleaseEvent(event);
        setFocus(Qt::MouseFocusReason);
        if (activated)
            activated();
    }
    void keyPressEvent(QKeyEvent* event) override
    {
        switch (event->key()) {
        case Qt::Key_Return:
        case Qt::Key_Enter:
        case Qt::Key_Space:
            if (activated)
                activated();
            return;
        case Qt::Key_Up:
        case Qt::Key_Down:
            if (arrowed)
                arrowed(this, event->key() == Qt::Key_Up ? -1 : 1);
            return;
        default: QWidget::keyPressEvent(event);
        }
    }
    void focusInEvent(QFocusEvent* event) override
    {
        QWidget::focusInEvent(event);
        if (focused)
            focused(this);
        update();
    }
    void focusOutEvent(QFocusEvent* event) override
    {
        QWidget::focusOutEvent(event);
        update();
    }

private:
    static constexpr int kStripe = 4;

    static QColor blend(const QColor& a, const QColor& b, double share)
    {
        return QColor::fromRgbF(float(a.redF() + (b.redF() - a.redF()) * share),
            float(a.greenF() + (b.greenF() - a.greenF()) * share), float(a.blueF() + (b.blueF() - a.blueF()) * share));
    }

    QColor m_colour;
    QString m_title;
};

AdvicePanel::AdvicePanel(QWidget* parent)
    : QWidget(parent)
{
    m_heading = new QLabel;
    m_heading->setObjectName(QStringLiteral("adviceHeading"));
    m_heading->setWordWrap(true);
    m_heading->setTextFormat(Qt::PlainText);
    m_copy = new QPushButton(tr("&Copy"));
    m_copy->setObjectName(QStringLiteral("adviceCopy"));
    m_copy->setToolTip(tr("Put the advice on the clipboard as text, as the CLI prints it"));
    m_save = new QPushButton(tr("Sa&ve…"));
    m_save->setObjectName(QStringLiteral("adviceSave"));
    m_save->setToolTip(tr("Save the advice as Markdown (.md) or text (.txt), as File › Export advice does"));
    connect(m_copy, &QPushButton::clicked, this,
        [this] { QApplication::clipboard()->setText(adviceText(m_advice, AdviceFormat::Text)); });
    connect(m_save, &QPushButton::clicked, this, &AdvicePanel::saveRequested);

    auto* top = new QHBoxLayout;
    top->addWidget(m_heading, 1);
    top->addWidget(m_copy, 0, Qt::AlignTop);
    top->addWidget(m_save, 0, Qt::AlignTop);

    m_scroll = new QScrollArea;
    m_scroll->setObjectName(QStringLiteral("adviceList"));
    m_scroll->setWidgetResizable(true);
    m_scroll->setFrameShape(QFrame::NoFrame);
    m_scroll->setHorizontalScrollBarPolicy(Qt::ScrollBarAlwaysOff);  // the rows wrap to the width they get
    m_scroll->setFocusPolicy(Qt::NoFocus);  // its rows take the keyboard, each framed: the list is no stop of its own

    auto* layout = new QVBoxLayout(this);
    layout->addLayout(top);
    layout->addWidget(m_scroll, 1);
    rebuild();
}

void AdvicePanel::follow(const SessionModel* session)
{
    m_session = session;
    connect(session, &SessionModel::adviceChanged, this, &AdvicePanel::refresh);
    refresh();
}

void AdvicePanel::refresh()
{
    if (!isVisible()) {
        m_stale = true;  // built when the tab shows
        return;
    }
    m_stale = false;
    setAdvice(m_session->advice());
}

void AdvicePanel::showEvent(QShowEvent* event)
{
    QWidget::showEvent(event);
    if (m_stale && m_session)
        refresh();
}

void AdvicePanel::setAdvice(const ShownAdvice& advice)
{
    m_advice = advice;
    rebuild();
}

void AdvicePanel::rebuild()
{
    const ShownAdvice& a = m_advice;
    // A series being measured is judged again every second, mostly to the same findings: the rows stay as they are
    // then (the keyboard focus and the scrolling with them).
    const QString text = adviceText(a, AdviceFormat::Text);
    if (m_content && text == m_shownText)
        return;
    m_shownText = text;

    // The row with the keyboard focus keeps it in the new rows, by its place.
    int focusedRow = -1;
    for (std::size_t i = 0; i < m_rows.size(); ++i)
        focusedRow = m_rows[i]->hasFocus() ? int(i) : focusedRow;
    const int scrolled = m_scroll->verticalScrollBar()->value();

    m_rows.clear();
    m_content = new QWidget;
    m_content->setObjectName(QStringLiteral("adviceContent"));
    auto* list = new QVBoxLayout(m_content);
    list->setSpacing(6);

    QStringList counts;
    for (const Severity s : { Severity::Severe, Severity::Warning, Severity::Suggestion, Severity::Info }) {
        // "2 warnings", "2 suggestions"; "severe" and "info" stay as they are.
        const bool plural = s == Severity::Warning || s == Severity::Suggestion;
        if (const int n = a.count(s); n > 0)
            counts << QStringLiteral("%1 %2%3").arg(n).arg(severityWord(s), plural && n > 1 ? "s" : "");
    }
    if (a.empty()) {
        m_heading->setText(a.subject.isEmpty()
                ? tr("No series yet: run one, or open a saved one (File › Open saved run), to see what limits it and "
                     "whether its figures can be trusted.")
                : tr("Advice on %1: nothing to judge yet (no measured run).").arg(a.subject));
    } else {
        QString heading = counts.isEmpty() ? tr("Advice on %1: no findings.").arg(a.subject)
                                           : tr("Advice on %1: %2.").arg(a.subject, counts.join(QStringLiteral(", ")));
        if (a.measuring)
            heading += QLatin1Char(' ') +
                tr("Judged as it runs, once a second; the machine's state (other processes, clocks, the link) is read "
                   "with it and judged when it ends.");
        m_heading->setText(heading);
    }
    m_copy->setEnabled(!a.empty());
    m_save->setEnabled(!a.empty());

    // Every mark as wide as the widest word, so the titles line up.
    int marksWidth = 0;
    const QFontMetrics bold([this] {
        QFont f = font();
        f.setBold(true);
        return f;
    }());
    for (const Severity s : { Severity::Severe, Severity::Warning, Severity::Suggestion, Severity::Info })
        marksWidth = std::max(marksWidth, bold.horizontalAdvance(severityWord(s).toUpper()) + 16);

    for (const ShownAdvice::Part& part : a.parts) {
        if (a.comparison) {
            if (part.advice.findings.empty())
                continue;  // the heading counts the variants; those with nothing to say are not listed
            if (!m_rows.empty())
                list->addSpacing(8);  // the variant before it ends here
            list->addWidget(noteLabel(part.label, QStringLiteral("variant"), true));
        }
        for (const Finding& f : part.advice.findings) {
            const Jump jump = jumpFor(a, f);
            auto* row = new FindingRow(f, jumpText(jump, f), marksWidth, a.program);
            row->activated = [this, jump] { emit jumpRequested(jump); };
            if (const auto& shape = part.advice.suggestion; shape && !a.comparison && shape->rule == f.rule)
                row->offerTry(*shape, [this, shape = *shape] { emit tryRequested(shape); });
            row->focused = [this](FindingRow* r) { m_scroll->ensureWidgetVisible(r, 0, 12); };
            row->arrowed = [this](FindingRow* r, int step) { moveFocus(r, step); };
            list->addWidget(row);
            m_rows.push_back(row);
        }
        if (!part.machine.isEmpty()) {
            // "machine: NVML, driver …; SM clock …": the state the rules judged, in the window's own text colour.
            QString state = part.machine;
            state.remove(QRegularExpression(QStringLiteral("^machine: ")));
            auto* machine = new QLabel(QStringLiteral("<b>%1</b> %2").arg(tr("Machine:"), state.toHtmlEscaped()));
            machine->setObjectName(QStringLiteral("machine"));
            machine->setWordWrap(true);
            machine->setTextFormat(Qt::RichText);
            list->addWidget(machine);
        }
    }
    if (!a.empty() && m_rows.empty())
        list->addWidget(noteLabel(a.comparison ? tr("None of the rules found anything to say about any variant.")
                                               : tr("None of the rules found anything to say about this series."),
            QStringLiteral("noFindings")));

    const std::vector<NotChecked> unchecked = a.notChecked();
    m_notChecked = nullptr;
    if (!unchecked.empty()) {
        list->addSpacing(8);
        list->addWidget(noteLabel(tr("Not checked"), QStringLiteral("notCheckedHeading"), true));
        QString items;
        for (const NotChecked& n : unchecked)
            items += QStringLiteral("<li><b>%1</b>: %2</li>")
                         .arg(QString::fromStdString(n.rule).toHtmlEscaped(),
                             QString::fromStdString(n.why).toHtmlEscaped());
        m_notChecked = new QLabel(QStringLiteral("<ul style=\"-qt-list-indent: 1\">%1</ul>").arg(items));
        m_notChecked->setObjectName(QStringLiteral("notChecked"));
        m_notChecked->setWordWrap(true);
        m_notChecked->setTextFormat(Qt::RichText);
        list->addWidget(m_notChecked);
    }
    list->addStretch(1);

    delete m_scroll->takeWidget();
    m_scroll->setWidget(m_content);
    // The tab focused (the status line's badge, a shortcut) puts the keyboard on the first finding; Tab goes on
    // through the findings, then to Copy and Save.
    setFocusProxy(m_rows.empty() ? static_cast<QWidget*>(m_copy) : m_rows.front());
    for (std::size_t i = 1; i < m_rows.size(); ++i)
        setTabOrder(m_rows[i - 1], m_rows[i]);
    if (!m_rows.empty())
        setTabOrder(m_rows.back(), m_copy);
    setTabOrder(m_copy, m_save);
    m_scroll->verticalScrollBar()->setValue(scrolled);
    if (focusedRow >= 0 && !m_rows.empty())
        m_rows[std::size_t(std::min(focusedRow, int(m_rows.size()) - 1))]->setFocus(Qt::OtherFocusReason);
}

void AdvicePanel::moveFocus(FindingRow* from, int step)
{
    for (std::size_t i = 0; i < m_rows.size(); ++i) {
        if (m_rows[i] != from)
            continue;
        const long next = long(i) + step;
        if (next >= 0 && next < long(m_rows.size()))
            m_rows[std::size_t(next)]->setFocus(step < 0 ? Qt::BacktabFocusReason : Qt::TabFocusReason);
        return;
    }
}

QStringList AdvicePanel::rowTitles() const
{
    QStringList titles;
    for (const FindingRow* row : m_rows)
        titles << row->title();
    return titles;
}

void AdvicePanel::activateRow(int row)
{
    if (row >= 0 && std::size_t(row) < m_rows.size() && m_rows[std::size_t(row)]->activated)
        m_rows[std::size_t(row)]->activated();
}

QStringList AdvicePanel::notCheckedLines() const
{
    QStringList lines;
    for (const NotChecked& n : m_advice.notChecked())
        lines << QString::fromStdString(n.rule + ": " + n.why);
    return lines;
}

}  // namespace asyncscope

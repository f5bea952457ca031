#include "gui/charts/difference_view.hpp"

#include "gui/charts/focus_frame.hpp"
#include "gui/charts/verdict_colours.hpp"
#include "gui/files/file_dialogs.hpp"
#include "gui/files/save_file.hpp"
#include "gui/series/nice_ticks.hpp"
#include "gui/series/shown_name.hpp"
#include "gui/session/session_model.hpp"

#include "engine/io/baseline_report.hpp"
#include "engine/model/number_text.hpp"

#include <QEvent>
#include <QFileInfo>
#include <QHBoxLayout>
#include <QImage>
#include <QPainter>
#include <QPushButton>
#include <QSvgGenerator>
#include <QVBoxLayout>

#include <algorithm>
#include <cmath>

namespace asyncscope {

namespace {

QString text(const std::string& s)
{
    return QString::fromStdString(s);
}

// "+4.81 %": a tick's or a difference's words.
QString percentText(double percent, int decimals)
{
    return text(signedPercentText(percent, decimals));
}

QColor blend(const QColor& from, const QColor& to, double share)
{
    const auto mix = [share](int a, int b) { return int(a + (b - a) * share + 0.5); };
    return QColor(mix(from.red(), to.red()), mix(from.green(), to.green()), mix(from.blue(), to.blue()));
}

// The plot itself: paints what its view shows, at its size.
class Plot : public QWidget {
public:
    explicit Plot(const DifferenceView::Shown& shown, QWidget* parent = nullptr)
        : QWidget(parent)
        , m_shown(shown)
    {
        setObjectName(QStringLiteral("differencePlot"));
        setMinimumSize(320, 200);
        setBackgroundRole(QPalette::Base);
        setAutoFillBackground(true);
        setFocusPolicy(Qt::StrongFocus);  // Tab reaches the plot, and its frame says so
    }

protected:
    void paintEvent(QPaintEvent*) override
    {
        QPainter painter(this);
        painter.setRenderHint(QPainter::Antialiasing);
        DifferenceView::paint(painter, QRectF(rect()), palette(), m_shown);
        if (hasFocus())
            paintFocusFrame(painter, rect(), palette());
    }

private:
    const DifferenceView::Shown& m_shown;
};

// The palette of exported pictures: dark text on white, as the charts are exported.
QPalette pictureColours(QPalette palette)
{
    for (const auto group : { QPalette::Active, QPalette::Inactive, QPalette::Disabled }) {
        palette.setColor(group, QPalette::Window, Qt::white);
        palette.setColor(group, QPalette::Base, Qt::white);
        palette.setColor(group, QPalette::AlternateBase, QColor(245, 245, 245));
        palette.setColor(group, QPalette::Text, Qt::black);
        palette.setColor(group, QPalette::WindowText, Qt::black);
    }
    return palette;
}

}  // namespace

DifferenceView::DifferenceView(const SessionModel* session, QWidget* parent)
    : QWidget(parent)
    , m_session(session)
{
    setObjectName(QStringLiteral("difference"));
    auto* bar = new QHBoxLayout;
    bar->addStretch(1);
    for (QPushButton* button : makePictureButtons(QStringLiteral("exportDifference"),
             tr("the difference from the baseline"), [this](const QString& format) { emit exportRequested(format); }))
        bar->addWidget(button);
    m_plot = new Plot(m_shown);
    m_plot->setToolTip(tr("<p>Each quantity measured in every run of both series: the difference of the medians in % "
                          "of the baseline's (the point) and the interval that holds it with the confidence the title "
                          "gives (the bar, a bootstrap). The shaded band is the smallest difference that counts; a "
                          "row is slower or faster only where the interval leaves out 0 and p is small.</p>"));
    auto* layout = new QVBoxLayout(this);
    layout->addLayout(bar);
    layout->addWidget(m_plot, 1);
    setFocusProxy(m_plot);  // the tab focused (the status line's comparison) puts the keyboard on the plot
    connect(&session->baselines(), &BaselineController::changed, this, &DifferenceView::refresh);
    connect(session, &SessionModel::overlayChanged, this, &DifferenceView::refresh);
    refresh();
}

void DifferenceView::refresh()
{
    Shown shown;
    const SavedRun* baseline = m_session->baseline();
    const QString wholeCurrent = m_session->source().label().isEmpty()
        ? tr("this series (%1)").arg(text(m_session->report().device.name))
        : m_session->source().label();
    // Whole names: the subtitle wraps.
    const QString base = baseline ? baseline->label : QString();
    const QString current = wholeCurrent;
    const QString blocking = text(differencesText(m_session->baselines().differences()));
    using State = BaselineController::State;
    switch (m_session->baselines().state()) {
    case State::None:
        shown.message = tr("No baseline. File › Compare with baseline… picks a saved series to compare the series "
                           "shown with.");
        break;
    case State::NoSeries:
        shown.message = tr("Run a series or open a saved one to compare it with %1.").arg(base);
        break;
    case State::TooFewRuns:
        shown.message = tr("Not compared with %1: %2. Differences are told from noise only where both series hold "
                           "enough runs; record or run more of them.")
                            .arg(base, text(m_session->baselines().refusal()));
        break;
    case State::Measuring: shown.message = tr("The series is compared with %1 when it ends.").arg(base); break;
    case State::NeedsConsent:
        shown.message = tr("The configurations differ (%1): compare anyway?").arg(blocking);
        break;
    case State::Declined:
        shown.message = tr("Not compared with %1: the configurations differ (%2).").arg(base, blocking);
        break;
    case State::Comparing: shown.message = tr("Comparing with %1…").arg(base); break;
    case State::Compared: {
        const BaselineComparison& c = *m_session->baselines().comparison();
        shown.band = c.settings.minDifferencePercent;
        shown.confidence = c.settings.confidence;
        shown.title = tr("Difference from the baseline: median against median, %1 % interval")
                          .arg(c.settings.confidence * 100.0, 0, 'f', 0);
        shown.subtitle = tr("%1  →  %2").arg(base, current);
        if (c.acrossConfigurations)
            shown.across = tr("Across configurations: %1").arg(text(differencesText(c.differences)));
        if (c.singleBlock())
            shown.blocks = tr("Note: %1.").arg(text(kSingleBlockNote));
        for (const QuantityComparison& q : c.quantities) {
            if (!q.distribution || !q.differencePercent || !q.lowPercent || !q.highPercent)
                continue;
            shown.rows.push_back({ text(q.name), text(verdictText(q.verdict, *q.differencePercent, q.sameUnderPercent)),
                q.verdict, *q.differencePercent, *q.lowPercent, *q.highPercent });
        }
        if (shown.rows.empty())
            shown.message = tr("No quantity is measured in every run of both series: nothing to plot.");
        break;
    }
    }
    m_shown = std::move(shown);
    m_plot->update();
}

QStringList DifferenceView::paint(QPainter& painter, const QRectF& area, const QPalette& palette, const Shown& shown)
{
    QStringList cut;
    const auto fitted = [&cut](const QFontMetricsF& metrics, const QString& words, double width) {
        const QString elided = metrics.elidedText(words, Qt::ElideRight, width);
        if (elided != words)
            cut << words;
        return elided;
    };
    const QColor ink = palette.color(QPalette::Text);
    const QColor paper = palette.color(QPalette::Base);
    const QColor faint = blend(paper, ink, 0.55);
    painter.fillRect(area, paper);
    QFont plain = painter.font();
    QFont bold = plain;
    bold.setBold(true);
    const QFontMetricsF fm(plain);
    const QFontMetricsF fmBold(bold);
    const double lh = fm.height();
    const double margin = lh;
    const QRectF inner = area.adjusted(margin, margin * 0.75, -margin, -margin * 0.75);

    if (shown.rows.empty()) {
        painter.setPen(faint);
        painter.drawText(inner, Qt::AlignCenter | Qt::TextWordWrap, shown.message);
        return cut;
    }

    // Title lines, each wrapped to the width rather than cut or running off it.
    double y = inner.top();
    const auto line = [&](const QString& words, const QFont& font, const QColor& colour) {
        if (words.isEmpty())
            return;
        painter.setFont(font);
        painter.setPen(colour);
        const QRectF room(inner.left(), y, inner.width(), inner.height());
        const QRectF used = QFontMetricsF(font).boundingRect(room, Qt::AlignLeft | Qt::TextWordWrap, words);
        painter.drawText(room, Qt::AlignLeft | Qt::TextWordWrap, words);
        y += used.height() + lh * 0.3;
    };
    line(shown.title, bold, ink);
    line(shown.subtitle, plain, ink);
    line(shown.across, bold, verdictColour(Verdict::Slower, palette));
    line(shown.blocks, plain, faint);
    y += lh * 0.4;

    // Columns: the names and verdicts at the left, the figures at the right, the plot between them.
    const int places = 2;
    // A row's figures on two lines, as its name and verdict: the difference above, its interval below.
    std::vector<std::pair<QString, QString>> figures;
    double labelWidth = 0.0, figureWidth = 0.0;
    for (const auto& row : shown.rows) {
        labelWidth = std::max({ labelWidth, fmBold.horizontalAdvance(row.name), fm.horizontalAdvance(row.verdict) +
            lh * 1.15 });
        QuantityComparison q;
        q.lowPercent = row.low;
        q.highPercent = row.high;
        figures.emplace_back(percentText(row.percent, places), text(intervalText(q)));
        figureWidth = std::max({ figureWidth, fmBold.horizontalAdvance(figures.back().first),
            fm.horizontalAdvance(figures.back().second) });
    }
    // The figures whole where they take at most 30 % of the width; the names whole where the plot keeps 30 %.
    figureWidth = std::min(figureWidth, inner.width() * 0.3) + lh;
    labelWidth = std::min(labelWidth + lh, std::max(inner.width() * 0.36 + lh, inner.width() * 0.7 - figureWidth));
    const double plotLeft = inner.left() + labelWidth;
    const double plotRight = std::max(plotLeft + lh, inner.right() - figureWidth);
    // Under the plot: the tick labels, then what the marks mean, wrapped to the plot's width, whole.
    const QString caption =
        QObject::tr("The point: the difference of the medians, in % of the baseline's. The bar: its %1\u00a0% "
                    "interval. Shaded: within ±%2\u00a0%, counted as the same.")
            .arg(shown.confidence * 100.0, 0, 'f', 0)
            .arg(shown.band, 0, 'f', 2);
    const double captionHeight =
        fm.boundingRect(QRectF(0, 0, plotRight - plotLeft, 1e6), Qt::AlignHCenter | Qt::TextWordWrap, caption)
            .height();
    const double axisHeight = lh * 1.8 + captionHeight;
    const double rowsTop = y;
    const double available = std::max(lh * 2.0, inner.bottom() - axisHeight - rowsTop);
    const double rowHeight = std::clamp(available / double(shown.rows.size()), lh * 1.6, lh * 3.6);
    const double rowsBottom = rowsTop + rowHeight * double(shown.rows.size());

    // The axis: round percentages over every interval, the band and 0.
    double low = -shown.band, high = shown.band;
    for (const auto& row : shown.rows) {
        low = std::min({ low, row.low, row.percent });
        high = std::max({ high, row.high, row.percent });
    }
    if (!(high > low)) {
        low -= 1.0;
        high += 1.0;
    }
    const double pad = (high - low) * 0.06;
    low -= pad;
    high += pad;
    const double tickRoom = fm.horizontalAdvance(QStringLiteral("+1000 %")) * 1.35;
    const NiceTicks ticks = niceTicks(low, high, std::max(2.0, (plotRight - plotLeft) / tickRoom));
    const auto xOf = [&](double percent) { return plotLeft + (percent - low) / (high - low) * (plotRight - plotLeft); };

    // Rows on alternate shades, the band, the grid and the zero line under the marks.
    const QColor stripe = palette.color(QPalette::AlternateBase);
    for (std::size_t i = 0; i < shown.rows.size(); i += 2)
        painter.fillRect(QRectF(inner.left(), rowsTop + rowHeight * double(i), inner.width(), rowHeight), stripe);
    QColor band = ink;
    band.setAlphaF(0.10);
    painter.fillRect(QRectF(QPointF(xOf(-shown.band), rowsTop), QPointF(xOf(shown.band), rowsBottom)), band);
    QColor grid = ink;
    grid.setAlphaF(0.14);
    painter.setFont(plain);
    for (const double t : ticks.values) {
        const double x = xOf(t);
        painter.setPen(QPen(grid, 1.0));
        painter.drawLine(QPointF(x, rowsTop), QPointF(x, rowsBottom + lh * 0.3));
        painter.setPen(faint);
        const QString label = std::abs(t) < ticks.step * 1e-6 ? QStringLiteral("0 %") : percentText(t, ticks.decimals);
        painter.drawText(QRectF(x - tickRoom / 2, rowsBottom + lh * 0.35, tickRoom, lh), Qt::AlignCenter, label);
    }
    QColor zero = ink;
    zero.setAlphaF(0.75);
    painter.setPen(QPen(zero, 1.5));
    painter.drawLine(QPointF(xOf(0.0), rowsTop - lh * 0.2), QPointF(xOf(0.0), rowsBottom + lh * 0.3));
    painter.setPen(faint);
    painter.drawText(QRectF(plotLeft, rowsBottom + lh * 1.6, plotRight - plotLeft, captionHeight + lh),
        Qt::AlignHCenter | Qt::AlignTop | Qt::TextWordWrap, caption);

    for (std::size_t i = 0; i < shown.rows.size(); ++i) {
        const Row& row = shown.rows[i];
        const double top = rowsTop + rowHeight * double(i);
        const double middle = top + rowHeight / 2;
        const QColor colour = verdictColour(row.kind, palette);
        // Name above, verdict below, a dot of its colour before the verdict.
        painter.setFont(bold);
        painter.setPen(ink);
        painter.drawText(QRectF(inner.left() + lh * 0.3, middle - lh, labelWidth - lh * 0.6, lh),
            Qt::AlignLeft | Qt::AlignVCenter, fitted(fmBold, row.name, labelWidth - lh * 0.6));
        painter.setFont(plain);
        painter.setPen(Qt::NoPen);
        painter.setBrush(colour);
        painter.drawEllipse(QPointF(inner.left() + lh * 0.6, middle + lh * 0.5), lh * 0.22, lh * 0.22);
        painter.setPen(row.kind == Verdict::Slower || row.kind == Verdict::Faster ? colour : ink);
        painter.drawText(QRectF(inner.left() + lh * 1.15, middle, labelWidth - lh * 1.45, lh),
            Qt::AlignLeft | Qt::AlignVCenter, fitted(fm, row.verdict, labelWidth - lh * 1.45));
        // The interval as a bar with end caps, the difference as a point on it.
        const double x0 = xOf(row.low), x1 = xOf(row.high), x = xOf(row.percent);
        const double cap = lh * 0.32;
        painter.setPen(QPen(colour, std::max(2.0, lh * 0.16), Qt::SolidLine, Qt::FlatCap));
        painter.drawLine(QPointF(x0, middle), QPointF(x1, middle));
        painter.drawLine(QPointF(x0, middle - cap), QPointF(x0, middle + cap));
        painter.drawLine(QPointF(x1, middle - cap), QPointF(x1, middle + cap));
        painter.setPen(QPen(paper, 1.5));
        painter.setBrush(colour);
        painter.drawEllipse(QPointF(x, middle), lh * 0.34, lh * 0.34);
        painter.setBrush(Qt::NoBrush);
        // The figures at the right: the difference, and its interval under it.
        const double figuresLeft = plotRight + lh * 0.6, figuresWidth = figureWidth - lh * 0.6;
        painter.setPen(ink);
        painter.setFont(bold);
        painter.drawText(QRectF(figuresLeft, middle - lh, figuresWidth, lh), Qt::AlignLeft | Qt::AlignVCenter,
            fitted(fmBold, figures[i].first, figuresWidth));
        painter.setFont(plain);
        painter.drawText(QRectF(figuresLeft, middle, figuresWidth, lh), Qt::AlignLeft | Qt::AlignVCenter,
            fitted(fm, figures[i].second, figuresWidth));
    }
    return cut;
}

QString DifferenceView::exportPicture(const QString& path, QSize pixels) const
{
    if (QString problem = pictureProblem(path, pixels); !problem.isEmpty())
        return problem;
    if (!hasPlot())
        return tr("There is no difference from a baseline to export yet.");
    // Laid out at a size a screen would show and scaled up, as the charts are: the text grows with the picture.
    const double scale = std::max(1.0, std::min(pixels.width() / 1280.0, pixels.height() / 720.0));
    const QRectF area(QPointF(0, 0), QSizeF(pixels) / scale);
    const QPalette colours = pictureColours(palette());
    const auto draw = [&](QPainter& painter) {
        painter.setRenderHint(QPainter::Antialiasing);
        painter.setFont(font());
        painter.scale(scale, scale);
        paint(painter, area, colours, m_shown);
    };
    return saveDevice(path, [&](QIODevice& file) -> QString {
        if (isSvgPath(path)) {
            QSvgGenerator generator;
            generator.setOutputDevice(&file);
            generator.setSize(pixels);
            generator.setViewBox(QRectF(QPointF(0, 0), QSizeF(pixels)));
            generator.setTitle(tr("AsyncScope difference from the baseline"));
            QPainter painter(&generator);
            draw(painter);
            return {};
        }
        QImage image(pixels, QImage::Format_ARGB32_Premultiplied);
        image.fill(Qt::white);
        {
            QPainter painter(&image);
            draw(painter);
        }
        const QString suffix = QFileInfo(path).suffix().toLower();
        if (!image.save(&file, suffix.toLatin1().constData()))
            return tr("Encoding the picture as %1 failed.").arg(suffix.toUpper());
        return {};
    });
}

}  // namespace asyncscope

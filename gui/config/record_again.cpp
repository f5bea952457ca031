#include "gui/config/record_again.hpp"

#include <QRegularExpression>

namespace asyncscope {

namespace {

const QLatin1String kNvtxRange("NVTX range '");

}  // namespace

QString argumentsText(const std::vector<std::string>& words)
{
    QStringList texts;
    for (const std::string& word : words) {
        QString text = QString::fromStdString(word);
        static const QRegularExpression space(QStringLiteral("\\s"));
        if (text.isEmpty() || text.contains(QLatin1Char('"')) || text.contains(space))
            text = QLatin1Char('"') + text.replace(QLatin1String("\""), QLatin1String("\"\"\"")) + QLatin1Char('"');
        texts << text;
    }
    return texts.join(QLatin1Char(' '));
}

RecordSettings recordSettingsOf(const ProgramInfo& program, RecordSettings remembered)
{
    RecordSettings s;
    s.recentPrograms = std::move(remembered.recentPrograms);
    if (!program.command.empty()) {
        s.program = QString::fromStdString(program.command.front());
        s.arguments = argumentsText(std::vector<std::string>(program.command.begin() + 1, program.command.end()));
    }
    s.folder = QString::fromStdString(program.workingFolder);
    // "host synchronizations" (thread by thread or not), "NVTX range 'step'", "the whole recording" (automatic found
    // neither, and may find one another time).
    const QString how = QString::fromStdString(program.iterations);
    if (how.startsWith(QLatin1String("host synchronizations"))) {
        s.iterations = QStringLiteral("sync");
    } else if (how.startsWith(kNvtxRange) && how.endsWith(QLatin1Char('\''))) {
        s.iterations = QStringLiteral("nvtx");
        s.rangeName = how.mid(kNvtxRange.size(), how.size() - kNvtxRange.size() - 1);
    } else {
        s.iterations = QStringLiteral("auto");
    }
    return s;
}

}  // namespace asyncscope

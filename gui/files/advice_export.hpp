// The advice shown (gui/series/shown_advice) as text to copy or save: plain text as the CLI prints it after a summary
// (engine/io/text_report's formatAdviceText), or Markdown with a section per variant, for notes and issues.
#pragma once

#include "gui/series/shown_advice.hpp"

#include <QString>

namespace asyncscope {

enum class AdviceFormat { Text, Markdown };

QString adviceText(const ShownAdvice& advice, AdviceFormat format);
// Markdown where the path ends in .md or .markdown, plain text otherwise. Empty, or a sentence saying what went wrong.
QString exportAdvice(const ShownAdvice& advice, const QString& path);

}  // namespace asyncscope

#include "gui/app/text_page_dialog.hpp"

#include <QDialogButtonBox>
#include <QTextBrowser>
#include <QVBoxLayout>

namespace asyncscope {

TextPageDialog::TextPageDialog(const QString& title, const QString& html, QWidget* parent)
    : QDialog(parent)
{
    setWindowTitle(title);
    auto* text = new QTextBrowser;
    text->setObjectName("page");
    text->setOpenExternalLinks(true);
    text->setHtml(html);
    auto* buttons = new QDialogButtonBox(QDialogButtonBox::Close);
    connect(buttons, &QDialogButtonBox::rejected, this, &QDialog::reject);
    auto* layout = new QVBoxLayout(this);
    layout->addWidget(text);
    layout->addWidget(buttons);
    // About 70 characters wide and 30 lines high in the dialog's own font, whatever the scale.
    const QFontMetrics metrics(font());
    resize(metrics.averageCharWidth() * 78, metrics.lineSpacing() * 32);
}

}  // namespace asyncscope

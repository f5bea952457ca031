// A page of rich text in its own window (the Help menu's guide, shortcuts and licence): scrollable, selectable,
// sized to be read.
#pragma once

#include <QDialog>

namespace asyncscope {

class TextPageDialog : public QDialog {
    Q_OBJECT
public:
    TextPageDialog(const QString& title, const QString& html, QWidget* parent = nullptr);
};

}  // namespace asyncscope

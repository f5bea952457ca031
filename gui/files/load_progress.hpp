// What the window shows while a saved run is read: a progress dialog that leaves the window usable (not modal),
// with Cancel, shown only once a read takes longer than a moment. Errors are not its business: the file actions
// report them.
#pragma once

#include <QObject>
#include <QPointer>
#include <QProgressDialog>

class QWidget;

namespace asyncscope {

class SessionModel;

class LoadProgress : public QObject {
    Q_OBJECT
public:
    LoadProgress(SessionModel* session, QWidget* window);

    // The dialog of the read in progress; null when none is.
    QProgressDialog* dialog() const { return m_dialog; }

private:
    void onStarted(const QString& path);
    void onEnded();

    SessionModel* m_session;
    QWidget* m_window;
    QPointer<QProgressDialog> m_dialog;
};

}  // namespace asyncscope

// The status bar's view of a session: what runs, how far it is and how fast runs arrive, how the last plan ended,
// the CPUs the shown series ran on (its binding, as the saved report records it); a badge where the advice on what is
// shown has warnings or worse ("⚠ 2 warnings", red and naming it where one is severe), which opens the Advice tab;
// the comparison with the baseline ("Baseline a.json: GPU time slower by 4.81 % (interval 4.62 to 5.03 %)"), cut to
// the room it has, whole in its tooltip, which opens the Difference tab; and any one-line message the window has for
// the user.
#pragma once

#include "engine/run/plan.hpp"

#include <QWidget>

class QLabel;
class QProgressBar;
class QPushButton;
class QStatusBar;

namespace asyncscope {

class ElidedButton;
class FileActions;
class SessionModel;

// "Baseline a.json: GPU time slower by 4.81 % (interval 4.62 to 5.03 %)", or what keeps the series from being compared
// with the baseline; empty without one. What the status line and a headless run's summary say of it: the whole line
// first, then, for a verdict, shorter forms that keep it and its figure ("Baseline: GPU time slower by 4.81 % …",
// "GPU time slower by 4.81 %"), for a status line too narrow for the whole.
QStringList baselineForms(const SessionModel& session);

// "Settings not remembered: …" for good at the right of `bar`, where the settings files cannot be used; nothing where
// `problem` is empty.
void addSettingsNote(QStatusBar& bar, const QString& problem);

class RunStatus : public QWidget {
    Q_OBJECT
public:
    explicit RunStatus(const SessionModel* session, QWidget* parent = nullptr);
    void showMessage(const QString& text);
    // What `files` do, said here: work under way, the lasting line again where one failed, and the saved series
    // shown ("Showing …"), which stays while it is.
    void followFiles(const FileActions& files);
    // "Running 64.0 MiB (K = 16, S = 4, by chunk, graph) on H200…": the plan's first variant, shape and all.
    void showStart(const Plan& plan, const QString& device);
    // "2 CUDA devices, driver CUDA 13.0", or why no GPU can run here: in the line's tooltip always, in the line
    // itself unless a saved series is shown, whose line ("Showing …") stays.
    void showDevices(const Platform& platform);
    void showNoDevice(bool noDriver);
    // A message that gives way to the one before it after `ms` ("Saved …").
    void showTransient(const QString& text, int ms);
    // Work under way ("Writing …", "Reading 4 result files…"): shown until its outcome (a transient message, or
    // showLasting()) takes its place, and never what a transient gives way to.
    void showUnderWay(const QString& text);
    // The lasting message again, cutting short whatever transient or work under way is shown.
    void showLasting();
    QString text() const;
    // The advice badge's words ("⚠ 2 warnings", "⚠ Another process on the GPU"); empty while it is hidden.
    QString adviceBadge() const;
    // The baseline's line, whole; empty where there is no baseline.
    QString baselineText() const;
    // As the status line shows it at its width now: shorter forms keep the verdict's figure, cut only where none fits.
    QString baselineShown() const;

signals:
    void adviceRequested();  // the badge was clicked: the Advice tab should show
    void baselineRequested();  // the baseline's line was clicked: the Difference tab should show

private:
    void showProgress();
    void showAdvice();
    void showBaseline();
    void showDeviceLine(const QString& text);

    const SessionModel* m_session;
    QLabel* m_text = nullptr;
    QLabel* m_binding = nullptr;
    QProgressBar* m_progress = nullptr;
    QPushButton* m_advice = nullptr;
    ElidedButton* m_baseline = nullptr;
    QString m_lasting;  // what a transient message gives way to
    int m_transients = 0;  // transient messages shown, so only the latest one's timer restores
};

}  // namespace asyncscope

// The pipeline's controls: GPU, size, value, the workload's shape (chunks, streams, issue order, submission, batch
// overlap), runs, host memory (its copies, managed migration and advice), wait, check, stages and stop rule
// (PipelineForm), with Run and Cancel below them. A control that does not apply to the other choices (copies for
// memory that is never copied, managed options for other memory) is disabled, its tooltip saying why, and the
// configuration leaves it out. The panel turns them into a configuration and back, and into settings and back, shows
// a saved series' configuration in place of the user's own; it runs nothing itself. Input it cannot take, alone or
// together with the rest (more streams than chunks, more chunks than elements, batch submission with memory that has
// no copies), is refused with the reason shown under the controls, and what was typed stays as typed.
#pragma once

#include "gui/config/settings_store.hpp"

#include "engine/model/device.hpp"
#include "engine/run/plan.hpp"

#include <QGroupBox>

class QLabel;
class QPushButton;

namespace asyncscope {

class PipelineForm;

class ConfigPanel : public QGroupBox {
    Q_OBJECT
public:
    explicit ConfigPanel(QWidget* parent = nullptr);

    // Fills the GPU list and selects the device asked for (`requested`, an index), else the remembered one (by
    // UUID), else the fastest. A requested device that is not there is the problem returned.
    Status setDevices(const Platform& platform, const QString& rememberedUuid, std::optional<int> requested);
    // No GPU can run: the list says why in a word, the banner in a sentence; `details` goes in its tooltip.
    void setNoDevices(const QString& item, const QString& sentence, const QString& details);
    QString deviceMessage() const;  // the banner's text while it is shown
    // Why input was refused, each reason under its control, a line each here; empty when every input is valid.
    QString inputProblem() const;

    PipelineConfig config() const;  // the controls, over the settings' values the panel has no control for
    // One series of config(), or a comparison of its variants.
    Result<Plan> plan(std::optional<Comparison> comparison, std::size_t sweepMinBytes = kSweepMinBytes,
        std::size_t sweepMaxBytes = kSweepMaxBytes) const;
    // Makes `settings` the panel's own (showing a saved configuration ends).
    void applySettings(const GuiSettings& settings);
    // base with the controls' values and the chosen GPU's UUID; while a saved configuration is shown, with the
    // user's own values, which that leaves as they were.
    GuiSettings settings(GuiSettings base) const;
    // While a saved series is shown: the controls show the configuration it ran with, not editable, a line says
    // whose it is (`source`, its file), and "Use these settings" makes them the panel's own (changed()). The user's
    // own settings are kept meanwhile, and nothing of this is a change to save.
    void showConfiguration(const PipelineConfig& config, const QString& source);
    // Back to the user's own settings, as they were before a saved configuration was shown (nothing where none is).
    void showOwnSettings();
    QString savedConfigurationNote() const;  // the line that says whose configuration is shown; empty when none
    // Shows `elements` exactly, in the largest unit that holds it.
    void showSize(std::size_t elements);
    void setRuns(int runs);
    void setRunning(bool running);
    bool runEnabled() const;

signals:
    void runRequested();
    void cancelRequested();
    void changed();  // a control changed to a valid value: the settings can be saved

protected:
    void changeEvent(QEvent* event) override;

private:
    // Checks the size and the shape together; while they are not valid the reason is shown and Run is disabled.
    void checkInput();
    void fill(const GuiSettings& settings);  // the controls, and what they leave out, from `settings`
    void useShownConfiguration();            // "Use these settings"
    bool editable() const { return !m_running && !m_viewing; }
    void updateBanner();  // the GPU banner's and the refusal's colours, from the palette
    const DeviceInfo* chosenDevice() const;

    Platform m_platform;
    bool m_devicesKnown = false;
    bool m_running = false;
    std::size_t m_elements = 0;  // the size and shape as last typed validly
    int m_chunks = 1;
    int m_streams = 1;
    bool m_inputValid = true;
    QString m_invalidReason;  // why the size and shape are not valid; empty when they are
    Status m_unsupported;  // why the chosen memory, copies and submission cannot run together (checkCombination)
    GuiSettings m_base;  // what the last applied settings hold beyond the controls
    bool m_viewing = false;  // a saved series' configuration is shown
    GuiSettings m_own;       // the user's settings, while a saved configuration is shown
    QWidget* m_savedBox = nullptr;  // says whose configuration is shown, with "Use these settings"
    QLabel* m_savedNote = nullptr;
    PipelineForm* m_form = nullptr;  // the controls
    QPushButton* m_run = nullptr;
    QPushButton* m_cancel = nullptr;
};

}  // namespace asyncscope

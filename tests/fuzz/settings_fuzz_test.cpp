// The settings' fuzz test: the window's settings file, as it writes it, mutated (fuzz_loop.hpp) and read back by
// loadSettings(). A settings file is never refused: every value it holds either is one the window can run with or
// falls back to its default. A loaded configuration that checkConfig() refuses, or an export size out of bounds, is a
// finding (thrown, so that the loop reports it with its input).
#include "fuzz_loop.hpp"

#include "gui/config/settings_store.hpp"

#include "engine/model/record_rules.hpp"

#include <QCoreApplication>
#include <QSettings>

#include <gtest/gtest.h>

#include <cstdio>
#include <stdexcept>

using namespace asyncscope;
namespace fs = std::filesystem;

namespace {

// The settings say on the log what they leave out, once an input: counted here, not printed thousands of times.
std::size_t g_warnings = 0;
void countWarning(QtMsgType, const QMessageLogContext&, const QString&)
{
    ++g_warnings;
}

}  // namespace

TEST(Fuzz, Settings)
{
    qInstallMessageHandler(countWarning);
    int argc = 1;
    char name[] = "asyncscope_settings_fuzz_test";
    char* argv[] = { name, nullptr };
    QCoreApplication app(argc, argv);
    QCoreApplication::setOrganizationName("AsyncScope");
    QCoreApplication::setApplicationName("asyncscope-fuzz");
    const fs::path home = fs::temp_directory_path() / ("asyncscope-settings-fuzz-" + std::to_string(::getpid()));
    const fs::path seeds = home / "seeds";
    fs::create_directories(seeds);
    QSettings::setPath(QSettings::NativeFormat, QSettings::UserScope, QString::fromStdString((home / "live").string()));
    const std::string live = QSettings().fileName().toStdString();

    // Seeds: the files the window writes, with the defaults and with every choice changed.
    GuiSettings changed = defaultSettings();
    changed.config.chunks = 16;
    changed.config.streams = 4;
    changed.config.order = IssueOrder::ByStage;
    changed.config.submission = Submission::Graph;
    changed.config.hostMemory = HostMemory::Pageable;
    changed.config.waitMode = WaitMode::Blocking;
    changed.config.stopRule = StopRule::Noise;
    changed.deviceUuid = "GPU-0e2150c1-15aa-cf9c-ccc0-fe804a020b61";
    changed.geometry = QByteArray(64, '\x01');
    int k = 0;
    for (const GuiSettings& s : { defaultSettings(), changed }) {
        clearSettings();
        saveSettings(s);
        QSettings().sync();
        fs::copy_file(live, seeds / ("settings-" + std::to_string(k++) + ".conf"));
    }

    fuzz::Target target;
    target.name = "settings";
    target.fileName = "asyncscope-fuzz.conf";
    target.seeds = fuzz::filesIn(seeds, { ".conf" });
    target.read = [&live](const std::string& path) -> std::optional<std::string> {
        fs::copy_file(path, live, fs::copy_options::overwrite_existing);
        const GuiSettings s = loadSettings();
        if (auto invalid = checkConfig(s.config))
            throw std::logic_error("the settings loaded a configuration the window refuses: " + invalid->field + " " +
                invalid->found);
        if (s.exportSize.width() < 16 || s.exportSize.height() < 16 || s.exportSize.width() > 16384 ||
            s.exportSize.height() > 16384)
            throw std::logic_error("the settings loaded an export size out of bounds");
        return std::nullopt;
    };
    const fuzz::Tally tally = fuzz::run(target, fuzz::budgetFromEnvironment(20.0));
    std::printf("%s    %zu values fell back to their defaults, each said on the log\n",
        fuzz::describe(target, tally).c_str(), g_warnings);
    qInstallMessageHandler(nullptr);
    fs::remove_all(home);
    EXPECT_GT(tally.inputs, 0u);
    EXPECT_TRUE(tally.findings.empty()) << tally.findings.size() << " findings; the first: " << tally.findings.front();
}

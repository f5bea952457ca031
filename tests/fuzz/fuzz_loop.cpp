#include "fuzz_loop.hpp"

#include "allocation_meter.hpp"
#include "mutator.hpp"

#include <algorithm>
#include <atomic>
#include <chrono>
#include <condition_variable>
#include <csignal>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <mutex>
#include <sstream>
#include <thread>

#include <unistd.h>

#if defined(__SANITIZE_ADDRESS__)
#include <sanitizer/common_interface_defs.h>
#endif

namespace asyncscope::fuzz {

namespace {

using Clock = std::chrono::steady_clock;

// The input being read, for the words printed when the process dies on it.
std::mutex g_currentMutex;
std::string g_currentHow;
std::string g_currentText;
std::string g_currentTarget;

std::string base64(const std::string& bytes)
{
    static const char* alphabet = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
    std::string out;
    std::size_t i = 0;
    for (; i + 2 < bytes.size(); i += 3) {
        const unsigned v = (unsigned char)bytes[i] << 16 | (unsigned char)bytes[i + 1] << 8 | (unsigned char)bytes[i + 2];
        out += { alphabet[v >> 18], alphabet[(v >> 12) & 63], alphabet[(v >> 6) & 63], alphabet[v & 63] };
    }
    if (i + 1 == bytes.size()) {
        const unsigned v = (unsigned char)bytes[i] << 16;
        out += { alphabet[v >> 18], alphabet[(v >> 12) & 63], '=', '=' };
    } else if (i + 2 == bytes.size()) {
        const unsigned v = (unsigned char)bytes[i] << 16 | (unsigned char)bytes[i + 1] << 8;
        out += { alphabet[v >> 18], alphabet[(v >> 12) & 63], alphabet[(v >> 6) & 63], '=' };
    }
    return out;
}

// The input's words for the log: how it was made and, up to 64 KiB, its bytes.
std::string evidence(const std::string& target, const std::string& how, const std::string& text)
{
    std::string out = "[" + target + "] input made by: " + how + " (" + std::to_string(text.size()) + " bytes)\n";
    if (text.size() <= 65536)
        out += "[" + target + "] input, base64: " + base64(text) + "\n";
    else
        out += "[" + target + "] input too long to print; remade by ASYNCSCOPE_FUZZ_SEED and the mutations above\n";
    return out;
}

// With ASYNCSCOPE_FUZZ_KEEP=DIR in the environment, a finding's input is also written into DIR as TARGET-N (N its
// number in the run), to read it again by hand. Says where, or nothing.
std::string keep(const std::string& target, std::size_t input, const std::string& text)
{
    const char* dir = std::getenv("ASYNCSCOPE_FUZZ_KEEP");
    if (!dir || !*dir)
        return {};
    const std::filesystem::path file = std::filesystem::path(dir) / (target + "-" + std::to_string(input));
    std::ofstream out(file, std::ios::binary | std::ios::trunc);
    out.write(text.data(), std::streamsize(text.size()));
    return out ? "[" + target + "] input kept as " + file.string() + "\n" : std::string();
}

void printCurrent()
{
    // Called as the process dies: the lock may be held by the thread that died; take it only if free.
    std::unique_lock lock(g_currentMutex, std::try_to_lock);
    const std::string text = evidence(g_currentTarget, g_currentHow, g_currentText);
    [[maybe_unused]] const auto written = ::write(2, text.data(), text.size());
}

extern "C" void onFatalSignal(int signal)
{
    printCurrent();
    std::signal(signal, SIG_DFL);
    std::raise(signal);
}

void installDeathWords()
{
#if defined(__SANITIZE_ADDRESS__)
    __sanitizer_set_death_callback(printCurrent);
#endif
    for (const int s : { SIGSEGV, SIGABRT, SIGBUS, SIGFPE, SIGILL })
        std::signal(s, onFatalSignal);
}

// "line 12: gpu_time_ms is -1; accepted …" → "line #: gpu_time_ms is -#; accepted …", cut: a refusal's kind.
std::string kindOf(std::string message, const std::string& path)
{
    for (std::size_t at; (at = message.find(path)) != std::string::npos;)
        message.replace(at, path.size(), "FILE");
    std::string kind;
    for (const char c : message) {
        if (std::isdigit(static_cast<unsigned char>(c))) {
            if (kind.empty() || kind.back() != '#')
                kind += '#';
        } else {
            kind += c;
        }
        if (kind.size() >= 72)
            break;
    }
    return kind;
}

// What makes a refusal one a person cannot act on; empty when it is fine.
std::string unhelpful(const std::string& message, const std::string& path)
{
    if (message.find(path) == std::string::npos &&
        message.find(std::filesystem::path(path).filename().string()) == std::string::npos)
        return "the message does not name the file";
    for (const char* library : { "json.exception", "stoi", "stod", "basic_string", "std::", "simdjson", "what()" }) {
        if (message.find(library) != std::string::npos)
            return std::string("the message holds library text (") + library + ")";
    }
    if (message.size() > 600)
        return "the message is " + std::to_string(message.size()) + " characters long";
    return {};
}

std::string readWhole(const std::filesystem::path& path)
{
    std::ifstream in(path, std::ios::binary);
    std::ostringstream out;
    out << in.rdbuf();
    return out.str();
}

}  // namespace

Budget budgetFromEnvironment(double seconds)
{
    Budget budget;
    budget.seconds = seconds;
    if (const char* s = std::getenv("ASYNCSCOPE_FUZZ_SECONDS"))
        budget.seconds = std::strtod(s, nullptr);
    if (const char* s = std::getenv("ASYNCSCOPE_FUZZ_INPUTS"))
        budget.inputs = std::strtoull(s, nullptr, 10);
    if (const char* s = std::getenv("ASYNCSCOPE_FUZZ_SEED"))
        budget.seed = std::strtoull(s, nullptr, 10);
    if (budget.inputs > 0 && !std::getenv("ASYNCSCOPE_FUZZ_SECONDS"))
        budget.seconds = 1e9;  // a count asked for: as long as it takes
    return budget;
}

std::vector<std::filesystem::path> filesIn(const std::filesystem::path& folder,
    const std::vector<std::string>& suffixes)
{
    std::vector<std::filesystem::path> files;
    std::error_code error;
    for (const auto& entry : std::filesystem::directory_iterator(folder, error)) {
        const std::string name = entry.path().filename().string();
        const bool wanted = std::any_of(suffixes.begin(), suffixes.end(), [&](const std::string& s) {
            return name.size() >= s.size() && name.compare(name.size() - s.size(), s.size(), s) == 0;
        });
        if (wanted && entry.is_regular_file())
            files.push_back(entry.path());
    }
    std::sort(files.begin(), files.end());
    return files;
}

Tally run(const Target& target, const Budget& budget)
{
    installDeathWords();
    std::vector<std::string> seeds;
    for (const auto& path : target.seeds)
        seeds.push_back(readWhole(path));
    Mutator mutator(seeds, budget.seed);
    const auto folder = std::filesystem::temp_directory_path() /
        ("asyncscope-fuzz-" + target.name + "-" + std::to_string(::getpid()));
    std::filesystem::create_directories(folder);
    const std::string path = (folder / target.fileName).string();

    // The watchdog: an input read for longer than the hang limit is printed and the process ended, so that CI fails
    // with the input in its log instead of waiting for its own timeout.
    std::mutex mutex;
    std::condition_variable wake;
    bool done = false;
    Clock::time_point started = Clock::now();
    std::size_t reading = 0;  // 1 + the input's number while one is read
    std::thread watchdog([&] {
        std::unique_lock lock(mutex);
        while (!done) {
            wake.wait_for(lock, std::chrono::milliseconds(500));
            if (reading && Clock::now() - started > std::chrono::duration<double>(budget.hangSeconds)) {
                std::fprintf(stderr, "[%s] HANG: one input read for more than %.0f s\n", target.name.c_str(),
                    budget.hangSeconds);
                printCurrent();
                std::_Exit(3);
            }
        }
    });

    Tally tally;
    const auto end = Clock::now() + std::chrono::duration<double>(budget.seconds);
    while ((budget.inputs == 0 || tally.inputs < budget.inputs) && Clock::now() < end) {
        std::string how;
        std::string text = mutator.next(how);
        {
            std::lock_guard lock(g_currentMutex);
            g_currentTarget = target.name;
            g_currentHow = how + " (ASYNCSCOPE_FUZZ_SEED=" + std::to_string(budget.seed) + ", input " +
                std::to_string(tally.inputs) + ")";
            g_currentText = text;
        }
        {
            std::ofstream out(path, std::ios::binary | std::ios::trunc);
            out.write(text.data(), std::streamsize(text.size()));
        }
        {
            std::lock_guard lock(mutex);
            started = Clock::now();
            reading = tally.inputs + 1;
        }
        std::optional<std::string> refusal;
        std::string thrown;
        resetPeak();
        const std::size_t heldBefore = heldBytes();
        try {
            refusal = target.read(path);
        } catch (const std::exception& e) {
            thrown = e.what();
        } catch (...) {
            thrown = "an exception of unknown type";
        }
        const double seconds = std::chrono::duration<double>(Clock::now() - started).count();
        const std::size_t took = peakBytes() - std::min(peakBytes(), heldBefore);
        tally.mostBytes = std::max(tally.mostBytes, took);
        {
            std::lock_guard lock(mutex);
            reading = 0;
        }
        tally.slowestSeconds = std::max(tally.slowestSeconds, seconds);
        ++tally.inputs;
        std::string finding;
        if (took > maxReaderBytes(text.size())) {
            finding = "the reader took " + std::to_string(took >> 20) + " MiB for a file of " +
                std::to_string(text.size()) + " bytes: more than 4 times the file and 64 MiB";
        } else if (!thrown.empty()) {
            finding = "an exception left the reader: " + thrown.substr(0, 200);
        } else if (refusal) {
            ++tally.refused;
            ++tally.refusals[kindOf(*refusal, path)];
            if (std::string why = unhelpful(*refusal, path); !why.empty())
                finding = why + ": " + refusal->substr(0, 300);
        } else {
            ++tally.read;
        }
        if (!finding.empty()) {
            std::lock_guard lock(g_currentMutex);
            tally.findings.push_back(finding);
            std::fprintf(stderr, "[%s] FINDING: %s\n%s%s", target.name.c_str(), finding.c_str(),
                evidence(target.name, g_currentHow, text).c_str(), keep(target.name, tally.inputs - 1, text).c_str());
            if (tally.findings.size() >= 20)
                break;  // enough to act on
        }
    }
    {
        std::lock_guard lock(mutex);
        done = true;
    }
    wake.notify_all();
    watchdog.join();
    std::filesystem::remove_all(folder);
    return tally;
}

std::string describe(const Target& target, const Tally& tally)
{
    std::ostringstream out;
    out << "[" << target.name << "] " << tally.inputs << " inputs from " << target.seeds.size() << " seeds: "
        << tally.read << " read, " << tally.refused << " refused, " << tally.findings.size()
        << " findings; slowest input " << tally.slowestSeconds << " s; most memory for one input "
        << (tally.mostBytes >> 20) << " MiB\n";
    std::vector<std::pair<std::size_t, std::string>> common;
    for (const auto& [kind, count] : tally.refusals)
        common.push_back({ count, kind });
    std::sort(common.rbegin(), common.rend());
    for (std::size_t i = 0; i < common.size() && i < 8; ++i)
        out << "    " << common[i].first << "  " << common[i].second << "\n";
    return out.str();
}

}  // namespace asyncscope::fuzz

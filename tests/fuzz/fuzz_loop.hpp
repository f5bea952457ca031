// The readers' fuzz loop: mutated real files (mutator.hpp) handed to a reader as the product hands it a file, for a
// bounded time or count. What fails it: a crash, a sanitizer's report or an allocation over its cap (under ASan: the
// process dies, and the input it was reading is printed first), a read that holds more than maxReaderBytes at once,
// an input read for longer than the hang limit, an
// exception out of the reader, and a refusal that a person could not act on (no file named, library text, a message
// longer than a screen line or two). Every failing input is printed in the log (how it was made, and its bytes in
// base64) so that it can be kept as a regression file.
#pragma once

#include <cstdint>
#include <filesystem>
#include <functional>
#include <map>
#include <optional>
#include <string>
#include <vector>

namespace asyncscope::fuzz {

struct Target {
    std::string name;                          // "json-report"
    std::string fileName;                      // each input is saved as this: "input.json"
    std::vector<std::filesystem::path> seeds;  // real files
    // Reads the file at `path` as the product does: nothing when it was read, else the message shown for it.
    std::function<std::optional<std::string>(const std::string& path)> read;
};

struct Budget {
    double seconds = 20.0;      // ASYNCSCOPE_FUZZ_SECONDS
    std::size_t inputs = 0;     // ASYNCSCOPE_FUZZ_INPUTS; 0: as many as the time allows
    std::uint64_t seed = 1;     // ASYNCSCOPE_FUZZ_SEED
    double hangSeconds = 20.0;  // one input read for longer than this is a hang
};
// The budget the environment asks for, `seconds` when it says nothing.
Budget budgetFromEnvironment(double seconds);

struct Tally {
    std::size_t inputs = 0;
    std::size_t read = 0;
    std::size_t refused = 0;
    std::map<std::string, std::size_t> refusals;  // by the message's first words, numbers and the path left out
    std::vector<std::string> findings;            // what fails the test, one line each
    double slowestSeconds = 0.0;
    std::size_t mostBytes = 0;  // the most one input's read held at once (allocation_meter.hpp)
};

// The most a reader may hold at once for a file of `fileBytes`: four times the file and 64 MiB. Past it an input is a
// finding (a 100 MB file of empty objects once took 3.7 GB, a 60 MB header key 2 GB).
constexpr std::size_t maxReaderBytes(std::size_t fileBytes)
{
    return 4 * fileBytes + (std::size_t(64) << 20);
}

Tally run(const Target& target, const Budget& budget);
// The tally as the log shows it: inputs, read, refused, the commonest refusals.
std::string describe(const Target& target, const Tally& tally);
// Seed files: every regular file in `folder` whose name ends with one of `suffixes`.
std::vector<std::filesystem::path> filesIn(const std::filesystem::path& folder,
    const std::vector<std::string>& suffixes);

}  // namespace asyncscope::fuzz

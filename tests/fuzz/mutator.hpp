// Hostile variants of real files for the readers' fuzz tests: each input is a seed (a file AsyncScope wrote) with one
// to four mutations drawn from a seeded generator, so that a run is repeatable from its seed and its count. The
// mutations are those that broke readers before: bits and bytes flipped, stretches cut, repeated or spliced from
// another seed, the file cut short, numbers swapped for values no run has (negative, NaN, 1e308, 2^32 + 1), strings
// swapped for empty or 100 KB ones, and lists nested tens of thousands deep; and those found later: huge members no
// reader needs (millions of empty objects, megabytes of numbers), files cut where a line ends, a NUL byte with text
// after it, terminal control characters in any string, and bytes that are not UTF-8 in any CSV column. Recordings
// get mutations of their own besides (mutateRecording).
#pragma once

#include <cstdint>
#include <random>
#include <string>
#include <vector>

namespace asyncscope::fuzz {

class Mutator {
public:
    Mutator(std::vector<std::string> seeds, std::uint64_t seed);

    // The next input and, in `how`, the mutations that made it ("seed 3; number → -1; cut at 812").
    std::string next(std::string& how);

private:
    std::size_t below(std::size_t n);  // 0 .. n-1; 0 when n is 0
    void mutate(std::string& text, std::string& how);
    // A record stream's own hazards (`asyncscope-record` seeds): a field of a record made a huge count, an id out of
    // range or a time going backwards, a name reference to no name, processes left without their exit, a million
    // tiny records.
    void mutateRecording(std::string& text, std::string& how);
    // Where a number or a string begins, or npos when the text holds none near `from`.
    std::size_t tokenAt(const std::string& text, std::size_t from, char kind) const;

    std::vector<std::string> m_seeds;
    std::mt19937_64 m_random;
};

}  // namespace asyncscope::fuzz

#include "mutator.hpp"

#include <algorithm>
#include <array>
#include <cctype>
#include <string_view>

namespace asyncscope::fuzz {

namespace {

// Values no run of the pipeline has, and types a field does not take.
constexpr std::array kHostileValues { "-1", "0", "1e308", "-1e308", "5e-324", "NaN", "nan", "Infinity", "-Infinity",
    "4294967297", "9223372036854775808", "-9223372036854775809", "1e12", "2147483648", "-2147483649", "0.5", "1e-9",
    "50000000", "1000000000", "\"x\"", "\"9\"", "null", "[]", "{}", "true", "\"\"", "-0", "1e999" };

constexpr std::array kBytes { '"', '{', '}', '[', ']', ',', ':', '\n', '\r', '\0', '-', '9', 'e', '.', '\\', ' ',
    '\xff', '\xc3' };

}  // namespace

Mutator::Mutator(std::vector<std::string> seeds, std::uint64_t seed) : m_seeds(std::move(seeds)), m_random(seed) {}

std::size_t Mutator::below(std::size_t n)
{
    return n == 0 ? 0 : std::uniform_int_distribution<std::size_t>(0, n - 1)(m_random);
}

std::size_t Mutator::tokenAt(const std::string& text, std::size_t from, char kind) const
{
    for (std::size_t i = from; i < text.size() && i < from + 4096; ++i) {
        const char c = text[i];
        if (kind == 'n' && (std::isdigit(static_cast<unsigned char>(c)) || c == '-') &&
            (i == 0 || !std::isalnum(static_cast<unsigned char>(text[i - 1]))))
            return i;
        if (kind == 's' && c == '"')
            return i;
    }
    return std::string::npos;
}

std::string Mutator::next(std::string& how)
{
    const std::size_t which = below(m_seeds.size());
    std::string text = m_seeds.empty() ? std::string() : m_seeds[which];
    how = "seed " + std::to_string(which);
    const std::size_t count = 1 + below(4);
    const bool recording = text.rfind("asyncscope-record", 0) == 0;
    for (std::size_t k = 0; k < count; ++k) {
        if (recording && below(2) == 0)
            mutateRecording(text, how);
        else
            mutate(text, how);
    }
    return text;
}

void Mutator::mutateRecording(std::string& text, std::string& how)
{
    // A whole line of the recording at random (past its first).
    const auto lineAt = [&](std::size_t& from, std::size_t& end) {
        const std::size_t at = below(text.size() + 1);
        const std::size_t begin = text.rfind('\n', std::min(at, text.size() ? text.size() - 1 : 0));
        from = begin == std::string::npos ? 0 : begin + 1;
        end = text.find('\n', from);
        return end != std::string::npos && from > 0;
    };
    std::size_t from = 0, end = 0;
    switch (below(5)) {
    case 0: {  // a field of a record: a huge count, an id out of range, a time gone backwards
        if (!lineAt(from, end))
            break;
        std::vector<std::pair<std::size_t, std::size_t>> words;  // the numbers after the record's type
        for (std::size_t i = text.find(' ', from); i != std::string::npos && i < end; i = text.find(' ', i + 1)) {
            const std::size_t next = std::min(text.find(' ', i + 1), end);
            if (next > i + 1 && std::isdigit(static_cast<unsigned char>(text[i + 1])))
                words.emplace_back(i + 1, next);
        }
        if (words.empty())
            break;
        const auto [begin, stop] = words[below(words.size())];
        const std::string old = text.substr(begin, stop - begin);
        static constexpr std::array kCounts { "18446744073709551615", "18446744073709551616", "9223372036854775808",
            "4294967296", "4294967295", "2147483648", "0", "1" };
        std::string value = kCounts[below(kCounts.size())];
        if (below(2) == 0 && old.size() > 6)  // a time (or a correlation id) gone backwards
            value = below(2) == 0 ? old.substr(0, old.size() - 1) : old.substr(0, old.size() - 6) + "000000";
        text.replace(begin, stop - begin, value);
        how += "; record field at " + std::to_string(begin) + " -> " + value;
        break;
    }
    case 1: {  // a name reference to no name
        const std::size_t i = text.find(" =", below(text.size() + 1));
        if (i == std::string::npos)
            break;
        const std::size_t stop = std::min(text.find_first_of(" \n", i + 2), text.size());
        const char* value = below(2) == 0 ? "4294967295" : "999999";
        text.replace(i + 2, stop - i - 2, value);
        how += std::string("; name reference at ") + std::to_string(i) + " -> =" + value;
        break;
    }
    case 2: {  // processes without their exit (or their fatal signal)
        std::string kept;  // one pass: a million of them erased one by one would take minutes
        kept.reserve(text.size());
        std::size_t removed = 0;
        for (std::size_t i = 0; i < text.size();) {
            const std::size_t stop = std::min(text.find('\n', i), text.size());
            const std::string_view line(text.data() + i, stop - i);
            if (i > 0 && (line.rfind("exit ", 0) == 0 || line.rfind("signal ", 0) == 0))
                ++removed;
            else
                kept.append(text, i, std::min(stop + 1, text.size()) - i);
            i = stop + 1;
        }
        text = std::move(kept);
        how += "; " + std::to_string(removed) + " exit and signal lines removed";
        break;
    }
    case 3: {  // a line repeated with its times going backwards
        if (!lineAt(from, end))
            break;
        std::string line = text.substr(from, end - from + 1);
        text.insert(end + 1, line);
        text.insert(from, line);  // the same record before itself: its times come again, earlier in the stream
        how += "; line at " + std::to_string(from) + " given before and after itself";
        break;
    }
    case 4: {  // a million tiny records
        static constexpr std::array kTiny { "dropped 1 1\n", "exit 7\n", "note 1 n\n", "stream 1 1 1 1\n" };
        const std::string tiny = kTiny[below(kTiny.size())];
        const std::size_t count = below(8) == 0 ? 1000000 : 100 + below(10000);
        std::string lines;
        lines.reserve(tiny.size() * count);
        for (std::size_t k = 0; k < count; ++k)
            lines += tiny;
        const std::size_t at = text.find('\n');
        text.insert(at == std::string::npos ? text.size() : at + 1, lines);
        how += "; " + std::to_string(count) + " tiny records (" + tiny.substr(0, tiny.size() - 1) + ")";
        break;
    }
    }
}

void Mutator::mutate(std::string& text, std::string& how)
{
    const std::size_t at = below(text.size() + 1);
    switch (below(16)) {
    case 0:  // a bit flipped
        if (!text.empty()) {
            const std::size_t i = std::min(at, text.size() - 1);
            text[i] = char(text[i] ^ char(1u << below(8)));
            how += "; bit flipped at " + std::to_string(i);
        }
        break;
    case 1:  // a byte a parser cares about
        if (!text.empty()) {
            const std::size_t i = std::min(at, text.size() - 1);
            text[i] = kBytes[below(kBytes.size())];
            how += "; byte set at " + std::to_string(i);
        }
        break;
    case 2: {  // a stretch cut out
        const std::size_t n = std::min(text.size() - std::min(at, text.size()), 1 + below(256));
        text.erase(std::min(at, text.size()), n);
        how += "; " + std::to_string(n) + " bytes cut at " + std::to_string(at);
        break;
    }
    case 3: {  // a stretch repeated (more runs, more spans, a line twice)
        const std::size_t n = std::min(text.size() - std::min(at, text.size()), 1 + below(2048));
        const std::string piece = text.substr(std::min(at, text.size()), n);
        const std::size_t times = 1 + below(8);
        for (std::size_t t = 0; t < times; ++t)
            text.insert(std::min(at, text.size()), piece);
        how += "; " + std::to_string(n) + " bytes repeated " + std::to_string(times) + "x at " + std::to_string(at);
        break;
    }
    case 4: {  // another seed's stretch spliced in
        if (m_seeds.empty())
            break;
        const std::string& other = m_seeds[below(m_seeds.size())];
        const std::size_t from = below(other.size() + 1);
        const std::size_t n = std::min(other.size() - from, 1 + below(4096));
        text.insert(std::min(at, text.size()), other, from, n);
        how += "; " + std::to_string(n) + " bytes spliced in at " + std::to_string(at);
        break;
    }
    case 5:  // cut short
        text.resize(std::min(at, text.size()));
        how += "; cut at " + std::to_string(text.size());
        break;
    case 6:
    case 7: {  // a number swapped for a hostile value
        const std::size_t i = tokenAt(text, at, 'n');
        if (i == std::string::npos)
            break;
        std::size_t end = i + 1;
        while (end < text.size() && (std::isalnum(static_cast<unsigned char>(text[end])) || text[end] == '.' ||
                                        text[end] == '-' || text[end] == '+'))
            ++end;
        const char* value = kHostileValues[below(kHostileValues.size())];
        text.replace(i, end - i, value);
        how += std::string("; number at ") + std::to_string(i) + " -> " + value;
        break;
    }
    case 8: {  // a string emptied or made 100 KB long
        const std::size_t i = tokenAt(text, at, 's');
        if (i == std::string::npos)
            break;
        const std::size_t end = text.find('"', i + 1);
        if (end == std::string::npos)
            break;
        const bool huge = below(2) == 0;
        text.replace(i + 1, end - i - 1, huge ? std::string(100000, 'N') : std::string());
        how += std::string("; string at ") + std::to_string(i) + (huge ? " -> 100 KB" : " -> empty");
        break;
    }
    case 9: {  // lists nested deep where a value or a line begins
        const std::size_t depth = below(3) == 0 ? 70000 : 100 + below(2000);
        const std::size_t i = std::min(at, text.size());
        text.insert(i, std::string(depth, '[') + std::string(below(2) == 0 ? depth : depth / 2, ']'));
        how += "; " + std::to_string(depth) + " lists nested at " + std::to_string(i);
        break;
    }
    case 10: {  // a line (a run of format 4, a CSV row) repeated many times
        const std::size_t begin = text.rfind('\n', std::min(at, text.size() ? text.size() - 1 : 0));
        const std::size_t from = begin == std::string::npos ? 0 : begin + 1;
        const std::size_t end = text.find('\n', from);
        if (end == std::string::npos)
            break;
        const std::string line = text.substr(from, end - from + 1);
        const std::size_t times = 1 + below(200);
        std::string lines;  // up to a MiB more (a long line once), not the line times `times`
        lines.reserve(std::min(line.size() * times, (std::size_t(1) << 20) + line.size()));
        for (std::size_t t = 0; t < times && lines.size() < (1u << 20); ++t)
            lines += line;
        text.insert(from, lines);
        how += "; line at " + std::to_string(from) + " repeated " + std::to_string(times) + "x";
        break;
    }
    case 11: {  // a member no reader needs, huge: a list of up to 2 million empty objects, or megabytes of numbers
        const std::size_t brace = text.find('{', std::min(at, text.size()));
        const std::size_t i = brace == std::string::npos ? text.find('{') : brace;
        if (i == std::string::npos)
            break;
        const std::size_t count = 1 + below(std::size_t(2) << 20);
        const char* item = below(2) == 0 ? "{}," : "1,";
        std::string member = "\"junk\":[";
        member.reserve(member.size() + count * 3 + 8);
        for (std::size_t k = 0; k < count; ++k)
            member += item;
        member.back() = ']';
        member += ',';
        text.insert(i + 1, member);
        how += "; member of " + std::to_string(count) + " " + (item[0] == '{' ? "objects" : "numbers") + " at " +
            std::to_string(i + 1);
        break;
    }
    case 12: {  // cut where a line ends: every line whole, some missing
        const std::size_t newline = text.rfind('\n', std::min(at, text.size() ? text.size() - 1 : 0));
        if (newline == std::string::npos)
            break;
        text.resize(newline + 1);
        how += "; cut after the line break at " + std::to_string(newline);
        break;
    }
    case 13: {  // a NUL byte, with text after it
        const std::size_t i = std::min(at, text.size());
        text.insert(i, std::string(1, '\0') + (below(2) == 0 ? "{\"format\":\"x\"}\n" : "garbage"));
        how += "; NUL byte at " + std::to_string(i);
        break;
    }
    case 14: {  // terminal control characters in a string
        const std::size_t i = tokenAt(text, at, 's');
        if (i == std::string::npos)
            break;
        const bool json = below(2) == 0;  // as JSON escapes, or as raw bytes (which JSON refuses, a CSV takes)
        text.insert(i + 1, json ? "\\u001b]0;pwned\\u0007\\u001b[2J\\u009b" : "\x1b]0;pwned\x07\x1b[2J");
        how += std::string("; control characters ") + (json ? "escaped" : "raw") + " in the string at " +
            std::to_string(i);
        break;
    }
    case 15: {  // bytes that are not UTF-8 in a CSV column (or anywhere in a JSON text)
        const std::size_t comma = text.find(',', std::min(at, text.size()));
        const std::size_t i = comma == std::string::npos ? std::min(at, text.size()) : comma + 1;
        text.insert(i, "\xff\xfe\xc3(\xed\xa0\x80");
        how += "; bytes not UTF-8 at " + std::to_string(i);
        break;
    }
    }
}

}  // namespace asyncscope::fuzz

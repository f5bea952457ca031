#include "engine/io/bounded_json.hpp"

#include "engine/io/json/compacted_json.hpp"
#include "engine/model/record_rules.hpp"

#include <algorithm>
#include <array>
#include <cstdint>
#include <iterator>
#include <limits>
#include <optional>
#include <utility>
#include <vector>

namespace asyncscope {

namespace {

using nlohmann::json;

// How much of the line before a syntax error its message shows.
constexpr std::size_t kNearChars = 24;

// Thrown from the parser's callback to stop a parse that went too deep.
struct TooDeep {
    std::string where;
};
// Thrown to stop a parse whose tree outgrew its limit.
struct TooBig {
    std::string where;
};
// Thrown to stop a parse at a key its object gave before, which would take the first one's place: the key (with the
// place of its object) and where the key ends.
struct GivenTwice {
    std::string field;
    std::size_t at;
};


// Line and column (both from 1) of byte `at` of `text`.
std::pair<std::size_t, std::size_t> lineAndColumn(std::string_view text, std::size_t at)
{
    const std::string_view before = text.substr(0, std::min(at, text.size()));
    const std::size_t line = 1 + std::size_t(std::count(before.begin(), before.end(), '\n'));
    const std::size_t lastBreak = before.rfind('\n');
    const std::size_t column = lastBreak == std::string_view::npos ? before.size() + 1 : before.size() - lastBreak;
    return { line, column };
}

// The parse's input: the text's characters, telling `cursor` how far the parser has read.
class Cursor {
public:
    using iterator_category = std::input_iterator_tag;
    using value_type = char;
    using difference_type = std::ptrdiff_t;
    using pointer = const char*;
    using reference = const char&;

    Cursor(const char* at, const char** cursor)
        : m_at(at)
        , m_cursor(cursor)
    {
    }
    reference operator*() const { return *m_at; }
    Cursor& operator++()
    {
        *m_cursor = ++m_at;
        return *this;
    }
    Cursor operator++(int)
    {
        Cursor before = *this;
        ++*this;
        return before;
    }
    bool operator==(const Cursor& other) const { return m_at == other.m_at; }
    bool operator!=(const Cursor& other) const { return m_at != other.m_at; }

private:
    const char* m_at;
    const char** m_cursor;
};

// A value kept as text: its first and last byte + 1 in the document, as the bytes of a binary value, which no JSON
// text can hold (so no file can forge one).
json textMark(std::uint64_t begin, std::uint64_t end)
{
    json::binary_t::container_type bytes(16);
    for (int i = 0; i < 8; ++i) {
        bytes[std::size_t(i)] = std::uint8_t(begin >> (8 * i));
        bytes[std::size_t(8 + i)] = std::uint8_t(end >> (8 * i));
    }
    return json::binary(std::move(bytes));
}

// Where the containers open at depths 0 to `depth` - 1 sit: "devices[…].variants", built from the keys seen.
class Path {
public:
    void open(int depth, bool array)
    {
        if (depth < int(m_array.size()))
            m_array[std::size_t(depth)] = array;
    }
    void key(int depth, const std::string& name)
    {
        if (depth >= 1 && depth <= int(m_keys.size()))
            m_keys[std::size_t(depth - 1)] = name;
    }
    std::string text(int depth) const
    {
        std::string path;
        for (int i = 0; i < depth && i < int(m_keys.size()); ++i) {
            if (m_array[std::size_t(i)])
                path += "[…]";
            else
                path += (path.empty() ? "" : ".") + quotedValue(m_keys[std::size_t(i)]);
        }
        // Lists within lists after the last key add nothing a person can find: "x", not "x[…][…][…]".
        const std::string list = "[…]";
        while (path.size() >= list.size() && path.compare(path.size() - list.size(), list.size(), list) == 0)
            path.resize(path.size() - list.size());
        return path.empty() ? "the document" : quotedValue(path);
    }
    // The levels above depth `steps.size()` are the keys and lists `steps` names.
    bool at(const std::vector<std::string>& steps) const
    {
        if (steps.empty() || steps.size() > m_keys.size())
            return false;
        for (std::size_t i = 0; i < steps.size(); ++i) {
            const bool list = steps[i] == "[]";
            if (m_array[i] != list || (!list && m_keys[i] != steps[i]))
                return false;
        }
        return true;
    }

private:
    std::array<bool, kMaxNestingDepth + 1> m_array {};
    std::array<std::string, kMaxNestingDepth + 1> m_keys {};
};

}  // namespace

std::string jsonErrorText(std::string_view text, const json::exception& error)
{
    if (const auto* syntax = dynamic_cast<const json::parse_error*>(&error)) {
        // `byte` counts the characters read, the one at fault last; past the end: the text ended too early.
        const std::size_t at = syntax->byte > 0 ? syntax->byte - 1 : 0;
        if (at >= text.size()) {
            const auto [line, column] = lineAndColumn(text, text.size());
            return "cut short: it ends at line " + std::to_string(line) + ", column " + std::to_string(column) +
                " inside a value";
        }
        // The token read last ends at `at`: the message shows it with what comes before it on its line.
        const auto [line, column] = lineAndColumn(text, at);
        const std::size_t lineStart = at - (column - 1);
        const std::size_t from = std::max(lineStart, at >= kNearChars ? at - kNearChars : std::size_t(0));
        return "line " + std::to_string(line) + ", column " + std::to_string(column) + ": not JSON (near '" +
            quotedValue(text.substr(from, at + 1 - from)) + "')";
    }
    if (error.id == 406)  // out_of_range.406: a number literal beyond a double's range
        return "it holds a number beyond a double's range (such as 1e999)";
    return "not JSON";
}

std::optional<std::string_view> keptText(const std::string& text, const json& value)
{
    if (!value.is_binary() || value.get_binary().size() != 16)
        return std::nullopt;
    const auto& bytes = value.get_binary();
    std::uint64_t begin = 0, end = 0;
    for (int i = 7; i >= 0; --i) {
        begin = begin << 8 | bytes[std::size_t(i)];
        end = end << 8 | bytes[std::size_t(8 + i)];
    }
    if (begin > end || end > text.size())
        return std::nullopt;
    return std::string_view(text).substr(std::size_t(begin), std::size_t(end - begin));
}

FieldProblem nestedTooDeep(std::string field)
{
    return { std::move(field), "lists and objects nested deeper than " + std::to_string(kMaxNestingDepth),
        "at most " + std::to_string(kMaxNestingDepth) + " lists and objects within each other" };
}

std::string quotedJson(const json& value, bool sayEmpty)
{
    switch (value.type()) {
    case json::value_t::string: return "\"" + quotedValue(value.get_ref<const std::string&>()) + "\"";
    case json::value_t::number_integer: return std::to_string(value.get<std::int64_t>());
    case json::value_t::number_unsigned: return std::to_string(value.get<std::uint64_t>());
    case json::value_t::number_float: return quotedNumber(value.get<double>());
    case json::value_t::boolean: return value.get<bool>() ? "true" : "false";
    case json::value_t::array: return sayEmpty && value.empty() ? "an empty list" : "a list";
    case json::value_t::object: return sayEmpty && value.empty() ? "an empty object" : "an object";
    case json::value_t::null: return "null";
    default: return "not a value";
    }
}

namespace {

// The tree of a parse, built event by event (nlohmann's SAX interface), no deeper than kMaxNestingDepth: a list or an
// object that would go deeper stops the parse (TooDeep). An object at the place `keptAsText` names is not built: its
// place holds textMark() of where its text sits. With `keepDepth` (0 or more), values inside more than that many lists
// and objects are left out instead, however deep they nest, and the parse goes on. Built here rather than through nlohmann's parse callback, whose tree
// builder looks through a list for a value to drop each time an object in it ends: a list of a million objects took
// minutes.
class BoundedTree {
public:
    BoundedTree(std::string_view text, const char* const& cursor, const std::vector<std::string>& keptAsText,
        const TreeLimits& limits, int keepDepth = -1, const Shifts* shifts = nullptr)
        : m_text(text)
        , m_cursor(cursor)
        , m_kept(keptAsText)
        , m_limits(limits)
        , m_keepDepth(keepDepth)
        , m_shifts(shifts)
    {
    }

    json root;
    std::vector<std::string> passed;  // the keys of m_limits.noted read past

    bool null() { return put(nullptr); }
    bool boolean(bool value) { return put(value); }
    bool number_integer(json::number_integer_t value) { return put(value); }
    bool number_unsigned(json::number_unsigned_t value) { return put(value); }
    bool number_float(json::number_float_t value, const json::string_t&) { return put(value); }
    bool string(json::string_t& value)
    {
        if (building())
            spend(TreeCost::text(value.size()));
        return put(std::move(value));
    }
    bool binary(json::binary_t& value) { return put(json::binary(std::move(value))); }  // never from JSON text
    bool start_object(std::size_t) { return open(false); }
    bool start_array(std::size_t) { return open(true); }
    bool key(json::string_t& name)
    {
        m_path.key(depth(), name);
        // A key of the document's own object that no reader takes: its value is read past, never built.
        m_passNext = depth() == 1 && m_skipped == 0 && !m_limits.keys.empty() &&
            std::find(m_limits.keys.begin(), m_limits.keys.end(), name) == m_limits.keys.end();
        if (m_passNext && std::find(m_limits.noted.begin(), m_limits.noted.end(), name) != m_limits.noted.end() &&
            std::find(passed.begin(), passed.end(), name) == passed.end())
            passed.push_back(name);
        if (m_skipped == 0 && !leftOut(depth()) && !m_passNext) {
            spend(TreeCost::member + TreeCost::text(name.size()));
            const auto [at, fresh] = m_open.back()->emplace(name, nullptr);
            if (!fresh)  // the path ends with the key: "devices[…].device"
                throw GivenTwice { m_path.text(depth()), given(std::size_t(m_cursor - m_text.data())) };
            m_slot = &at.value();
        }
        return true;
    }
    bool end_object() { return close(); }
    bool end_array() { return close(); }

    template <class Exception>
    bool parse_error(std::size_t, const std::string&, const Exception& error)
    {
        throw error;
    }

private:
    // Lists and objects open around the next value.
    int depth() const { return int(m_open.size() + m_skipped); }

    // A value inside `at` lists and objects is left out.
    bool leftOut(int at) const { return m_keepDepth >= 0 && at > m_keepDepth; }

    // Whether the next value is built.
    bool building() const { return m_skipped == 0 && !leftOut(depth()) && !m_passNext; }

    // `bytes` more of the tree's memory; past its limit the parse stops.
    void spend(std::size_t bytes)
    {
        m_bytes += bytes;
        if (m_limits.maxBytes > 0 && m_bytes > m_limits.maxBytes)
            throw TooBig { m_path.text(std::min(depth(), 2)) };  // the block and its list: "machine.samples"
    }

    template <class Value>
    bool put(Value&& value)
    {
        if (m_passNext) {
            m_passNext = false;
            return true;
        }
        if (m_skipped > 0 || leftOut(depth()))
            return true;
        spend(TreeCost::value);
        if (m_open.empty())
            root = std::forward<Value>(value);
        else if (m_open.back()->is_array())
            m_open.back()->emplace_back(std::forward<Value>(value));
        else
            *m_slot = std::forward<Value>(value);
        return true;
    }

    json* placed()
    {
        if (m_open.empty())
            return &root;
        return m_open.back()->is_array() ? &m_open.back()->back() : m_slot;
    }

    bool open(bool array)
    {
        const int at = depth();
        if (at + 1 > kMaxNestingDepth && m_keepDepth < 0)
            throw TooDeep { m_path.text(at) };
        m_path.open(at, array);
        if (m_skipped > 0 || leftOut(at) || m_passNext) {
            m_passNext = false;
            ++m_skipped;  // left out with all it holds
            return true;
        }
        spend(TreeCost::container);
        if (!array && at == int(m_kept.size()) && m_path.at(m_kept)) {
            m_keptBegin = given(std::size_t(m_cursor - m_text.data()) - 1);  // the '{' read last
            m_skipped = 1;
            return true;
        }
        put(array ? json::array() : json::object());
        m_open.push_back(placed());
        return true;
    }

    bool close()
    {
        if (m_skipped > 0) {
            if (--m_skipped == 0 && m_keptBegin != kNotKept) {
                put(textMark(m_keptBegin, given(std::size_t(m_cursor - m_text.data()))));  // up to the '}' read last
                m_keptBegin = kNotKept;
            }
            return true;
        }
        m_open.pop_back();
        return true;
    }

    // Where a place in the text parsed lies in the text given (they differ where lists and objects were cut out).
    std::size_t given(std::size_t at) const { return m_shifts ? inGivenText(*m_shifts, at) : at; }

    static constexpr std::size_t kNotKept = std::size_t(-1);

    std::string_view m_text;
    const char* const& m_cursor;
    const std::vector<std::string>& m_kept;
    const TreeLimits& m_limits;
    int m_keepDepth;
    std::size_t m_bytes = 0;   // what the tree takes so far, about
    bool m_passNext = false;   // the value after the key read last is not built
    Path m_path;
    std::vector<json*> m_open;  // the lists and objects being built, outermost first
    json* m_slot = nullptr;     // in the innermost object: the value of the key read last
    std::size_t m_skipped = 0;  // levels open inside an object kept as text or left out (1: the object itself)
    std::size_t m_keptBegin = kNotKept;
    const Shifts* m_shifts;
};

}  // namespace

std::size_t treeBytesLimit(std::uintmax_t textBytes)
{
    const std::uintmax_t limit = 2 * textBytes + (std::uintmax_t(32) << 20);
    return std::size_t(std::min<std::uintmax_t>(limit, std::numeric_limits<std::size_t>::max() / 2));
}

FieldProblem holdsTooMuch(std::string field, std::size_t maxBytes)
{
    return { std::move(field), "larger than AsyncScope writes (over " + std::to_string(maxBytes >> 20) + " MiB once read)",
        "no more than AsyncScope writes there" };
}

namespace {

// "line 3, column 14: device is given twice; accepted: each key once in its object".
std::string givenTwiceText(std::string_view text, const GivenTwice& twice)
{
    const auto [line, column] = lineAndColumn(text, twice.at);
    return "line " + std::to_string(line) + ", column " + std::to_string(column) + ": " + twice.field +
        " is given twice; accepted: each key once in its object";
}

// parseBounded of `text`, places in it moved by `shifts` (where text was cut out of the text given).
BoundedJson parseAs(std::string_view text, const std::vector<std::string>& keptAsText, const TreeLimits& limits,
    const Shifts* shifts)
{
    const char* cursor = text.data();
    BoundedTree tree(text, cursor, keptAsText, limits, -1, shifts);
    BoundedJson out;
    try {
        json::sax_parse(Cursor(text.data(), &cursor), Cursor(text.data() + text.size(), &cursor), &tree);
        out.value = std::move(tree.root);
        out.passed = std::move(tree.passed);
    } catch (const TooDeep& deep) {
        out.value = json::value_t::discarded;
        out.tooDeep = nestedTooDeep(deep.where);
    } catch (const TooBig& big) {
        tree.root = json();  // what was built goes before anything else is
        out.value = json::value_t::discarded;
        out.tooBig = holdsTooMuch(big.where, limits.maxBytes);
    } catch (const GivenTwice& twice) {
        tree.root = json();
        out.value = json::value_t::discarded;
        out.syntaxError = givenTwiceText(text, twice);
    } catch (const json::exception& error) {
        out.value = json::value_t::discarded;
        out.syntaxError = jsonErrorText(text, error);
    }
    return out;
}

}  // namespace

BoundedJson parseBounded(std::string_view text, const std::vector<std::string>& keptAsText, const TreeLimits& limits)
{
    if (!keptAsText.empty() || !limits.keys.empty()) {
        std::optional<Compacted> shorter;
        try {
            shorter = compactedJson(text, keptAsText, limits.keys);
        } catch (const std::exception&) {  // simdjson's own (its results are read without exceptions)
        }
        if (shorter) {
            BoundedJson out = parseAs(shorter->text, keptAsText, limits, &shorter->shifts);
            if (out.syntaxError.empty() && !out.tooDeep && !out.tooBig)
                return out;
            // Anything wrong is found again in the text as given: its message names the line and column there.
        }
    }
    return parseAs(text, keptAsText, limits, nullptr);
}

BoundedJson parseShallow(std::string_view text, int keepDepth)
{
    const char* cursor = text.data();
    const std::vector<std::string> none;
    const TreeLimits noLimits;
    BoundedTree tree(text, cursor, none, noLimits, keepDepth);
    BoundedJson out;
    try {
        json::sax_parse(Cursor(text.data(), &cursor), Cursor(text.data() + text.size(), &cursor), &tree);
        out.value = std::move(tree.root);
    } catch (const GivenTwice& twice) {
        out.value = json::value_t::discarded;
        out.syntaxError = givenTwiceText(text, twice);
    } catch (const json::exception& error) {
        out.value = json::value_t::discarded;
        out.syntaxError = jsonErrorText(text, error);
    }
    return out;
}

Result<json> parseBoundedJson(const std::string& text, const std::vector<std::string>& keptAsText,
    const TreeLimits& limits)
{
    BoundedJson parsed = parseBounded(text, keptAsText, limits);
    if (parsed.tooBig)
        return fieldError("", "", *parsed.tooBig);
    if (parsed.tooDeep)
        return makeError(ErrorKind::Io,
            parsed.tooDeep->field + ": lists and objects are nested deeper than " + std::to_string(kMaxNestingDepth) +
                " there; accepted: at most " + std::to_string(kMaxNestingDepth) + " levels");
    if (!parsed.syntaxError.empty())
        return makeError(ErrorKind::Io, parsed.syntaxError);
    return std::move(parsed.value);
}

}  // namespace asyncscope

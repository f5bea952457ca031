// The one kit that reads a JSON record's blocks field by field, each value checked before it is taken and each
// problem naming the field ("config.runs is 1e+12; accepted: a whole number …"): a report's header and a host's
// record read their blocks, and the device and binding blocks they share, through it.
#pragma once

#include "engine/io/bounded_json.hpp"
#include "engine/model/names.hpp"
#include "engine/model/record_rules.hpp"

#include <nlohmann/json.hpp>

#include <cstdint>
#include <limits>
#include <optional>
#include <string>
#include <type_traits>

namespace asyncscope::json_header {

// A field that is there but wrong, or missing: the reader's message names it, says what it holds (quoted, cut) and
// what it accepts. A json::exception, so that a reader that catches the library's exceptions around these readers
// (host records) catches it too; its text is already a message ("device.compute_capability is x; accepted: …").
struct BadField : nlohmann::json::exception {
    explicit BadField(const FieldProblem& problem);
    BadField(const FieldProblem& problem, const std::string& text);  // the problem worded otherwise
    FieldProblem problem;
};

[[noreturn]] void refuse(std::string field, std::string found, std::string accepted);
// Throws BadField for the problem `check` holds, its field's name after `prefix`; nothing where it holds none.
void refuseIf(const FieldCheck& check, const std::string& prefix = {});

// How a reader words a problem, as each always did (their messages are relied on).
enum class Wording : std::uint8_t {
    // A report's header: "device.name is missing; accepted: a text"; a choice quoted 'so'; a whole number read in
    // its type's range (the model's rules, checkDevice and the like, hold it to its own range after).
    Header,
    // A host's record: "devices[0].device.name is missing"; "accepted: text"; a choice quoted "so"; a list or an
    // object quoted without saying it is empty; a whole number held to its field's range as it is read.
    Record,
};

// The least and the most a whole number may be: a field's own range, which a record's reader holds it to.
struct Range {
    std::int64_t least;
    std::uint64_t most;

    // A whole-number type's range; any for the other types (which a range does not bound).
    template <class T>
    static constexpr Range of()
    {
        if constexpr (std::is_integral_v<T>)
            return { std::int64_t(std::numeric_limits<T>::min()), std::uint64_t(std::numeric_limits<T>::max()) };
        else
            return { 0, 0 };
    }
};

// A block's fields, each problem naming the field by the block's path: "config.runs is 1e+12; accepted: …",
// "config.runs is missing; accepted: …".
class Block {
public:
    // The block under `key` of `parent`, which must be there: `path` names it.
    Block(const nlohmann::json& parent, const char* key, std::string path, Wording wording = Wording::Header);
    // A block given as it is: `path` names it ("" for a record's own object).
    Block(const nlohmann::json& object, std::string path, Wording wording = Wording::Header);

    const nlohmann::json& object() const { return *m_object; }
    Wording wording() const { return m_wording; }
    bool has(const char* key) const { return m_object->contains(key); }
    const nlohmann::json* find(const char* key) const;
    std::string path(const char* key) const { return m_path + key; }

    // A value that must be there, whatever it is (`accepted` says what for a header's message).
    const nlohmann::json& need(const char* key, const std::string& accepted) const;
    // A list that must be there.
    const nlohmann::json& list(const char* key) const;

    // A field that must be there. A whole number in a record within `range`.
    template <class T>
    void get(const char* key, T& out, Range range = Range::of<T>()) const
    {
        if (!has(key))
            missing(path(key), accepted<T>(range));
        read(key, out, range);
    }
    // A field that may be left out: `out` keeps what it holds then.
    template <class T>
    void getOr(const char* key, T& out, Range range = Range::of<T>()) const
    {
        if (has(key))
            read(key, out, range);
    }
    // A whole number or null (unknown), where there is one.
    void getOrNull(const char* key, std::optional<int>& out, Range range = Range::of<int>()) const;

    template <class Enum>
    Enum choice(const char* key) const
    {
        if (!has(key))
            missing(path(key), acceptedNames<Enum>());
        const std::string text = choiceText(key, acceptedNames<Enum>());
        if (const auto value = parseName<Enum>(text))
            return *value;
        refuse(path(key), quotedName(text), acceptedNames<Enum>());
    }
    template <class Enum>
    Enum choiceOr(const char* key, Enum fallback) const
    {
        return has(key) ? choice<Enum>(key) : fallback;
    }
    // A choice's name as a message quotes it: 'so' in a header, "so" in a record.
    std::string quotedName(const std::string& text) const;

    // `value` as a message quotes it.
    std::string quoted(const nlohmann::json& value) const;

private:
    void take(const nlohmann::json& object);
    [[noreturn]] void missing(const std::string& field, const std::string& accepted) const;
    // The text of the choice at `key`, refused where it is not one.
    std::string choiceText(const char* key, const std::string& names) const;
    bool fits(const nlohmann::json& v, Range range) const;

    template <class T>
    std::string accepted(Range range) const
    {
        if constexpr (std::is_same_v<T, bool>)
            return "true or false";
        else if constexpr (std::is_integral_v<T>)
            return wholeRange(m_wording == Wording::Record ? range : Range::of<T>());
        else if constexpr (std::is_floating_point_v<T>)
            return "a number";
        else
            return m_wording == Wording::Record ? "text" : "a text";
    }
    static std::string wholeRange(Range range);

    template <class T>
    void read(const char* key, T& out, Range range) const
    {
        const nlohmann::json& v = m_object->at(key);
        bool ok = false;
        if constexpr (std::is_same_v<T, bool>)
            ok = v.is_boolean();
        else if constexpr (std::is_integral_v<T>)
            ok = fits(v, m_wording == Wording::Record ? range : Range::of<T>());
        else if constexpr (std::is_floating_point_v<T>)
            ok = v.is_number();
        else
            ok = v.is_string();
        if (!ok)
            refuse(path(key), quoted(v), accepted<T>(range));
        out = v.get<T>();
    }

    const nlohmann::json* m_object = nullptr;
    std::string m_path;
    Wording m_wording;
};

// A number the file gives as a rate, a percentage or a time, `value` read from `key` of `block`: finite and 0 or
// more ("calibration.h2d_gbps is -1; accepted: a finite number of GB/s, 0 or more").
void checkAmount(const Block& block, const char* key, double value, const char* unit);

// The list under `key` of `block`, which must be there: refused where it is not a list or holds more than `most`
// (of `what`: "readings").
const nlohmann::json& listAt(const Block& block, const char* key, std::size_t most, const char* what);

}  // namespace asyncscope::json_header

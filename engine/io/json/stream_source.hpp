// A stream as the characters nlohmann's SAX parser takes, a block at a time: counting what it reads, cancellable (at
// a cancel the input just ends), ending at a NUL byte, and able to say the line and column of the last character the
// parser took.
#pragma once

#include "engine/io/read_control.hpp"

#include <cstddef>
#include <istream>
#include <iterator>
#include <string>

namespace asyncscope::json_read {

class StreamSource {
public:
    // `first` is what was read of `in` already.
    StreamSource(std::istream& in, std::string first, ReadMeter& meter);

    std::size_t total() const { return m_total; }  // the bytes read so far
    bool more() { return m_pos < m_buffer.size() || refill(); }
    char get() const { return m_buffer[m_pos]; }
    void next() { ++m_pos; }
    // Whether the parser has taken every byte there is: it stopped at the end of the input (or at a NUL byte).
    bool ended() const { return m_done || m_nulLine > 0; }
    // Where a NUL byte ended the input: "line 3, column 7"; empty where none did.
    std::string nulPlace() const;

    // The line (counted from 1) of the last character the parser took.
    std::size_t line();
    // Its column, counted from 1.
    std::size_t column() const;

private:
    bool refill();
    // The parser sees the input end where a NUL byte is (and the reader says why): nothing after it is read.
    void cutAtNul();

    std::istream& m_in;
    std::string m_buffer;
    std::size_t m_pos = 0;
    ReadMeter& m_meter;
    std::size_t m_total;
    bool m_done = false;
    std::size_t m_lines = 0;      // line breaks before m_counted
    std::size_t m_counted = 0;    // where in the buffer they are counted to
    std::size_t m_lineStart = 0;  // where the line the buffer begins in began, in the stream
    bool m_blockEndedLine = false;  // the block before ended with a line break
    std::size_t m_nulLine = 0;      // where a NUL byte is, from 1; 0 where none is
    std::size_t m_nulColumn = 0;
};

// The source's characters as the input iterator nlohmann's parser reads.
class SourceIterator {
public:
    using iterator_category = std::input_iterator_tag;
    using value_type = char;
    using difference_type = std::ptrdiff_t;
    using pointer = const char*;
    using reference = char;

    SourceIterator() = default;
    explicit SourceIterator(StreamSource* source) : m_source(source) {}
    char operator*() const { return m_source->get(); }
    SourceIterator& operator++()
    {
        m_source->next();
        return *this;
    }
    SourceIterator operator++(int)
    {
        SourceIterator was = *this;
        m_source->next();
        return was;
    }
    friend bool operator==(const SourceIterator& a, const SourceIterator& b) { return a.atEnd() == b.atEnd(); }
    friend bool operator!=(const SourceIterator& a, const SourceIterator& b) { return !(a == b); }

private:
    bool atEnd() const { return !m_source || !m_source->more(); }
    StreamSource* m_source = nullptr;
};

}  // namespace asyncscope::json_read

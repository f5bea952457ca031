// What a reader of a saved report is told while it reads: where to say how far it got, and when to stop.
#pragma once

#include <atomic>
#include <cstdint>
#include <functional>

namespace asyncscope {

// Called with the fraction of the file's bytes read so far (0 to 1), at most about a hundred times a read, on the
// reading thread.
using ReadProgress = std::function<void(double fraction)>;

struct ReadControl {
    ReadProgress progress;                      // may be empty
    const std::atomic<bool>* cancel = nullptr;  // when it turns true the read stops with ErrorKind::Cancelled
    std::uintmax_t totalBytes = 0;              // the input's size, for the fraction; 0 when unknown (no progress)
};

// Counts the bytes a reader has taken and reports them through a ReadControl: a call of the progress callback only
// for each further hundredth of the total, and whether the read was cancelled.
class ReadMeter {
public:
    explicit ReadMeter(const ReadControl& control) : m_control(control) {}

    // `bytes` more were read; false when the read is to stop.
    bool advance(std::uintmax_t bytes)
    {
        m_read += bytes;
        if (m_control.progress && m_control.totalBytes > 0) {
            const int percent = int(100.0 * double(m_read) / double(m_control.totalBytes));
            if (percent > m_reported) {
                m_reported = percent;
                m_control.progress(percent >= 100 ? 1.0 : double(percent) / 100.0);
            }
        }
        return !cancelled();
    }
    bool cancelled() const { return m_control.cancel && m_control.cancel->load(std::memory_order_relaxed); }

private:
    const ReadControl& m_control;
    std::uintmax_t m_read = 0;
    int m_reported = -1;
};

}  // namespace asyncscope

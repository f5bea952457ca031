// Work done on a thread of its own, one piece at a time, its result handed back on the thread that asked: through
// the owner's event loop when the work ends, or at once by settle(). The work reads what it is given in place, as
// the views do: whoever owns it changes nothing of it while the work is under way. The advice and the baseline
// comparison of a million-run series take tens to hundreds of ms, which the window's thread does not wait for.
#pragma once

#include <QMetaObject>
#include <QObject>

#include <atomic>
#include <chrono>
#include <functional>
#include <thread>
#include <utility>

namespace asyncscope {

template <class Result>
class OffThread {
public:
    using Work = std::function<Result()>;
    // Called on the owner's thread with each result and the ticket its work was started with.
    using Deliver = std::function<void(Result, unsigned ticket)>;

    // `owner` is the QObject this is a member of: its thread takes the results, and a result still queued when it is
    // deleted goes with it.
    OffThread(QObject* owner, Deliver deliver)
        : m_owner(owner)
        , m_deliver(std::move(deliver))
    {
    }
    ~OffThread()  // waits for the work under way, and hands nothing back
    {
        if (m_thread.joinable())
            m_thread.join();
    }
    OffThread(const OffThread&) = delete;
    OffThread& operator=(const OffThread&) = delete;

    // Starts `work` on a thread of its own, after the work under way, if any, was handed back.
    void start(Work work, unsigned ticket)
    {
        collect();
        m_ticket = ticket;
        const unsigned mine = ++m_started;
        m_thread = std::thread([this, work = std::move(work), mine] {
            const auto began = std::chrono::steady_clock::now();
            m_result = work();
            m_lastCostMs =
                std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - began).count();
            // Queued to the owner's thread, which joins this one there, unless settle() did so first (and other work
            // may be under way by then).
            QMetaObject::invokeMethod(m_owner, [this, mine] {
                if (mine == m_started)
                    collect();
            }, Qt::QueuedConnection);
        });
    }
    bool busy() const { return m_thread.joinable(); }
    // Waits for the work under way, if any, and hands its result back before returning.
    void settle() { collect(); }
    // How long the last work took, in ms.
    double lastCostMs() const { return m_lastCostMs.load(); }

private:
    void collect()
    {
        if (!m_thread.joinable())
            return;
        m_thread.join();
        Result result = std::move(m_result);
        m_result = {};
        m_deliver(std::move(result), m_ticket);
    }

    QObject* m_owner;
    Deliver m_deliver;
    std::thread m_thread;
    Result m_result;  // written by the thread, read once it is joined
    unsigned m_ticket = 0;
    unsigned m_started = 0;  // work started so far: the thread's call back names its own
    std::atomic<double> m_lastCostMs { 0.0 };
};

}  // namespace asyncscope

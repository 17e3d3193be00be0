#pragma once
// A full disk without filling one: while a FileSizeLimit lives, writes of this process (and of the
// children it starts, which inherit both) past a size fail with EFBIG (RLIMIT_FSIZE, SIGXFSZ
// ignored). The limit and the signal's handler are put back by restore() or at the end of scope.

#include <csignal>

#include <sys/resource.h>

namespace provender::test {

class FileSizeLimit
{
public:
    explicit FileSizeLimit(rlim_t bytes)
    {
        if (::getrlimit(RLIMIT_FSIZE, &m_old) != 0)
            return;
        m_previous = std::signal(SIGXFSZ, SIG_IGN);
        m_set = true;
        struct rlimit small = m_old;
        small.rlim_cur = bytes;
        m_ok = ::setrlimit(RLIMIT_FSIZE, &small) == 0;
    }
    ~FileSizeLimit() { restore(); }
    FileSizeLimit(const FileSizeLimit &) = delete;
    FileSizeLimit &operator=(const FileSizeLimit &) = delete;

    /// The limit is in force.
    bool ok() const { return m_ok; }

    /// Lifts the limit; false when the old one could not be put back.
    bool restore()
    {
        if (!m_set)
            return true;
        m_set = false;
        m_ok = false;
        const bool restored = ::setrlimit(RLIMIT_FSIZE, &m_old) == 0;
        std::signal(SIGXFSZ, m_previous);
        return restored;
    }

private:
    struct rlimit m_old = {};
    void (*m_previous)(int) = SIG_DFL;
    bool m_set = false;
    bool m_ok = false;
};

} // namespace provender::test

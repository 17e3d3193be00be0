#pragma once
// Errors are values: every parser and I/O function of model/ returns Result<T>, never throws
// across the API.

#include <QString>

#include <utility>
#include <variant>

namespace provender {

enum class ErrorCode {
    InvalidArgument, ///< the input does not follow the format (a parse error)
    Io,              ///< the file system or a device failed
    CorruptArchive,  ///< a zip/tar that cannot be read (truncated, bad CRC, not a zip)
    Unsupported,     ///< a valid input that we do not handle (encryption, unknown method)
    Cancelled,       ///< the caller asked to stop
    Network,         ///< an HTTP/TLS failure
    NotFound,        ///< the thing named does not exist
    Internal,        ///< a bug: should never be seen
};

/// Where in an input an error was found. line and column count from 1; 0 means unknown.
struct Location
{
    QString file;
    int line = 0;
    int column = 0;

    bool isValid() const { return line > 0; }
    /// "file:line:column", "file:line", "file", or "" — whatever is known.
    QString toString() const;
};

struct Error
{
    ErrorCode code = ErrorCode::Internal;
    QString message;
    Location location;

    /// "file:line:column: message" (location omitted when unknown).
    QString toString() const;
};

template<typename T> class [[nodiscard]] Result
{
public:
    Result(const T &value) : m_data(std::in_place_index<0>, value) {}
    Result(T &&value) : m_data(std::in_place_index<0>, std::move(value)) {}
    Result(const Error &error) : m_data(std::in_place_index<1>, error) {}
    Result(Error &&error) : m_data(std::in_place_index<1>, std::move(error)) {}

    bool ok() const { return m_data.index() == 0; }
    explicit operator bool() const { return ok(); }

    const T &value() const & { return std::get<0>(m_data); }
    T &value() & { return std::get<0>(m_data); }
    T &&value() && { return std::get<0>(std::move(m_data)); }
    const T *operator->() const { return &std::get<0>(m_data); }
    const T &operator*() const & { return std::get<0>(m_data); }

    const Error &error() const { return std::get<1>(m_data); }
    T valueOr(T fallback) const { return ok() ? value() : std::move(fallback); }

private:
    std::variant<T, Error> m_data;
};

template<> class [[nodiscard]] Result<void>
{
public:
    Result() = default;
    Result(const Error &error) : m_error(error), m_ok(false) {}
    bool ok() const { return m_ok; }
    explicit operator bool() const { return m_ok; }
    const Error &error() const { return m_error; }

private:
    Error m_error;
    bool m_ok = true;
};

inline Error makeError(ErrorCode code, QString message, Location location = {})
{
    return Error{code, std::move(message), std::move(location)};
}

} // namespace provender

#pragma once
// One download, written to a file and hashed (zh: and h1:) on its own worker thread while the
// bytes arrive, so that nothing reads the file back afterwards (docs/BENCHMARKS.md "pull").
//
//   - write() is called by the thread that receives the bytes (a network event loop); it copies
//     the block into the queue of a ZipStreamFeeder (model/hashing) and returns at once, or waits
//     while its worker is more than `maxQueuedBytes` behind (bounded memory; the HTTP reply buffer
//     then stops reading);
//   - that worker writes every block to the file (the feeder's tap), then hands it to
//     hashZipStream() (the same h1:/zh: hashZip() gives, or "needs random access"). On a file
//     system that takes O_DIRECT (ext4, xfs)
//     whole 4 KiB blocks are written past the page cache and only the tail through it: the caller
//     fsyncs each archive before it gets its name anyway, so the cache would only add a copy
//     (buffered writes of 770 MiB cost 4-5 s of CPU on the benchmark machine, O_DIRECT 0.5 s).
//     Where O_DIRECT is refused (tmpfs) or fails, the file is written through the cache;
//   - finish() waits for the worker: the file complete (and fsync'ed when asked), the SHA-256 and
//     size of every byte, and the PackageHashes — from the stream walk, or from hashZip() on the
//     finished file when the walk needed random access; a zip that cannot be hashed gives the
//     error hashZip() gives (the SHA-256 is still set).
//
// Bytes reach the disk as they arrive (at least every 4 KiB while the queue runs dry), so a slow
// download shows a growing file. The file is never removed here: the caller renames or removes it.

#include "model/core/Result.h"
#include "model/hashing/PackageHashes.h"

#include <QByteArray>
#include <QString>

#include <functional>
#include <memory>

namespace provender {

class StreamedArchive
{
public:
    struct Options
    {
        bool durable = false;                            ///< fsync the file before finish() returns
        bool direct = true;                              ///< try O_DIRECT (falls back by itself)
        qint64 maxQueuedBytes = qint64(2) * 1024 * 1024; ///< write() waits beyond this
    };

    struct Outcome
    {
        Result<void> written; ///< the file is complete (and durable when asked)
        QByteArray sha256;    ///< raw SHA-256 of every byte given to write()
        qint64 size = 0;      ///< bytes given to write()
        Result<PackageHashes> hashes = makeError(ErrorCode::Cancelled, QStringLiteral("not hashed"));
    };

    /// Creates (truncates) `path` and starts the worker; a failure is kept and reported by
    /// finish() (write() then returns false).
    explicit StreamedArchive(QString path, Options options);
    StreamedArchive(QString path);
    ~StreamedArchive(); ///< abandons a stream that was not finished (the worker stops, the file stays)
    StreamedArchive(const StreamedArchive &) = delete;
    StreamedArchive &operator=(const StreamedArchive &) = delete;

    const QString &path() const;
    /// Why the file could not be written ("" while it can).
    QString writeError() const;
    /// The next bytes; false once the file cannot be written (stop the download).
    bool write(const char *data, qint64 size);
    /// Whether write() of `size` bytes would return at once (the worker is not behind); a
    /// receiver serving several downloads reads this one again later instead of waiting. When it
    /// would not, `whenRoom` (optional) is called once, on the worker's thread, as soon as it would
    /// (ZipStreamFeeder::hasRoom): the receiver's wake (HttpWake).
    bool canWrite(qint64 size = 64 * 1024, std::function<void()> whenRoom = {}) const;
    /// End of the stream, without waiting: the worker finishes the hash, the tail and the fsync
    /// while the caller goes on (other downloads).
    void end();
    /// End of the stream: waits for the worker. Call once.
    Outcome finish();
    /// Stops without hashing (a failed or cancelled download); the file is left as far as written.
    void abandon();

private:
    struct Worker;
    std::unique_ptr<Worker> d;
};

} // namespace provender

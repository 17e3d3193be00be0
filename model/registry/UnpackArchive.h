#pragma once
// `mirror pull --unpacked`: a proven provider zip extracted into the unpacked mirror layout
// (HOST/NS/TYPE/VERSION/OS_ARCH/, tofu-formats.md §5), safely. The archive is first judged by
// hashZip (model/hashing): anything terraform/go-getter would refuse to extract
// (extractionProblem: `..` entries, an entry over the package folder, a file that is also a
// directory, an empty archive) or any absolute or `..` name (unsafeNames) is refused before a
// byte is written. Stricter than go-getter: symbolic-link entries and two entries that extract to
// the same path are refused too (nothing is ever overwritten). Only regular files (mode 0755 when
// the zip says executable, else 0644) and directories (0755) are created, each file opened with
// O_EXCL | O_NOFOLLOW inside a fresh directory. After extraction, h1: of the directory
// (hashDirectory) must equal the h1: hashZip computed for the archive's extraction.

#include "model/core/Result.h"

#include <QString>

namespace provender {

/// Extracts `zipPath` into `targetDir`, which must not exist yet (it is created). On failure
/// `targetDir` may hold a part of the content: the caller extracts into a staging folder and
/// removes it. Errors: CorruptArchive / Unsupported with the reason, Io.
Result<void> unpackProviderZip(const QString &zipPath, const QString &targetDir);

} // namespace provender

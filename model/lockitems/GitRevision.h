#pragma once
// Read a file as it is in a git revision (HEAD, a branch, a tag, a commit id, `HEAD~2`, ...)
// through libgit2, straight from the object database: the work tree and the index are never
// touched. Used by the diff window's "compare with git revision".

#include "model/core/Result.h"

#include <QByteArray>
#include <QString>
#include <QStringList>

namespace provender::git {

struct RevisionFile
{
    QByteArray bytes; ///< the blob's content
    QString commitId; ///< full hex id of the commit the revision resolved to
    QString summary;  ///< that commit's first message line
    QString repoPath; ///< the file's path inside the repository (`/`-separated)
    QString workTree; ///< the repository's work tree (absolute, canonical)
};

/// `filePath` is a file in a git work tree (it need not exist in the work tree any more).
/// Errors: NotFound (not in a repository, unknown revision, file not in that revision),
/// InvalidArgument (a bare repository, the path is outside the work tree), Io.
Result<RevisionFile> readFileAtRevision(const QString &filePath, const QString &revision);

/// Revisions worth offering for `filePath`'s repository: "HEAD", local branches, then tags.
Result<QStringList> listRevisions(const QString &filePath);

} // namespace provender::git

#include "model/lockitems/GitRevision.h"

#include "model/core/Logging.h"

#include <QDir>
#include <QFileInfo>

#include <git2.h>

#include <memory>

using namespace Qt::StringLiterals;

namespace provender::git {

namespace {

/// git_libgit2_init/shutdown are reference counted; one pair per call keeps this self-contained.
struct LibGit
{
    LibGit() { git_libgit2_init(); }
    ~LibGit() { git_libgit2_shutdown(); }
    LibGit(const LibGit &) = delete;
    LibGit &operator=(const LibGit &) = delete;
};

template<typename T, void (*Free)(T *)> struct Deleter
{
    void operator()(T *p) const
    {
        if (p)
            Free(p);
    }
};
using Repo = std::unique_ptr<git_repository, Deleter<git_repository, git_repository_free>>;
using Object = std::unique_ptr<git_object, Deleter<git_object, git_object_free>>;
using Tree = std::unique_ptr<git_tree, Deleter<git_tree, git_tree_free>>;
using TreeEntry = std::unique_ptr<git_tree_entry, Deleter<git_tree_entry, git_tree_entry_free>>;

QString lastError(const QString &what)
{
    const git_error *e = git_error_last();
    return e && e->message ? what + u": "_s + QString::fromUtf8(e->message) : what;
}

/// The nearest existing directory of `filePath` (the file itself may be gone from the work tree).
QString existingDirOf(const QString &filePath)
{
    QFileInfo fi(filePath);
    QString dir = fi.isDir() ? fi.absoluteFilePath() : fi.absolutePath();
    while (!QFileInfo(dir).isDir() && dir != u"/"_s)
        dir = QFileInfo(dir).absolutePath();
    return dir;
}

Result<Repo> openRepo(const QString &filePath)
{
    git_repository *raw = nullptr;
    const QByteArray start = QFile::encodeName(existingDirOf(filePath));
    if (git_repository_open_ext(&raw, start.constData(), 0, nullptr) != 0)
        return makeError(ErrorCode::NotFound, lastError(u"%1 is not in a git repository"_s.arg(filePath)));
    Repo repo(raw);
    if (git_repository_is_bare(repo.get()))
        return makeError(ErrorCode::InvalidArgument, u"the repository of %1 is bare"_s.arg(filePath));
    return repo;
}

} // namespace

Result<RevisionFile> readFileAtRevision(const QString &filePath, const QString &revision)
{
    LibGit lib;
    Result<Repo> repo = openRepo(filePath);
    if (!repo)
        return repo.error();
    RevisionFile out;
    const QString workTree = QDir(QString::fromUtf8(git_repository_workdir(repo->get()))).canonicalPath();
    out.workTree = workTree;
    // Canonical paths on both sides (symlinked temp directories); the file itself may be absent.
    QFileInfo fi(filePath);
    const QString dir = QDir(fi.absolutePath()).canonicalPath();
    if (dir.isEmpty())
        return makeError(ErrorCode::NotFound, u"%1: no such directory"_s.arg(fi.absolutePath()));
    const QString rel = QDir(workTree).relativeFilePath(dir + u'/' + fi.fileName());
    if (rel.startsWith(u"../"_s) || QDir::isAbsolutePath(rel))
        return makeError(ErrorCode::InvalidArgument, u"%1 is outside the work tree %2"_s.arg(filePath, workTree));
    out.repoPath = rel;

    git_object *rawObj = nullptr;
    const QByteArray rev = revision.toUtf8();
    if (git_revparse_single(&rawObj, repo->get(), rev.constData()) != 0)
        return makeError(ErrorCode::NotFound, lastError(u"unknown revision '%1'"_s.arg(revision)));
    Object obj(rawObj);
    git_object *rawCommit = nullptr;
    if (git_object_peel(&rawCommit, obj.get(), GIT_OBJECT_COMMIT) != 0)
        return makeError(ErrorCode::NotFound, lastError(u"'%1' does not name a commit"_s.arg(revision)));
    Object commitObj(rawCommit);
    auto *commit = reinterpret_cast<git_commit *>(commitObj.get());
    char hex[GIT_OID_HEXSZ + 1] = {};
    git_oid_tostr(hex, sizeof hex, git_commit_id(commit));
    out.commitId = QString::fromLatin1(hex);
    out.summary = QString::fromUtf8(git_commit_summary(commit));

    git_tree *rawTree = nullptr;
    if (git_commit_tree(&rawTree, commit) != 0)
        return makeError(ErrorCode::Io, lastError(u"cannot read the tree of %1"_s.arg(out.commitId)));
    Tree tree(rawTree);
    git_tree_entry *rawEntry = nullptr;
    const QByteArray relUtf8 = rel.toUtf8();
    if (git_tree_entry_bypath(&rawEntry, tree.get(), relUtf8.constData()) != 0)
        return makeError(ErrorCode::NotFound, u"%1 does not exist in %2 (%3)"_s.arg(rel, revision, out.commitId.left(12)));
    TreeEntry entry(rawEntry);
    if (git_tree_entry_type(entry.get()) != GIT_OBJECT_BLOB)
        return makeError(ErrorCode::InvalidArgument, u"%1 is not a file in %2"_s.arg(rel, revision));
    git_object *rawBlob = nullptr;
    if (git_tree_entry_to_object(&rawBlob, repo->get(), entry.get()) != 0)
        return makeError(ErrorCode::Io, lastError(u"cannot read %1 in %2"_s.arg(rel, revision)));
    Object blobObj(rawBlob);
    auto *blob = reinterpret_cast<git_blob *>(blobObj.get());
    const auto size = git_blob_rawsize(blob);
    if (size > 512ll * 1024 * 1024)
        return makeError(ErrorCode::Unsupported, u"%1 in %2 is larger than 512 MiB"_s.arg(rel, revision));
    // The bytes a checkout of this path would write (eol / .gitattributes conversions applied), so
    // that a CRLF work tree is not shown as every line changed; the raw blob if filtering fails.
    git_buf filtered = GIT_BUF_INIT;
    git_blob_filter_options filterOptions = GIT_BLOB_FILTER_OPTIONS_INIT;
    if (git_blob_filter(&filtered, blob, relUtf8.constData(), &filterOptions) == 0) {
        out.bytes = QByteArray(filtered.ptr, qsizetype(filtered.size));
    } else {
        qCWarning(lcLock) << "git: cannot apply checkout filters to" << rel << "- showing the raw blob";
        out.bytes = QByteArray(static_cast<const char *>(git_blob_rawcontent(blob)), qsizetype(size));
    }
    git_buf_dispose(&filtered);
    qCDebug(lcLock) << "read" << rel << "at" << revision << out.commitId << out.bytes.size() << "bytes";
    return out;
}

Result<QStringList> listRevisions(const QString &filePath)
{
    LibGit lib;
    Result<Repo> repo = openRepo(filePath);
    if (!repo)
        return repo.error();
    QStringList branches;
    QStringList tags;
    git_reference_iterator *rawIt = nullptr;
    if (git_reference_iterator_new(&rawIt, repo->get()) == 0) {
        git_reference *ref = nullptr;
        while (git_reference_next(&ref, rawIt) == 0) {
            const QString name = QString::fromUtf8(git_reference_name(ref));
            if (name.startsWith(u"refs/heads/"_s))
                branches << name.mid(11);
            else if (name.startsWith(u"refs/tags/"_s))
                tags << name.mid(10);
            git_reference_free(ref);
        }
        git_reference_iterator_free(rawIt);
    }
    branches.sort();
    tags.sort();
    return QStringList{u"HEAD"_s} + branches + tags;
}

} // namespace provender::git

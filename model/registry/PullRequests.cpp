#include "model/registry/PullRequests.h"

#include "model/lockfile/LockFile.h"

using namespace Qt::StringLiterals;

namespace provender {

Result<PullRequest> parsePullRequest(const QString &text)
{
    const QString arg = text.trimmed();
    const qsizetype eq = arg.indexOf(u'=');
    const Result<ProviderAddress> addr = ProviderAddress::parse(eq < 0 ? arg : arg.left(eq).trimmed());
    if (!addr)
        return makeError(ErrorCode::InvalidArgument, arg + u": "_s + addr.error().message);
    PullRequest req{*addr, std::nullopt, std::nullopt};
    if (eq >= 0) {
        const Result<VersionConstraints> c = VersionConstraints::parse(arg.mid(eq + 1).trimmed());
        if (!c)
            return makeError(ErrorCode::InvalidArgument, arg + u": "_s + c.error().message);
        req.constraints = *c;
    }
    return req;
}

Result<QList<PullRequest>> parsePullRequests(const QStringList &lines)
{
    QList<PullRequest> out;
    for (qsizetype i = 0; i < lines.size(); ++i) {
        const QString line = lines.at(i).trimmed();
        if (line.isEmpty() || line.startsWith(u'#'))
            continue;
        const Result<PullRequest> r = parsePullRequest(line);
        if (!r)
            return makeError(ErrorCode::InvalidArgument, u"line %1: %2"_s.arg(i + 1).arg(r.error().message));
        out << *r;
    }
    return out;
}

Result<QList<PullRequest>> pullRequestsFromLockFile(const QString &path)
{
    LockParseOptions po;
    po.fileName = path;
    const Result<LockParseResult> parsed = readLockFile(path, po);
    if (!parsed)
        return parsed.error();
    if (parsed->hasErrors()) {
        // Every error, each with its file and line (as the CLI always printed them).
        QStringList errors;
        for (const LockDiagnostic &d : parsed->errors())
            errors << d.toString(path);
        return makeError(ErrorCode::InvalidArgument, errors.join(u'\n'));
    }
    QList<PullRequest> out;
    for (const ProviderLock &p : parsed->document.providers)
        out << PullRequest{p.address, p.version, std::nullopt};
    return out;
}

Result<QList<PullRequest>> pullRequestsFrom(const QStringList &typedLines, const QStringList &lockFiles)
{
    Result<QList<PullRequest>> typed = parsePullRequests(typedLines);
    if (!typed)
        return typed.error();
    QList<PullRequest> out = *typed;
    for (const QString &lock : lockFiles) {
        Result<QList<PullRequest>> locked = pullRequestsFromLockFile(lock);
        if (!locked)
            return locked.error();
        out << *locked;
    }
    return out;
}

} // namespace provender

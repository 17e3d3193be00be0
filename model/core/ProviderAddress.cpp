#include "model/core/ProviderAddress.h"

#include "model/core/GoCompat.h"
#include "model/core/Logging.h"

#include <QHash>
#include <QList>

#include <unicode/uidna.h>

namespace provender {

namespace {

// golang.org/x/net/idna's Lookup profile is UTS #46 non-transitional processing with STD3 rules,
// hyphen checks, CONTEXTJ and the BiDi rule. ICU's UTS #46 implementation with these options is
// the same algorithm. (Qt's QUrl::toAce is not: it accepts `_`, `--` in positions 3-4 and ZWJ.)
constexpr uint32_t kIdnaOptions =
    UIDNA_USE_STD3_RULES | UIDNA_CHECK_BIDI | UIDNA_CHECK_CONTEXTJ | UIDNA_NONTRANSITIONAL_TO_ASCII | UIDNA_NONTRANSITIONAL_TO_UNICODE;
// The Lookup profile does not verify DNS lengths (so no empty-label or 63/253-octet errors);
// svchost rejects the empty labels it cares about itself.
constexpr uint32_t kIgnoredErrors = UIDNA_ERROR_EMPTY_LABEL | UIDNA_ERROR_LABEL_TOO_LONG | UIDNA_ERROR_DOMAIN_NAME_TOO_LONG;
// Longer input is rejected rather than handed to ICU (whose lengths are int32_t).
constexpr qsizetype kMaxIdnaInput = 1 << 20;

const UIDNA *uts46()
{
    static const UIDNA *const instance = [] {
        UErrorCode status = U_ZERO_ERROR;
        const UIDNA *idna = uidna_openUTS46(kIdnaOptions, &status);
        if (U_FAILURE(status)) {
            qCWarning(lcCore) << "ICU uidna_openUTS46 failed:" << u_errorName(status);
            return static_cast<const UIDNA *>(nullptr);
        }
        return idna;
    }();
    return instance;
}

struct IdnaOutput
{
    QString text;
    bool ok = false; ///< ICU ran and reported no error we care about
    uint32_t errors = 0;
};

enum class IdnaOp { NameToAscii, NameToUnicode, LabelToAscii };

IdnaOutput runIdna(QStringView input, IdnaOp op)
{
    IdnaOutput out;
    const UIDNA *idna = uts46();
    if (!idna || input.size() > kMaxIdnaInput)
        return out;
    const auto *src = reinterpret_cast<const UChar *>(input.utf16());
    const auto srcLen = static_cast<int32_t>(input.size());
    auto call = [&](UChar *dest, int32_t capacity, UIDNAInfo *info, UErrorCode *status) {
        switch (op) {
        case IdnaOp::NameToAscii: return uidna_nameToASCII(idna, src, srcLen, dest, capacity, info, status);
        case IdnaOp::NameToUnicode: return uidna_nameToUnicode(idna, src, srcLen, dest, capacity, info, status);
        case IdnaOp::LabelToAscii: return uidna_labelToASCII(idna, src, srcLen, dest, capacity, info, status);
        }
        return int32_t(0);
    };
    QList<UChar> buffer(srcLen * 2 + 64);
    for (int attempt = 0; attempt < 2; ++attempt) {
        UIDNAInfo info = UIDNA_INFO_INITIALIZER;
        UErrorCode status = U_ZERO_ERROR;
        const int32_t len = call(buffer.data(), static_cast<int32_t>(buffer.size()), &info, &status);
        if (status == U_BUFFER_OVERFLOW_ERROR && attempt == 0) {
            buffer.resize(len + 1);
            continue;
        }
        if (U_FAILURE(status))
            return out;
        out.text = QString(reinterpret_cast<const QChar *>(buffer.constData()), len);
        out.errors = info.errors & ~kIgnoredErrors;
        out.ok = out.errors == 0;
        return out;
    }
    return out;
}

/// An error text shaped like golang.org/x/net/idna's (`idna: disallowed rune U+0021`,
/// `idna: invalid label "-foo"`). Which problem is named first may differ from Go's when a
/// name has several.
QString idnaErrorText(QStringView given)
{
    const IdnaOutput whole = runIdna(given, IdnaOp::NameToAscii);
    if (whole.errors & UIDNA_ERROR_DISALLOWED) {
        for (qsizetype i = 0; i < given.size();) {
            const char32_t cp = given.mid(i).toUcs4().value(0);
            const qsizetype width = cp > 0xFFFF ? 2 : 1;
            const IdnaOutput one = runIdna(given.mid(i, width), IdnaOp::LabelToAscii);
            if (one.errors & UIDNA_ERROR_DISALLOWED) {
                return QStringLiteral("idna: disallowed rune U+%1")
                    .arg(QString::number(quint32(cp), 16).toUpper().rightJustified(4, QLatin1Char('0')));
            }
            i += width;
        }
    }
    const IdnaOutput mapped = runIdna(given, IdnaOp::NameToUnicode);
    const QString labels = mapped.text.isEmpty() ? given.toString() : mapped.text;
    for (const QString &label : labels.split(QLatin1Char('.'))) {
        if (label.isEmpty())
            continue;
        if (!runIdna(label, IdnaOp::LabelToAscii).ok)
            return QStringLiteral("idna: invalid label %1").arg(gocompat::quote(label));
    }
    return QStringLiteral("idna: invalid label %1").arg(gocompat::quote(labels));
}

/// svchost normalizePortPortion.
Result<QString> normalizePortPortion(QStringView portion)
{
    if (portion.isEmpty())
        return QString();
    qint64 num = 0;
    if (!gocompat::atoi64(portion.mid(1).toUtf8(), &num))
        return makeError(ErrorCode::InvalidArgument, QStringLiteral("port portion contains non-digit characters"));
    if (num == 443)
        return QString(); // ":443" is the default
    if (num > 65535)
        return makeError(ErrorCode::InvalidArgument, QStringLiteral("port number is greater than 65535"));
    return QString(QLatin1Char(':') + QString::number(num));
}

Error parserError(const QString &summary, const QString &detail)
{
    // registry-address ParserError.Error(): "<summary>: <detail>".
    return makeError(ErrorCode::InvalidArgument, summary + QStringLiteral(": ") + detail);
}

} // namespace

Result<QString> ProviderAddress::normalizeHostname(QStringView host)
{
    // svchost.ForComparison.
    QStringView given = host;
    QStringView portPortion;
    if (const qsizetype colon = given.indexOf(QLatin1Char(':')); colon >= 0) {
        portPortion = given.mid(colon);
        given = given.left(colon);
    }
    const Result<QString> port = normalizePortPortion(portPortion);
    if (!port.ok()) {
        // Someone wrote a URL: the colon after the scheme was taken for a port separator.
        const QString lower = given.toString().toLower();
        if (lower == QLatin1StringView("https") || lower == QLatin1StringView("http")) {
            return makeError(ErrorCode::InvalidArgument, QStringLiteral("need just a hostname and optional port number, not a full URL"));
        }
        return port.error();
    }
    if (given.isEmpty())
        return makeError(ErrorCode::InvalidArgument, QStringLiteral("empty string is not a valid hostname"));

    // svchost's own rules, walking labels the way its labelIter does (a final empty label, and a
    // final ".." pair, are skipped).
    for (qsizetype start = 0; start < given.size();) {
        const qsizetype dot = given.indexOf(QLatin1Char('.'), start);
        const qsizetype end = dot < 0 ? given.size() : dot;
        const QStringView label = given.mid(start, end - start);
        if (label.isEmpty()) {
            return makeError(ErrorCode::InvalidArgument, QStringLiteral("hostname contains empty label (two consecutive periods)"));
        }
        if (label.startsWith(QLatin1StringView("xn--"))) {
            return makeError(ErrorCode::InvalidArgument,
                             QStringLiteral("hostname label %1 specified in punycode format; service hostnames must "
                                            "be given in unicode")
                                 .arg(gocompat::quote(label)));
        }
        start = end + 1;
        if (start == given.size() - 1 && given[start] == QLatin1Char('.'))
            start = given.size();
    }

    const IdnaOutput ascii = runIdna(given, IdnaOp::NameToAscii);
    if (!ascii.ok)
        return makeError(ErrorCode::InvalidArgument, idnaErrorText(given));
    return QString(ascii.text + port.value());
}

QString ProviderAddress::hostnameForDisplay(const QString &comparisonHost)
{
    // svchost Hostname.ForDisplay: the port portion is kept as it is.
    QStringView given = comparisonHost;
    QStringView portPortion;
    if (const qsizetype colon = given.indexOf(QLatin1Char(':')); colon >= 0) {
        portPortion = given.mid(colon);
        given = given.left(colon);
    }
    const IdnaOutput unicode = runIdna(given, IdnaOp::NameToUnicode);
    if (!unicode.ok) // Go panics here; an invalid Hostname cannot come out of normalizeHostname
        return comparisonHost;
    return unicode.text + portPortion;
}

Result<QString> ProviderAddress::normalizePart(QStringView part)
{
    // registry-address ParseProviderPart.
    if (part.isEmpty())
        return makeError(ErrorCode::InvalidArgument, QStringLiteral("must have at least one character"));
    if (part.contains(QLatin1Char('.')))
        return makeError(ErrorCode::InvalidArgument, QStringLiteral("dots are not allowed"));
    if (part.contains(QLatin1StringView("--")))
        return makeError(ErrorCode::InvalidArgument, QStringLiteral("cannot use multiple consecutive dashes"));
    const IdnaOutput unicode = runIdna(part, IdnaOp::NameToUnicode);
    if (!unicode.ok) {
        return makeError(ErrorCode::InvalidArgument,
                         QStringLiteral("must contain only letters, digits, and dashes, and may not use leading or "
                                        "trailing dashes"));
    }
    return unicode.text;
}

Result<ProviderAddress> ProviderAddress::parse(QStringView source, QAnyStringView defaultHost)
{
    // registry-address ParseProviderSource, then addrs.ParseProviderSourceString's
    // "unknown namespace means hashicorp".
    const QString str = source.toString();
    const QString quotedSource = gocompat::quote(str);
    QList<QStringView> parts = source.split(QLatin1Char('/'));
    const auto badFormat = [] {
        return parserError(QStringLiteral("Invalid provider source string"),
                           QStringLiteral("The \"source\" attribute must be in the format \"[hostname/][namespace/]name\""));
    };
    if (parts.isEmpty() || parts.size() > 3)
        return badFormat();
    for (const QStringView part : std::as_const(parts)) {
        if (part.isEmpty())
            return badFormat();
    }

    const QStringView givenName = parts.last();
    const Result<QString> name = normalizePart(givenName);
    if (!name.ok()) {
        return parserError(QStringLiteral("Invalid provider type"),
                           QStringLiteral("Invalid provider type %1 in source %2: %3\"")
                               .arg(gocompat::quote(givenName), quotedSource, name.error().message));
    }

    ProviderAddress ret;
    ret.m_type = name.value();
    ret.m_host = defaultHost.toString();

    if (parts.size() == 1) {
        ret.m_namespace = QStringLiteral("hashicorp");
        ret.m_displayHost = hostnameForDisplay(ret.m_host);
        return ret;
    }

    const QStringView givenNamespace = parts[parts.size() - 2];
    if (givenNamespace == QLatin1StringView("-")) {
        ret.m_namespace = QStringLiteral("-");
    } else {
        const Result<QString> ns = normalizePart(givenNamespace);
        if (!ns.ok()) {
            // (sic) registry-address quotes the failed result, always "", and adds a stray quote.
            return parserError(QStringLiteral("Invalid provider namespace"),
                               QStringLiteral("Invalid provider namespace \"\" in source %1: %2\"").arg(quotedSource, ns.error().message));
        }
        ret.m_namespace = ns.value();
    }

    if (parts.size() == 3) {
        const Result<QString> host = normalizeHostname(parts[0]);
        if (!host.ok()) {
            return parserError(QStringLiteral("Invalid provider source hostname"),
                               QStringLiteral("Invalid provider source hostname namespace \"\" in source %1: %2\"")
                                   .arg(quotedSource, host.error().message));
        }
        ret.m_host = host.value();
    }
    ret.m_displayHost = hostnameForDisplay(ret.m_host);

    if (ret.m_namespace == QLatin1StringView("-") && ret.m_host != defaultHost) {
        return parserError(QStringLiteral("Invalid provider namespace"),
                           QStringLiteral("The legacy provider namespace \"-\" can be used only with hostname %1.")
                               .arg(hostnameForDisplay(defaultHost.toString())));
    }

    // Type prefixes that name the repository rather than the provider.
    struct Prefixes
    {
        QLatin1StringView redundant;
        QLatin1StringView userError;
        QLatin1StringView userErrorUsage;
        QLatin1StringView productName;
    };
    static const Prefixes kPrefixes[] = {
        {QLatin1StringView("terraform-"), QLatin1StringView("terraform-provider-"),
         QLatin1StringView("is often used in the names of version control repositories for Terraform providers"),
         QLatin1StringView("a Terraform provider")},
        {QLatin1StringView("opentofu-"), QLatin1StringView("opentofu-provider-"),
         QLatin1StringView("is sometimes used in the names of version control repositories for OpenTofu providers"),
         QLatin1StringView("an OpenTofu provider")},
    };
    for (const Prefixes &p : kPrefixes) {
        if (!ret.m_type.startsWith(p.redundant))
            continue;
        if (ret.m_type.startsWith(p.userError)) {
            const QString suggestedType = ret.m_type.mid(p.userError.size());
            if (normalizePart(suggestedType).ok()) {
                ProviderAddress suggested = ret;
                suggested.m_type = suggestedType;
                return parserError(QStringLiteral("Invalid provider type"),
                                   QStringLiteral("Provider source %1 has a type with the prefix %2, which isn't valid. Although that "
                                                  "prefix %3, provider source strings should not include it.\n\nDid you mean %4?")
                                       .arg(gocompat::quote(ret.forDisplay(defaultHost)), gocompat::quote(p.userError), p.userErrorUsage,
                                            gocompat::quote(suggested.forDisplay(defaultHost))));
            }
        }
        return parserError(QStringLiteral("Invalid provider type"),
                           QStringLiteral("Provider source %1 has a type with the prefix %2, which isn't allowed "
                                          "because it would be redundant to name %3 with that prefix. If you are the "
                                          "author of this provider, rename it to not include the prefix.")
                               .arg(gocompat::quote(ret.toString()), gocompat::quote(p.redundant), p.productName));
    }
    return ret;
}

QString ProviderAddress::displayHostname() const
{
    return m_displayHost;
}

QString ProviderAddress::toString() const
{
    if (isNull())
        return {};
    return m_displayHost + QLatin1Char('/') + m_namespace + QLatin1Char('/') + m_type;
}

QString ProviderAddress::forDisplay(QAnyStringView defaultHost) const
{
    if (isNull())
        return {};
    if (m_host == defaultHost)
        return m_namespace + QLatin1Char('/') + m_type;
    return toString();
}

bool ProviderAddress::isBuiltIn() const
{
    return (m_host == QLatin1StringView("terraform.io") || m_host == QLatin1StringView("opentofu.org"))
        && m_namespace == QLatin1StringView("builtin");
}

bool ProviderAddress::isLegacy() const
{
    // parse() accepts the namespace "-" only on the default host it was given.
    return m_namespace == QLatin1StringView("-");
}

std::strong_ordering ProviderAddress::operator<=>(const ProviderAddress &other) const
{
    if (m_host != other.m_host)
        return gocompat::orderUtf8(m_host, other.m_host);
    if (m_namespace != other.m_namespace)
        return gocompat::orderUtf8(m_namespace, other.m_namespace);
    return gocompat::orderUtf8(m_type, other.m_type);
}

size_t qHash(const ProviderAddress &a, size_t seed) noexcept
{
    return qHashMulti(seed, a.hostname(), a.ns(), a.type());
}

} // namespace provender

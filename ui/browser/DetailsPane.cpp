#include "ui/browser/DetailsPane.h"

#include <algorithm>

#include "model/core/SizeFormat.h"
#include "ui/VerdictStyle.h"

#include <QApplication>
#include <QClipboard>
#include <QDir>
#include <QHBoxLayout>
#include <QLocale>
#include <QMenu>
#include <QTextBrowser>
#include <QToolButton>
#include <QUrl>
#include <QVBoxLayout>

namespace provender::ui {

namespace {

QString sizeText(qint64 bytes)
{
    return formatDataSize(bytes, QLocale());
}

QString esc(const QString &s)
{
    return s.toHtmlEscaped();
}

/// A button of the row under the details, added to `row`.
QToolButton *addToolButton(QHBoxLayout *row, const QString &objectName, const QString &text, const QString &toolTip)
{
    auto *button = new QToolButton;
    button->setObjectName(objectName);
    button->setText(text);
    button->setToolTip(toolTip);
    row->addWidget(button);
    return button;
}

} // namespace

DetailsPane::DetailsPane(QWidget *parent) : QWidget(parent)
{
    auto *layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->setSpacing(2);
    m_browser = new QTextBrowser;
    m_browser->setObjectName(QStringLiteral("detailsView"));
    m_browser->setOpenLinks(false);
    m_browser->setOpenExternalLinks(false);
    connect(m_browser, &QTextBrowser::anchorClicked, this, [this](const QUrl &url) {
        if (url.scheme() == QLatin1StringView("copy"))
            copyHash(url.path());
    });
    layout->addWidget(m_browser, 1);

    auto *buttons = new QHBoxLayout;
    buttons->setContentsMargins(4, 0, 4, 4);
    m_copyButton = addToolButton(buttons, QStringLiteral("copyHashButton"), tr("Copy Hash"),
                                 tr("Copy the archive's h1: hash (the form lock files use); the arrow offers the others"));
    m_copyButton->setToolButtonStyle(Qt::ToolButtonTextOnly);
    m_copyButton->setPopupMode(QToolButton::MenuButtonPopup);
    m_copyMenu = new QMenu(m_copyButton);
    m_copyButton->setMenu(m_copyMenu);
    connect(m_copyButton, &QToolButton::clicked, this, [this] { copyHash(m_primaryHash); });
    m_reverifyButton = addToolButton(buttons, QStringLiteral("reverifyArchiveButton"), tr("Re-verify"),
                                     tr("Hash this archive again, bypassing the hash cache"));
    connect(m_reverifyButton, &QToolButton::clicked, this, &DetailsPane::reverifyRequested);
    m_folderButton =
        addToolButton(buttons, QStringLiteral("showInFolderButton"), tr("Show in File Manager"), tr("Open the folder that holds it"));
    connect(m_folderButton, &QToolButton::clicked, this, &DetailsPane::showInFolderRequested);
    buttons->addStretch();
    layout->addLayout(buttons);
    showNothing();
}

void DetailsPane::copyHash(const QString &hash)
{
    if (hash.isEmpty())
        return;
    QApplication::clipboard()->setText(hash);
    Q_EMIT hashCopied(hash);
}

void DetailsPane::showNothing()
{
    m_primaryHash.clear();
    m_copyMenu->clear();
    m_copyButton->setEnabled(false);
    m_reverifyButton->setEnabled(false);
    m_folderButton->setEnabled(false);
    m_browser->setHtml(QStringLiteral("<p style=\"color:%1\">%2</p>")
                           .arg(palette().color(QPalette::PlaceholderText).name(), tr("Select an archive to see its hashes.")));
}

namespace {

QString badgeHtml(Verdict v)
{
    return QStringLiteral("<span style=\"background:%1; color:white\">&nbsp;%2&nbsp;%3&nbsp;</span>")
        .arg(verdictColor(v).name(), verdictGlyph(v), toString(v));
}

QString anomaliesHtml(const QStringList &anomalies, const QPalette &pal)
{
    if (anomalies.isEmpty())
        return {};
    QString html = QStringLiteral("<p style=\"margin-top:8px\"><b>%1</b></p><ul style=\"margin-top:0\">")
                       .arg(QApplication::translate("provender::ui::DetailsPane", "Anomalies"));
    for (const QString &a : anomalies)
        html += QStringLiteral("<li><span style=\"color:%1\">!</span> %2</li>").arg(verdictTextColor(Verdict::Missing, pal).name(), esc(a));
    return html + QStringLiteral("</ul>");
}

} // namespace

void DetailsPane::showArchive(const ArchiveResult &r, const QStringList &anomalies, bool canReverify)
{
    const QPalette pal = palette();
    const QString muted = pal.color(QPalette::PlaceholderText).name();
    const QString good = verdictTextColor(Verdict::Verified, pal).name();
    const QString bad = verdictTextColor(Verdict::Mismatch, pal).name();

    QString html = QStringLiteral("<p><b>%1</b> %2 <b>%3</b> &nbsp; %4 &nbsp;%5</p>")
                       .arg(esc(r.key.provider.toString()), esc(r.key.version.toString()), esc(r.key.platform.toString()),
                            badgeHtml(r.detail.verdict), esc(r.detail.reason));
    html += QStringLiteral("<table cellspacing=2>");
    auto row = [&](const QString &label, const QString &value) {
        html += QStringLiteral("<tr><td style=\"color:%1; padding-right:12px\">%2</td><td>%3</td></tr>").arg(muted, label, value);
    };
    auto hashCell = [&](const HashString &h, const QString &note) {
        return QStringLiteral("<tt>%1</tt> &nbsp;<a href=\"copy:%2\">%3</a>%4").arg(esc(h.toString()), esc(h.toString()), tr("copy"), note);
    };
    row(tr("Path"), r.path.isEmpty() ? tr("(absent)") : esc(QDir::toNativeSeparators(r.path)));
    row(tr("Size"), r.size >= 0 ? QStringLiteral("%1 (%2 bytes)").arg(sizeText(r.size), QLocale().toString(r.size)) : tr("—"));
    row(tr("Layout"), toString(r.layout));
    {
        // What the verdict was checked against (docs/VERDICTS.md "Trust anchors").
        QString anchor = esc(describeAnchors(r.detail));
        const bool selfOnly = !r.detail.anchors.isEmpty()
            && std::all_of(r.detail.anchors.cbegin(), r.detail.anchors.cend(),
                           [](const TrustAnchor &a) { return a.isSelfConsistencyOnly(); });
        if (selfOnly)
            anchor += QStringLiteral(" &nbsp;<span style=\"color:%1\">%2</span>")
                          .arg(muted, tr("— the source agrees with itself; check against a reviewed lock file to anchor it"));
        if (r.detail.notCoveredByLock)
            anchor = QStringLiteral("<span style=\"color:%1\">%2</span>").arg(bad, esc(describeAnchors(r.detail)));
        row(tr("Anchor"), anchor);
    }
    m_copyMenu->clear();
    m_primaryHash.clear();
    if (r.hashes) {
        const bool zip = r.hashes->kind == PackageHashes::Kind::Zip;
        auto mark = [&](HashMatch m) {
            return r.detail.matched.contains(m)
                ? QStringLiteral(" &nbsp;<span style=\"color:%1\">✔ %2</span>").arg(good, tr("matches a declared hash"))
                : QString();
        };
        auto computed = [&](const QString &label, const HashString &h, HashMatch m, const QString &missingWhy = {}) {
            if (h.isNull()) {
                row(label,
                    QStringLiteral("<span style=\"color:%1\">%2</span>")
                        .arg(muted, esc(missingWhy.isEmpty() ? tr("not computed") : missingWhy)));
                return;
            }
            row(label, hashCell(h, mark(m)));
            QAction *a = m_copyMenu->addAction(tr("Copy %1").arg(label), this, [this, s = h.toString()] { copyHash(s); });
            a->setObjectName(QStringLiteral("copy ") + label);
        };
        computed(tr("h1 (extracted)"), r.hashes->h1Extracted, HashMatch::H1Extracted);
        if (zip) {
            computed(tr("h1 (zip)"), r.hashes->h1Zip, HashMatch::H1Zip, r.hashes->h1ZipError);
            computed(tr("zh"), r.hashes->zh, HashMatch::ZH);
        }
        m_primaryHash = r.hashes->h1Extracted.toString();
        if (r.fromCache)
            row(tr("Source"), tr("hash cache (file unchanged since it was last hashed)"));
    } else if (!r.error.isEmpty()) {
        row(tr("Computed"), QStringLiteral("<span style=\"color:%1\">%2</span>").arg(bad, esc(r.error)));
    } else {
        row(tr("Computed"), QStringLiteral("<span style=\"color:%1\">%2</span>").arg(muted, tr("not hashed")));
    }
    if (r.declared.isEmpty()) {
        row(tr("Declared"), tr("nothing — no index lists hashes for this archive"));
    } else {
        for (const HashString &h : r.declared) {
            QString note;
            if (r.detail.contradicting.contains(h)) {
                note =
                    QStringLiteral(" &nbsp;<span style=\"color:%1\">✘ %2</span>")
                        .arg(bad,
                             r.detail.verdict == Verdict::Mismatch ? tr("matches nothing computed")
                                                                   : tr("matches no package (an anomaly: another declared hash decides)"));
            } else if (r.hashes) {
                QString which;
                if (h == r.hashes->h1Extracted)
                    which = toString(HashMatch::H1Extracted);
                else if (h == r.hashes->h1Zip)
                    which = toString(HashMatch::H1Zip);
                else if (h == r.hashes->zh)
                    which = toString(HashMatch::ZH);
                note = which.isEmpty()
                    ? QStringLiteral(" &nbsp;<span style=\"color:%1\">%2</span>").arg(muted, tr("not checked (scheme not computed)"))
                    : QStringLiteral(" &nbsp;<span style=\"color:%1\">✔ %2</span>").arg(good, tr("matches %1").arg(which));
            }
            row(tr("Declared"), hashCell(h, note));
        }
    }
    html += QStringLiteral("</table>");
    html += anomaliesHtml(anomalies, pal);
    m_browser->setHtml(html);
    m_copyButton->setEnabled(!m_primaryHash.isEmpty());
    m_reverifyButton->setEnabled(canReverify);
    m_folderButton->setEnabled(!r.path.isEmpty());
}

void DetailsPane::showRow(const MirrorTreeModel *model, const QModelIndex &source, const QStringList &anomalies, bool canReverify,
                          bool withPath)
{
    if (!source.isValid()) {
        showNothing();
        return;
    }
    if (const std::optional<ArchiveResult> leaf = model->resultAt(source)) {
        showArchive(*leaf, anomalies, canReverify && !leaf->path.isEmpty());
        return;
    }
    QList<int> counts;
    for (const QVariant &c : source.data(MirrorTreeModel::VerdictCountsRole).toList())
        counts.append(c.toInt());
    showGroup(source.data().toString(), Verdict(source.data(MirrorTreeModel::VerdictRole).toInt()), counts,
              source.data(MirrorTreeModel::SizeRole).toLongLong(), source.siblingAtColumn(MirrorTreeModel::PlatformsColumn).data().toInt(),
              withPath ? source.data(MirrorTreeModel::PathRole).toString() : QString(), anomalies);
}

void DetailsPane::showGroup(const QString &name, Verdict worst, const QList<int> &counts, qint64 size, int platforms, const QString &path,
                            const QStringList &anomalies)
{
    const QPalette pal = palette();
    QStringList parts;
    for (int i = 0; i < counts.size(); ++i)
        if (counts.at(i) > 0)
            parts.append(QStringLiteral("<span style=\"color:%1\">%2</span> %3 %4")
                             .arg(verdictTextColor(Verdict(i), pal).name(), verdictGlyph(Verdict(i)))
                             .arg(counts.at(i))
                             .arg(toString(Verdict(i))));
    // No archive below (e.g. a version whose <version>.json could not be read): no verdict badge.
    const bool judged = std::any_of(counts.begin(), counts.end(), [](int c) { return c > 0; });
    QString html = QStringLiteral("<p><b>%1</b> &nbsp; %2</p>").arg(esc(name), judged ? badgeHtml(worst) : QString());
    html += QStringLiteral("<p>%1</p>").arg(parts.join(QStringLiteral(", ")));
    html += QStringLiteral("<p style=\"color:%1\">%2 · %3</p>")
                .arg(pal.color(QPalette::PlaceholderText).name(), sizeText(size), tr("%n platform(s)", nullptr, platforms));
    if (!path.isEmpty())
        html += QStringLiteral("<p>%1</p>").arg(esc(QDir::toNativeSeparators(path)));
    html += anomaliesHtml(anomalies, pal);
    m_browser->setHtml(html);
    m_primaryHash.clear();
    m_copyMenu->clear();
    m_copyButton->setEnabled(false);
    m_reverifyButton->setEnabled(false);
    m_folderButton->setEnabled(!path.isEmpty());
}

void DetailsPane::setLocalFile(bool local)
{
    m_folderButton->setVisible(local);
    m_reverifyButton->setToolTip(local ? tr("Hash this archive again, bypassing the hash cache")
                                       : tr("Download this archive again and hash it"));
}

} // namespace provender::ui

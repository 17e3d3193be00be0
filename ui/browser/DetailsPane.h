#pragma once
// The details pane of the mirror browser: everything about the selected archive (path, size,
// layout, the computed h1: of the zip and of the extracted folder and zh:, each declared hash with
// a tick or a cross and what it matched, the scan's anomalies about it) or a summary of a host,
// provider or version row, with buttons to copy a hash, re-verify the archive and show it in the
// file manager. The window decides what to show; the pane only renders and reports clicks.
//
// objectNames: "detailsView" (QTextBrowser), "copyHashButton", "reverifyArchiveButton",
// "showInFolderButton".

#include "model/items/MirrorTreeModel.h"
#include "model/verify/VerifyEngine.h"

#include <QWidget>

class QTextBrowser;
class QToolButton;
class QMenu;

namespace provender::ui {

class DetailsPane : public QWidget
{
    Q_OBJECT
public:
    explicit DetailsPane(QWidget *parent = nullptr);

    /// Nothing selected.
    void showNothing();
    /// An archive. `anomalies`: messages of the scan about it; `canReverify`: a file on disk.
    void showArchive(const ArchiveResult &result, const QStringList &anomalies, bool canReverify);
    /// A host, provider or version row: name, worst verdict, counts per verdict, size, platforms, path.
    void showGroup(const QString &name, Verdict worst, const QList<int> &counts, qint64 size, int platforms, const QString &path,
                   const QStringList &anomalies);

    /// A row of a MirrorTreeModel (`source` is the model's own index; invalid: nothing): an
    /// archive through showArchive(), any other row through showGroup(). `canReverify` applies to
    /// an archive with a file; `withPath` shows a group's directory.
    void showRow(const MirrorTreeModel *model, const QModelIndex &source, const QStringList &anomalies, bool canReverify, bool withPath);

    /// Whether the rows are files on this machine (a directory or bundle): "Show in File Manager"
    /// is offered only then; a URL source's archives have no folder.
    void setLocalFile(bool local);

    QTextBrowser *browser() const { return m_browser; }
    /// The hash "Copy Hash" copies: the h1: of the extracted package (the lock-file form), "" when none.
    QString primaryHash() const { return m_primaryHash; }

Q_SIGNALS:
    void reverifyRequested();
    void showInFolderRequested();
    /// A hash was copied to the clipboard (for the status bar).
    void hashCopied(const QString &hash);

private:
    void copyHash(const QString &hash);
    QTextBrowser *m_browser = nullptr;
    QToolButton *m_copyButton = nullptr;
    QToolButton *m_reverifyButton = nullptr;
    QToolButton *m_folderButton = nullptr;
    QMenu *m_copyMenu = nullptr;
    QString m_primaryHash;
};

} // namespace provender::ui

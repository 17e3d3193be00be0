// MainWindow: the tree as shown: filters and expansion, summary and badges, details, copy, context menu and which actions apply.
#include "ui/MainWindow.h"
#include "ui/MainWindowInternal.h"

#include "model/core/SizeFormat.h"
#include "model/items/ArchiveFilterProxyModel.h"
#include "model/items/MirrorTreeModel.h"
#include "ui/VerdictStyle.h"
#include "ui/browser/DetailsPane.h"
#include "ui/browser/MirrorTreeView.h"

#include <QAction>
#include <QApplication>
#include <QClipboard>
#include <QComboBox>
#include <QDesktopServices>
#include <QDir>
#include <QFileInfo>
#include <QLabel>
#include <QLineEdit>
#include <QLocale>
#include <QMenu>

namespace provender::ui {

namespace {

QString sizeText(qint64 bytes)
{
    return formatDataSize(bytes, QLocale());
}

} // namespace

using mainwindow::kVerdictOrder;

void MainWindow::updatePlatformFilter()
{
    const QString current = m_platformFilter->currentData().toString();
    const QStringList platforms = m_archives->platforms();
    QSignalBlocker block(m_platformFilter);
    while (m_platformFilter->count() > 1)
        m_platformFilter->removeItem(1);
    for (const QString &p : platforms)
        m_platformFilter->addItem(p, p);
    const int keep = m_platformFilter->findData(current);
    m_platformFilter->setCurrentIndex(keep < 0 ? 0 : keep);
    m_proxy->setPlatformFilter(m_platformFilter->currentData().toString());
}

QModelIndex MainWindow::currentSourceRow() const
{
    const QModelIndex current = m_archiveView ? m_archiveView->currentIndex() : QModelIndex();
    if (!current.isValid())
        return {};
    return m_proxy->mapToSource(current.siblingAtColumn(0));
}

void MainWindow::copySelection()
{
    QStringList lines;
    for (const QModelIndex &row : m_archiveView->selectionModel()->selectedRows(0)) {
        const QModelIndex source = m_proxy->mapToSource(row);
        if (const std::optional<ArchiveResult> r = m_archives->resultAt(source))
            lines.append(r->hashes ? r->hashes->h1Extracted.toString() : r->path);
        else
            lines.append(source.data(MirrorTreeModel::PathRole).toString().isEmpty() ? source.data().toString()
                                                                                     : source.data(MirrorTreeModel::PathRole).toString());
    }
    lines.removeAll(QString());
    if (lines.isEmpty())
        return;
    QApplication::clipboard()->setText(lines.join(QLatin1Char('\n')));
    m_statusLabel->setText(tr("Copied %n line(s).", nullptr, int(lines.size())));
}

void MainWindow::copyCurrentHash()
{
    const std::optional<ArchiveResult> r = m_archives->resultAt(currentSourceRow());
    if (!r || !r->hashes)
        return;
    QApplication::clipboard()->setText(r->hashes->h1Extracted.toString());
    m_statusLabel->setText(tr("Copied %1").arg(r->hashes->h1Extracted.toString()));
}

void MainWindow::copyCurrentPath()
{
    const QModelIndex source = currentSourceRow();
    const QString path = source.data(MirrorTreeModel::PathRole).toString();
    if (path.isEmpty())
        return;
    QApplication::clipboard()->setText(QDir::toNativeSeparators(path));
    m_statusLabel->setText(tr("Copied %1").arg(QDir::toNativeSeparators(path)));
}

void MainWindow::showCurrentInFolder()
{
    if (m_kind == SourceKind::Url || m_kind == SourceKind::None)
        return; // no folder to show
    const bool bundle = m_kind == SourceKind::Bundle;
    QString path = currentSourceRow().data(MirrorTreeModel::PathRole).toString();
    if (bundle)
        path = m_root; // entries live inside the bundle file
    if (path.isEmpty())
        return;
    const QFileInfo info(path);
    // The folder holding a zip; an unpacked package or a provider row is a folder itself.
    const QString folder = info.isDir() && !bundle ? info.absoluteFilePath() : info.absolutePath();
    if (!QDesktopServices::openUrl(QUrl::fromLocalFile(folder)))
        m_statusLabel->setText(tr("Could not open %1 in a file manager.").arg(QDir::toNativeSeparators(folder)));
}

void MainWindow::showContextMenu(const QPoint &pos)
{
    const QModelIndex at = m_archiveView->indexAt(pos);
    if (!at.isValid())
        return;
    if (!m_archiveView->selectionModel()->isRowSelected(at.row(), at.parent()))
        m_archiveView->selectionModel()->setCurrentIndex(at, QItemSelectionModel::ClearAndSelect | QItemSelectionModel::Rows);
    else
        m_archiveView->selectionModel()->setCurrentIndex(at, QItemSelectionModel::NoUpdate);
    updateActions();
    m_rowMenu->popup(m_archiveView->viewport()->mapToGlobal(pos));
}

void MainWindow::updateActions()
{
    if (!m_copyAction)
        return;
    const QModelIndex source = currentSourceRow();
    const std::optional<ArchiveResult> r = m_archives->resultAt(source);
    const bool hasRow = source.isValid();
    m_copyAction->setEnabled(hasRow);
    m_copyHashAction->setEnabled(r && r->hashes);
    m_copyPathAction->setEnabled(!source.data(MirrorTreeModel::PathRole).toString().isEmpty());
    m_verifyArchiveAction->setEnabled(r && !r->path.isEmpty() && m_kind != SourceKind::None);
    m_showInFolderAction->setEnabled(m_kind == SourceKind::Bundle          ? hasRow
                                         : m_kind == SourceKind::Directory ? !source.data(MirrorTreeModel::PathRole).toString().isEmpty()
                                                                           : false);
    Q_EMIT selectionChanged();
}

void MainWindow::collapseBeforeUnfilter()
{
    // Called with the filter widgets already changed and the proxy not yet: when the last filter
    // goes off, collapse while only the matching rows are laid out — collapsing after the proxy
    // has brought back the whole mirror would first lay out every row of it, expanded.
    const bool willFilter = !m_filterEdit->text().trimmed().isEmpty() || m_verdictFilter->currentData().toInt() >= 0
        || !m_platformFilter->currentData().toString().isEmpty();
    if (m_filtered && !willFilter)
        m_archiveView->collapseAll();
}

void MainWindow::expandForFilter()
{
    // With a filter on, show every matching archive (only the rows that match are in the proxy) —
    // unless they are so many that the expanded tree would be screens upon screens of rows (and
    // laying out 100,000 rows a visible pause): then hosts and providers open, their versions
    // closed, and the summary line says how many archives match.
    const bool filtered = m_proxy->isFiltering();
    if (filtered && m_proxy->filterSerial() == m_expandedForFilter)
        return; // the same filter (e.g. a space typed): keep what the user expanded meanwhile
    m_expandedForFilter = m_proxy->filterSerial();
    if (filtered) {
        const int matches = m_proxy->matchingArchives();
        if (matches >= 0 && matches > kExpandAllMatches) {
            m_archiveView->collapseAll();
            m_archiveView->expandToDepth(1);
        } else {
            m_archiveView->expandAll();
        }
    } else if (m_filtered) {
        // The filter is off again: back to the overview (hosts and providers open) rather than
        // every version of the mirror expanded, with the current row still shown.
        m_archiveView->collapseAll();
        m_archiveView->expandToDepth(1);
        const QModelIndex current = m_archiveView->currentIndex();
        for (QModelIndex p = current.parent(); p.isValid(); p = p.parent())
            m_archiveView->expand(p);
        if (current.isValid())
            m_archiveView->scrollTo(current, QAbstractItemView::PositionAtCenter);
    }
    m_filtered = filtered;
    updateSummary();
}

void MainWindow::updateSummary()
{
    if (!m_summaryLabel)
        return;
    const auto &counts = m_archives->verdictCounts();
    const QPalette pal = palette();
    for (qsizetype i = 0; i < kVerdictOrder.size() && i < m_badges.size(); ++i) {
        const Verdict v = kVerdictOrder.at(i);
        const int n = counts[size_t(v)];
        m_badges.at(i)->setVisible(n > 0);
        m_badges.at(i)->setText(QStringLiteral("<span style=\"color:%1\"><b>%2</b></span>&nbsp;<b>%3</b>&nbsp;%4")
                                    .arg(verdictTextColor(v, pal).name(), verdictGlyph(v))
                                    .arg(n)
                                    .arg(toString(v)));
    }
    int providers = 0;
    for (const Provider &p : std::as_const(m_catalog.providers))
        providers += p.versions.isEmpty() ? 0 : 1;
    const int archives = m_archives->archiveCount();
    QString text = (providers == 1 ? tr("1 provider") : tr("%1 providers").arg(providers)) + QStringLiteral(" · ")
        + (archives == 1 ? tr("1 archive") : tr("%1 archives").arg(archives));
    if (m_kind == SourceKind::Url)
        text += tr(" · sizes as downloaded"); // a network mirror's index declares none
    else
        text += QStringLiteral(" · ") + sizeText(m_totalBytes);
    if (m_proxy->isFiltering()) {
        const int matches = m_proxy->matchingArchives();
        if (matches >= 0)
            text += tr(" · <b>%n shown by the filter</b>", nullptr, matches)
                + (matches > kExpandAllMatches ? tr(" (expand a version to see its archives)") : QString());
    }
    m_summaryLabel->setText(text);
}

void MainWindow::updateDetails()
{
    if (!m_details)
        return;
    const QModelIndex source = currentSourceRow();
    m_details->showRow(m_archives, source, source.isValid() ? anomaliesFor(source) : QStringList(), m_kind != SourceKind::None,
                       m_kind != SourceKind::Url);
    m_details->setLocalFile(m_kind == SourceKind::Directory || m_kind == SourceKind::Bundle);
}

} // namespace provender::ui

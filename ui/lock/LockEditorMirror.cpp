// The lock editor's mirror: File ▸ Open Mirror… (a directory or a network mirror's URL, the
// CLI's `--mirror DIR|URL`), and the coverage matrix of the text against it. Split from
// LockEditorWindow.cpp (its size limit).

#include "ui/lock/CoverageMatrixWindow.h"
#include "ui/lock/LockDialogs.h"
#include "ui/lock/LockEditorWindow.h"
#include "ui/lock/MirrorScan.h"

namespace provender::ui {

void LockEditorWindow::openMirror(const QString &location, const HttpSettings &http)
{
    // A network mirror: the indexes of the locked versions (as lock add-hashes reads them); each
    // operation reads what its command reads (LockMirrorTask::run).
    openMirrorAsync(
        m_jobs, location, lockedVersions(m_doc->lockFile()),
        [this](const LockMirror &mirror, const QString &warning) {
            setMirror(mirror);
            if (!warning.isEmpty())
                showMessage(warning);
        },
        [this](const QString &message) { showMessage(message); }, http);
}

void LockEditorWindow::setCatalog(const Catalog &catalog)
{
    m_doc->setCatalog(catalog);
}

void LockEditorWindow::setMirror(const LockMirror &mirror)
{
    m_doc->setMirror(mirror);
}

void LockEditorWindow::openMirrorDialog()
{
    const LockMirrorLocation chosen = MirrorLocationDialog::ask(this, m_doc->mirror());
    if (!chosen.location.isEmpty())
        openMirror(chosen.location, chosen.http);
}

void LockEditorWindow::showCoverage()
{
    if (!hasMirror()) {
        showMessage(tr("Open a mirror first (File ▸ Open Mirror…)."));
        return;
    }
    flushTextEdit();
    auto *w = new CoverageMatrixWindow;
    w->setAttribute(Qt::WA_DeleteOnClose);
    w->setLock(document(), m_doc->displayName());
    w->setMirror(*m_doc->mirror());
    w->show();
}

} // namespace provender::ui

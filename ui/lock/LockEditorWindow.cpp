#include "ui/lock/LockEditorWindow.h"
#include "ui/lock/LockMergeWindow.h"
#include "ui/lock/MirrorScan.h"

#include "model/core/Logging.h"
#include "model/lockfile/LockDiff.h"
#include "model/lockfile/LockEdit.h"
#include "model/lockfile/LockMerge.h"
#include "model/lockfile/LockWriter.h"
#include "model/lockitems/LockHashListModel.h"
#include "model/lockitems/LockProviderTableModel.h"
#include "model/mirror/FileSystemMirror.h"
#include "model/registry/ReleaseProvenance.h"
#include "ui/VerdictStyle.h"
#include "ui/lock/CoverageMatrixWindow.h"
#include "ui/lock/HclHighlighter.h"
#include "ui/lock/LockCodeEditor.h"
#include "ui/lock/LockDialogs.h"
#include "ui/lock/LockDiffWindow.h"

#include <QAction>
#include <QCloseEvent>
#include <QFile>
#include <QFileDialog>
#include <QFileInfo>
#include <QFileSystemWatcher>
#include <QFrame>
#include <QFutureWatcher>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QListWidget>
#include <QMenuBar>
#include <QPushButton>
#include <QScrollBar>
#include <QSplitter>
#include <QStatusBar>
#include <QTableView>
#include <QTimer>
#include <QToolBar>
#include <QUndoCommand>
#include <QUndoStack>
#include <QVBoxLayout>
#include <QtConcurrent>

using namespace Qt::StringLiterals;

namespace provender::ui {

struct LockEditorWindow::Parsed
{
    LockParseResult result;
};

/// Swaps the document's text; the first redo of a typed change leaves the editor alone.
class SetTextCommand final : public QUndoCommand
{
public:
    SetTextCommand(LockEditorWindow *window, QByteArray before, QByteArray after, const QString &text, bool fromEditor)
        : QUndoCommand(text),
          m_window(window),
          m_before(std::move(before)),
          m_after(std::move(after)),
          m_skipEditor(fromEditor)
    {}
    void redo() override
    {
        m_window->applyBytes(m_after, !m_skipEditor);
        m_skipEditor = false;
    }
    void undo() override { m_window->applyBytes(m_before, true); }

private:
    LockEditorWindow *m_window;
    QByteArray m_before;
    QByteArray m_after;
    bool m_skipEditor;
};

namespace {

QString editorText(const QByteArray &bytes)
{
    QString s = QString::fromUtf8(bytes);
    s.replace(u"\r\n"_s, u"\n"_s);
    return s;
}

/// What an edit computed off the GUI thread hands back (a plain value).
struct MirrorOutcome
{
    bool ok = false;
    bool cancelled = false;
    QString error;
    LockFile document;
    QStringList problems;
    QString summary;
    bool changed = false;
};

QString describe(const lockedit::MirrorHashNote &n)
{
    return u"%1 %2 %3: %4%5"_s.arg(n.provider.toString(), n.version.toString(), n.platform.toString(), toString(n.kind),
                                   n.message.isEmpty() ? QString() : u" ("_s + n.message + u')');
}

} // namespace

LockEditorWindow::LockEditorWindow(QWidget *parent) : QMainWindow(parent), m_parsed(std::make_unique<Parsed>())
{
    setAttribute(Qt::WA_DeleteOnClose, false);
    m_undo = new QUndoStack(this);
    m_providers = new LockProviderTableModel(this);
    m_hashes = new LockHashListModel(this);
    m_debounce = new QTimer(this);
    m_debounce->setSingleShot(true);
    m_debounce->setInterval(400);
    connect(m_debounce, &QTimer::timeout, this, &LockEditorWindow::flushTextEdit);
    buildUi();
    buildActions();
    m_providers->setEditHandler([this](const ProviderAddress &address, LockProviderTableModel::Column column, const QString &value) {
        // Applied after the view has finished committing (the edit resets the model).
        QMetaObject::invokeMethod(
            this,
            [this, address, column, value] {
                if (column == LockProviderTableModel::VersionColumn)
                    setVersion(address, value);
                else
                    setConstraints(address, value);
            },
            Qt::QueuedConnection);
        return true;
    });
    connect(m_undo, &QUndoStack::indexChanged, this, &LockEditorWindow::updateActions);
    applyBytes(QByteArray(), true);
    resize(1200, 760);
}

LockEditorWindow::~LockEditorWindow()
{
    if (m_hashProgress)
        m_hashProgress->cancel = true; // the worker stops at its next progress point
    if (m_provenanceHashing)
        m_provenanceHashing->cancel = true;
    ++m_provenanceGeneration;
    m_undo->disconnect(this);
}

void LockEditorWindow::buildUi()
{
    m_providerView = new QTableView(this);
    m_providerView->setObjectName(u"providerView"_s);
    m_providerView->setModel(m_providers);
    m_providerView->setSelectionBehavior(QAbstractItemView::SelectRows);
    m_providerView->setSelectionMode(QAbstractItemView::SingleSelection);
    m_providerView->setEditTriggers(QAbstractItemView::DoubleClicked | QAbstractItemView::EditKeyPressed);
    m_providerView->verticalHeader()->hide();
    m_providerView->horizontalHeader()->setStretchLastSection(true);
    m_providerView->setAlternatingRowColors(true);
    m_providerView->setWordWrap(false);
    connect(m_providerView->selectionModel(), &QItemSelectionModel::currentRowChanged, this, &LockEditorWindow::updateHashList);

    m_hashView = new QTableView(this);
    m_hashView->setObjectName(u"hashView"_s);
    m_hashView->setModel(m_hashes);
    m_hashView->setSelectionBehavior(QAbstractItemView::SelectRows);
    m_hashView->setSelectionMode(QAbstractItemView::ExtendedSelection);
    m_hashView->setEditTriggers(QAbstractItemView::NoEditTriggers);
    m_hashView->verticalHeader()->hide();
    m_hashView->horizontalHeader()->setStretchLastSection(true);
    m_hashView->setItemDelegateForColumn(LockHashListModel::HashColumn, new HashDelegate(m_hashView));
    m_hashView->setWordWrap(false);
    connect(m_hashView->selectionModel(), &QItemSelectionModel::selectionChanged, this, &LockEditorWindow::updateActions);

    m_text = new LockCodeEditor(this);
    m_text->setObjectName(u"textEdit"_s);
    m_highlighter = new HclHighlighter(m_text->document());
    connect(m_text, &QPlainTextEdit::textChanged, this, [this] {
        if (m_applying)
            return;
        m_debounce->start();
        m_undoAction->setEnabled(true);
        setWindowModified(true);
    });

    m_problems = new QListWidget(this);
    m_problems->setObjectName(u"problemList"_s);
    m_problems->setWordWrap(true);
    connect(m_problems, &QListWidget::itemActivated, this, [this](QListWidgetItem *item) {
        const int line = item->data(Qt::UserRole).toInt();
        if (line > 0) {
            m_text->goTo(line, item->data(Qt::UserRole + 1).toInt());
            m_text->setFocus();
        }
    });

    auto *left = new QSplitter(Qt::Vertical, this);
    left->addWidget(m_providerView);
    left->addWidget(m_hashView);
    left->setStretchFactor(0, 3);
    left->setStretchFactor(1, 2);
    // The "changed on disk" bar above the text, hidden until the watcher sees a change.
    m_diskBar = new QFrame(this);
    m_diskBar->setObjectName(u"diskChangedBar"_s);
    m_diskBar->setFrameShape(QFrame::StyledPanel);
    m_diskBar->setAutoFillBackground(true);
    {
        QPalette pal = m_diskBar->palette();
        pal.setColor(QPalette::Window, pal.color(QPalette::ToolTipBase));
        pal.setColor(QPalette::WindowText, pal.color(QPalette::ToolTipText));
        m_diskBar->setPalette(pal);
    }
    auto *barLayout = new QHBoxLayout(m_diskBar);
    barLayout->setContentsMargins(8, 4, 8, 4);
    m_diskBarText = new QLabel(m_diskBar);
    m_diskBarText->setWordWrap(true);
    auto *reload = new QPushButton(tr("&Reload"), m_diskBar);
    reload->setObjectName(u"diskReload"_s);
    reload->setToolTip(tr("Show the file as it is on disk now (undo brings your text back)"));
    auto *keep = new QPushButton(tr("&Keep Mine"), m_diskBar);
    keep->setObjectName(u"diskKeepMine"_s);
    keep->setToolTip(tr("Keep your text; saving overwrites the file on disk"));
    barLayout->addWidget(m_diskBarText, 1);
    barLayout->addWidget(reload);
    barLayout->addWidget(keep);
    connect(reload, &QPushButton::clicked, this, &LockEditorWindow::reloadFromDisk);
    connect(keep, &QPushButton::clicked, this, &LockEditorWindow::keepMine);
    m_diskBar->hide();
    m_watcher = new QFileSystemWatcher(this);
    // An atomic save by another program replaces the file (a new inode): watching the folder
    // too sees that, and watchPath() adds the new file again.
    connect(m_watcher, &QFileSystemWatcher::fileChanged, this, &LockEditorWindow::checkDisk);
    connect(m_watcher, &QFileSystemWatcher::directoryChanged, this, &LockEditorWindow::checkDisk);

    auto *textPane = new QWidget(this);
    auto *textLayout = new QVBoxLayout(textPane);
    textLayout->setContentsMargins(0, 0, 0, 0);
    textLayout->setSpacing(2);
    textLayout->addWidget(m_diskBar);
    textLayout->addWidget(m_text, 1);
    auto *right = new QSplitter(Qt::Vertical, this);
    right->addWidget(textPane);
    right->addWidget(m_problems);
    right->setStretchFactor(0, 5);
    right->setStretchFactor(1, 1);
    auto *main = new QSplitter(Qt::Horizontal, this);
    main->addWidget(left);
    main->addWidget(right);
    main->setStretchFactor(0, 1);
    main->setStretchFactor(1, 1);
    main->setSizes({600, 600});
    setCentralWidget(main);

    m_mirrorLabel = new QLabel(tr("No mirror open"), this);
    statusBar()->addPermanentWidget(m_mirrorLabel);
}

void LockEditorWindow::buildActions()
{
    auto make = [this](const QString &name, const QString &text, auto slot, const QKeySequence &key = {}) {
        auto *a = new QAction(text, this);
        a->setObjectName(name);
        if (!key.isEmpty())
            a->setShortcut(key);
        connect(a, &QAction::triggered, this, slot);
        addAction(a);
        return a;
    };
    QMenu *file = menuBar()->addMenu(tr("&File"));
    file->addAction(make(u"actionOpenLock"_s, tr("&Open Lock File…"), &LockEditorWindow::openFileDialog, QKeySequence::Open));
    file->addAction(make(u"actionOpenMirror"_s, tr("Open &Mirror…"), &LockEditorWindow::openMirrorDialog));
    file->addSeparator();
    m_saveAction = make(u"actionSave"_s, tr("&Save"), &LockEditorWindow::save, QKeySequence::Save);
    file->addAction(m_saveAction);
    file->addAction(make(u"actionSaveAs"_s, tr("Save &As…"), &LockEditorWindow::saveAsDialog, QKeySequence::SaveAs));
    file->addSeparator();
    file->addAction(make(u"actionClose"_s, tr("&Close"), &QWidget::close, QKeySequence::Close));

    QMenu *edit = menuBar()->addMenu(tr("&Edit"));
    m_undoAction = make(u"actionUndo"_s, tr("&Undo"), &LockEditorWindow::undo, QKeySequence::Undo);
    m_redoAction = make(u"actionRedo"_s, tr("&Redo"), &LockEditorWindow::redo, QKeySequence::Redo);
    edit->addAction(m_undoAction);
    edit->addAction(m_redoAction);
    edit->addSeparator();
    QAction *add = make(u"actionAddProvider"_s, tr("Add &Provider…"), &LockEditorWindow::addProviderDialog);
    QAction *remove = make(u"actionRemoveProvider"_s, tr("Remove Provider"), &LockEditorWindow::removeSelectedProvider);
    QAction *removeHashes =
        make(u"actionRemoveHashes"_s, tr("Remove Selected &Hashes"), &LockEditorWindow::removeSelectedHashes, QKeySequence::Delete);
    removeHashes->setShortcutContext(Qt::WidgetWithChildrenShortcut);
    m_hashView->addAction(removeHashes);
    edit->addAction(add);
    edit->addAction(remove);
    edit->addAction(removeHashes);
    edit->addSeparator();
    m_addHashesAction = make(u"actionAddHashes"_s, tr("Add Hashes from &Mirror…"), &LockEditorWindow::addHashesDialog);
    m_upgradeAction = make(u"actionUpgrade"_s, tr("&Upgrade Provider within Constraints"), &LockEditorWindow::upgradeSelected);
    m_upgradeAllAction = make(u"actionUpgradeAll"_s, tr("Upgrade &All Providers within Constraints"), &LockEditorWindow::upgradeAll);
    edit->addAction(m_addHashesAction);
    edit->addAction(m_upgradeAction);
    edit->addAction(m_upgradeAllAction);
    m_cancelHashingAction = make(u"actionCancelHashing"_s, tr("&Cancel Hashing"), &LockEditorWindow::cancelHashing);
    m_cancelHashingAction->setEnabled(false);
    edit->addAction(m_cancelHashingAction);
    m_editActions = {add, remove, removeHashes, m_addHashesAction, m_upgradeAction, m_upgradeAllAction};

    QMenu *tools = menuBar()->addMenu(tr("&Tools"));
    tools->addAction(make(u"actionCompareGit"_s, tr("Compare with &Git Revision…"), &LockEditorWindow::compareWithGitDialog));
    tools->addAction(make(u"actionCompareFile"_s, tr("Compare with &File…"), &LockEditorWindow::compareWithFileDialog));
    m_coverageAction = make(u"actionCoverage"_s, tr("&Coverage Matrix…"), &LockEditorWindow::showCoverage);
    tools->addAction(m_coverageAction);
    m_resolveAction = make(u"actionResolveConflicts"_s, tr("&Resolve Conflicts…"), &LockEditorWindow::resolveConflicts);
    tools->addAction(m_resolveAction);

    QToolBar *bar = addToolBar(tr("Lock"));
    bar->setObjectName(u"lockToolBar"_s);
    bar->setToolButtonStyle(Qt::ToolButtonTextOnly);
    bar->addAction(m_saveAction);
    bar->addAction(m_undoAction);
    bar->addAction(m_redoAction);
    bar->addSeparator();
    bar->addAction(m_addHashesAction);
    bar->addAction(m_upgradeAction);
    bar->addAction(m_coverageAction);
}

// --- document state --------------------------------------------------------------------------

bool LockEditorWindow::openFile(const QString &path)
{
    QFile f(path);
    if (!f.open(QIODevice::ReadOnly)) {
        showMessage(tr("Cannot open %1: %2").arg(path, f.errorString()));
        return false;
    }
    const QByteArray bytes = f.readAll();
    m_path = QFileInfo(path).absoluteFilePath();
    m_displayName = QFileInfo(path).fileName();
    m_savedBytes = bytes;
    m_diskBytes = bytes;
    m_diskChangePending = false;
    m_diskBar->hide();
    m_undo->clear();
    applyBytes(bytes, true);
    if (!m_providers->document().providers.isEmpty())
        m_providerView->selectRow(0);
    watchPath();
    showMessage(lockmerge::hasConflictMarkers(bytes)
                    ? tr("%1 has conflict markers: Tools ▸ Resolve Conflicts… merges its sides by meaning").arg(m_path)
                    : tr("Opened %1").arg(m_path));
    return true;
}

LockMergeWindow *LockEditorWindow::resolveConflicts()
{
    const QByteArray bytes = currentBytes();
    if (!lockmerge::hasConflictMarkers(bytes)) {
        showMessage(tr("The text has no conflict markers."));
        return nullptr;
    }
    auto *merge = new LockMergeWindow;
    merge->setAttribute(Qt::WA_DeleteOnClose);
    if (!merge->openConflictedBytes(bytes, m_path)) {
        showMessage(merge->errorText());
        delete merge;
        return nullptr;
    }
    // The saved result comes back into this editor (unless its text changed meanwhile).
    connect(merge, &LockMergeWindow::saved, this, [this, bytes](const QString &path) {
        if (currentBytes() == bytes)
            openFile(path);
    });
    merge->show();
    return merge;
}

// --- the file on disk ------------------------------------------------------------------------

void LockEditorWindow::watchPath()
{
    if (const QStringList files = m_watcher->files(); !files.isEmpty())
        m_watcher->removePaths(files);
    if (const QStringList dirs = m_watcher->directories(); !dirs.isEmpty())
        m_watcher->removePaths(dirs);
    if (m_path.isEmpty())
        return;
    m_watcher->addPath(QFileInfo(m_path).absolutePath());
    if (QFileInfo::exists(m_path))
        m_watcher->addPath(m_path);
}

QByteArray LockEditorWindow::readDisk(bool *exists) const
{
    QFile f(m_path);
    *exists = f.open(QIODevice::ReadOnly);
    return *exists ? f.readAll() : QByteArray();
}

void LockEditorWindow::checkDisk()
{
    if (m_path.isEmpty())
        return;
    if (QFileInfo::exists(m_path) && !m_watcher->files().contains(m_path))
        m_watcher->addPath(m_path); // replaced by a rename: watch the new file
    bool exists = false;
    const QByteArray disk = readDisk(&exists);
    if (exists && disk == m_diskBytes) {
        if (m_diskChangePending) { // changed and changed back
            m_diskChangePending = false;
            m_diskBar->hide();
        }
        return;
    }
    m_diskChangePending = true;
    m_diskBarText->setText(
        exists ? tr("<b>%1 changed on disk</b> since you opened or saved it.").arg(m_displayName.toHtmlEscaped())
               : tr("<b>%1 was deleted on disk.</b> Keep Mine and save to write it again.").arg(m_displayName.toHtmlEscaped()));
    m_diskBar->findChild<QPushButton *>(u"diskReload"_s)->setEnabled(exists);
    m_diskBar->show();
}

void LockEditorWindow::reloadFromDisk()
{
    bool exists = false;
    const QByteArray disk = readDisk(&exists);
    if (!exists)
        return;
    flushTextEdit();
    m_diskBytes = disk;
    m_savedBytes = disk;
    m_diskChangePending = false;
    m_diskBar->hide();
    if (disk != m_bytes)
        pushText(disk, tr("Reload from disk"));
    updateTitle();
    showMessage(tr("Reloaded %1 from disk").arg(m_path));
}

void LockEditorWindow::keepMine()
{
    bool exists = false;
    const QByteArray disk = readDisk(&exists);
    m_diskBytes = disk; // accepted: only a further change shows the bar again
    m_savedBytes = exists ? disk : QByteArray("\x01not on disk");
    m_diskChangePending = false;
    m_diskBar->hide();
    updateTitle();
    setWindowModified(isModified());
    showMessage(tr("Keeping your text; saving overwrites %1").arg(m_path));
}

void LockEditorWindow::openBytes(const QByteArray &bytes, const QString &displayName)
{
    m_path.clear();
    m_displayName = displayName;
    m_savedBytes = QByteArray();
    m_diskBytes = QByteArray();
    m_diskChangePending = false;
    m_diskBar->hide();
    watchPath();
    m_undo->clear();
    applyBytes(bytes, true);
}

QByteArray LockEditorWindow::currentBytes()
{
    flushTextEdit();
    return m_bytes;
}

const LockFile &LockEditorWindow::document() const
{
    return m_parsed->result.document;
}

QList<LockDiagnostic> LockEditorWindow::diagnostics() const
{
    return m_parsed->result.diagnostics;
}

bool LockEditorWindow::hasErrors() const
{
    return m_parsed->result.hasErrors();
}

bool LockEditorWindow::isModified() const
{
    return m_bytes != m_savedBytes || m_debounce->isActive();
}

void LockEditorWindow::applyBytes(const QByteArray &bytes, bool updateEditor)
{
    const ProviderAddress selected = selectedProvider();
    m_bytes = bytes;
    LockParseOptions options;
    options.fileName = m_displayName.isEmpty() ? u".terraform.lock.hcl"_s : m_displayName;
    m_parsed->result = parseLockFile(bytes, options);
    if (updateEditor) {
        m_applying = true;
        const int pos = m_text->textCursor().position();
        const int scroll = m_text->verticalScrollBar()->value();
        m_editorBaseline = editorText(bytes);
        m_text->setPlainText(m_editorBaseline);
        QTextCursor c = m_text->textCursor();
        c.setPosition(qMin(pos, int(m_editorBaseline.size())));
        m_text->setTextCursor(c);
        m_text->verticalScrollBar()->setValue(scroll);
        m_applying = false;
        m_debounce->stop();
    } else {
        m_editorBaseline = m_text->toPlainText();
    }
    m_text->setDiagnostics(m_parsed->result.diagnostics);
    m_providers->setDocument(m_parsed->result.document);
    if (!selected.isNull() && m_providers->rowOf(selected) >= 0)
        m_providerView->selectRow(m_providers->rowOf(selected));
    else if (m_providers->rowCount() > 0)
        m_providerView->selectRow(0);
    updateHashList();
    updateProblems();
    updateTitle();
    m_resolveAction->setEnabled(lockmerge::hasConflictMarkers(bytes));
    updateActions();
    if (m_catalog && wantedKey() != m_provenanceKey)
        refreshProvenance();
    Q_EMIT documentChanged();
}

void LockEditorWindow::pushText(const QByteArray &bytes, const QString &description, bool fromEditor)
{
    if (bytes == m_bytes)
        return;
    m_undo->push(new SetTextCommand(this, m_bytes, bytes, description, fromEditor));
}

void LockEditorWindow::flushTextEdit()
{
    m_debounce->stop();
    const QString now = m_text->toPlainText();
    if (now == m_editorBaseline)
        return;
    pushText(now.toUtf8(), tr("Edit text"), true);
}

bool LockEditorWindow::canEdit()
{
    flushTextEdit();
    if (isBusy()) {
        showMessage(tr("Wait for the running operation to finish."));
        return false;
    }
    if (hasErrors()) {
        showMessage(tr("Fix the errors in the text first (see the problem list)."));
        return false;
    }
    return true;
}

bool LockEditorWindow::applyEdit(const QString &description, const Result<LockFile> &result)
{
    if (!result) {
        showMessage(result.error().message);
        return false;
    }
    const bool dropped = m_parsed->result.document.wouldDropContent();
    m_notes.clear();
    pushText(writeLockFile(result.value()), description);
    showMessage(dropped ? tr("%1 — the text was rewritten in canonical form (comments dropped; Undo restores them)").arg(description)
                        : description);
    updateProblems();
    return true;
}

// --- edit operations -------------------------------------------------------------------------

bool LockEditorWindow::addProvider(const ProviderLock &lock)
{
    if (!canEdit())
        return false;
    return applyEdit(tr("Add provider %1").arg(lock.address.toString()), lockedit::addProvider(document(), lock));
}

bool LockEditorWindow::removeProvider(const ProviderAddress &address)
{
    if (!canEdit())
        return false;
    return applyEdit(tr("Remove provider %1").arg(address.toString()), lockedit::removeProvider(document(), address));
}

bool LockEditorWindow::setVersion(const ProviderAddress &address, const QString &version)
{
    if (!canEdit())
        return false;
    const Result<Version> v = Version::parse(version.trimmed());
    if (!v) {
        showMessage(tr("Invalid version %1: %2").arg(version, v.error().message));
        return false;
    }
    if (!Version::isCanonical(version.trimmed())) {
        // Lock files hold canonical versions only (tofu rejects "1.2").
        showMessage(tr("Write the version in full: %1, not %2").arg(v->toString(), version.trimmed()));
        return false;
    }
    return applyEdit(tr("Set version of %1 to %2 (hashes of the old version dropped)").arg(address.toString(), v->toString()),
                     lockedit::setVersion(document(), address, v.value()));
}

bool LockEditorWindow::setConstraints(const ProviderAddress &address, const QString &constraints)
{
    if (!canEdit())
        return false;
    VersionConstraints c;
    if (!constraints.trimmed().isEmpty()) {
        const Result<VersionConstraints> parsed = VersionConstraints::parse(constraints.trimmed());
        if (!parsed) {
            showMessage(tr("Invalid constraints %1: %2").arg(constraints, parsed.error().message));
            return false;
        }
        c = parsed.value();
    }
    return applyEdit(tr("Set constraints of %1 to %2").arg(address.toString(), c.isEmpty() ? tr("(none)") : c.toString()),
                     lockedit::setConstraints(document(), address, c));
}

bool LockEditorWindow::removeHashes(const ProviderAddress &address, const QList<HashString> &hashes)
{
    if (!canEdit())
        return false;
    if (hashes.isEmpty()) {
        showMessage(tr("No hash selected."));
        return false;
    }
    return applyEdit(tr("Remove %n hash(es) of %1", nullptr, int(hashes.size())).arg(address.toString()),
                     lockedit::removeHashes(document(), address, hashes));
}

bool LockEditorWindow::addHashesFromMirror(const QList<Platform> &platforms, bool includeZh, const QList<ProviderAddress> &providers)
{
    if (!canEdit())
        return false;
    if (!m_catalog) {
        showMessage(tr("Open a mirror first (File ▸ Open Mirror…)."));
        return false;
    }
    if (platforms.isEmpty()) {
        showMessage(tr("Choose at least one platform."));
        return false;
    }
    const QByteArray start = m_bytes;
    lockedit::MirrorHashOptions options;
    options.platforms = platforms;
    options.includeZh = includeZh;
    options.providers = providers;
    QStringList names;
    for (const Platform &p : platforms)
        names << p.toString();
    const QString description = tr("Add hashes for %1 from the mirror").arg(names.join(u", "_s));
    auto *watcher = new QFutureWatcher<MirrorOutcome>(this);
    connect(watcher, &QFutureWatcher<MirrorOutcome>::finished, this, [this, watcher, start, description] {
        const MirrorOutcome out = watcher->result();
        watcher->deleteLater();
        finishHashing();
        if (out.cancelled) {
            showMessage(tr("Cancelled; nothing was added."));
        } else if (m_bytes != start) {
            showMessage(tr("The document changed while hashing; nothing was added."));
        } else if (!out.ok) {
            showMessage(out.error);
        } else {
            if (!applyEdit(description, out.document))
                qCWarning(lcUi) << "add hashes: edit refused";
            m_notes = out.problems;
            updateProblems();
            if (!out.problems.isEmpty())
                showMessage(tr("%1 — %n problem(s), see the problem list", nullptr, int(out.problems.size())).arg(description));
        }
        setBusy(false);
    });
    setBusy(true);
    const std::shared_ptr<SharedHashProgress> progress = startHashing(tr("Hashing the mirror's archives…"));
    const LockFile doc = document();
    const Catalog catalog = *m_catalog;
    watcher->setFuture(QtConcurrent::run([doc, catalog, options, progress]() mutable {
        MirrorOutcome out;
        HashRunOptions hashing; // all cores, the hash cache
        progress->attach(hashing);
        HashRunSummary run;
        options.hasher = prehashArchives(
            [&](const ArchiveHasher &record) {
                lockedit::MirrorHashOptions recording = options;
                recording.hasher = record;
                (void)lockedit::addHashesFromMirror(doc, catalog, recording);
            },
            hashing, &run);
        if (run.cancelled) {
            out.cancelled = true;
            return out;
        }
        const Result<lockedit::MirrorEditResult> r = lockedit::addHashesFromMirror(doc, catalog, options);
        if (!r) {
            out.error = r.error().message;
            return out;
        }
        out.ok = true;
        out.document = r->document;
        for (const lockedit::MirrorHashNote &n : r->notes)
            if (n.isProblem())
                out.problems << describe(n);
        return out;
    }));
    return true;
}

bool LockEditorWindow::applyDocument(const LockFile &doc, const QString &description)
{
    if (!canEdit())
        return false;
    return applyEdit(description, doc);
}

bool LockEditorWindow::upgradeFromMirror(const QList<ProviderAddress> &providers)
{
    if (!canEdit())
        return false;
    if (!m_catalog) {
        showMessage(tr("Open a mirror first (File ▸ Open Mirror…)."));
        return false;
    }
    const QByteArray start = m_bytes;
    lockedit::UpgradeOptions options;
    options.providers = providers;
    options.platforms = PlatformPickerDialog::rememberedPlatforms(u"lock/platforms"_s);
    auto *watcher = new QFutureWatcher<MirrorOutcome>(this);
    connect(watcher, &QFutureWatcher<MirrorOutcome>::finished, this, [this, watcher, start] {
        const MirrorOutcome out = watcher->result();
        watcher->deleteLater();
        finishHashing();
        if (out.cancelled) {
            showMessage(tr("Cancelled; nothing was upgraded."));
        } else if (m_bytes != start) {
            showMessage(tr("The document changed while hashing; nothing was upgraded."));
        } else if (!out.ok) {
            showMessage(out.error);
        } else if (!out.changed) {
            m_notes = out.problems;
            updateProblems();
            showMessage(out.summary);
        } else {
            applyEdit(out.summary, out.document);
            m_notes = out.problems;
            updateProblems();
        }
        setBusy(false);
    });
    setBusy(true);
    const std::shared_ptr<SharedHashProgress> progress = startHashing(tr("Looking for upgrades in the mirror…"));
    const LockFile doc = document();
    const Catalog catalog = *m_catalog;
    watcher->setFuture(QtConcurrent::run([doc, catalog, options, progress]() mutable {
        MirrorOutcome out;
        HashRunOptions hashing; // all cores, the hash cache
        progress->attach(hashing);
        HashRunSummary run;
        options.hasher = prehashArchives(
            [&](const ArchiveHasher &record) {
                lockedit::UpgradeOptions recording = options;
                recording.hasher = record;
                (void)lockedit::upgradeFromMirror(doc, catalog, recording);
            },
            hashing, &run);
        if (run.cancelled) {
            out.cancelled = true;
            return out;
        }
        const Result<lockedit::UpgradeResult> r = lockedit::upgradeFromMirror(doc, catalog, options);
        if (!r) {
            out.error = r.error().message;
            return out;
        }
        out.ok = true;
        out.document = r->document;
        out.changed = r->changed();
        QStringList upgraded;
        for (const lockedit::UpgradeNote &n : r->notes) {
            switch (n.kind) {
            case lockedit::UpgradeNote::Kind::Upgraded:
                upgraded << u"%1 %2 → %3"_s.arg(n.provider.toString(), n.from.toString(), n.to.toString());
                for (const lockedit::MirrorHashNote &h : n.hashNotes)
                    if (h.isProblem())
                        out.problems << describe(h);
                break;
            case lockedit::UpgradeNote::Kind::UpToDate: break;
            case lockedit::UpgradeNote::Kind::NotInMirror:
                out.problems << u"%1: the mirror has no version that meets the constraints"_s.arg(n.provider.toString());
                break;
            }
        }
        out.summary = upgraded.isEmpty() ? QObject::tr("Every provider is up to date with the mirror.")
                                         : QObject::tr("Upgrade %1").arg(upgraded.join(u", "_s));
        return out;
    }));
    return true;
}

// --- mirror ----------------------------------------------------------------------------------

void LockEditorWindow::openMirror(const QString &root)
{
    setBusy(true);
    showMessage(tr("Scanning %1…").arg(root));
    scanMirrorAsync(this, root, [this, root](const Result<Catalog> &c) {
        setBusy(false);
        if (!c) {
            showMessage(tr("Cannot read the mirror %1: %2").arg(root, c.error().message));
            return;
        }
        setCatalog(c.value());
    });
}

void LockEditorWindow::setCatalog(const Catalog &catalog)
{
    m_catalog = catalog;
    m_mirrorLabel->setText(tr("Mirror: %1").arg(catalog.root));
    m_provenanceKey.clear();
    refreshProvenance();
    updateActions();
    Q_EMIT mirrorChanged();
}

QList<Platform> LockEditorWindow::mirrorPlatforms() const
{
    QList<Platform> locked;
    QList<Platform> all;
    if (!m_catalog)
        return {};
    for (const Provider &p : m_catalog->providers) {
        const ProviderLock *lock = document().find(p.address);
        for (const ProviderVersion &v : p.versions)
            for (const Archive &a : v.archives) {
                if (!a.present)
                    continue;
                if (!all.contains(a.platform))
                    all << a.platform;
                if (lock && lock->version == v.version && !locked.contains(a.platform))
                    locked << a.platform;
            }
    }
    QList<Platform> out = locked.isEmpty() ? all : locked;
    std::sort(out.begin(), out.end());
    return out;
}

QList<QByteArray> LockEditorWindow::wantedKey() const
{
    QList<QByteArray> key;
    for (const ProviderLock &p : document().providers)
        key << (p.address.toString() + u' ' + p.version.toString()).toUtf8();
    return key;
}

void LockEditorWindow::refreshProvenance()
{
    if (!m_catalog)
        return;
    const quint64 generation = ++m_provenanceGeneration;
    if (m_provenanceHashing)
        m_provenanceHashing->cancel = true; // superseded
    m_provenanceHashing = std::make_shared<SharedHashProgress>();
    const std::shared_ptr<SharedHashProgress> hashing = m_provenanceHashing;
    m_provenanceKey = wantedKey();
    m_provenanceReady = false;
    const Catalog catalog = *m_catalog;
    const LockFile doc = document();
    auto *watcher = new QFutureWatcher<HashProvenanceIndex>(this);
    connect(watcher, &QFutureWatcher<HashProvenanceIndex>::finished, this, [this, watcher, generation] {
        const HashProvenanceIndex index = watcher->result();
        watcher->deleteLater();
        if (generation != m_provenanceGeneration)
            return; // superseded
        m_providers->setProvenance(index);
        m_provenanceReady = true;
        updateHashList();
        Q_EMIT provenanceChanged();
    });
    watcher->setFuture(QtConcurrent::run([catalog, doc, hashing] {
        HashRunOptions hashOptions; // all cores, the hash cache
        hashing->attach(hashOptions);
        return buildLockProvenance(catalog, HashProvenanceIndex::wantedFor(doc, doc), hashOptions).index;
    }));
}

// --- views -----------------------------------------------------------------------------------

ProviderAddress LockEditorWindow::selectedProvider() const
{
    const QModelIndex current = m_providerView->selectionModel()->currentIndex();
    return current.isValid() ? m_providers->addressAt(current.row()) : ProviderAddress();
}

void LockEditorWindow::selectProvider(const ProviderAddress &address)
{
    const int row = m_providers->rowOf(address);
    if (row >= 0)
        m_providerView->selectRow(row);
}

void LockEditorWindow::updateHashList()
{
    const ProviderAddress address = selectedProvider();
    const ProviderLock *lock = address.isNull() ? nullptr : document().find(address);
    if (lock)
        m_hashes->setProvider(*lock, m_provenanceReady ? m_providers->provenance() : nullptr);
    else
        m_hashes->clear();
    m_hashView->resizeColumnToContents(LockHashListModel::SchemeColumn);
    m_hashView->resizeColumnToContents(LockHashListModel::PlatformColumn);
    m_hashView->setColumnWidth(LockHashListModel::HashColumn, 260);
    updateActions();
}

void LockEditorWindow::updateProblems()
{
    m_problems->clear();
    for (const LockDiagnostic &d : m_parsed->result.diagnostics) {
        auto *item = new QListWidgetItem(
            u"%1:%2: %3: %4%5"_s.arg(d.range.line)
                .arg(d.range.column)
                .arg(d.isError() ? tr("error") : tr("warning"), d.summary, d.detail.isEmpty() ? QString() : u" — "_s + d.detail),
            m_problems);
        item->setForeground(d.isError() ? QColor(0xd7, 0x3a, 0x49) : QColor(0xb0, 0x6a, 0x00));
        item->setData(Qt::UserRole, d.range.line);
        item->setData(Qt::UserRole + 1, d.range.column);
    }
    for (const DroppedContent &d : m_parsed->result.document.dropped) {
        if (d.kind == DroppedContent::Kind::InvalidProvider || d.kind == DroppedContent::Kind::UnknownAttribute
            || d.kind == DroppedContent::Kind::UnknownBlock || d.kind == DroppedContent::Kind::DuplicateProvider)
            continue; // these are errors above
        auto *item = new QListWidgetItem(
            tr("%1:%2: dropped on save: %3 %4").arg(d.range.line).arg(d.range.column).arg(toString(d.kind), d.text.left(80).simplified()),
            m_problems);
        item->setForeground(QColor(0x58, 0x60, 0x69));
        item->setData(Qt::UserRole, d.range.line);
        item->setData(Qt::UserRole + 1, d.range.column);
    }
    for (const QString &n : m_notes) {
        auto *item = new QListWidgetItem(n, m_problems);
        item->setForeground(QColor(0xb0, 0x6a, 0x00));
    }
    if (m_problems->count() == 0)
        new QListWidgetItem(tr("No problems."), m_problems);
}

void LockEditorWindow::updateTitle()
{
    const QString name = m_displayName.isEmpty() ? tr("Untitled lock file") : m_displayName;
    setWindowTitle(
        tr("%1[*] — %2 — Provender Lock Editor").arg(name, m_path.isEmpty() ? tr("not saved") : QFileInfo(m_path).absolutePath()));
    setWindowModified(m_bytes != m_savedBytes);
}

void LockEditorWindow::updateActions()
{
    m_undoAction->setEnabled(m_undo->canUndo() || m_debounce->isActive());
    m_redoAction->setEnabled(m_undo->canRedo());
    m_undoAction->setText(m_undo->canUndo() ? tr("&Undo %1").arg(m_undo->undoText()) : tr("&Undo"));
    m_redoAction->setText(m_undo->canRedo() ? tr("&Redo %1").arg(m_undo->redoText()) : tr("&Redo"));
    const bool editable = !isBusy();
    for (QAction *a : std::as_const(m_editActions))
        a->setEnabled(editable);
    m_addHashesAction->setEnabled(editable && m_catalog.has_value());
    m_upgradeAction->setEnabled(editable && m_catalog.has_value());
    m_upgradeAllAction->setEnabled(editable && m_catalog.has_value());
    m_coverageAction->setEnabled(m_catalog.has_value());
    updateTitle();
}

std::shared_ptr<SharedHashProgress> LockEditorWindow::startHashing(const QString &message)
{
    m_hashProgress = std::make_shared<SharedHashProgress>();
    if (!m_hashTimer) {
        m_hashTimer = new QTimer(this);
        m_hashTimer->setInterval(200);
    }
    m_hashTimer->disconnect(this);
    connect(m_hashTimer, &QTimer::timeout, this, [this, message] {
        if (m_hashProgress && m_hashProgress->total.load() > 0)
            statusBar()->showMessage(tr("%1 %2%").arg(message).arg(m_hashProgress->percent()));
    });
    m_hashTimer->start();
    m_cancelHashingAction->setEnabled(true);
    showMessage(message);
    return m_hashProgress;
}

void LockEditorWindow::finishHashing()
{
    if (m_hashTimer)
        m_hashTimer->stop();
    m_hashProgress.reset();
    m_cancelHashingAction->setEnabled(false);
}

void LockEditorWindow::cancelHashing()
{
    if (m_hashProgress)
        m_hashProgress->cancel = true;
}

void LockEditorWindow::setBusy(bool busy)
{
    m_busy += busy ? 1 : -1;
    updateActions();
    Q_EMIT busyChanged(isBusy());
}

void LockEditorWindow::showMessage(const QString &message)
{
    m_lastMessage = message;
    statusBar()->showMessage(message, 15000);
    qCDebug(lcUi) << "lock editor:" << message;
}

QMessageBox::StandardButton LockEditorWindow::ask(const QString &title, const QString &text, QMessageBox::StandardButtons buttons)
{
    if (m_prompt)
        return m_prompt(title, text, buttons);
    return QMessageBox::warning(this, title, text, buttons);
}

// --- undo, save, close -----------------------------------------------------------------------

void LockEditorWindow::undo()
{
    flushTextEdit();
    m_undo->undo();
}

void LockEditorWindow::redo()
{
    flushTextEdit();
    m_undo->redo();
}

bool LockEditorWindow::save()
{
    if (m_path.isEmpty()) {
        saveAsDialog();
        return !m_path.isEmpty() && !isModified();
    }
    return saveAs(m_path);
}

bool LockEditorWindow::saveAs(const QString &path)
{
    flushTextEdit();
    if (hasErrors()) {
        ask(tr("Cannot Save"), tr("The lock file has errors; tofu/terraform would refuse it. Fix them first (see the problem list)."),
            QMessageBox::Ok);
        return false;
    }
    const LockFile &doc = document();
    if (doc.wouldDropContent()) {
        QStringList lines;
        for (const DroppedContent &d : doc.dropped)
            lines << tr("line %1: %2 %3").arg(d.range.line).arg(toString(d.kind), d.text.left(60).simplified());
        const QMessageBox::StandardButton answer =
            ask(tr("Save in Canonical Form?"),
                tr("Saving writes the canonical form, as tofu/terraform do. It drops:\n\n%1\n\nSave anyway?").arg(lines.join(u'\n')),
                QMessageBox::Save | QMessageBox::Cancel);
        if (answer != QMessageBox::Save && answer != QMessageBox::Yes)
            return false;
    }
    const bool samePath = !m_path.isEmpty() && QFileInfo(path).absoluteFilePath() == m_path;
    if (samePath) {
        checkDisk();
        if (m_diskChangePending) {
            const QMessageBox::StandardButton answer =
                ask(tr("File Changed on Disk"),
                    tr("%1 changed on disk since you opened or saved it. Overwrite it with your version?").arg(m_displayName),
                    QMessageBox::Save | QMessageBox::Cancel);
            if (answer != QMessageBox::Save && answer != QMessageBox::Yes)
                return false;
        }
    }
    const Result<void> r = saveLockFile(doc, path);
    if (!r) {
        ask(tr("Save Failed"), r.error().message, QMessageBox::Ok);
        return false;
    }
    const QByteArray written = writeLockFile(doc);
    m_path = QFileInfo(path).absoluteFilePath();
    m_displayName = QFileInfo(path).fileName();
    m_savedBytes = written;
    m_diskBytes = written;
    m_diskChangePending = false;
    m_diskBar->hide();
    watchPath();
    if (written != m_bytes)
        pushText(written, tr("Save in canonical form"));
    updateTitle();
    showMessage(tr("Saved %1").arg(m_path));
    return true;
}

void LockEditorWindow::closeEvent(QCloseEvent *event)
{
    flushTextEdit();
    if (isModified()) {
        const QMessageBox::StandardButton answer =
            ask(tr("Unsaved Changes"),
                tr("%1 has unsaved changes. Save them?").arg(m_displayName.isEmpty() ? tr("The lock file") : m_displayName),
                QMessageBox::Save | QMessageBox::Discard | QMessageBox::Cancel);
        if (answer == QMessageBox::Cancel || (answer == QMessageBox::Save && !save())) {
            event->ignore();
            return;
        }
    }
    event->accept();
}

// --- dialogs ---------------------------------------------------------------------------------

void LockEditorWindow::openFileDialog()
{
    const QString path = QFileDialog::getOpenFileName(this, tr("Open Lock File"), QFileInfo(m_path).absolutePath(),
                                                      tr("Lock files (*.lock.hcl *.hcl);;All files (*)"));
    if (path.isEmpty())
        return;
    if (m_path.isEmpty() && !isModified()) {
        openFile(path);
        return;
    }
    auto *w = new LockEditorWindow;
    w->setAttribute(Qt::WA_DeleteOnClose);
    if (m_catalog)
        w->setCatalog(*m_catalog);
    w->openFile(path);
    w->show();
}

void LockEditorWindow::openMirrorDialog()
{
    const QString dir = QFileDialog::getExistingDirectory(this, tr("Open Mirror"), m_catalog ? m_catalog->root : QString());
    if (!dir.isEmpty())
        openMirror(dir);
}

void LockEditorWindow::addProviderDialog()
{
    QStringList suggestions;
    if (m_catalog)
        for (const Provider &p : m_catalog->providers)
            suggestions << p.address.toString();
    AddProviderDialog dialog(document().flavour, suggestions, this);
    if (dialog.exec() == QDialog::Accepted)
        addProvider(dialog.providerLock());
}

void LockEditorWindow::removeSelectedProvider()
{
    const ProviderAddress address = selectedProvider();
    if (address.isNull()) {
        showMessage(tr("No provider selected."));
        return;
    }
    removeProvider(address);
}

void LockEditorWindow::removeSelectedHashes()
{
    QList<HashString> hashes;
    const QModelIndexList rows = m_hashView->selectionModel()->selectedRows();
    for (const QModelIndex &i : rows)
        hashes << m_hashes->hashAt(i.row());
    removeHashes(m_hashes->provider().address, hashes);
}

void LockEditorWindow::addHashesDialog()
{
    if (!m_catalog) {
        openMirrorDialog();
        return;
    }
    PlatformPickerDialog dialog(mirrorPlatforms(), u"lock/platforms"_s, true, this);
    if (dialog.exec() == QDialog::Accepted)
        addHashesFromMirror(dialog.checkedPlatforms(), dialog.includeZh());
}

void LockEditorWindow::upgradeSelected()
{
    const ProviderAddress address = selectedProvider();
    if (address.isNull()) {
        showMessage(tr("No provider selected."));
        return;
    }
    upgradeFromMirror({address});
}

void LockEditorWindow::upgradeAll()
{
    upgradeFromMirror({});
}

void LockEditorWindow::saveAsDialog()
{
    const QString path = QFileDialog::getSaveFileName(this, tr("Save Lock File"), m_path.isEmpty() ? u".terraform.lock.hcl"_s : m_path,
                                                      tr("Lock files (*.lock.hcl *.hcl);;All files (*)"));
    if (!path.isEmpty())
        saveAs(path);
}

void LockEditorWindow::compareWithGitDialog()
{
    if (m_path.isEmpty()) {
        showMessage(tr("Save the lock file first: it must be inside a git work tree."));
        return;
    }
    auto *w = new LockDiffWindow;
    w->setAttribute(Qt::WA_DeleteOnClose);
    if (m_catalog)
        w->setCatalog(*m_catalog);
    w->show();
    w->compareWithRevisionDialog(m_path, currentBytes());
}

void LockEditorWindow::compareWithFileDialog()
{
    const QString other = QFileDialog::getOpenFileName(this, tr("Compare with Lock File"), QFileInfo(m_path).absolutePath(),
                                                       tr("Lock files (*.lock.hcl *.hcl);;All files (*)"));
    if (other.isEmpty())
        return;
    QFile f(other);
    if (!f.open(QIODevice::ReadOnly)) {
        showMessage(tr("Cannot open %1: %2").arg(other, f.errorString()));
        return;
    }
    auto *w = new LockDiffWindow;
    w->setAttribute(Qt::WA_DeleteOnClose);
    if (m_catalog)
        w->setCatalog(*m_catalog);
    w->setTexts(f.readAll(), QFileInfo(other).fileName(), currentBytes(), m_displayName.isEmpty() ? tr("(this editor)") : m_displayName);
    w->show();
}

void LockEditorWindow::showCoverage()
{
    if (!m_catalog) {
        showMessage(tr("Open a mirror first (File ▸ Open Mirror…)."));
        return;
    }
    flushTextEdit();
    auto *w = new CoverageMatrixWindow;
    w->setAttribute(Qt::WA_DeleteOnClose);
    w->setInputs(document(), *m_catalog, m_displayName);
    w->show();
}

} // namespace provender::ui

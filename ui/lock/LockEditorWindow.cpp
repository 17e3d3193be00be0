#include "ui/lock/LockEditorWindow.h"

#include "model/core/Logging.h"
#include "model/lockitems/LockHashListModel.h"
#include "model/lockitems/LockProviderTableModel.h"
#include "ui/FormRows.h"
#include "ui/JobTracker.h"
#include "ui/VerdictStyle.h"
#include "ui/lock/HclHighlighter.h"
#include "ui/lock/LockCodeEditor.h"
#include "ui/lock/LockDialogs.h"
#include "ui/lock/LockDiffWindow.h"
#include "ui/lock/LockEditorPanes.h"
#include "ui/lock/LockMergeWindow.h"
#include "ui/lock/MirrorScan.h"

#include <QAction>
#include <QCloseEvent>
#include <QFile>
#include <QFileDialog>
#include <QFileInfo>
#include <QHeaderView>
#include <QLabel>
#include <QMenuBar>
#include <QScrollBar>
#include <QSplitter>
#include <QStatusBar>
#include <QTableView>
#include <QTimer>
#include <QToolBar>
#include <QUndoStack>
#include <QVBoxLayout>

using namespace Qt::StringLiterals;

namespace provender::ui {

namespace {

const QString kEditJob = QStringLiteral("edit");
const QString kScanJob = QStringLiteral("scan");
const QString kProvenanceJob = QStringLiteral("provenance");

QString editorText(const QByteArray &bytes)
{
    QString s = QString::fromUtf8(bytes);
    s.replace(u"\r\n"_s, u"\n"_s);
    return s;
}

} // namespace

LockEditorWindow::LockEditorWindow(QWidget *parent) : QMainWindow(parent), m_doc(new LockDocument(this)), m_jobs(new JobTracker(this))
{
    setAttribute(Qt::WA_DeleteOnClose, false);
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
    connect(m_doc, &LockDocument::textChanged, this, &LockEditorWindow::showText);
    connect(m_doc, &LockDocument::fileStateChanged, this, &LockEditorWindow::updateActions);
    connect(m_doc, &LockDocument::diskStateChanged, this, &LockEditorWindow::showDiskState);
    connect(m_doc, &LockDocument::mirrorChanged, this, [this] {
        m_mirrorLabel->setText(tr("Mirror: %1").arg(m_doc->catalog()->root));
        m_mirrorLabel->setToolTip(QString());
        refreshProvenance();
        updateActions();
        Q_EMIT mirrorChanged();
    });
    connect(m_doc, &LockDocument::provenanceChanged, this, [this] {
        m_providers->setProvenance(*m_doc->provenance());
        updateHashList();
        Q_EMIT provenanceChanged();
    });
    connect(m_jobs, &JobTracker::message, this, &LockEditorWindow::showMessage);
    connect(m_jobs, &JobTracker::started, this, [this](const QString &name, const QString &description) {
        if (name != kProvenanceJob) // a background step of every change: not worth a message
            showMessage(description);
        updateBusy();
    });
    connect(m_jobs, &JobTracker::finished, this, &LockEditorWindow::updateBusy);
    showText(false);
    resize(1200, 760);
}

LockEditorWindow::~LockEditorWindow()
{
    m_jobs->clear(); // workers stop; nothing they deliver arrives
    m_doc->disconnect(this);
}

void LockEditorWindow::buildUi()
{
    const auto table = [this](QTableView *view, QAbstractItemModel *model, const QString &name) {
        view->setObjectName(name);
        view->setModel(model);
        view->setSelectionBehavior(QAbstractItemView::SelectRows);
        view->verticalHeader()->hide();
        view->horizontalHeader()->setStretchLastSection(true);
        view->setWordWrap(false);
    };
    m_providerView = new QTableView(this);
    table(m_providerView, m_providers, u"providerView"_s);
    m_providerView->setSelectionMode(QAbstractItemView::SingleSelection);
    m_providerView->setEditTriggers(QAbstractItemView::DoubleClicked | QAbstractItemView::EditKeyPressed);
    m_providerView->setAlternatingRowColors(true);
    connect(m_providerView->selectionModel(), &QItemSelectionModel::currentRowChanged, this, &LockEditorWindow::updateHashList);

    m_hashView = new QTableView(this);
    table(m_hashView, m_hashes, u"hashView"_s);
    m_hashView->setSelectionMode(QAbstractItemView::ExtendedSelection);
    m_hashView->setEditTriggers(QAbstractItemView::NoEditTriggers);
    m_hashView->setItemDelegateForColumn(LockHashListModel::HashColumn, new HashDelegate(m_hashView));
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

    m_problems = new LockProblemList(this);
    connect(m_problems, &LockProblemList::goToLine, this, [this](int line, int column) {
        m_text->goTo(line, column);
        m_text->setFocus();
    });

    auto *left = new QSplitter(Qt::Vertical, this);
    left->addWidget(m_providerView);
    left->addWidget(m_hashView);
    left->setStretchFactor(0, 3);
    left->setStretchFactor(1, 2);
    auto *textPane = new QWidget(this);
    auto *textLayout = new QVBoxLayout(textPane);
    textLayout->setContentsMargins(0, 0, 0, 0);
    textLayout->setSpacing(2);
    m_diskBar = new DiskChangedBar(this);
    connect(m_diskBar, &DiskChangedBar::reloadClicked, this, &LockEditorWindow::reloadFromDisk);
    connect(m_diskBar, &DiskChangedBar::keepMineClicked, this, &LockEditorWindow::keepMine);
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

    // The status bar: messages, the running job's progress and Cancel, the mirror.
    addJobStatus(statusBar(), m_jobs);
    m_mirrorLabel = new QLabel(tr("No mirror open"), this);
    m_mirrorLabel->setObjectName(u"mirrorLabel"_s);
    statusBar()->addPermanentWidget(m_mirrorLabel);
}

void LockEditorWindow::buildActions()
{
    QMenu *menu = nullptr;
    auto make = [this, &menu](const QString &name, const QString &text, auto slot, const QKeySequence &key = {}) {
        auto *a = new QAction(text, this);
        a->setObjectName(name);
        if (!key.isEmpty())
            a->setShortcut(key);
        connect(a, &QAction::triggered, this, slot);
        addAction(a);
        menu->addAction(a);
        return a;
    };
    menu = menuBar()->addMenu(tr("&File"));
    make(u"actionOpenLock"_s, tr("&Open Lock File…"), &LockEditorWindow::openFileDialog, QKeySequence::Open);
    make(u"actionOpenMirror"_s, tr("Open &Mirror…"), &LockEditorWindow::openMirrorDialog);
    menu->addSeparator();
    m_saveAction = make(u"actionSave"_s, tr("&Save"), &LockEditorWindow::save, QKeySequence::Save);
    make(u"actionSaveAs"_s, tr("Save &As…"), &LockEditorWindow::saveAsDialog, QKeySequence::SaveAs);
    menu->addSeparator();
    make(u"actionClose"_s, tr("&Close"), &QWidget::close, QKeySequence::Close);

    menu = menuBar()->addMenu(tr("&Edit"));
    m_undoAction = make(u"actionUndo"_s, tr("&Undo"), &LockEditorWindow::undo, QKeySequence::Undo);
    m_redoAction = make(u"actionRedo"_s, tr("&Redo"), &LockEditorWindow::redo, QKeySequence::Redo);
    menu->addSeparator();
    QAction *add = make(u"actionAddProvider"_s, tr("Add &Provider…"), &LockEditorWindow::addProviderDialog);
    QAction *remove = make(u"actionRemoveProvider"_s, tr("Remove Provider"), &LockEditorWindow::removeSelectedProvider);
    QAction *removeHashes =
        make(u"actionRemoveHashes"_s, tr("Remove Selected &Hashes"), &LockEditorWindow::removeSelectedHashes, QKeySequence::Delete);
    removeHashes->setShortcutContext(Qt::WidgetWithChildrenShortcut);
    m_hashView->addAction(removeHashes);
    menu->addSeparator();
    QAction *addHashes = make(u"actionAddHashes"_s, tr("Add Hashes from &Mirror…"), &LockEditorWindow::addHashesDialog);
    QAction *upgrade = make(u"actionUpgrade"_s, tr("&Upgrade Provider within Constraints"), &LockEditorWindow::upgradeSelected);
    QAction *upgradeAll = make(u"actionUpgradeAll"_s, tr("Upgrade &All Providers within Constraints"), &LockEditorWindow::upgradeAll);
    m_cancelHashingAction = make(u"actionCancelHashing"_s, tr("&Cancel Hashing"), &LockEditorWindow::cancelHashing);
    m_cancelHashingAction->setEnabled(false);
    m_editActions = {add, remove, removeHashes};
    m_mirrorActions = {addHashes, upgrade, upgradeAll};

    menu = menuBar()->addMenu(tr("&Tools"));
    make(u"actionCompareGit"_s, tr("Compare with &Git Revision…"), &LockEditorWindow::compareWithGitDialog);
    make(u"actionCompareFile"_s, tr("Compare with &File…"), &LockEditorWindow::compareWithFileDialog);
    m_coverageAction = make(u"actionCoverage"_s, tr("&Coverage Matrix…"), &LockEditorWindow::showCoverage);
    m_resolveAction = make(u"actionResolveConflicts"_s, tr("&Resolve Conflicts…"), &LockEditorWindow::resolveConflicts);

    QToolBar *bar = addToolBar(tr("Lock"));
    bar->setObjectName(u"lockToolBar"_s);
    bar->setToolButtonStyle(Qt::ToolButtonTextOnly);
    bar->addActions({m_saveAction, m_undoAction, m_redoAction});
    bar->addSeparator();
    bar->addActions({addHashes, upgrade, m_coverageAction});
}

// --- the document's text in the views ----------------------------------------------------------

bool LockEditorWindow::openFile(const QString &path)
{
    if (const Result<void> r = m_doc->open(path); !r) {
        showMessage(r.error().message);
        return false;
    }
    if (!document().providers.isEmpty())
        m_providerView->selectRow(0);
    showMessage(m_doc->hasConflictMarkers()
                    ? tr("%1 has conflict markers: Tools ▸ Resolve Conflicts… merges its sides by meaning").arg(m_doc->path())
                    : tr("Opened %1").arg(m_doc->path()));
    return true;
}

void LockEditorWindow::openBytes(const QByteArray &bytes, const QString &displayName)
{
    m_doc->openBytes(bytes, displayName);
}

QByteArray LockEditorWindow::currentBytes()
{
    flushTextEdit();
    return m_doc->bytes();
}

bool LockEditorWindow::isModified() const
{
    return m_doc->isModified() || m_debounce->isActive();
}

void LockEditorWindow::showText(bool typed)
{
    const ProviderAddress selected = selectedProvider();
    if (!typed) {
        m_applying = true;
        const int pos = m_text->textCursor().position();
        const int scroll = m_text->verticalScrollBar()->value();
        m_editorBaseline = editorText(m_doc->bytes());
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
    m_text->setDiagnostics(m_doc->parsed().diagnostics);
    m_providers->setDocument(document());
    if (!selected.isNull() && m_providers->rowOf(selected) >= 0)
        m_providerView->selectRow(m_providers->rowOf(selected));
    else if (m_providers->rowCount() > 0)
        m_providerView->selectRow(0);
    updateHashList();
    updateProblems();
    m_resolveAction->setEnabled(m_doc->hasConflictMarkers());
    updateActions();
    refreshProvenance();
    Q_EMIT documentChanged();
}

void LockEditorWindow::flushTextEdit()
{
    m_debounce->stop();
    const QString now = m_text->toPlainText();
    if (now != m_editorBaseline)
        m_doc->setText(now.toUtf8(), tr("Edit text"), true);
}

void LockEditorWindow::showDiskState()
{
    m_diskBar->showState(m_doc->diskChangePending(), m_doc->diskFileExists(), m_doc->displayName());
}

void LockEditorWindow::reloadFromDisk()
{
    flushTextEdit();
    report(m_doc->reloadFromDisk());
}

void LockEditorWindow::keepMine()
{
    m_doc->keepMine();
    showMessage(tr("Keeping your text; saving overwrites %1").arg(m_doc->path()));
}

LockMergeWindow *LockEditorWindow::resolveConflicts()
{
    const QByteArray bytes = currentBytes();
    if (!m_doc->hasConflictMarkers()) {
        showMessage(tr("The text has no conflict markers."));
        return nullptr;
    }
    auto *merge = new LockMergeWindow;
    merge->setAttribute(Qt::WA_DeleteOnClose);
    if (!merge->openConflictedBytes(bytes, m_doc->path())) {
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

// --- edits ---------------------------------------------------------------------------------------

bool LockEditorWindow::report(const Result<QString> &result)
{
    showMessage(result ? result.value() : result.error().message);
    updateProblems();
    return result.ok();
}

bool LockEditorWindow::canEdit()
{
    flushTextEdit();
    if (isBusy()) {
        showMessage(tr("Wait for the running operation to finish."));
        return false;
    }
    return true;
}

bool LockEditorWindow::addProvider(const ProviderLock &lock)
{
    return canEdit() && report(m_doc->addProvider(lock));
}

bool LockEditorWindow::removeProvider(const ProviderAddress &address)
{
    return canEdit() && report(m_doc->removeProvider(address));
}

bool LockEditorWindow::setVersion(const ProviderAddress &address, const QString &version)
{
    return canEdit() && report(m_doc->setVersion(address, version));
}

bool LockEditorWindow::setConstraints(const ProviderAddress &address, const QString &constraints)
{
    return canEdit() && report(m_doc->setConstraints(address, constraints));
}

bool LockEditorWindow::removeHashes(const ProviderAddress &address, const QList<HashString> &hashes)
{
    return canEdit() && report(m_doc->removeHashes(address, hashes));
}

bool LockEditorWindow::applyDocument(const LockFile &doc, const QString &description)
{
    return canEdit() && report(m_doc->applyDocument(doc, description));
}

bool LockEditorWindow::addHashesFromMirror(const QList<Platform> &platforms, bool includeZh, const QList<ProviderAddress> &providers)
{
    return canEdit() && runMirrorTask(m_doc->addHashesTask(platforms, includeZh, providers), tr("Hashing the mirror's archives…"));
}

bool LockEditorWindow::upgradeFromMirror(const QList<ProviderAddress> &providers)
{
    return canEdit()
        && runMirrorTask(m_doc->upgradeTask(providers, PlatformPickerDialog::rememberedPlatforms(u"lock/platforms"_s)),
                         tr("Looking for upgrades in the mirror…"));
}

bool LockEditorWindow::runMirrorTask(const Result<LockMirrorTask> &task, const QString &message)
{
    if (!task) {
        showMessage(task.error().message);
        return false;
    }
    m_editJob = m_jobs->run(
        kEditJob, message, [task = task.value()](JobProgress &progress) { return task.run(progress); },
        [this](LockMirrorOutcome outcome) {
            outcome.cancelled = outcome.cancelled || m_editJob->isCancelled(); // even when it had finished
            m_editJob.reset();
            report(m_doc->applyMirrorOutcome(outcome));
        });
    return true;
}

void LockEditorWindow::cancelHashing()
{
    m_jobs->cancel(kEditJob);
}

bool LockEditorWindow::isBusy() const
{
    return m_jobs->isRunning(kEditJob) || m_jobs->isRunning(kScanJob);
}

void LockEditorWindow::updateBusy()
{
    const bool busy = isBusy();
    m_cancelHashingAction->setEnabled(m_jobs->isRunning(kEditJob));
    if (busy == m_busy)
        return;
    m_busy = busy;
    updateActions();
    Q_EMIT busyChanged(busy);
}

// --- the mirror --------------------------------------------------------------------------------

void LockEditorWindow::refreshProvenance()
{
    std::optional<LockProvenanceTask> task = m_doc->provenanceTask();
    if (!task)
        return;
    m_provenanceJob = m_jobs->run(
        kProvenanceJob, tr("Tracing the lock's hashes to the mirror…"),
        [task = *task](JobProgress &progress) { return task.run(progress); },
        [this, task = *task, shownBefore = m_messageCount](Result<LockTrace> trace) {
            if (std::exchange(m_provenanceJob, nullptr)->isCancelled())
                return;
            // The warnings stay on the mirror label (count, and each in its tooltip); the status
            // line says the first unless another line was shown since the trace started.
            const QStringList warnings = trace ? trace->warnings : QStringList();
            const QString mirror = m_doc->catalog() ? tr("Mirror: %1").arg(m_doc->catalog()->root) : tr("No mirror open");
            m_mirrorLabel->setText(warnings.isEmpty() ? mirror
                                                      : tr("%1 — %n hash trace warning(s)", nullptr, int(warnings.size())).arg(mirror));
            m_mirrorLabel->setToolTip(warnings.join(u'\n'));
            if (!trace)
                showMessage(tr("%1; the platforms of the hashes stay unknown").arg(trace.error().message));
            else if (!warnings.isEmpty() && m_messageCount == shownBefore)
                showMessage(trace->warningLine());
            m_doc->setProvenance(task, trace ? std::move(trace).value().index : HashProvenanceIndex());
        });
}

// --- views -------------------------------------------------------------------------------------

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
        m_hashes->setProvider(*lock, m_doc->provenance() ? m_providers->provenance() : nullptr);
    else
        m_hashes->clear();
    m_hashView->resizeColumnToContents(LockHashListModel::SchemeColumn);
    m_hashView->resizeColumnToContents(LockHashListModel::PlatformColumn);
    m_hashView->setColumnWidth(LockHashListModel::HashColumn, 260);
    updateActions();
}

void LockEditorWindow::updateProblems()
{
    m_problems->showProblems(m_doc->parsed(), m_doc->notes());
}

void LockEditorWindow::updateTitle()
{
    const QString name = m_doc->displayName().isEmpty() ? tr("Untitled lock file") : m_doc->displayName();
    const QString where = m_doc->path().isEmpty() ? tr("not saved") : QFileInfo(m_doc->path()).absolutePath();
    setWindowTitle(tr("%1[*] — %2 — Provender Lock Editor").arg(name, where));
    setWindowModified(m_doc->isModified());
}

void LockEditorWindow::updateActions()
{
    const QUndoStack *undo = m_doc->undoStack();
    m_undoAction->setEnabled(undo->canUndo() || m_debounce->isActive());
    m_redoAction->setEnabled(undo->canRedo());
    m_undoAction->setText(undo->canUndo() ? tr("&Undo %1").arg(undo->undoText()) : tr("&Undo"));
    m_redoAction->setText(undo->canRedo() ? tr("&Redo %1").arg(undo->redoText()) : tr("&Redo"));
    const bool editable = !isBusy();
    for (QAction *a : std::as_const(m_editActions))
        a->setEnabled(editable);
    for (QAction *a : std::as_const(m_mirrorActions))
        a->setEnabled(editable && hasMirror());
    m_coverageAction->setEnabled(hasMirror());
    updateTitle();
}

void LockEditorWindow::showMessage(const QString &message)
{
    m_lastMessage = message;
    ++m_messageCount;
    statusBar()->showMessage(message, 15000);
    qCDebug(lcUi) << "lock editor:" << message;
}

QMessageBox::StandardButton LockEditorWindow::ask(const QString &title, const QString &text, QMessageBox::StandardButtons buttons)
{
    if (m_prompt)
        return m_prompt(title, text, buttons);
    return QMessageBox::warning(this, title, text, buttons);
}

bool LockEditorWindow::confirm(const QString &title, const QString &text)
{
    const QMessageBox::StandardButton answer = ask(title, text, QMessageBox::Save | QMessageBox::Cancel);
    return answer == QMessageBox::Save || answer == QMessageBox::Yes;
}

// --- undo, save, close -------------------------------------------------------------------------

void LockEditorWindow::undo()
{
    flushTextEdit();
    m_doc->undoStack()->undo();
}

void LockEditorWindow::redo()
{
    flushTextEdit();
    m_doc->undoStack()->redo();
}

bool LockEditorWindow::save()
{
    if (m_doc->path().isEmpty()) {
        saveAsDialog();
        return !m_doc->path().isEmpty() && !isModified();
    }
    return saveAs(m_doc->path());
}

bool LockEditorWindow::saveAs(const QString &path)
{
    flushTextEdit();
    if (hasErrors()) {
        ask(tr("Cannot Save"), tr("The lock file has errors; tofu/terraform would refuse it. Fix them first (see the problem list)."),
            QMessageBox::Ok);
        return false;
    }
    if (document().wouldDropContent()) {
        QStringList lines;
        for (const DroppedContent &d : document().dropped)
            lines << tr("line %1: %2 %3").arg(d.range.line).arg(toString(d.kind), d.text.left(60).simplified());
        if (!confirm(tr("Save in Canonical Form?"),
                     tr("Saving writes the canonical form, as tofu/terraform do. It drops:\n\n%1\n\nSave anyway?").arg(lines.join(u'\n'))))
            return false;
    }
    if (!m_doc->path().isEmpty() && QFileInfo(path).absoluteFilePath() == m_doc->path()) {
        m_doc->checkDisk();
        if (m_doc->diskChangePending()
            && !confirm(tr("File Changed on Disk"),
                        tr("%1 changed on disk since you opened or saved it. Overwrite it with your version?").arg(m_doc->displayName())))
            return false;
    }
    if (const Result<void> r = m_doc->saveAs(path); !r) {
        ask(tr("Save Failed"), r.error().message, QMessageBox::Ok);
        return false;
    }
    showMessage(tr("Saved %1").arg(m_doc->path()));
    return true;
}

void LockEditorWindow::closeEvent(QCloseEvent *event)
{
    flushTextEdit();
    if (isModified()) {
        const QString name = m_doc->displayName().isEmpty() ? tr("The lock file") : m_doc->displayName();
        const QMessageBox::StandardButton answer = ask(tr("Unsaved Changes"), tr("%1 has unsaved changes. Save them?").arg(name),
                                                       QMessageBox::Save | QMessageBox::Discard | QMessageBox::Cancel);
        if (answer == QMessageBox::Cancel || (answer == QMessageBox::Save && !save())) {
            event->ignore();
            return;
        }
    }
    event->accept();
}

// --- dialogs -----------------------------------------------------------------------------------

template<typename Window> Window *LockEditorWindow::openWithCatalog()
{
    auto *w = new Window;
    w->setAttribute(Qt::WA_DeleteOnClose);
    if (const LockMirror *m = m_doc->mirror())
        w->setMirror(*m);
    return w;
}

void LockEditorWindow::openFileDialog()
{
    const QString path =
        QFileDialog::getOpenFileName(this, tr("Open Lock File"), QFileInfo(m_doc->path()).absolutePath(), lockFileFilter());
    if (path.isEmpty())
        return;
    if (m_doc->path().isEmpty() && !isModified()) {
        openFile(path);
        return;
    }
    auto *w = openWithCatalog<LockEditorWindow>();
    w->openFile(path);
    w->show();
}

void LockEditorWindow::addProviderDialog()
{
    QStringList suggestions;
    if (const Catalog *c = catalog())
        for (const Provider &p : c->providers)
            suggestions << p.address.toString();
    AddProviderDialog dialog(document().flavour, suggestions, this);
    if (dialog.exec() == QDialog::Accepted)
        addProvider(dialog.providerLock());
}

void LockEditorWindow::removeSelectedProvider()
{
    const ProviderAddress address = selectedProvider();
    if (address.isNull())
        showMessage(tr("No provider selected."));
    else
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
    if (!hasMirror()) {
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
    if (address.isNull())
        showMessage(tr("No provider selected."));
    else
        upgradeFromMirror({address});
}

void LockEditorWindow::upgradeAll()
{
    upgradeFromMirror({});
}

void LockEditorWindow::saveAsDialog()
{
    const QString path = QFileDialog::getSaveFileName(this, tr("Save Lock File"),
                                                      m_doc->path().isEmpty() ? u".terraform.lock.hcl"_s : m_doc->path(), lockFileFilter());
    if (!path.isEmpty())
        saveAs(path);
}

void LockEditorWindow::compareWithGitDialog()
{
    if (m_doc->path().isEmpty()) {
        showMessage(tr("Save the lock file first: it must be inside a git work tree."));
        return;
    }
    auto *w = openWithCatalog<LockDiffWindow>();
    w->show();
    w->compareWithRevisionDialog(m_doc->path(), currentBytes());
}

void LockEditorWindow::compareWithFileDialog()
{
    const QString other =
        QFileDialog::getOpenFileName(this, tr("Compare with Lock File"), QFileInfo(m_doc->path()).absolutePath(), lockFileFilter());
    if (other.isEmpty())
        return;
    QFile f(other);
    if (!f.open(QIODevice::ReadOnly)) {
        showMessage(tr("Cannot open %1: %2").arg(other, f.errorString()));
        return;
    }
    auto *w = openWithCatalog<LockDiffWindow>();
    const QString name = m_doc->displayName().isEmpty() ? tr("(this editor)") : m_doc->displayName();
    w->setTexts(f.readAll(), QFileInfo(other).fileName(), currentBytes(), name);
    w->show();
}

} // namespace provender::ui

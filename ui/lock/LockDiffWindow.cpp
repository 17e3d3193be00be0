#include "ui/lock/LockDiffWindow.h"
#include "ui/lock/MirrorScan.h"

#include "model/core/Logging.h"
#include "model/lockitems/GitRevision.h"
#include "model/lockitems/LockDiffTreeModel.h"
#include "model/lockitems/LockDocument.h"
#include "ui/FormRows.h"
#include "ui/JobTracker.h"
#include "ui/lock/HclHighlighter.h"
#include "ui/lock/LockCodeEditor.h"
#include "ui/lock/LockDialogs.h"

#include <QDragEnterEvent>
#include <QDropEvent>
#include <QFile>
#include <QFileDialog>
#include <QFileInfo>
#include <QHeaderView>
#include <QInputDialog>
#include <QLabel>
#include <QMenuBar>
#include <QMessageBox>
#include <QMimeData>
#include <QScrollBar>
#include <QSplitter>
#include <QStatusBar>
#include <QTreeView>
#include <QVBoxLayout>

using namespace Qt::StringLiterals;

namespace provender::ui {

namespace {

const QColor kRemovedBg(0xff, 0xdc, 0xe0);
const QColor kAddedBg(0xcd, 0xff, 0xd8);
const QColor kFillerBg(0xee, 0xef, 0xf2);

QWidget *sidePane(QLabel *label, LockCodeEditor *editor, QWidget *parent)
{
    auto *w = new QWidget(parent);
    auto *l = new QVBoxLayout(w);
    l->setContentsMargins(0, 0, 0, 0);
    l->setSpacing(2);
    label->setTextInteractionFlags(Qt::TextSelectableByMouse);
    label->setStyleSheet(u"font-weight: bold; padding: 2px 4px;"_s);
    l->addWidget(label);
    l->addWidget(editor);
    return w;
}

} // namespace

LockDiffWindow::LockDiffWindow(QWidget *parent) : QMainWindow(parent)
{
    setWindowTitle(tr("Compare Lock Files — Provender"));
    setAcceptDrops(true);
    m_model = new LockDiffTreeModel(this);

    m_tree = new QTreeView(this);
    m_tree->setObjectName(u"semanticView"_s);
    m_tree->setModel(m_model);
    m_tree->setUniformRowHeights(true);
    m_tree->header()->setStretchLastSection(true);
    m_tree->header()->resizeSection(0, 300);
    m_tree->setTextElideMode(Qt::ElideMiddle);
    m_tree->setAlternatingRowColors(true);
    connect(m_tree->selectionModel(), &QItemSelectionModel::currentChanged, this,
            [this](const QModelIndex &current) { showRow(rowForItem(current)); });

    m_summary = new QLabel(this);
    m_summary->setObjectName(u"summaryLabel"_s);
    m_summary->setWordWrap(true);
    m_summary->setStyleSheet(u"padding: 4px;"_s);

    m_leftLabel = new QLabel(this);
    m_leftLabel->setObjectName(u"leftLabel"_s);
    m_rightLabel = new QLabel(this);
    m_rightLabel->setObjectName(u"rightLabel"_s);
    m_left = new LockCodeEditor(this);
    m_left->setObjectName(u"leftText"_s);
    m_left->setReadOnly(true);
    m_right = new LockCodeEditor(this);
    m_right->setObjectName(u"rightText"_s);
    m_right->setReadOnly(true);
    new HclHighlighter(m_left->document());
    new HclHighlighter(m_right->document());

    // Both sides have the same number of rows: scroll them together.
    auto sync = [this](QScrollBar *from, QScrollBar *to) {
        connect(from, &QScrollBar::valueChanged, this, [this, to](int v) {
            if (m_syncing)
                return;
            m_syncing = true;
            to->setValue(v);
            m_syncing = false;
        });
    };
    sync(m_left->verticalScrollBar(), m_right->verticalScrollBar());
    sync(m_right->verticalScrollBar(), m_left->verticalScrollBar());
    sync(m_left->horizontalScrollBar(), m_right->horizontalScrollBar());
    sync(m_right->horizontalScrollBar(), m_left->horizontalScrollBar());

    auto *leftColumn = new QWidget(this);
    auto *lc = new QVBoxLayout(leftColumn);
    lc->setContentsMargins(0, 0, 0, 0);
    lc->addWidget(m_summary);
    lc->addWidget(m_tree);

    auto *texts = new QSplitter(Qt::Horizontal, this);
    texts->addWidget(sidePane(m_leftLabel, m_left, texts));
    texts->addWidget(sidePane(m_rightLabel, m_right, texts));
    auto *main = new QSplitter(Qt::Horizontal, this);
    main->addWidget(leftColumn);
    main->addWidget(texts);
    main->setStretchFactor(0, 2);
    main->setStretchFactor(1, 5);
    main->setSizes({560, 940});
    setCentralWidget(main);

    QMenu *file = menuBar()->addMenu(tr("&File"));
    QAction *open = file->addAction(tr("&Compare Lock Files…"), this, &LockDiffWindow::openFilesDialog);
    open->setShortcut(QKeySequence::Open);
    QAction *git = file->addAction(tr("Compare with &Git Revision…"), this, [this] {
        const QString path = m_rightPath.isEmpty()
            ? QFileDialog::getOpenFileName(this, tr("Lock File in a Git Work Tree"), QString(), lockFileFilter())
            : m_rightPath;
        if (!path.isEmpty())
            compareWithRevisionDialog(path);
    });
    git->setObjectName(u"actionCompareGit"_s);
    file->addAction(tr("Open &Mirror…"), this, &LockDiffWindow::openMirrorDialog)->setObjectName(u"actionOpenMirror"_s);
    file->addSeparator();
    file->addAction(tr("&Close"), QKeySequence::Close, this, &QWidget::close);
    m_jobs = new JobTracker(this);
    m_mirrorLabel = new QLabel(tr("No mirror open"), this);
    m_mirrorLabel->setObjectName(u"mirrorLabel"_s);
    statusBar()->addPermanentWidget(m_mirrorLabel);
    addJobStatus(statusBar(), m_jobs);
    connect(m_jobs, &JobTracker::message, this, [this](const QString &text) { statusBar()->showMessage(text); });
    statusBar()->showMessage(tr("Drop one or two lock files here to compare them."));
    resize(1400, 800);
    setTexts({}, tr("(none)"), {}, tr("(none)"));
}

LockDiffWindow::~LockDiffWindow()
{
    m_jobs->clear(); // the provenance worker stops; its result is dropped
}

void LockDiffWindow::setTexts(const QByteArray &left, const QString &leftLabel, const QByteArray &right, const QString &rightLabel)
{
    m_leftBytes = left;
    m_rightBytes = right;
    m_leftLabelText = leftLabel;
    m_rightLabelText = rightLabel;
    m_error.clear();
    m_provenance.reset();
    m_provenanceReady = false;
    recompute();
    if (m_mirror)
        refreshProvenance();
}

bool LockDiffWindow::openFiles(const QString &left, const QString &right)
{
    QFile a(left);
    QFile b(right);
    if (!a.open(QIODevice::ReadOnly)) {
        showError(tr("Cannot open %1: %2").arg(left, a.errorString()));
        return false;
    }
    if (!b.open(QIODevice::ReadOnly)) {
        showError(tr("Cannot open %1: %2").arg(right, b.errorString()));
        return false;
    }
    m_leftPath = QFileInfo(left).absoluteFilePath();
    m_rightPath = QFileInfo(right).absoluteFilePath();
    setTexts(a.readAll(), left, b.readAll(), right);
    return true;
}

bool LockDiffWindow::compareWithRevision(const QString &path, const QString &revision, const QByteArray &workingBytes)
{
    const Result<git::RevisionFile> old = git::readFileAtRevision(path, revision);
    if (!old) {
        showError(old.error().message);
        return false;
    }
    QByteArray now = workingBytes;
    if (now.isNull()) {
        QFile f(path);
        if (!f.open(QIODevice::ReadOnly)) {
            showError(tr("Cannot open %1: %2").arg(path, f.errorString()));
            return false;
        }
        now = f.readAll();
    }
    m_leftPath.clear();
    m_rightPath = QFileInfo(path).absoluteFilePath();
    setTexts(old->bytes, tr("%1 at %2 (%3 %4)").arg(old->repoPath, revision, old->commitId.left(10), old->summary), now,
             tr("%1 (work tree)").arg(old->repoPath));
    return true;
}

void LockDiffWindow::compareWithRevisionDialog(const QString &path, const QByteArray &workingBytes)
{
    const Result<QStringList> revisions = git::listRevisions(path);
    if (!revisions) {
        showError(revisions.error().message);
        return;
    }
    bool ok = false;
    const QString revision = QInputDialog::getItem(this, tr("Compare with Git Revision"), tr("Revision (branch, tag, commit, HEAD~1, …):"),
                                                   revisions.value(), 0, true, &ok);
    if (ok && !revision.trimmed().isEmpty())
        compareWithRevision(path, revision.trimmed(), workingBytes);
}

void LockDiffWindow::openFilesDialog()
{
    const QString filter = lockFileFilter();
    const QString a = QFileDialog::getOpenFileName(this, tr("Old Lock File"), QString(), filter);
    if (a.isEmpty())
        return;
    const QString b = QFileDialog::getOpenFileName(this, tr("New Lock File"), QFileInfo(a).absolutePath(), filter);
    if (!b.isEmpty())
        openFiles(a, b);
}

void LockDiffWindow::setCatalog(const Catalog &catalog)
{
    setMirror(LockMirror::directory(catalog.root, catalog));
}

void LockDiffWindow::setMirror(const LockMirror &mirror, const QString &warning)
{
    m_mirror = mirror;
    m_mirrorWarning = warning;
    m_traceError.clear();
    m_mirrorLabel->setText(tr("Mirror: %1").arg(mirror.catalog.root));
    refreshProvenance();
}

void LockDiffWindow::openMirror(const QString &location, const HttpSettings &http)
{
    openMirrorAsync(
        m_jobs, location, provenanceVersions(HashProvenanceIndex::wantedFor(m_leftParsed.document, m_rightParsed.document)),
        [this](const LockMirror &mirror, const QString &warning) { setMirror(mirror, warning); },
        [this](const QString &message) { statusBar()->showMessage(message); }, http);
}

void LockDiffWindow::openMirrorDialog()
{
    const LockMirrorLocation chosen = MirrorLocationDialog::ask(this, m_mirror ? &*m_mirror : nullptr);
    if (!chosen.location.isEmpty())
        openMirror(chosen.location, chosen.http);
}

void LockDiffWindow::refreshProvenance()
{
    if (!m_mirror)
        return;
    LockProvenanceTask task;
    task.mirror = std::make_shared<const LockMirror>(*m_mirror);
    task.wanted = HashProvenanceIndex::wantedFor(m_leftParsed.document, m_rightParsed.document);
    // A trace still running is superseded (new texts or a new mirror): cancelled, result dropped.
    m_provenanceJob = m_jobs->run(
        u"provenance"_s, tr("Tracing the hashes to the mirror…"), [task](JobProgress &progress) { return task.run(progress); },
        [this](const Result<LockTrace> &trace) {
            if (std::exchange(m_provenanceJob, nullptr)->isCancelled())
                return;
            m_traceError = trace ? trace->warningLine() : tr("%1; the platforms of the hashes stay unknown").arg(trace.error().message);
            m_provenance = trace ? trace->index : HashProvenanceIndex();
            m_provenanceReady = true;
            recompute();
            Q_EMIT provenanceChanged();
        });
}

QString LockDiffWindow::summaryText() const
{
    if (!m_error.isEmpty())
        return m_error;
    QStringList parts;
    const std::pair<ProviderDiff::Change, QString> kinds[] = {
        {ProviderDiff::Change::Added, tr("added")},       {ProviderDiff::Change::Removed, tr("removed")},
        {ProviderDiff::Change::Upgraded, tr("upgraded")}, {ProviderDiff::Change::Downgraded, tr("downgraded")},
        {ProviderDiff::Change::Changed, tr("changed")},
    };
    for (const auto &[change, name] : kinds)
        if (const int n = m_diff.count(change))
            parts << u"%1 %2"_s.arg(n).arg(name);
    QString text;
    if (parts.isEmpty())
        text = m_leftBytes == m_rightBytes ? tr("The files are identical.") : tr("No semantic change (formatting only).");
    else
        text = tr("Providers: %1.").arg(parts.join(u", "_s));
    int hashesAdded = 0, hashesRemoved = 0;
    for (const ProviderDiff &p : m_diff.providers) {
        hashesAdded += int(p.hashesAdded.size());
        hashesRemoved += int(p.hashesRemoved.size());
    }
    if (hashesAdded || hashesRemoved)
        text += u' ' + tr("Hashes: %1 added, %2 removed.").arg(hashesAdded).arg(hashesRemoved);
    const int errors = int(m_leftParsed.errors().size() + m_rightParsed.errors().size());
    if (errors)
        text += u' ' + tr("%n parse error(s): the comparison covers what could be read.", nullptr, errors);
    return text;
}

void LockDiffWindow::recompute()
{
    LockParseOptions lo;
    lo.fileName = m_leftLabelText;
    LockParseOptions ro;
    ro.fileName = m_rightLabelText;
    m_leftParsed = parseLockFile(m_leftBytes, lo);
    m_rightParsed = parseLockFile(m_rightBytes, ro);
    m_diff = diffLockFiles(m_leftParsed.document, m_rightParsed.document, m_provenance ? &*m_provenance : nullptr);
    m_model->setDiff(m_diff);
    m_tree->expandAll();

    m_rows = alignSideBySide(m_leftBytes, m_rightBytes);
    QList<QColor> leftBg, rightBg;
    for (qsizetype i = 0; i < m_rows.rowCount(); ++i) {
        auto colour = [](SideBySideDiff::RowKind k, const QColor &changed) {
            return k == SideBySideDiff::RowKind::Changed ? changed : k == SideBySideDiff::RowKind::Filler ? kFillerBg : QColor();
        };
        leftBg << colour(m_rows.leftKind.at(i), kRemovedBg);
        rightBg << colour(m_rows.rightKind.at(i), kAddedBg);
    }
    const int scroll = m_left->verticalScrollBar()->value();
    m_left->setPlainText(m_rows.left.join(u'\n'));
    m_right->setPlainText(m_rows.right.join(u'\n'));
    m_left->setRowDecorations(leftBg, m_rows.leftLine);
    m_right->setRowDecorations(rightBg, m_rows.rightLine);
    m_left->verticalScrollBar()->setValue(scroll);
    m_leftLabel->setText(u"− "_s + m_leftLabelText);
    m_rightLabel->setText(u"+ "_s + m_rightLabelText);
    m_leftLabel->setToolTip(m_leftLabelText);
    m_rightLabel->setToolTip(m_rightLabelText);
    m_summary->setText(summaryText());
    setWindowTitle(tr("%1 ↔ %2 — Provender").arg(QFileInfo(m_leftLabelText).fileName(), QFileInfo(m_rightLabelText).fileName()));
    const QString changed = tr("%n changed line(s)", nullptr, m_rows.changedRows());
    QStringList status{changed};
    for (const QString &line : {m_mirrorWarning, m_traceError})
        if (!line.isEmpty())
            status << line;
    statusBar()->showMessage(status.join(u". "_s));
    Q_EMIT compared();
}

int LockDiffWindow::rowForItem(const QModelIndex &index) const
{
    if (!index.isValid())
        return -1;
    const QModelIndex first = index.siblingAtColumn(0);
    const auto kind = LockDiffTreeModel::Kind(first.data(LockDiffTreeModel::KindRole).toInt());
    const QString address = first.data(LockDiffTreeModel::AddressRole).toString();
    const bool added = first.data(LockDiffTreeModel::AddedRole).toBool();
    const auto change = ProviderDiff::Change(first.data(LockDiffTreeModel::ChangeRole).toInt());
    // The provider block: on the new side unless the provider was removed.
    const bool newSide = change != ProviderDiff::Change::Removed;
    const QString blockNeedle = u"provider \""_s + address + u'"';
    int block = m_rows.findRow(blockNeedle, !newSide, newSide);
    if (block < 0)
        block = m_rows.findRow(blockNeedle, true, true);
    switch (kind) {
    case LockDiffTreeModel::Kind::Provider: return block;
    case LockDiffTreeModel::Kind::Version: {
        const int r = m_rows.findRow(u"version"_s, false, true, qMax(0, block));
        return r >= 0 ? r : block;
    }
    case LockDiffTreeModel::Kind::Constraints: {
        const int r = m_rows.findRow(u"constraints"_s, true, true, qMax(0, block));
        return r >= 0 ? r : block;
    }
    case LockDiffTreeModel::Kind::Hash: {
        const QString hash = first.data(LockDiffTreeModel::HashRole).toString();
        int r = m_rows.findRow(u'"' + hash + u'"', !added, added, qMax(0, block));
        if (r < 0)
            r = m_rows.findRow(u'"' + hash + u'"', !added, added, 0);
        return r >= 0 ? r : block;
    }
    case LockDiffTreeModel::Kind::HashesAdded:
    case LockDiffTreeModel::Kind::HashesRemoved:
    case LockDiffTreeModel::Kind::PlatformGroup: {
        // The first hash below it.
        QModelIndex child = m_model->index(0, 0, first);
        while (child.isValid() && m_model->rowCount(child) > 0)
            child = m_model->index(0, 0, child);
        return child.isValid() ? rowForItem(child) : block;
    }
    }
    return block;
}

void LockDiffWindow::showRow(int row)
{
    m_lastTargetRow = row;
    if (row < 0)
        return;
    for (LockCodeEditor *e : {m_left, m_right}) {
        QTextCursor c(e->document()->findBlockByNumber(row));
        c.movePosition(QTextCursor::EndOfBlock, QTextCursor::KeepAnchor);
        e->setTextCursor(c);
    }
    // Put the row a few lines below the top so its context shows.
    m_left->scrollToRow(qMax(0, row - 3));
}

void LockDiffWindow::showError(const QString &message)
{
    m_error = message;
    m_summary->setText(message);
    statusBar()->showMessage(message);
    qCWarning(lcUi) << "lock diff:" << message;
}

void LockDiffWindow::dragEnterEvent(QDragEnterEvent *event)
{
    if (event->mimeData()->hasUrls())
        event->acceptProposedAction();
}

void LockDiffWindow::dropEvent(QDropEvent *event)
{
    QStringList files;
    for (const QUrl &url : event->mimeData()->urls())
        if (url.isLocalFile())
            files << url.toLocalFile();
    if (files.size() >= 2) {
        openFiles(files.at(0), files.at(1));
    } else if (files.size() == 1) {
        // One file: it replaces the side it was dropped on.
        const bool leftSide = event->position().x() < width() / 2.0;
        QFile f(files.constFirst());
        if (!f.open(QIODevice::ReadOnly)) {
            showError(tr("Cannot open %1: %2").arg(files.constFirst(), f.errorString()));
            return;
        }
        if (leftSide) {
            m_leftPath = files.constFirst();
            setTexts(f.readAll(), files.constFirst(), m_rightBytes, m_rightLabelText);
        } else {
            m_rightPath = files.constFirst();
            setTexts(m_leftBytes, m_leftLabelText, f.readAll(), files.constFirst());
        }
    }
    event->acceptProposedAction();
}

} // namespace provender::ui

#include "ui/export/ExportDialogs.h"
#include "ui/export/ExportDialogsInternal.h"

#include "model/core/Logging.h"
#include "model/lockfile/LockDiff.h"
#include "model/lockfile/LockWriter.h"
#include "model/mirror/FileSystemMirror.h"
#include "ui/FormRows.h"
#include "ui/JobTracker.h"
#include "ui/MainWindow.h"
#include "ui/lock/LockEditorWindow.h"
#include "ui/lock/LockUi.h"

#include <QApplication>
#include <QCheckBox>
#include <QDialogButtonBox>
#include <QDir>
#include <QFile>
#include <QFileDialog>
#include <QFileInfo>
#include <QGroupBox>
#include <QHBoxLayout>
#include <QLabel>
#include <QLineEdit>
#include <QListWidget>
#include <QPlainTextEdit>
#include <QPointer>
#include <QProgressBar>
#include <QPushButton>
#include <QSettings>
#include <QTimer>
#include <QVBoxLayout>

#include <tuple>

using namespace Qt::StringLiterals;

namespace provender::ui {

using exportui::addStatusLine;
using exportui::previewDiff;
using exportui::previewSummary;

namespace {

const QString kLockFileKey = u"export/lockFile"_s;
const QString kLockPlatformsKey = u"export/lockPlatforms"_s;
const QString kLockZhKey = u"export/lockZh"_s;

bool platformLess(const Platform &a, const Platform &b)
{
    return a.toString() < b.toString();
}

} // namespace

// --- Add to Lock File… ---------------------------------------------------------------------------

struct AddToLockDialog::Outcome
{
    bool ok = false;
    QString error;
    LockFile after;
    QStringList actions;
    QStringList problems;
};

AddToLockDialog::AddToLockDialog(MainWindow *window, const QStringList &archivePaths, QWidget *parent)
    : QDialog(parent ? parent : window),
      m_window(window),
      m_root(window ? window->mirrorRoot() : QString()),
      m_paths(archivePaths)
{
    setWindowTitle(tr("Add to Lock File"));
    QSettings settings;
    auto *layout = new QVBoxLayout(this);

    auto *top = new QHBoxLayout;
    auto *selBox = new QGroupBox(tr("Selected in the browser"), this);
    auto *selLayout = new QVBoxLayout(selBox);
    m_selectionList = new QListWidget(selBox);
    m_selectionList->setObjectName(u"selectionList"_s);
    m_selectionList->setWordWrap(true);
    m_selectionList->setHorizontalScrollBarPolicy(Qt::ScrollBarAlwaysOff);
    m_selectionList->setSelectionMode(QAbstractItemView::NoSelection);
    selLayout->addWidget(m_selectionList);
    top->addWidget(selBox, 3);
    auto *platBox = new QGroupBox(tr("&Platforms to hash"), this);
    auto *platLayout = new QVBoxLayout(platBox);
    m_platforms = new QListWidget(platBox);
    m_platforms->setObjectName(u"platformList"_s);
    platLayout->addWidget(m_platforms);
    m_zh = new QCheckBox(tr("Also record &zh: (SHA-256 of each zip)"), platBox);
    m_zh->setObjectName(u"zhCheck"_s);
    m_zh->setChecked(settings.value(kLockZhKey, false).toBool());
    m_zh->setToolTip(tr("terraform providers lock -fs-mirror records h1: only"));
    platLayout->addWidget(m_zh);
    top->addWidget(platBox, 2);
    layout->addLayout(top, 1);

    auto *fileRow = new QHBoxLayout;
    auto *fileLabel = new QLabel(tr("&Lock file:"), this);
    m_lockFile = new QLineEdit(this);
    m_lockFile->setObjectName(u"lockFileEdit"_s);
    m_lockFile->setPlaceholderText(u".terraform.lock.hcl"_s);
    m_lockFile->setText(settings.value(kLockFileKey).toString());
    fileLabel->setBuddy(m_lockFile);
    auto *browseButton = new QPushButton(tr("&Browse…"), this);
    browseButton->setObjectName(u"browseButton"_s);
    m_preview = new QPushButton(tr("Pre&view"), this);
    m_preview->setObjectName(u"previewButton"_s);
    m_preview->setToolTip(tr("Hash the archives and show what would change (F5)"));
    m_preview->setShortcut(QKeySequence(Qt::Key_F5));
    fileRow->addWidget(fileLabel);
    fileRow->addWidget(m_lockFile, 1);
    fileRow->addWidget(browseButton);
    fileRow->addWidget(m_preview);
    layout->addLayout(fileRow);

    m_summary = previewSummary(this);
    layout->addWidget(m_summary);
    m_diff = previewDiff(this, tr("Preview shows the lock file's changes here."));
    layout->addWidget(m_diff, 2);

    auto *bottom = new QHBoxLayout;
    std::tie(m_status, m_progress) = addStatusLine(this, bottom, 160);
    m_progress->setRange(0, 0);
    auto *buttons = new QDialogButtonBox(this);
    m_apply = buttons->addButton(tr("&Apply in Editor"), QDialogButtonBox::AcceptRole);
    m_apply->setObjectName(u"applyButton"_s);
    m_apply->setToolTip(tr("Open the lock file in its editor and apply the change there (Undo reverts it; Save writes it) — Ctrl+Return"));
    m_apply->setShortcut(QKeySequence(Qt::CTRL | Qt::Key_Return));
    m_apply->setEnabled(false);
    QPushButton *close = buttons->addButton(QDialogButtonBox::Close);
    m_apply->setAutoDefault(false);
    close->setAutoDefault(false);
    m_preview->setAutoDefault(false);
    bottom->addWidget(buttons);
    layout->addLayout(bottom);

    connect(browseButton, &QPushButton::clicked, this, &AddToLockDialog::browse);
    connect(m_preview, &QPushButton::clicked, this, &AddToLockDialog::startPreview);
    connect(m_apply, &QPushButton::clicked, this, &AddToLockDialog::apply);
    connect(close, &QPushButton::clicked, this, &AddToLockDialog::reject);
    connect(m_lockFile, &QLineEdit::textChanged, this, &AddToLockDialog::invalidatePreview);
    connect(m_lockFile, &QLineEdit::returnPressed, this, &AddToLockDialog::startPreview);
    connect(m_platforms, &QListWidget::itemChanged, this, [this] {
        invalidatePreview();
        QStringList names;
        for (const Platform &p : checkedPlatforms())
            names << p.toString();
        QSettings().setValue(kLockPlatformsKey, names);
    });
    connect(m_zh, &QCheckBox::toggled, this, [this](bool on) {
        QSettings().setValue(kLockZhKey, on);
        invalidatePreview();
    });
    m_jobs = new JobTracker(this);

    resize(820, 600);
    setBusy(true, tr("Reading the mirror…"));
    if (std::optional<Catalog> shown = MainWindow::shownCatalog(m_root)) // the browser's catalog: no second scan
        QTimer::singleShot(0, this, [this, catalog = std::move(*shown)] { onScanned(catalog); });
    else
        m_jobs->run(
            u"scan"_s, tr("Reading the mirror…"), [root = m_root](JobProgress &) { return scanFileSystemMirror(root); },
            [this](const Result<Catalog> &result) { onScanned(result); });
}

AddToLockDialog::~AddToLockDialog() = default; // the workers hold copies only; their results go with m_jobs

void AddToLockDialog::setBusy(bool busy, const QString &what)
{
    m_busy = busy;
    m_progress->setVisible(busy);
    m_preview->setEnabled(!busy && m_catalog && !m_selection.isEmpty());
    m_apply->setEnabled(!busy && m_previewValid);
    if (!what.isEmpty())
        m_status->setText(what);
}

void AddToLockDialog::invalidatePreview()
{
    const bool running = m_jobs->isRunning(u"preview"_s);
    m_jobs->drop(u"preview"_s); // a preview still running is for other inputs: its result is dropped
    if (m_previewValid) {
        m_previewValid = false;
        m_summary->setText(tr("The inputs changed: Preview again."));
    }
    if (running)
        setBusy(false, tr("Preview again for the new inputs."));
    else
        setBusy(false, QString());
}

void AddToLockDialog::onScanned(const Result<Catalog> &result)
{
    if (!result) {
        setBusy(false, tr("Cannot read the mirror: %1").arg(result.error().message));
        return;
    }
    m_catalog = result.value();
    m_selection = lockSelectionFromArchives(*m_catalog, m_paths);
    m_selectionList->clear();
    QList<Platform> selectedPlatforms;
    for (const LockSelectionItem &item : m_selection) {
        QStringList names;
        for (const Platform &p : item.platforms) {
            names << p.toString();
            if (!selectedPlatforms.contains(p))
                selectedPlatforms << p;
        }
        auto *row = new QListWidgetItem(
            u"%1 %2\n    %3"_s.arg(item.provider.toString(), item.version.toString(), tr("archives selected: %1").arg(names.join(u", "_s))),
            m_selectionList);
        row->setToolTip(row->text());
    }
    if (m_selection.isEmpty())
        m_selectionList->addItem(tr("Nothing: select providers, versions or archives in the browser first."));
    const QList<Platform> available = availablePlatforms(*m_catalog, m_selection);
    QList<Platform> checked;
    for (const QString &name : QSettings().value(kLockPlatformsKey).toStringList())
        if (const Result<Platform> p = Platform::parse(name); p && available.contains(p.value()))
            checked << p.value();
    if (checked.isEmpty())
        checked = selectedPlatforms;
    const QSignalBlocker block(m_platforms);
    m_platforms->clear();
    for (const Platform &p : available) {
        auto *item = new QListWidgetItem(p.toString(), m_platforms);
        item->setFlags(item->flags() | Qt::ItemIsUserCheckable);
        item->setCheckState(checked.contains(p) ? Qt::Checked : Qt::Unchecked);
    }
    setBusy(false, tr("%n provider version(s) selected.", nullptr, int(m_selection.size())));
    Q_EMIT selectionReady();
}

QList<Platform> AddToLockDialog::checkedPlatforms() const
{
    QList<Platform> out;
    for (int i = 0; i < m_platforms->count(); ++i)
        if (m_platforms->item(i)->checkState() == Qt::Checked)
            if (const Result<Platform> p = Platform::parse(m_platforms->item(i)->text()))
                out << p.value();
    std::sort(out.begin(), out.end(), platformLess);
    return out;
}

void AddToLockDialog::setPlatforms(const QList<Platform> &platforms)
{
    for (int i = 0; i < m_platforms->count(); ++i) {
        const Result<Platform> p = Platform::parse(m_platforms->item(i)->text());
        m_platforms->item(i)->setCheckState(p && platforms.contains(p.value()) ? Qt::Checked : Qt::Unchecked);
    }
}

void AddToLockDialog::setLockFile(const QString &path)
{
    m_lockFile->setText(path);
}

void AddToLockDialog::browse()
{
    const QString start = m_lockFile->text().isEmpty() ? m_root : m_lockFile->text();
    const QString path = QFileDialog::getOpenFileName(this, tr("Lock File"), start, lockFileFilter());
    if (!path.isEmpty()) {
        m_lockFile->setText(path);
        startPreview();
    }
}

LockEditorWindow *AddToLockDialog::findEditor() const
{
    const QString wanted = QFileInfo(m_lockFile->text().trimmed()).canonicalFilePath();
    if (wanted.isEmpty())
        return nullptr;
    for (QWidget *w : QApplication::topLevelWidgets())
        if (auto *editor = qobject_cast<LockEditorWindow *>(w))
            if (!editor->filePath().isEmpty() && QFileInfo(editor->filePath()).canonicalFilePath() == wanted)
                return editor;
    return nullptr;
}

QByteArray AddToLockDialog::baseBytes(bool *ok, QString *error) const
{
    *ok = false;
    if (LockEditorWindow *editor = findEditor()) {
        *ok = true;
        return editor->currentBytes(); // what the user sees, unsaved edits included
    }
    const QString path = m_lockFile->text().trimmed();
    QFile f(path);
    if (path.isEmpty()) {
        *error = tr("Choose a lock file (Browse…).");
        return {};
    }
    if (!f.open(QIODevice::ReadOnly)) {
        *error = tr("Cannot read %1: %2").arg(QDir::toNativeSeparators(path), f.errorString());
        return {};
    }
    *ok = true;
    return f.readAll();
}

void AddToLockDialog::startPreview()
{
    if (!m_catalog || m_selection.isEmpty())
        return;
    bool ok = false;
    QString error;
    const QByteArray before = baseBytes(&ok, &error);
    if (!ok) {
        m_summary->setText(error);
        return;
    }
    const QString path = m_lockFile->text().trimmed();
    const LockParseResult parsed = parseLockFile(before);
    if (parsed.hasErrors()) {
        QStringList lines;
        for (const LockDiagnostic &d : parsed.errors())
            lines << d.toString(path);
        m_summary->setText(tr("The lock file has errors; fix them first:\n%1").arg(lines.join(u'\n')));
        m_diff->clear();
        return;
    }
    const QList<Platform> platforms = checkedPlatforms();
    if (platforms.isEmpty()) {
        m_summary->setText(tr("Check at least one platform."));
        return;
    }
    QSettings().setValue(kLockFileKey, path);
    m_before = before;
    m_previewValid = false;
    AddToLockOptions options;
    options.platforms = platforms;
    options.includeZh = m_zh->isChecked();
    setBusy(true, tr("Hashing the selected archives…"));
    m_jobs->run(
        u"preview"_s, tr("Hashing the selected archives…"),
        [doc = parsed.document, catalog = *m_catalog, selection = m_selection, options](JobProgress &) {
            auto out = std::make_shared<Outcome>();
            const Result<AddToLockResult> r = addSelectionToLock(doc, catalog, selection, options);
            if (!r) {
                out->error = r.error().message;
                return out;
            }
            out->ok = true;
            out->after = r->document;
            out->actions = r->actions;
            out->problems = r->problems;
            return out;
        },
        [this](const std::shared_ptr<Outcome> &out) { onPreviewed(out); }); // only the newest preview arrives
}

void AddToLockDialog::onPreviewed(const std::shared_ptr<Outcome> &out)
{
    if (!out->ok) {
        m_summary->setText(out->error);
        m_diff->clear();
        setBusy(false, tr("Preview failed."));
        Q_EMIT previewReady(false);
        return;
    }
    const LockParseResult before = parseLockFile(m_before);
    const LockDiff diff = diffLockFiles(before.document, out->after);
    QStringList lines = out->actions;
    int added = 0;
    for (const ProviderDiff &p : diff.providers) {
        if (p.change == ProviderDiff::Change::Unchanged)
            continue;
        added += int(p.hashesAdded.size());
        QString line = u"%1: %2"_s.arg(p.address.toString(), toString(p.change));
        if (p.oldVersion && p.newVersion && *p.oldVersion != *p.newVersion)
            line += u" %1 → %2"_s.arg(p.oldVersion->toString(), p.newVersion->toString());
        else if (p.newVersion)
            line += u" %1"_s.arg(p.newVersion->toString());
        line += tr(", %n hash(es) added", nullptr, int(p.hashesAdded.size()));
        if (!p.hashesRemoved.isEmpty())
            line += tr(", %n removed", nullptr, int(p.hashesRemoved.size()));
        lines << line;
    }
    if (diff.isEmpty())
        lines << tr("The lock file already has every hash: nothing to add.");
    for (const QString &p : out->problems)
        lines << tr("Problem: %1").arg(p);
    m_summary->setText(lines.join(u'\n'));
    m_after = out->after;
    const QByteArray afterBytes = writeLockFile(m_after);
    const QString name = QFileInfo(m_lockFile->text().trimmed()).fileName();
    m_diff->setPlainText(afterBytes == m_before ? tr("(no change)") : unifiedDiff(m_before, afterBytes, u"a/"_s + name, u"b/"_s + name));
    QStringList names;
    for (const Platform &p : checkedPlatforms())
        names << p.toString();
    m_description = tr("Add to lock from the mirror: %1").arg(names.join(u", "_s));
    m_previewValid = !diff.isEmpty();
    setBusy(false, diff.isEmpty() ? tr("Nothing to apply.") : tr("%n hash(es) to add. Apply opens the lock editor.", nullptr, added));
    Q_EMIT previewReady(true);
}

bool AddToLockDialog::apply()
{
    if (!m_previewValid || m_busy)
        return false;
    const QString path = m_lockFile->text().trimmed();
    LockEditorWindow *editor = findEditor();
    if (!editor)
        editor = openLockEditor(m_window, path);
    if (!editor) {
        m_summary->setText(tr("%1 cannot be opened in the lock editor.").arg(QDir::toNativeSeparators(path)));
        Q_EMIT applied(false);
        return false;
    }
    m_editor = editor;
    if (editor->isBusy()) { // a new editor reads the mirror first
        setBusy(true, tr("Waiting for the lock editor…"));
        QPointer<LockEditorWindow> guard(editor);
        auto connection = std::make_shared<QMetaObject::Connection>();
        *connection = connect(editor, &LockEditorWindow::busyChanged, this, [this, guard, connection](bool busy) {
            if (busy)
                return;
            disconnect(*connection);
            setBusy(false, QString());
            if (guard)
                applyIn(guard);
        });
        return true;
    }
    return applyIn(editor);
}

bool AddToLockDialog::applyIn(LockEditorWindow *editor)
{
    if (editor->currentBytes() != m_before) {
        m_previewValid = false;
        m_summary->setText(tr("The lock file changed since the preview (in its editor or on disk): Preview again."));
        setBusy(false, QString());
        Q_EMIT applied(false);
        return false;
    }
    if (!editor->applyDocument(m_after, m_description)) {
        m_summary->setText(editor->lastMessage());
        Q_EMIT applied(false);
        return false;
    }
    editor->show();
    editor->raise();
    editor->activateWindow();
    Q_EMIT applied(true);
    accept();
    return true;
}

void AddToLockDialog::reject()
{
    if (m_busy && m_jobs->isRunning(u"preview"_s)) {
        m_jobs->drop(u"preview"_s); // Esc while hashing: drop the result
        setBusy(false, tr("Preview cancelled."));
        return;
    }
    QDialog::reject();
}

} // namespace provender::ui

#include "ui/export/ExportDialogs.h"

#include "model/core/Logging.h"
#include "model/core/SizeFormat.h"
#include "model/lockfile/LockDiff.h"
#include "model/lockfile/LockWriter.h"
#include "model/mirror/FileSystemMirror.h"
#include "ui/JobTracker.h"
#include "ui/MainWindow.h"
#include "ui/lock/LockEditorWindow.h"
#include "ui/lock/LockUi.h"

#include <QApplication>
#include <QCheckBox>
#include <QClipboard>
#include <QDialogButtonBox>
#include <QDir>
#include <QFile>
#include <QFileDialog>
#include <QFileInfo>
#include <QFontDatabase>
#include <QFormLayout>
#include <QGroupBox>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QLineEdit>
#include <QListWidget>
#include <QLocale>
#include <QPlainTextEdit>
#include <QPointer>
#include <QProgressBar>
#include <QPushButton>
#include <QSettings>
#include <QSplitter>
#include <QSyntaxHighlighter>
#include <QTextCharFormat>
#include <QTimer>
#include <QTreeWidget>
#include <QUrl>
#include <QVBoxLayout>

using namespace Qt::StringLiterals;

namespace provender::ui {

namespace {

const QString kUrlKey = u"export/url"_s;
const QString kZhKey = u"export/withZh"_s;
const QString kLockFileKey = u"export/lockFile"_s;
const QString kLockPlatformsKey = u"export/lockPlatforms"_s;
const QString kLockZhKey = u"export/lockZh"_s;

QFont fixedFont()
{
    return QFontDatabase::systemFont(QFontDatabase::FixedFont);
}

/// IndexEntryChange::before/after: `url=NAME hashes=[h1:…,zh:…]`, either part alone.
struct EntryText
{
    QString url;
    QStringList hashes;
    bool hasHashes = false;
};

EntryText parseEntryText(const QString &text)
{
    EntryText out;
    QString rest = text;
    if (rest.startsWith(u"url="_s)) {
        const qsizetype end = rest.indexOf(u" hashes=["_s);
        out.url = rest.mid(4, end < 0 ? -1 : end - 4);
        rest = end < 0 ? QString() : rest.mid(end + 1);
    }
    if (rest.startsWith(u"hashes=["_s) && rest.endsWith(u']')) {
        out.hasHashes = true;
        out.hashes = rest.mid(8, rest.size() - 9).split(u',', Qt::SkipEmptyParts);
    }
    return out;
}

/// Colours the lines of a unified diff: + green, - red, @@ blue.
class DiffHighlighter final : public QSyntaxHighlighter
{
public:
    using QSyntaxHighlighter::QSyntaxHighlighter;

protected:
    void highlightBlock(const QString &text) override
    {
        QTextCharFormat f;
        if (text.startsWith(u"+++"_s) || text.startsWith(u"---"_s))
            f.setFontWeight(QFont::Bold);
        else if (text.startsWith(u'+'))
            f.setForeground(QColor(0x1a, 0x7f, 0x37));
        else if (text.startsWith(u'-'))
            f.setForeground(QColor(0xb0, 0x00, 0x20));
        else if (text.startsWith(u"@@"_s) || text.startsWith(u'#'))
            f.setForeground(QColor(0x1f, 0x5f, 0xbf));
        else
            return;
        setFormat(0, int(text.size()), f);
    }
};

bool platformLess(const Platform &a, const Platform &b)
{
    return a.toString() < b.toString();
}

} // namespace

// --- Export Indexes… -----------------------------------------------------------------------------

ExportIndexesDialog::ExportIndexesDialog(const QString &mirrorRoot, QWidget *parent)
    : QDialog(parent),
      m_root(QDir(mirrorRoot).absolutePath())
{
    setWindowTitle(tr("Export Indexes — %1").arg(QDir::toNativeSeparators(m_root)));
    QSettings settings;
    auto *layout = new QVBoxLayout(this);

    auto *intro = new QLabel(tr("Writes <tt>index.json</tt> and <tt>&lt;version&gt;.json</tt> for every provider of "
                                "<b>%1</b>, byte for byte as <tt>terraform providers mirror</tt> does, so the "
                                "directory can be served as a network mirror. Files are staged and renamed "
                                "into place together; unchanged files are not touched.")
                                 .arg(m_root.toHtmlEscaped()),
                             this);
    intro->setWordWrap(true);
    layout->addWidget(intro);

    m_zh = new QCheckBox(tr("Also list &zh: hashes (SHA-256 of each zip, as tofu providers mirror writes since 1.12)"), this);
    m_zh->setObjectName(u"zhCheck"_s);
    m_zh->setChecked(settings.value(kZhKey, false).toBool());
    layout->addWidget(m_zh);

    auto *split = new QSplitter(Qt::Horizontal, this);
    m_files = new QTreeWidget(split);
    m_files->setObjectName(u"previewFiles"_s);
    m_files->setHeaderLabels({tr("Change"), tr("File")});
    m_files->setRootIsDecorated(false);
    m_files->setUniformRowHeights(true);
    m_files->setTextElideMode(Qt::ElideMiddle);
    m_files->header()->setSectionResizeMode(0, QHeaderView::ResizeToContents);
    m_diff = new QPlainTextEdit(split);
    m_diff->setObjectName(u"previewDiff"_s);
    m_diff->setReadOnly(true);
    m_diff->setLineWrapMode(QPlainTextEdit::NoWrap);
    m_diff->setFont(fixedFont());
    m_diff->setPlaceholderText(tr("Select a file to see its entries that change."));
    new DiffHighlighter(m_diff->document());
    split->setStretchFactor(0, 2);
    split->setStretchFactor(1, 3);
    split->setSizes({400, 560});
    layout->addWidget(split, 1);

    m_summary = new QLabel(this);
    m_summary->setObjectName(u"previewSummary"_s);
    m_summary->setWordWrap(true);
    m_summary->setTextInteractionFlags(Qt::TextSelectableByMouse);
    layout->addWidget(m_summary);

    auto *serve = new QGroupBox(tr("Serve it as a network mirror"), this);
    auto *form = new QFormLayout(serve);
    m_url = new QLineEdit(serve);
    m_url->setObjectName(u"urlEdit"_s);
    m_url->setPlaceholderText(u"https://mirror.example.com/providers/"_s);
    m_url->setText(settings.value(kUrlKey).toString());
    m_url->setClearButtonEnabled(true);
    form->addRow(tr("&URL it will be served at:"), m_url);
    auto *blockRow = new QHBoxLayout;
    m_block = new QPlainTextEdit(serve);
    m_block->setObjectName(u"networkMirrorBlock"_s);
    m_block->setReadOnly(true);
    m_block->setFont(fixedFont());
    m_block->setLineWrapMode(QPlainTextEdit::NoWrap);
    m_block->setFixedHeight(QFontMetrics(fixedFont()).lineSpacing() * 6 + 12);
    blockRow->addWidget(m_block, 1);
    m_copy = new QPushButton(tr("Cop&y"), serve);
    m_copy->setObjectName(u"copyBlockButton"_s);
    m_copy->setToolTip(tr("Copy the block for a CLI configuration file (~/.terraformrc, ~/.tofurc)"));
    blockRow->addWidget(m_copy, 0, Qt::AlignTop);
    form->addRow(tr("CLI configuration:"), blockRow);
    layout->addWidget(serve);

    auto *bottom = new QHBoxLayout;
    m_status = new QLabel(this);
    m_status->setObjectName(u"statusLabel"_s);
    m_progress = new QProgressBar(this);
    m_progress->setObjectName(u"progressBar"_s);
    m_progress->setVisible(false);
    m_progress->setMaximumWidth(220);
    bottom->addWidget(m_status, 1);
    bottom->addWidget(m_progress);
    auto *buttons = new QDialogButtonBox(this);
    m_export = buttons->addButton(tr("&Export"), QDialogButtonBox::AcceptRole);
    m_export->setObjectName(u"exportButton"_s);
    m_export->setToolTip(tr("Write the files listed (Ctrl+Return)"));
    m_export->setShortcut(QKeySequence(Qt::CTRL | Qt::Key_Return));
    m_export->setEnabled(false);
    m_close = buttons->addButton(QDialogButtonBox::Close);
    m_close->setObjectName(u"closeButton"_s);
    m_export->setAutoDefault(false);
    m_close->setAutoDefault(false);
    bottom->addWidget(buttons);
    layout->addLayout(bottom);

    connect(m_export, &QPushButton::clicked, this, &ExportIndexesDialog::startExport);
    connect(m_close, &QPushButton::clicked, this, &ExportIndexesDialog::reject);
    connect(m_zh, &QCheckBox::toggled, this, [this](bool on) {
        QSettings().setValue(kZhKey, on);
        startPreview(); // what would change depends on it
    });
    connect(m_url, &QLineEdit::textChanged, this, [this] {
        QSettings().setValue(kUrlKey, m_url->text().trimmed());
        updateBlock();
    });
    connect(m_copy, &QPushButton::clicked, this, [this] {
        QApplication::clipboard()->setText(m_block->toPlainText());
        m_status->setText(tr("The network_mirror block is on the clipboard."));
    });
    connect(m_files, &QTreeWidget::currentItemChanged, this, &ExportIndexesDialog::showFileDiff);
    m_jobs = new JobTracker(this);
    connect(m_jobs, &JobTracker::progress, this, [this](qint64 done, qint64 total) {
        if (total > 0) {
            m_progress->setRange(0, 1000);
            m_progress->setValue(int(done * 1000 / total));
            m_status->setText(
                tr("%1 — %2 of %3 hashed")
                    .arg(m_runningDry ? tr("Preview") : tr("Exporting"), formatDataSize(done, locale()), formatDataSize(total, locale())));
        }
    });
    updateBlock();
    resize(980, 640);
    QTimer::singleShot(0, this, &ExportIndexesDialog::startPreview);
}

ExportIndexesDialog::~ExportIndexesDialog()
{
    // A running export is told to stop and waited for: it removes what it staged.
    m_jobs->cancel(u"export"_s);
    m_jobs->waitFor(u"export"_s);
}

QString ExportIndexesDialog::networkMirrorBlock(const QString &url)
{
    QString u = url.trimmed();
    if (u.isEmpty())
        return {};
    if (!u.endsWith(u'/'))
        u += u'/'; // the network mirror protocol resolves HOST/NS/TYPE/index.json against it
    QString escaped = u;
    escaped.replace(u'\\', u"\\\\"_s).replace(u'"', u"\\\""_s);
    return u"provider_installation {\n  network_mirror {\n    url = \"%1\"\n  }\n}\n"_s.arg(escaped);
}

void ExportIndexesDialog::updateBlock()
{
    const QString url = m_url->text().trimmed();
    const QString block = networkMirrorBlock(url);
    m_block->setPlainText(block.isEmpty() ? tr("(type the URL above)") : block);
    m_copy->setEnabled(!block.isEmpty());
    const QUrl parsed(url);
    if (!url.isEmpty() && parsed.scheme() != u"https"_s)
        m_url->setToolTip(tr("tofu and terraform accept network mirrors over https: only"));
    else
        m_url->setToolTip(QString());
    m_url->setStyleSheet(!url.isEmpty() && parsed.scheme() != u"https"_s ? u"color: #b00020"_s : QString());
}

QString ExportIndexesDialog::relative(const QString &path) const
{
    return QDir(m_root).relativeFilePath(path);
}

QStringList ExportIndexesDialog::previewPaths() const
{
    QStringList paths;
    if (!m_report || !m_report->dryRun)
        return paths;
    for (const IndexFileResult &f : m_report->files)
        if (f.status != IndexFileResult::Status::Unchanged)
            paths << relative(f.path);
    paths.sort();
    return paths;
}

void ExportIndexesDialog::startPreview()
{
    if (m_running && !m_runningDry)
        return; // an export runs: its result is shown when it ends
    run(true);  // latest run wins: a dry run still running is cancelled and its result dropped
}

void ExportIndexesDialog::startExport()
{
    if (m_running)
        return;
    run(false);
}

void ExportIndexesDialog::cancel()
{
    if (m_running)
        m_jobs->cancel(u"export"_s);
}

void ExportIndexesDialog::reject()
{
    if (m_running) {
        cancel();
        return;
    }
    QDialog::reject();
}

void ExportIndexesDialog::setRunning(bool running, const QString &what)
{
    m_running = running;
    m_zh->setEnabled(!running || m_runningDry);
    m_export->setEnabled(!running && m_report && m_report->dryRun && m_report->writtenCount() > 0);
    m_close->setText(running ? tr("Cancel") : tr("Close"));
    m_progress->setVisible(running);
    if (running)
        m_progress->setRange(0, 0);
    if (!what.isEmpty())
        m_status->setText(what);
}

namespace {
std::function<void()> &progressGate()
{
    static std::function<void()> gate;
    return gate;
}
} // namespace

void ExportIndexesDialog::setProgressGateForTests(std::function<void()> gate)
{
    progressGate() = std::move(gate);
}

void ExportIndexesDialog::run(bool dryRun)
{
    m_runningDry = dryRun;
    IndexExportOptions options;
    options.dryRun = dryRun;
    options.withZh = m_zh->isChecked();
    setRunning(true, dryRun ? tr("Preview: hashing the archives…") : tr("Exporting…"));
    qCInfo(lcUi) << "index export" << (dryRun ? "dry run" : "run") << m_root << "zh" << options.withZh;
    m_job = m_jobs->run(
        u"export"_s, dryRun ? tr("Preview") : tr("Export"),
        [root = m_root, options, gate = progressGate()](JobProgress &job) {
            return exportIndexes(root, options, [&job, gate](qint64 done, qint64 total) {
                if (gate)
                    gate();
                job.report(done, total);
                return !job.isCancelled();
            });
        },
        [this, dryRun](const Result<IndexExportReport> &result) { onFinished(dryRun, result); });
}

void ExportIndexesDialog::onFinished(bool wasDry, const Result<IndexExportReport> &result)
{
    m_job.reset();
    setRunning(false, QString());
    if (!result) {
        const bool cancelled = result.error().code == ErrorCode::Cancelled;
        m_status->setText(cancelled ? (wasDry ? tr("Preview cancelled.") : tr("Export cancelled: nothing was written."))
                                    : tr("%1 failed: %2").arg(wasDry ? tr("Preview") : tr("Export"), result.error().message));
        if (!wasDry)
            Q_EMIT exportFinished(false);
        setRunning(false, QString());
        return;
    }
    if (wasDry) {
        m_report = result.value();
        showPreview(*m_report);
        setRunning(false,
                   m_report->writtenCount() > 0
                       ? tr("Preview ready: Export writes the %n file(s) listed.", nullptr, m_report->writtenCount())
                       : tr("Nothing to export."));
        Q_EMIT previewReady();
        return;
    }
    const IndexExportReport &report = result.value();
    m_report = report;
    m_files->clear();
    m_diff->clear();
    for (const IndexFileResult &f : report.files)
        if (f.status != IndexFileResult::Status::Unchanged) {
            auto *item = new QTreeWidgetItem(m_files, {toString(f.status), relative(f.path)});
            item->setData(1, Qt::UserRole, f.path);
        }
    m_status->setText(tr("Exported: %n file(s) written; the browser shows the mirror again.", nullptr, report.writtenCount()));
    m_summary->setText(tr("%n provider(s) indexed, %1 archive(s) hashed.", nullptr, report.providersIndexed).arg(report.archivesHashed));
    setRunning(false, QString());
    Q_EMIT exportFinished(true);
    if (report.writtenCount() > 0)
        Q_EMIT exported(m_root);
}

void ExportIndexesDialog::showPreview(const IndexExportReport &report)
{
    m_files->clear();
    m_diff->clear();
    int created = 0;
    int updated = 0;
    for (const IndexFileResult &f : report.files) {
        if (f.status == IndexFileResult::Status::Unchanged)
            continue;
        (f.status == IndexFileResult::Status::Created ? created : updated)++;
        auto *item =
            new QTreeWidgetItem(m_files, {f.status == IndexFileResult::Status::Created ? tr("create") : tr("update"), relative(f.path)});
        item->setData(1, Qt::UserRole, f.path);
        item->setToolTip(1, f.path);
    }
    for (const QString &stale : report.staleVersionFiles) {
        auto *item = new QTreeWidgetItem(m_files, {tr("stale (kept)"), relative(stale)});
        item->setData(1, Qt::UserRole, stale);
        item->setToolTip(0, tr("No archive of this version is left; the file is left in place. Delete it by hand if it should go."));
        item->setForeground(0, QColor(0x9a, 0x67, 0x00));
    }
    m_files->sortItems(1, Qt::AscendingOrder);
    QStringList lines;
    if (created + updated == 0)
        lines << tr("Every index is up to date: nothing to write.");
    else
        lines << tr("Would create %1 and update %2 of %3 index file(s) for %4 provider(s).")
                     .arg(created)
                     .arg(updated)
                     .arg(report.files.size())
                     .arg(report.providersIndexed);
    if (!report.staleVersionFiles.isEmpty())
        lines << tr("%n stale version file(s) would be kept.", nullptr, int(report.staleVersionFiles.size()));
    int zhDropped = 0;
    for (const IndexEntryChange &c : report.changes)
        if (c.before.contains(u"zh:"_s) && !c.after.contains(u"zh:"_s) && c.kind == IndexEntryChange::Kind::Changed)
            ++zhDropped;
    if (zhDropped > 0 && !m_zh->isChecked())
        lines << tr("The indexes list zh: hashes now: without the zh: option they are removed from %n archive(s).", nullptr, zhDropped);
    lines << tr("%n archive(s) hashed (%1 answered from the hash cache).", nullptr, report.archivesHashed).arg(report.cacheHits);
    if (!report.cacheWarning.isEmpty())
        lines << tr("Hash cache: %1").arg(report.cacheWarning);
    for (const IndexProblem &p : report.hashFailures)
        lines << tr("Left out (cannot be hashed): %1 — %2").arg(relative(p.path), p.message);
    for (const IndexProblem &p : report.skipped)
        lines << tr("Not indexed: %1 — %2").arg(relative(p.path), p.message);
    m_summary->setText(lines.join(u'\n'));
    if (m_files->topLevelItemCount() > 0)
        m_files->setCurrentItem(m_files->topLevelItem(0));
}

void ExportIndexesDialog::showFileDiff()
{
    QTreeWidgetItem *item = m_files->currentItem();
    if (!item || !m_report) {
        m_diff->clear();
        return;
    }
    const QString path = item->data(1, Qt::UserRole).toString();
    QString text;
    const bool exists = QFileInfo::exists(path);
    text += (exists ? u"--- "_s + relative(path) : u"--- /dev/null"_s) + u'\n';
    text += u"+++ "_s + relative(path) + u'\n';
    if (m_report->staleVersionFiles.contains(path)) {
        text += tr("# kept as it is: no archive of this version is left in the mirror\n");
        m_diff->setPlainText(text);
        return;
    }
    const bool isIndex = QFileInfo(path).fileName() == u"index.json"_s;
    int n = 0;
    for (const IndexEntryChange &c : m_report->changes) {
        if (c.file != path)
            continue;
        ++n;
        if (isIndex) {
            text += u"@@ versions @@\n"_s;
            text += (c.kind == IndexEntryChange::Kind::Removed ? u"-"_s : u"+"_s) + u"    \"%1\": {}\n"_s.arg(c.version);
            continue;
        }
        text += u"@@ archives.\"%1\" @@\n"_s.arg(c.platform);
        const EntryText before = parseEntryText(c.before);
        const EntryText after = parseEntryText(c.after);
        const bool sameUrl = before.url == after.url;
        if (!before.url.isEmpty() && !sameUrl)
            text += u"-    \"url\": \"%1\"\n"_s.arg(before.url);
        if (!after.url.isEmpty() && !sameUrl)
            text += u"+    \"url\": \"%1\"\n"_s.arg(after.url);
        if (before.hasHashes || after.hasHashes) {
            const QChar mark = c.kind == IndexEntryChange::Kind::Added ? u'+' : c.kind == IndexEntryChange::Kind::Removed ? u'-' : u' ';
            text += mark + u"    \"hashes\": [\n"_s;
            for (const QString &h : before.hashes)
                text += (after.hashes.contains(h) ? u' ' : u'-') + u"      \"%1\"\n"_s.arg(h);
            for (const QString &h : after.hashes)
                if (!before.hashes.contains(h))
                    text += u"+      \"%1\"\n"_s.arg(h);
            text += mark + u"    ]\n"_s;
        }
        if (sameUrl && !after.url.isEmpty())
            text += u"     \"url\": \"%1\"\n"_s.arg(after.url);
    }
    if (n == 0)
        text += tr("# only the formatting of the file changes (it is rewritten as terraform writes it)\n");
    m_diff->setPlainText(text);
}

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

    m_summary = new QLabel(this);
    m_summary->setObjectName(u"previewSummary"_s);
    m_summary->setWordWrap(true);
    m_summary->setTextInteractionFlags(Qt::TextSelectableByMouse);
    layout->addWidget(m_summary);
    m_diff = new QPlainTextEdit(this);
    m_diff->setObjectName(u"previewDiff"_s);
    m_diff->setReadOnly(true);
    m_diff->setLineWrapMode(QPlainTextEdit::NoWrap);
    m_diff->setFont(fixedFont());
    m_diff->setPlaceholderText(tr("Preview shows the lock file's changes here."));
    new DiffHighlighter(m_diff->document());
    layout->addWidget(m_diff, 2);

    auto *bottom = new QHBoxLayout;
    m_status = new QLabel(this);
    m_status->setObjectName(u"statusLabel"_s);
    m_progress = new QProgressBar(this);
    m_progress->setObjectName(u"progressBar"_s);
    m_progress->setRange(0, 0);
    m_progress->setMaximumWidth(160);
    m_progress->setVisible(false);
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
    bottom->addWidget(m_status, 1);
    bottom->addWidget(m_progress);
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
    const QString path = QFileDialog::getOpenFileName(this, tr("Lock File"), start, tr("Lock files (*.lock.hcl *.hcl);;All files (*)"));
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

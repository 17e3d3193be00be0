#include "ui/export/ExportDialogs.h"
#include "ui/export/ExportDialogsInternal.h"

#include "model/core/Logging.h"
#include "model/core/SizeFormat.h"
#include "model/mirror/FileSystemMirror.h"
#include "ui/JobTracker.h"
#include "ui/MainWindow.h"

#include <QApplication>
#include <QCheckBox>
#include <QClipboard>
#include <QDialogButtonBox>
#include <QDir>
#include <QFileInfo>
#include <QFormLayout>
#include <QGroupBox>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QLineEdit>
#include <QPlainTextEdit>
#include <QProgressBar>
#include <QPushButton>
#include <QSettings>
#include <QSplitter>
#include <QTimer>
#include <QTreeWidget>
#include <QUrl>
#include <QVBoxLayout>

#include <tuple>

using namespace Qt::StringLiterals;

namespace provender::ui {

using exportui::addStatusLine;
using exportui::fixedFont;
using exportui::previewDiff;
using exportui::previewSummary;

namespace {

const QString kUrlKey = u"export/url"_s;
const QString kZhKey = u"export/withZh"_s;

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
    m_diff = previewDiff(split, tr("Select a file to see its entries that change."));
    split->setStretchFactor(0, 2);
    split->setStretchFactor(1, 3);
    split->setSizes({400, 560});
    layout->addWidget(split, 1);

    m_summary = previewSummary(this);
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
    std::tie(m_status, m_progress) = addStatusLine(this, bottom, 220);
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

} // namespace provender::ui

#include "ui/lock/CoverageMatrixWindow.h"
#include "ui/lock/MirrorScan.h"

#include "model/core/Logging.h"
#include "model/lockfile/LockCheck.h"
#include "model/lockfile/LockWriter.h"
#include "model/lockitems/CoverageMatrixModel.h"
#include "model/lockitems/LockDocument.h"
#include "ui/JobStatusRow.h"
#include "ui/JobTracker.h"
#include "ui/VerdictStyle.h"
#include "ui/lock/LockDialogs.h"

#include <QFile>
#include <QFileDialog>
#include <QFileInfo>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QPainter>
#include <QPushButton>
#include <QSettings>
#include <QStyledItemDelegate>
#include <QTableView>
#include <QVBoxLayout>

using namespace Qt::StringLiterals;

namespace provender::ui {

namespace {

/// A cell: verdict colour as background, white text; missing cells grey-outlined.
class CoverageDelegate final : public QStyledItemDelegate
{
public:
    using QStyledItemDelegate::QStyledItemDelegate;
    void paint(QPainter *painter, const QStyleOptionViewItem &option, const QModelIndex &index) const override
    {
        const auto verdict = Verdict(index.data(CoverageMatrixModel::VerdictRole).toInt());
        painter->save();
        painter->setRenderHint(QPainter::Antialiasing);
        const QRect r = option.rect.adjusted(3, 3, -3, -3);
        QColor c = verdictColor(verdict);
        if (!index.data(CoverageMatrixModel::InMirrorRole).toBool() && verdict == Verdict::Missing)
            c = c.lighter(115);
        painter->setPen(option.state & QStyle::State_Selected ? QPen(option.palette.highlight().color(), 2) : Qt::NoPen);
        painter->setBrush(c);
        painter->drawRoundedRect(r, 4, 4);
        painter->setPen(Qt::white);
        QFont f = option.font;
        f.setBold(true);
        painter->setFont(f);
        painter->drawText(r, Qt::AlignCenter, index.data().toString());
        painter->restore();
    }
    QSize sizeHint(const QStyleOptionViewItem &option, const QModelIndex &index) const override
    {
        const QSize s = QStyledItemDelegate::sizeHint(option, index);
        return {qMax(s.width() + 24, 120), s.height() + 12};
    }
};

QLabel *legendChip(Verdict v, const QString &text, QWidget *parent)
{
    auto *l = new QLabel(parent);
    l->setText(text);
    l->setStyleSheet(
        u"background: %1; color: white; border-radius: 4px; padding: 2px 8px; font-weight: bold;"_s.arg(verdictColor(v).name()));
    return l;
}

} // namespace

CoverageMatrixWindow::CoverageMatrixWindow(QWidget *parent) : QWidget(parent)
{
    setWindowTitle(tr("Coverage Matrix — Provender"));
    m_model = new CoverageMatrixModel(this);
    m_view = new QTableView(this);
    m_view->setObjectName(u"coverageView"_s);
    m_view->setModel(m_model);
    m_view->setItemDelegate(new CoverageDelegate(m_view));
    m_view->setSelectionMode(QAbstractItemView::SingleSelection);
    m_view->setShowGrid(false);
    m_view->horizontalHeader()->setSectionResizeMode(QHeaderView::ResizeToContents);
    m_view->verticalHeader()->setSectionResizeMode(QHeaderView::ResizeToContents);
    connect(m_view, &QTableView::clicked, this, [this](const QModelIndex &i) {
        Q_EMIT archiveActivated(i.data(CoverageMatrixModel::AddressRole).toString(), i.data(CoverageMatrixModel::VersionRole).toString(),
                                i.data(CoverageMatrixModel::PlatformRole).toString(),
                                i.data(CoverageMatrixModel::ArchivePathRole).toString());
    });

    auto *legend = new QWidget(this);
    legend->setObjectName(u"legend"_s);
    auto *ll = new QHBoxLayout(legend);
    ll->setContentsMargins(0, 0, 0, 0);
    ll->addWidget(new QLabel(tr("Legend:"), legend));
    ll->addWidget(legendChip(Verdict::Verified, tr("✓ in mirror, matches a lock hash"), legend));
    ll->addWidget(legendChip(Verdict::Mismatch, tr("✗ in mirror, matches no lock hash"), legend));
    ll->addWidget(legendChip(Verdict::Unverified, tr("? no h1:/zh: in the lock"), legend));
    ll->addWidget(legendChip(Verdict::Missing, tr("– not in mirror"), legend));
    ll->addWidget(legendChip(Verdict::Error, tr("! unreadable or refused archive"), legend));
    ll->addStretch();

    auto *platformsButton = new QPushButton(tr("Platforms…"), this);
    platformsButton->setObjectName(u"platformsButton"_s);
    connect(platformsButton, &QPushButton::clicked, this, &CoverageMatrixWindow::choosePlatforms);
    auto *mirrorButton = new QPushButton(tr("Open Mirror…"), this);
    mirrorButton->setObjectName(u"mirrorButton"_s);
    connect(mirrorButton, &QPushButton::clicked, this, &CoverageMatrixWindow::openMirrorDialog);
    auto *exportButton = new QPushButton(tr("Export CSV…"), this);
    exportButton->setObjectName(u"exportButton"_s);
    connect(exportButton, &QPushButton::clicked, this, &CoverageMatrixWindow::exportCsvDialog);
    m_jobs = new JobTracker(this);
    auto *statusRow = new JobStatusRow(m_jobs, this);
    m_status = statusRow->label();
    m_status->setObjectName(u"statusLabel"_s);
    auto *top = new QHBoxLayout;
    top->addWidget(statusRow, 1);
    top->addWidget(mirrorButton);
    top->addWidget(platformsButton);
    top->addWidget(exportButton);

    auto *layout = new QVBoxLayout(this);
    layout->addLayout(top);
    layout->addWidget(m_view, 1);
    layout->addWidget(legend);
    resize(1000, 420);
}

CoverageMatrixWindow::~CoverageMatrixWindow()
{
    m_jobs->clear(); // the worker stops hashing at its next progress point; its result is dropped
}

bool CoverageMatrixWindow::isBusy() const
{
    return m_jobs->isBusy();
}

void CoverageMatrixWindow::setInputs(const LockFile &lock, const Catalog &catalog, const QString &lockName)
{
    m_lock = lock;
    m_lockName = lockName;
    m_mirror = LockMirror::directory(catalog.root, catalog);
    recompute();
}

void CoverageMatrixWindow::setLock(const LockFile &lock, const QString &lockName)
{
    m_lock = lock;
    m_lockName = lockName;
    recompute();
}

bool CoverageMatrixWindow::openLockFile(const QString &path)
{
    const Result<LockParseResult> r = readLockFile(path);
    if (!r) {
        m_status->setText(r.error().message);
        return false;
    }
    setLock(r->document, QFileInfo(path).fileName());
    return true;
}

void CoverageMatrixWindow::setCatalog(const Catalog &catalog)
{
    setMirror(LockMirror::directory(catalog.root, catalog));
}

void CoverageMatrixWindow::setMirror(const LockMirror &mirror, const QString &warning)
{
    m_mirror = mirror;
    m_mirrorWarning = warning;
    recompute();
}

void CoverageMatrixWindow::openMirror(const QString &location, const HttpSettings &http)
{
    openMirrorAsync(
        m_jobs, location, m_lock ? lockedVersions(*m_lock) : LockMirrorRequest(),
        [this](const LockMirror &mirror, const QString &warning) { setMirror(mirror, warning); },
        [this](const QString &message) {
            m_status->setText(message);
            Q_EMIT matrixUpdated();
        },
        http);
}

void CoverageMatrixWindow::openMirrorDialog()
{
    const LockMirrorLocation chosen = MirrorLocationDialog::ask(this, m_mirror ? &*m_mirror : nullptr);
    if (!chosen.location.isEmpty())
        openMirror(chosen.location, chosen.http);
}

QList<Platform> CoverageMatrixWindow::mirrorPlatforms() const
{
    QList<Platform> out;
    if (!m_mirror)
        return out;
    for (const Provider &p : m_mirror->catalog.providers) {
        const ProviderLock *lock = m_lock ? m_lock->find(p.address) : nullptr;
        for (const ProviderVersion &v : p.versions)
            if (!lock || lock->version == v.version)
                for (const Archive &a : v.archives)
                    if (a.present && !out.contains(a.platform) && (lock || !m_lock))
                        out << a.platform;
    }
    std::sort(out.begin(), out.end());
    return out;
}

QList<Platform> CoverageMatrixWindow::platforms() const
{
    const QList<Platform> remembered = PlatformPickerDialog::rememberedPlatforms(QString(kSettingsKey));
    return remembered.isEmpty() ? mirrorPlatforms() : remembered;
}

void CoverageMatrixWindow::setPlatforms(const QList<Platform> &platforms)
{
    PlatformPickerDialog::rememberPlatforms(QString(kSettingsKey), platforms);
    recompute();
}

void CoverageMatrixWindow::choosePlatforms()
{
    QList<Platform> available = mirrorPlatforms();
    for (const Platform &p : PlatformPickerDialog::rememberedPlatforms(QString(kSettingsKey)))
        if (!available.contains(p))
            available << p;
    for (const char *common : {"darwin_amd64", "darwin_arm64", "linux_amd64", "linux_arm64", "windows_amd64"})
        if (Result<Platform> p = Platform::parse(QString::fromLatin1(common)); p && !available.contains(p.value()))
            available << p.value();
    std::sort(available.begin(), available.end());
    PlatformPickerDialog dialog(available, QString(kSettingsKey), false, this);
    dialog.setChecked(platforms());
    if (dialog.exec() == QDialog::Accepted)
        recompute();
}

void CoverageMatrixWindow::recompute()
{
    if (!m_lock || !m_mirror) {
        m_status->setText(!m_lock ? tr("No lock file.") : tr("No mirror."));
        return;
    }
    LockCheckOptions options;
    options.platforms = platforms();
    // Every archive the check needs, hashed in one engine run (all cores, the hash cache); of a
    // network mirror, the locked versions read and their archives downloaded and checked against
    // its index, as lock check --mirror URL does. A check still running is superseded:
    // cancelled, and its result dropped.
    m_checkJob = m_jobs->run(
        u"check"_s, tr("Checking %1 against %2…").arg(m_lockName, m_mirror->catalog.root),
        [lock = *m_lock, mirror = *m_mirror, options](JobProgress &progress) -> Result<LockCheckResult> {
            const Result<LockMirror> read = readLockMirror(mirror, lockedVersions(lock), progress);
            if (!read)
                return read.error();
            return runWithPrehashedArchives(lock, read.value(), options, progress, &checkLockAgainstMirror);
        },
        [this](const Result<LockCheckResult> &checked) {
            if (std::exchange(m_checkJob, nullptr)->isCancelled())
                return; // "… cancelled." is on the status line; the matrix stays as it was
            if (!checked) {
                m_status->setText(checked.error().message);
                Q_EMIT matrixUpdated();
                return;
            }
            const LockCheckResult &result = checked.value();
            m_model->setResult(result);
            m_status->setText(tr("%1 × %2: %3 verified, %4 mismatch, %5 missing, %6 unverified, %7 error")
                                  .arg(m_lockName, m_mirror->catalog.root)
                                  .arg(result.count(Verdict::Verified))
                                  .arg(result.count(Verdict::Mismatch))
                                  .arg(result.count(Verdict::Missing))
                                  .arg(result.count(Verdict::Unverified))
                                  .arg(result.count(Verdict::Error))
                              + (m_mirrorWarning.isEmpty() ? QString() : u". "_s + m_mirrorWarning));
            Q_EMIT matrixUpdated();
        });
}

void CoverageMatrixWindow::cancel()
{
    m_jobs->cancel(u"check"_s);
}

bool CoverageMatrixWindow::exportCsv(const QString &path)
{
    const Result<void> r = saveBytesAtomically(m_model->toCsv(), path);
    if (!r) {
        m_status->setText(r.error().message);
        return false;
    }
    m_status->setText(tr("Exported %1").arg(path));
    return true;
}

void CoverageMatrixWindow::exportCsvDialog()
{
    const QString path = QFileDialog::getSaveFileName(this, tr("Export Coverage Matrix"), u"coverage.csv"_s, tr("CSV files (*.csv)"));
    if (!path.isEmpty())
        exportCsv(path);
}

} // namespace provender::ui

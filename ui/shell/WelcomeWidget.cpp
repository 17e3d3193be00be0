#include "ui/shell/WelcomeWidget.h"

#include "model/core/Logging.h"
#include "model/network/HttpRunner.h"
#include "ui/FormRows.h"
#include "ui/browser/UrlSource.h"
#include "ui/shell/RecentItems.h"
#include "ui/shell/Shell.h"

#include <QCommandLinkButton>
#include <QDir>
#include <QFileInfo>
#include <QGroupBox>
#include <QHBoxLayout>
#include <QIcon>
#include <QLabel>
#include <QListWidget>
#include <QPushButton>
#include <QVBoxLayout>

#include <iterator>

namespace provender::ui {

namespace {
constexpr int kMaxContentWidth = 980;

/// One button of the "Start" box: a QCommandLinkButton named `objectName` that emits `signal`.
struct StartAction
{
    const char *objectName;
    const char *title;       ///< QT_TR_NOOP: WelcomeWidget::tr() translates it
    const char *description; ///< likewise
    void (WelcomeWidget::*signal)();
};

constexpr StartAction kStartActions[] = {
    {"openMirrorFolderButton", QT_TR_NOOP("Open mirror folder…"),
     QT_TR_NOOP("A filesystem mirror (packed or unpacked): scan it and verify every archive."), &WelcomeWidget::openMirrorFolderRequested},
    {"openUrlButton", QT_TR_NOOP("Open URL…"), QT_TR_NOOP("A network mirror over HTTPS (provider network mirror protocol)."),
     &WelcomeWidget::openUrlRequested},
    {"openBundleButton", QT_TR_NOOP("Open bundle…"), QT_TR_NOOP("An offline bundle (.tar.gz, .tar.zst, .zip): verify it, import it."),
     &WelcomeWidget::openBundleRequested},
    {"openLockFileButton", QT_TR_NOOP("Open lock file…"),
     QT_TR_NOOP("A .terraform.lock.hcl: check it against a mirror, add platforms, upgrade."), &WelcomeWidget::openLockFileRequested},
    {"compareLockFilesButton", QT_TR_NOOP("Compare lock files…"),
     QT_TR_NOOP("What changed between two lock files, by meaning and as text."), &WelcomeWidget::compareLockFilesRequested},
    {"openDemoMirrorButton", QT_TR_NOOP("Open the demo mirror"),
     QT_TR_NOOP("A small generated mirror with every verdict planted — a safe place to look around."),
     &WelcomeWidget::openDemoMirrorRequested},
};
} // namespace

WelcomeWidget::WelcomeWidget(QWidget *parent) : QWidget(parent)
{
    setObjectName(QStringLiteral("welcomeWidget"));

    auto *outer = new QHBoxLayout(this);
    outer->addStretch(1);
    auto *content = new QWidget;
    content->setMaximumWidth(kMaxContentWidth);
    outer->addWidget(content, 100);
    outer->addStretch(1);

    auto *column = new QVBoxLayout(content);
    column->addStretch(1);

    // Header: icon, name, one line of what the app is for.
    auto *header = new QHBoxLayout;
    auto *icon = new QLabel;
    icon->setPixmap(appIcon().pixmap(64, 64));
    header->addWidget(icon, 0, Qt::AlignTop);
    auto *titles = new QVBoxLayout;
    auto *title = new QLabel(tr("Welcome to Provender"));
    QFont titleFont = title->font();
    titleFont.setPointSizeF(titleFont.pointSizeF() * 1.8);
    titleFont.setBold(true);
    title->setFont(titleFont);
    titles->addWidget(title);
    auto *tagline = new QLabel(tr("Curate OpenTofu/Terraform provider mirrors and dependency lock files: verify every "
                                  "archive's h1:/zh: hashes, fix lock files for more platforms, review lock diffs, "
                                  "publish static mirrors and carry offline bundles."));
    tagline->setWordWrap(true);
    tagline->setStyleSheet(QStringLiteral("QLabel { color: #444; }"));
    titles->addWidget(tagline);
    header->addLayout(titles, 1);
    column->addLayout(header);
    column->addSpacing(16);

    auto *panes = new QHBoxLayout;
    panes->setSpacing(18);

    auto *start = new QGroupBox(tr("Start"));
    auto *startLayout = new QVBoxLayout(start);
    startLayout->setSpacing(2);
    m_entries.reserve(qsizetype(std::size(kStartActions)));
    for (const StartAction &a : kStartActions)
        startLayout->addWidget(addAction(QLatin1String(a.objectName), tr(a.title), tr(a.description), a.signal));
    startLayout->addStretch(1);
    panes->addWidget(start, 3);

    auto *recentBox = new QGroupBox(tr("Recent mirrors"));
    auto *recentLayout = new QVBoxLayout(recentBox);
    m_recent = new QListWidget;
    m_recent->setObjectName(QStringLiteral("recentList"));
    m_recent->setTextElideMode(Qt::ElideMiddle);
    m_recent->setUniformItemSizes(true);
    m_recent->setSpacing(2);
    connect(m_recent, &QListWidget::itemActivated, this, &WelcomeWidget::activateRecent);
    recentLayout->addWidget(m_recent, 1);
    m_recentEmpty = new QLabel(tr("Mirrors you open appear here.\nDouble-click one to open it again."));
    m_recentEmpty->setObjectName(QStringLiteral("recentEmptyLabel"));
    m_recentEmpty->setAlignment(Qt::AlignCenter);
    m_recentEmpty->setWordWrap(true);
    m_recentEmpty->setStyleSheet(QStringLiteral("QLabel { color: #666; padding: 12px; }"));
    recentLayout->addWidget(m_recentEmpty, 1);
    auto *recentButtons = new QHBoxLayout;
    recentButtons->addStretch(1);
    m_clearRecent = new QPushButton(tr("Clear list"));
    m_clearRecent->setObjectName(QStringLiteral("clearRecentButton"));
    connect(m_clearRecent, &QPushButton::clicked, this, [this] {
        clearRecentMirrors();
        reloadRecent();
    });
    recentButtons->addWidget(m_clearRecent);
    recentLayout->addLayout(recentButtons);
    panes->addWidget(recentBox, 2);

    column->addLayout(panes, 0);

    m_status = selectableLabel(QStringLiteral("welcomeStatus"));
    m_status->hide();
    column->addWidget(m_status);

    auto *hint = new QLabel(tr("You can also drop a mirror folder onto this window, or start <tt>provender DIR</tt>. "
                               "Every feature is on the command line too: <tt>provender --help</tt>."));
    hint->setTextFormat(Qt::RichText);
    hint->setWordWrap(true);
    hint->setStyleSheet(QStringLiteral("QLabel { color: #555; }"));
    column->addWidget(hint);
    column->addStretch(2);

    reloadRecent();
    updateAvailability();
}

QCommandLinkButton *WelcomeWidget::addAction(const QString &objectName, const QString &title, const QString &description,
                                             void (WelcomeWidget::*signal)())
{
    auto *button = new QCommandLinkButton(title, description);
    button->setObjectName(objectName);
    connect(button, &QCommandLinkButton::clicked, this, [this, signal] { Q_EMIT(this->*signal)(); });
    m_entries.append({QMetaMethod::fromSignal(signal), button});
    return button;
}

void WelcomeWidget::updateAvailability()
{
    for (const Entry &e : std::as_const(m_entries)) {
        bool available = isSignalConnected(e.signal);
        if (e.signal == QMetaMethod::fromSignal(&WelcomeWidget::openDemoMirrorRequested))
            available = available && !m_demoBusy;
        e.button->setEnabled(available);
        e.button->setToolTip(isSignalConnected(e.signal) ? QString() : tr("Not available in this build yet."));
    }
}

void WelcomeWidget::connectNotify(const QMetaMethod &signal)
{
    QWidget::connectNotify(signal);
    updateAvailability();
}

void WelcomeWidget::disconnectNotify(const QMetaMethod &signal)
{
    QWidget::disconnectNotify(signal);
    // Called while QObject holds its connection lock, under which isSignalConnected() would
    // deadlock: look again once the disconnect is done.
    QMetaObject::invokeMethod(this, &WelcomeWidget::updateAvailability, Qt::QueuedConnection);
}

void WelcomeWidget::reloadRecent()
{
    m_recent->clear();
    const QStringList paths = recentMirrors();
    for (const QString &path : paths) {
        const QFileInfo info(path);
        const bool url = isMirrorUrl(path);
        // Folders under the home directory are shown as ~/…, the full path is the tooltip.
        const QString home = QDir::homePath() + QLatin1Char('/');
        const QString shown = url ? redactUrlText(path) : path.startsWith(home) ? QStringLiteral("~/") + path.mid(home.size()) : path;
        auto *item = new QListWidgetItem(QIcon::fromTheme(url ? QStringLiteral("network-server") : QStringLiteral("folder")),
                                         url ? shown : QDir::toNativeSeparators(shown));
        item->setData(Qt::UserRole, path);
        if (url) {
            item->setToolTip(tr("Network mirror %1").arg(shown));
        } else if (info.exists()) { // a mirror folder, or a bundle file (MainWindow::openMirror opens both)
            item->setToolTip(QDir::toNativeSeparators(path));
        } else {
            item->setText(tr("%1 (not found)").arg(QDir::toNativeSeparators(shown)));
            item->setToolTip(tr("This no longer exists."));
            item->setFlags(item->flags() & ~Qt::ItemIsEnabled);
        }
        m_recent->addItem(item);
    }
    const bool empty = paths.isEmpty();
    m_recent->setVisible(!empty);
    m_recentEmpty->setVisible(empty);
    m_clearRecent->setEnabled(!empty);
    qCDebug(lcUi) << "welcome: recent mirrors" << paths.size();
}

void WelcomeWidget::activateRecent(QListWidgetItem *item)
{
    if (item && (item->flags() & Qt::ItemIsEnabled))
        Q_EMIT recentMirrorActivated(item->data(Qt::UserRole).toString());
}

void WelcomeWidget::setStatus(const QString &text, bool isError)
{
    m_status->setText(text);
    m_status->setStyleSheet(isError ? QStringLiteral("QLabel { color: #c62828; }") : QStringLiteral("QLabel { color: #333; }"));
    m_status->setVisible(!text.isEmpty());
}

void WelcomeWidget::setDemoBusy(bool busy)
{
    m_demoBusy = busy;
    updateAvailability();
}

} // namespace provender::ui

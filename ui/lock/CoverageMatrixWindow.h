#pragma once
// Lock × mirror coverage: locked providers (rows) × platforms (columns), each cell coloured by
// its verdict (in the mirror? matches a lock hash?), with a legend. The platforms shown are
// chosen once (PlatformPickerDialog) and remembered in QSettings ("lock/coveragePlatforms").
// Clicking a cell emits archiveActivated() with the archive's identity so the mirror browser
// can select it. The matrix exports as CSV. The check hashes archives off the GUI thread, as the
// job "check" on the window's JobTracker (progress bar and Cancel beside the status line; a new
// check supersedes a running one, whose result is dropped; a cancelled one leaves the matrix).
//
// Widgets (objectName): "coverageView", "legend", "platformsButton", "exportButton", "statusLabel",
// "jobProgress", "jobCancel".

#include "model/core/JobProgress.h"
#include "model/lockfile/LockFile.h"
#include "model/lockfile/LockMirror.h"
#include "model/mirror/Catalog.h"

#include <QWidget>

#include <memory>
#include <optional>

class QLabel;
class QTableView;

namespace provender {
class CoverageMatrixModel;
}

namespace provender::ui {

class JobTracker;

class CoverageMatrixWindow final : public QWidget
{
    Q_OBJECT
public:
    explicit CoverageMatrixWindow(QWidget *parent = nullptr);
    ~CoverageMatrixWindow() override;

    static constexpr QLatin1StringView kSettingsKey{"lock/coveragePlatforms"};

    void setInputs(const LockFile &lock, const Catalog &catalog, const QString &lockName);
    void setLock(const LockFile &lock, const QString &lockName);
    bool openLockFile(const QString &path);
    void setCatalog(const Catalog &catalog);
    /// `warning`: what the mirror warned when it was opened, shown with the status line.
    void setMirror(const LockMirror &mirror, const QString &warning = {});
    /// A directory or a network mirror's URL (read for the locked versions, as lock check reads
    /// it), opened off the GUI thread. `http`: how a URL is reached (a browser URL source's
    /// settings; default: the CLI's).
    void openMirror(const QString &location, const HttpSettings &http = {});

    /// Columns: the remembered platforms, or every platform the mirror has for the locked versions.
    QList<Platform> platforms() const;
    void setPlatforms(const QList<Platform> &platforms); ///< remembers them and recomputes

    CoverageMatrixModel *model() const { return m_model; }
    /// A scan or a check is running.
    bool isBusy() const;
    JobTracker *jobs() const { return m_jobs; }
    /// Stop the running check (the status bar's Cancel): the matrix keeps what it showed.
    void cancel();
    bool exportCsv(const QString &path);

public Q_SLOTS:
    void choosePlatforms();
    void exportCsvDialog();
    void openMirrorDialog();

Q_SIGNALS:
    /// A cell was clicked: the archive of `address` `version` for `platform` (path "" when missing).
    void archiveActivated(const QString &address, const QString &version, const QString &platform, const QString &path);
    void matrixUpdated();

private:
    void recompute();
    QList<Platform> mirrorPlatforms() const;

    std::optional<LockFile> m_lock;
    std::optional<LockMirror> m_mirror;
    QString m_mirrorWarning; ///< what the network mirror warned when it was opened ("": nothing)
    QString m_lockName;
    JobTracker *m_jobs = nullptr;
    std::shared_ptr<JobProgress> m_checkJob; ///< the newest check

    CoverageMatrixModel *m_model = nullptr;
    QTableView *m_view = nullptr;
    QLabel *m_status = nullptr;
};

} // namespace provender::ui

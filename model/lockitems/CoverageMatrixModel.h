#pragma once
// Lock × mirror coverage as a table: locked providers (rows) × platforms (columns). Each cell
// says whether the mirror has the archive, whether it matches a lock hash, and the verdict
// (LockCheckResult from checkLockAgainstMirror). Cells carry the archive's identity (address,
// version, platform, path) so a view can select the archive in the mirror browser.

#include "model/lockfile/LockCheck.h"

#include <QAbstractTableModel>

namespace provender {

class CoverageMatrixModel final : public QAbstractTableModel
{
    Q_OBJECT
public:
    enum Role {
        VerdictRole = Qt::UserRole + 1, ///< int(Verdict)
        InMirrorRole,                   ///< bool: the mirror has an installable archive for the cell
        MatchesLockRole,                ///< bool: the archive matches one of the lock's hashes
        AddressRole,                    ///< QString: full provider address
        VersionRole,                    ///< QString: the locked version
        PlatformRole,                   ///< QString: os_arch
        ArchivePathRole,                ///< QString: the archive's path ("" when missing)
        ReasonRole,                     ///< QString: VerdictDetail::reason
    };
    Q_ENUM(Role)

    explicit CoverageMatrixModel(QObject *parent = nullptr);

    void setResult(const LockCheckResult &result);
    const LockCheckResult &result() const { return m_result; }

    /// The matrix as CSV (RFC 4180): header `provider,version,<platform>...`, one line per
    /// provider, each cell the verdict name ("verified", "missing", ...).
    QByteArray toCsv() const;
    /// Short cell text, a sign and the verdict's name (toString): "✓ verified", "✗ mismatch", "– missing", ...
    static QString cellText(Verdict v);

    int rowCount(const QModelIndex &parent = {}) const override;
    int columnCount(const QModelIndex &parent = {}) const override;
    QVariant data(const QModelIndex &index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation, int role = Qt::DisplayRole) const override;
    QHash<int, QByteArray> roleNames() const override;

    /// "row header: cell | cell ..." per row (DisplayRole), for tests.
    QString dump() const;

private:
    LockCheckResult m_result;
};

} // namespace provender

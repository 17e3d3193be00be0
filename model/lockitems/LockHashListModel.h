#pragma once
// The hashes of one locked provider: hash, scheme and — when the hashes have been traced to a
// mirror — the platform and archive each one matches (and how: extracted-folder h1:, zip-level
// h1:, zh:, or only declared by an index).

#include "model/lockfile/LockDiff.h"
#include "model/lockfile/LockFile.h"

#include <QAbstractTableModel>

namespace provender {

class LockHashListModel final : public QAbstractTableModel
{
    Q_OBJECT
public:
    enum Column { HashColumn, SchemeColumn, PlatformColumn, ArchiveColumn, ColumnCount };
    Q_ENUM(Column)
    enum Role {
        HashRole = Qt::UserRole + 1, ///< QString: the full hash, any column
        SchemeRole,                  ///< QString: "h1", "zh" or the unknown scheme's name
        PlatformRole,                ///< QString: os_arch of the matching archive ("" when none)
        ArchivePathRole,             ///< QString: path of the matching archive ("" when none)
        OriginRole,                  ///< int(HashOrigin) of the first match (Unknown when none)
    };
    Q_ENUM(Role)

    explicit LockHashListModel(QObject *parent = nullptr);

    /// Show `lock`'s hashes; `provenance` (may be null) is looked up now and not kept.
    void setProvider(const ProviderLock &lock, const HashProvenanceIndex *provenance);
    void clear();
    const ProviderLock &provider() const { return m_lock; }
    HashString hashAt(int row) const;

    int rowCount(const QModelIndex &parent = {}) const override;
    int columnCount(const QModelIndex &parent = {}) const override;
    QVariant data(const QModelIndex &index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation, int role = Qt::DisplayRole) const override;
    QHash<int, QByteArray> roleNames() const override;

    QString dump() const; ///< one line per row, columns joined by " | "

private:
    struct Row
    {
        HashString hash;
        QList<HashProvenance> matches; ///< for the locked version first
    };
    ProviderLock m_lock;
    QList<Row> m_rows;
};

} // namespace provender

#pragma once
// The providers of one lock document as a table: address, version, constraints, hash counts by
// scheme, and — when the hashes have been traced to a mirror (HashProvenanceIndex) — the
// platforms whose archives match a lock hash. Version and constraints are editable through an
// edit handler (the GUI turns an edit into an undoable lockedit operation and then calls
// setDocument with the result; the model never changes the document itself).

#include "model/lockfile/LockDiff.h"
#include "model/lockfile/LockFile.h"

#include <QAbstractTableModel>

#include <functional>
#include <optional>

namespace provender {

class LockProviderTableModel final : public QAbstractTableModel
{
    Q_OBJECT
public:
    enum Column { AddressColumn, VersionColumn, ConstraintsColumn, HashesColumn, PlatformsColumn, ColumnCount };
    Q_ENUM(Column)
    enum Role {
        AddressRole = Qt::UserRole + 1, ///< QString: the provider's full address, any column
        SortRole,                       ///< natural order (address order, version precedence, hash count)
        HashCountsRole,                 ///< QVariantMap scheme ("h1", "zh", ...) -> int, any column
        PlatformsRole,                  ///< QStringList: platforms covered (empty without provenance)
    };
    Q_ENUM(Role)

    /// Called for an edit of the version or constraints column; returns whether it was applied.
    using EditHandler = std::function<bool(const ProviderAddress &address, Column column, const QString &value)>;

    explicit LockProviderTableModel(QObject *parent = nullptr);

    void setDocument(const LockFile &document);
    const LockFile &document() const { return m_doc; }
    /// Trace hashes to a mirror's archives (fills the platforms column). nullopt clears it.
    void setProvenance(std::optional<HashProvenanceIndex> provenance);
    const HashProvenanceIndex *provenance() const { return m_provenance ? &*m_provenance : nullptr; }
    void setEditHandler(EditHandler handler) { m_editHandler = std::move(handler); }

    ProviderAddress addressAt(int row) const;
    int rowOf(const ProviderAddress &address) const;

    /// Platforms (os_arch) of the mirror whose archive of the locked version has a hash in the lock.
    QStringList coveredPlatforms(const ProviderLock &lock) const;
    /// "2 h1, 12 zh" (schemes in the order h1, zh, then others by name).
    static QString hashCountText(const ProviderLock &lock);

    int rowCount(const QModelIndex &parent = {}) const override;
    int columnCount(const QModelIndex &parent = {}) const override;
    QVariant data(const QModelIndex &index, int role = Qt::DisplayRole) const override;
    bool setData(const QModelIndex &index, const QVariant &value, int role = Qt::EditRole) override;
    Qt::ItemFlags flags(const QModelIndex &index) const override;
    QVariant headerData(int section, Qt::Orientation orientation, int role = Qt::DisplayRole) const override;
    QHash<int, QByteArray> roleNames() const override;

    /// One line per row, columns joined by " | " (DisplayRole), for tests.
    QString dump() const;

private:
    LockFile m_doc;
    std::optional<HashProvenanceIndex> m_provenance;
    EditHandler m_editHandler;
};

} // namespace provender

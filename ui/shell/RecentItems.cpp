#include "ui/shell/RecentItems.h"

#include <QDir>
#include <QFileInfo>
#include <QSettings>

namespace provender::ui {

QString recentMirrorsKey()
{
    return QStringLiteral("recentMirrors");
}

QStringList recentMirrors()
{
    const QStringList stored = QSettings().value(recentMirrorsKey()).toStringList();
    QStringList out;
    for (const QString &p : stored) {
        if (!p.isEmpty() && !out.contains(p))
            out.append(p);
        if (out.size() == kMaxRecentMirrors)
            break;
    }
    return out;
}

void addRecentMirror(const QString &path)
{
    if (path.isEmpty())
        return;
    // A network mirror's URL is kept as it is (MainWindow::openMirror opens it again).
    const bool url = path.startsWith(QLatin1StringView("https://"), Qt::CaseInsensitive)
        || path.startsWith(QLatin1StringView("http://"), Qt::CaseInsensitive);
    const QString clean = url ? path : QDir::cleanPath(QFileInfo(path).absoluteFilePath());
    QStringList list = recentMirrors();
    list.removeAll(clean);
    list.prepend(clean);
    while (list.size() > kMaxRecentMirrors)
        list.removeLast();
    QSettings().setValue(recentMirrorsKey(), list);
}

void clearRecentMirrors()
{
    QSettings().remove(recentMirrorsKey());
}

} // namespace provender::ui

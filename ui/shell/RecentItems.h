#pragma once
// Recently opened mirrors — directories, bundle files and network-mirror URLs, all of which
// MainWindow::openMirror opens —, most recent first, kept in QSettings under "recentMirrors"
// (a string list of absolute paths and URLs). The main window does not keep a list itself; installShell()
// records every mirror it opens here.

#include <QString>
#include <QStringList>

namespace provender::ui {

inline constexpr int kMaxRecentMirrors = 8;

/// The QSettings key of the list.
QString recentMirrorsKey();
/// The stored list, most recent first, without duplicates or empty entries.
QStringList recentMirrors();
/// Put `path` (made absolute and clean; a URL as it is) first, drop an older copy of it, keep kMaxRecentMirrors.
void addRecentMirror(const QString &path);
/// Forget the whole list.
void clearRecentMirrors();

} // namespace provender::ui

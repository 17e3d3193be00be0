#pragma once
// The main window in widget tests (tst_mainwindow, tst_provenance_ui, tst_remoteui): a named child,
// showing the window and waiting until it is on screen, opening a mirror and waiting for its
// verification, finding a menu's action and the dialog it opened, dropping URLs on it.
// Link provender_ui.

#include "ui/MainWindow.h"

#include <QAction>
#include <QApplication>
#include <QDragEnterEvent>
#include <QDropEvent>
#include <QList>
#include <QMenu>
#include <QMimeData>
#include <QSignalSpy>
#include <QSize>
#include <QString>
#include <QTest>
#include <QUrl>
#include <QWidget>

namespace provender::test {

/// The child of `w` named `name` (objectName), or nullptr.
template<typename T> T *child(QWidget &w, const char *name)
{
    return w.findChild<T *>(QLatin1StringView(name));
}

/// Resizes `w` to `size` (when valid), shows it and waits until it is exposed; false when it is not.
inline bool showExposed(QWidget &w, QSize size = {})
{
    if (size.isValid())
        w.resize(size);
    w.show();
    return QTest::qWaitForWindowExposed(&w);
}

/// Opens the mirror at `path` in `w` and waits for its verification to finish; false when it does not.
inline bool openAndVerify(ui::MainWindow &w, const QString &path)
{
    QSignalSpy finished(&w, &ui::MainWindow::verificationFinished);
    w.openMirror(path);
    return finished.wait(120000) && !finished.isEmpty();
}

/// The action of `window`'s `menu` whose text (with its & mnemonic) is `text`, or nullptr.
inline QAction *menuAction(ui::MainWindow &window, ui::MainWindow::Menu menu, const QString &text)
{
    QAction *found = nullptr;
    for (QAction *a : window.menu(menu)->actions())
        if (a->text() == text)
            found = a;
    return found;
}

/// The (last) visible top-level widget of type T — a dialog or window an action opened — or nullptr.
template<typename T> T *visibleTopLevel()
{
    T *found = nullptr;
    for (QWidget *w : QApplication::topLevelWidgets())
        if (auto *t = qobject_cast<T *>(w); t && t->isVisible())
            found = t;
    return found;
}

/// Drags `urls` onto `target` and drops them there, as from a file manager or a browser; false
/// when `target` does not accept the drag.
inline bool dropUrls(QWidget &target, const QList<QUrl> &urls)
{
    QMimeData mime;
    mime.setUrls(urls);
    QDragEnterEvent enter(QPoint(10, 10), Qt::CopyAction, &mime, Qt::LeftButton, Qt::NoModifier);
    QApplication::sendEvent(&target, &enter);
    if (!enter.isAccepted())
        return false;
    QDropEvent drop(QPointF(10, 10), Qt::CopyAction, &mime, Qt::LeftButton, Qt::NoModifier);
    QApplication::sendEvent(&target, &drop);
    return true;
}

} // namespace provender::test

#pragma once
// Two panes of the lock editor (LockEditorWindow): the bar above the text that says the file
// changed on disk (objectName "diskChangedBar"; buttons "diskReload", "diskKeepMine"), and the
// problem list below it (objectName "problemList": the parser's diagnostics with line:column,
// content a save would drop, notes of the last mirror operation; activating one goes to its line).

#include "model/lockfile/LockFile.h"

#include <QFrame>
#include <QListWidget>

class QLabel;
class QPushButton;

namespace provender::ui {

class DiskChangedBar final : public QFrame
{
    Q_OBJECT
public:
    explicit DiskChangedBar(QWidget *parent = nullptr);
    /// Shown while `pending`; `exists` false: the file was deleted (Reload is disabled then).
    void showState(bool pending, bool exists, const QString &fileName);

Q_SIGNALS:
    void reloadClicked();
    void keepMineClicked();

private:
    QLabel *m_text = nullptr;
    QPushButton *m_reload = nullptr;
};

class LockProblemList final : public QListWidget
{
    Q_OBJECT
public:
    explicit LockProblemList(QWidget *parent = nullptr);
    void showProblems(const LockParseResult &parsed, const QStringList &notes);

Q_SIGNALS:
    void goToLine(int line, int column);

private:
    void addProblem(const QString &text, const QColor &colour, const LockSourceRange *range);
};

} // namespace provender::ui

#include "ui/lock/LockEditorPanes.h"

#include <QHBoxLayout>
#include <QLabel>
#include <QPushButton>

using namespace Qt::StringLiterals;

namespace provender::ui {

DiskChangedBar::DiskChangedBar(QWidget *parent) : QFrame(parent)
{
    setObjectName(u"diskChangedBar"_s);
    setFrameShape(QFrame::StyledPanel);
    setAutoFillBackground(true);
    QPalette pal = palette();
    pal.setColor(QPalette::Window, pal.color(QPalette::ToolTipBase));
    pal.setColor(QPalette::WindowText, pal.color(QPalette::ToolTipText));
    setPalette(pal);
    auto *layout = new QHBoxLayout(this);
    layout->setContentsMargins(8, 4, 8, 4);
    m_text = new QLabel(this);
    m_text->setWordWrap(true);
    m_reload = new QPushButton(tr("&Reload"), this);
    m_reload->setObjectName(u"diskReload"_s);
    m_reload->setToolTip(tr("Show the file as it is on disk now (undo brings your text back)"));
    auto *keep = new QPushButton(tr("&Keep Mine"), this);
    keep->setObjectName(u"diskKeepMine"_s);
    keep->setToolTip(tr("Keep your text; saving overwrites the file on disk"));
    layout->addWidget(m_text, 1);
    layout->addWidget(m_reload);
    layout->addWidget(keep);
    connect(m_reload, &QPushButton::clicked, this, &DiskChangedBar::reloadClicked);
    connect(keep, &QPushButton::clicked, this, &DiskChangedBar::keepMineClicked);
    hide();
}

void DiskChangedBar::showState(bool pending, bool exists, const QString &fileName)
{
    if (!pending) {
        hide();
        return;
    }
    const QString name = fileName.toHtmlEscaped();
    m_text->setText(exists ? tr("<b>%1 changed on disk</b> since you opened or saved it.").arg(name)
                           : tr("<b>%1 was deleted on disk.</b> Keep Mine and save to write it again.").arg(name));
    m_reload->setEnabled(exists);
    show();
}

LockProblemList::LockProblemList(QWidget *parent) : QListWidget(parent)
{
    setObjectName(u"problemList"_s);
    setWordWrap(true);
    connect(this, &QListWidget::itemActivated, this, [this](QListWidgetItem *item) {
        if (const int line = item->data(Qt::UserRole).toInt(); line > 0)
            Q_EMIT goToLine(line, item->data(Qt::UserRole + 1).toInt());
    });
}

void LockProblemList::addProblem(const QString &text, const QColor &colour, const LockSourceRange *range)
{
    auto *item = new QListWidgetItem(text, this);
    item->setForeground(colour);
    if (range) {
        item->setData(Qt::UserRole, range->line);
        item->setData(Qt::UserRole + 1, range->column);
    }
}

void LockProblemList::showProblems(const LockParseResult &parsed, const QStringList &notes)
{
    clear();
    for (const LockDiagnostic &d : parsed.diagnostics)
        addProblem(u"%1:%2: %3: %4%5"_s.arg(d.range.line)
                       .arg(d.range.column)
                       .arg(d.isError() ? tr("error") : tr("warning"), d.summary, d.detail.isEmpty() ? QString() : u" — "_s + d.detail),
                   d.isError() ? QColor(0xd7, 0x3a, 0x49) : QColor(0xb0, 0x6a, 0x00), &d.range);
    for (const DroppedContent &d : parsed.document.dropped) {
        if (d.kind == DroppedContent::Kind::InvalidProvider || d.kind == DroppedContent::Kind::UnknownAttribute
            || d.kind == DroppedContent::Kind::UnknownBlock || d.kind == DroppedContent::Kind::DuplicateProvider)
            continue; // these are errors above
        addProblem(
            tr("%1:%2: dropped on save: %3 %4").arg(d.range.line).arg(d.range.column).arg(toString(d.kind), d.text.left(80).simplified()),
            QColor(0x58, 0x60, 0x69), &d.range);
    }
    for (const QString &n : notes)
        addProblem(n, QColor(0xb0, 0x6a, 0x00), nullptr);
    if (count() == 0)
        new QListWidgetItem(tr("No problems."), this);
}

} // namespace provender::ui

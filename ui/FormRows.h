#pragma once
// Form rows the dialogs share: a line edit with a "Browse…" button beside it, as one row of a
// QFormLayout, and the comma-separated lists such edits hold (the registry and OCI dialogs); the
// wrapped, selectable label of a status, summary or path line (every window); the label that says
// why a dialog's form cannot be used yet (the registry and OCI dialogs); the file filter of lock files.

#include <QFormLayout>
#include <QHBoxLayout>
#include <QLabel>
#include <QLineEdit>
#include <QPushButton>
#include <QString>
#include <QStringList>

#include <functional>

namespace provender::ui {

/// A wrapped label named `objectName` whose text can be selected (to copy a path, a host or an
/// error); `parent` may be null when a layout adopts it.
inline QLabel *selectableLabel(const QString &objectName, QWidget *parent = nullptr)
{
    auto *label = new QLabel(parent);
    label->setObjectName(objectName);
    label->setWordWrap(true);
    label->setTextInteractionFlags(Qt::TextSelectableByMouse);
    return label;
}

/// Shows why a form cannot be used in `label`, hidden while there is nothing to say; true when
/// `problem` is empty (the form can be used).
inline bool showProblem(QLabel *label, const QString &problem)
{
    label->setText(problem);
    label->setVisible(!problem.isEmpty());
    return problem.isEmpty();
}

/// The file-dialog filter of lock files (every window that opens, saves or compares one).
inline QString lockFileFilter()
{
    return QObject::tr("Lock files (*.lock.hcl *.hcl);;All files (*)");
}

/// "a, b ,c" -> {a, b, c}
inline QStringList splitList(const QString &text)
{
    QStringList out;
    for (const QString &part : text.split(QLatin1Char(','), Qt::SkipEmptyParts))
        if (!part.trimmed().isEmpty())
            out << part.trimmed();
    return out;
}

/// `edit` and a "Browse…" button (a child of `parent`) as one row of `form`; the button calls
/// `browse` with the edit, which fills it.
inline void addBrowseRow(QWidget *parent, QFormLayout *form, const QString &label, QLineEdit *edit,
                         const std::function<void(QLineEdit *)> &browse)
{
    auto *button = new QPushButton(QObject::tr("Browse…"), parent);
    QObject::connect(button, &QPushButton::clicked, parent, [edit, browse] { browse(edit); });
    auto *row = new QHBoxLayout;
    row->addWidget(edit, 1);
    row->addWidget(button);
    form->addRow(label, row);
}

/// A new line edit (a child of `parent`) in a browse row of `form` (addBrowseRow).
inline QLineEdit *fileRow(QWidget *parent, QFormLayout *form, const QString &label, const std::function<void(QLineEdit *)> &browse)
{
    auto *edit = new QLineEdit(parent);
    addBrowseRow(parent, form, label, edit, browse);
    return edit;
}

} // namespace provender::ui

#pragma once
// Small form helpers the OCI dialogs share (ui/oci only).

#include <QDir>
#include <QFileDialog>
#include <QFormLayout>
#include <QHBoxLayout>
#include <QLineEdit>
#include <QPushButton>
#include <QStringList>

#include <functional>

namespace provender::ui::ociform {

/// "a, b ,c" -> {a, b, c}
inline QStringList splitList(const QString &text)
{
    QStringList out;
    for (const QString &part : text.split(QLatin1Char(','), Qt::SkipEmptyParts))
        if (!part.trimmed().isEmpty())
            out << part.trimmed();
    return out;
}

/// A line edit with a "Browse…" button as one row of `form`; `pick` fills the edit.
inline QLineEdit *fileRow(QWidget *parent, QFormLayout *form, const QString &label, const std::function<void(QLineEdit *)> &pick)
{
    auto *edit = new QLineEdit(parent);
    auto *button = new QPushButton(QObject::tr("Browse…"), parent);
    QObject::connect(button, &QPushButton::clicked, parent, [edit, pick] { pick(edit); });
    auto *row = new QHBoxLayout;
    row->addWidget(edit, 1);
    row->addWidget(button);
    form->addRow(label, row);
    return edit;
}

/// The "Extra CA file:" row both OCI dialogs have (a PEM file trusted besides the system CAs).
inline QLineEdit *caFileRow(QWidget *parent, QFormLayout *form)
{
    QLineEdit *edit = fileRow(parent, form, QObject::tr("Extra CA file:"), [parent](QLineEdit *e) {
        const QString f = QFileDialog::getOpenFileName(parent, QObject::tr("CA Certificates"), QDir::homePath(),
                                                       QObject::tr("PEM files (*.pem *.crt);;All files (*)"));
        if (!f.isEmpty())
            e->setText(f);
    });
    edit->setPlaceholderText(QObject::tr("trusted besides the system CAs (TLS is always verified)"));
    return edit;
}

} // namespace provender::ui::ociform

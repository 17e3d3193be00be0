#pragma once
// Small form helpers the OCI dialogs share (ui/oci only).

#include "ui/FormRows.h"

#include <QDir>
#include <QFileDialog>
#include <QStringList>

namespace provender::ui::ociform {

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

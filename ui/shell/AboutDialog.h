#pragma once
// Help ▸ About Provender: version (CMake's project version), the project's licence
// (GPL-3.0-or-later) and the licences of the libraries it uses, with links.
// objectNames (tests): "aboutDialog", "aboutVersion", "aboutLicences".

#include <QDialog>

namespace provender::ui {

class AboutDialog : public QDialog
{
    Q_OBJECT
public:
    explicit AboutDialog(QWidget *parent = nullptr);

    /// The third-party licence table as HTML (also what the dialog shows).
    static QString licencesHtml();
};

} // namespace provender::ui

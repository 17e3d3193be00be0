#include "ui/shell/AboutDialog.h"

#include "ui/shell/Shell.h"

#include <QApplication>
#include <QDialogButtonBox>
#include <QHBoxLayout>
#include <QLabel>
#include <QPushButton>
#include <QTextBrowser>
#include <QVBoxLayout>

#include <openssl/opensslv.h>

namespace provender::ui {

namespace {

struct ThirdParty
{
    const char *name;
    const char *use;
    const char *licence;
    const char *url;
};

// Short texts; the full licence texts ship with each Debian package under /usr/share/doc/<package>/copyright.
constexpr ThirdParty kThirdParty[] = {
    {"Qt 6", "GUI, containers, networking, SQL, concurrency", "LGPL-3.0-only (or GPL-2.0/GPL-3.0)",
     "https://doc.qt.io/qt-6/licensing.html"},
    {"QuaZip", "reading and writing zip archives", "LGPL-2.1-or-later with a static linking exception",
     "https://github.com/stachenov/quazip/blob/master/COPYING"},
    {"OpenSSL 3", "SHA-256, TLS", "Apache-2.0", "https://www.openssl.org/source/license.html"},
    {"libarchive", "tar, tar.gz, tar.zst and zip bundles", "BSD-2-Clause", "https://github.com/libarchive/libarchive/blob/master/COPYING"},
    {"libgit2", "reading lock files from git history", "GPL-2.0-only with a linking exception",
     "https://github.com/libgit2/libgit2/blob/main/COPYING"},
    {"SQLite", "the hash cache (through Qt SQL)", "public domain", "https://www.sqlite.org/copyright.html"},
    {"zlib", "inflating zip entries", "zlib licence", "https://zlib.net/zlib_license.html"},
    {"ISA-L", "fast inflating (when built with it)", "BSD-3-Clause", "https://github.com/intel/isa-l/blob/master/LICENSE"},
    {"ICU", "Unicode (through Qt)", "Unicode-3.0 (ICU licence)", "https://github.com/unicode-org/icu/blob/main/LICENSE"},
};

} // namespace

QString AboutDialog::licencesHtml()
{
    QString html = QStringLiteral("<table cellspacing='0' cellpadding='3'>"
                                  "<tr><th align='left'>%1</th><th align='left'>%2</th><th align='left'>%3</th></tr>")
                       .arg(tr("Library"), tr("Used for"), tr("Licence"));
    for (const ThirdParty &t : kThirdParty) {
        html += QStringLiteral("<tr><td><b>%1</b></td><td>%2</td><td><a href='%4'>%3</a></td></tr>")
                    .arg(QString::fromUtf8(t.name), QString::fromUtf8(t.use), QString::fromUtf8(t.licence), QString::fromUtf8(t.url));
    }
    html += QStringLiteral("</table><p>%1</p>")
                .arg(tr("Running with Qt %1; built with %2. On Debian the full licence texts are in "
                        "/usr/share/doc/&lt;package&gt;/copyright.")
                         .arg(QString::fromLatin1(qVersion()), QStringLiteral(OPENSSL_VERSION_TEXT).toHtmlEscaped()));
    return html;
}

AboutDialog::AboutDialog(QWidget *parent) : QDialog(parent)
{
    setObjectName(QStringLiteral("aboutDialog"));
    setWindowTitle(tr("About Provender"));

    auto *layout = new QVBoxLayout(this);
    auto *header = new QHBoxLayout;
    auto *icon = new QLabel;
    icon->setPixmap(appIcon().pixmap(64, 64));
    header->addWidget(icon, 0, Qt::AlignTop);

    auto *text = new QVBoxLayout;
    auto *version =
        new QLabel(QStringLiteral("<span style='font-size:x-large'><b>Provender</b></span> %1").arg(QStringLiteral(PROVENDER_VERSION)));
    version->setObjectName(QStringLiteral("aboutVersion"));
    version->setTextInteractionFlags(Qt::TextSelectableByMouse);
    text->addWidget(version);
    auto *blurb = new QLabel(tr("Curate OpenTofu/Terraform provider mirrors and dependency lock files.<br>"
                                "Copyright © the Provender authors. Licensed under the "
                                "<a href='https://www.gnu.org/licenses/gpl-3.0.html'>GNU General Public License, version 3 or later</a> "
                                "(GPL-3.0-or-later). There is NO WARRANTY, to the extent permitted by law."));
    blurb->setWordWrap(true);
    blurb->setOpenExternalLinks(true);
    blurb->setTextFormat(Qt::RichText);
    text->addWidget(blurb);
    header->addLayout(text, 1);
    layout->addLayout(header);

    auto *third = new QLabel(tr("Provender uses these libraries:"));
    layout->addWidget(third);
    auto *licences = new QTextBrowser;
    licences->setObjectName(QStringLiteral("aboutLicences"));
    licences->setOpenExternalLinks(true);
    licences->setHtml(licencesHtml());
    licences->setMinimumSize(600, 260);
    layout->addWidget(licences, 1);

    auto *buttons = new QDialogButtonBox(QDialogButtonBox::Close);
    QPushButton *aboutQt = buttons->addButton(tr("About Qt"), QDialogButtonBox::HelpRole);
    aboutQt->setObjectName(QStringLiteral("aboutQtButton"));
    connect(aboutQt, &QPushButton::clicked, this, [this] { QApplication::aboutQt(); });
    connect(buttons, &QDialogButtonBox::rejected, this, &QDialog::reject);
    layout->addWidget(buttons);
    resize(700, 480);
}

} // namespace provender::ui

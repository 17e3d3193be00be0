// Renders File ▸ Open OCI Registry… with a filled form into OUTDIR/oci-open.png (run by
// scripts/screenshots; not a test). The registry in the browser (oci.png) and Publish to OCI
// Registry… after a push (oci-publish.png) need a registry: tests/oci/tst_oci_ui renders them
// under the same PROVENDER_SCREENSHOT_DIR.

#include "Screenshots.h"

#include "ui/oci/OpenOciDialog.h"

#include <QApplication>
#include <QTextStream>

using namespace provender::ui;

int renderOciScreenshots(const QString &out)
{
    QCoreApplication::setOrganizationName(QStringLiteral("ProvenderScreenshots"));
    OpenOciDialog dialog;
    OciOpenForm form;
    form.repositoryTemplate = QStringLiteral("registry.example.com/opentofu/${namespace}/${type}");
    form.from = OciOpenForm::Providers::Typed;
    form.typed = {QStringLiteral("hashicorp/null"), QStringLiteral("hashicorp/random"), QStringLiteral("integrations/github")};
    dialog.setForm(form);
    dialog.show();
    QCoreApplication::processEvents();
    if (!dialog.grab().save(out + QStringLiteral("/oci-open.png"))) {
        QTextStream(stderr) << "cannot write " << out << "/oci-open.png\n";
        return 1;
    }
    return 0;
}

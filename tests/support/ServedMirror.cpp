#include "tests/support/ServedMirror.h"

#include "tests/support/TestSupport.h"

#include <QJsonDocument>
#include <QStringList>

namespace provender::test {

QString ServedMirror::missingTools()
{
    return NginxFixture::missingToolsWithPython();
}

bool ServedMirror::start(const QString &dir, QString *error, const QString &serverExtra)
{
    const QByteArray out = runPythonCode(QString::fromUtf8(kMakeMirror), {dir}, error);
    if (out.isNull())
        return false;
    m_expected = QJsonDocument::fromJson(out).object();
    if (m_expected.isEmpty()) {
        *error = QStringLiteral("the mirror script printed no hashes: ") + QString::fromUtf8(out);
        return false;
    }
    return m_nginx.makeCertificates(error) && m_nginx.start(dir, QString::fromUtf8(kServerExtra) + serverExtra, {}, error);
}

} // namespace provender::test

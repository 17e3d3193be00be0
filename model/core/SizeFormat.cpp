#include "model/core/SizeFormat.h"

namespace provender {

QString formatDataSize(qint64 bytes, const QLocale &locale)
{
    return locale.formattedDataSize(bytes, 1, QLocale::DataSizeIecFormat);
}

} // namespace provender

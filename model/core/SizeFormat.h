#pragma once
// The one way sizes are shown to people, in the GUI and on the command line: IEC units (bytes,
// KiB, MiB, GiB: powers of 1024, the units the limits in messages, options and docs use), one
// decimal. docs/ARCHITECTURE.md "Sizes".

#include <QLocale>
#include <QString>

namespace provender {

/// `bytes` as "512 bytes", "1.5 KiB", "3.2 GiB" in `locale` (decimal separator, digits). The C
/// locale (the default) for text a program or a test may read; the user's for the GUI.
QString formatDataSize(qint64 bytes, const QLocale &locale = QLocale::c());

} // namespace provender

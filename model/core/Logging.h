#pragma once
// One logging category per subsystem, quiet (warnings only) by default.
// Enable with QT_LOGGING_RULES="provender.*.debug=true".

#include <QLoggingCategory>

Q_DECLARE_LOGGING_CATEGORY(lcCore)
Q_DECLARE_LOGGING_CATEGORY(lcHash)
Q_DECLARE_LOGGING_CATEGORY(lcMirror)
Q_DECLARE_LOGGING_CATEGORY(lcLock)
Q_DECLARE_LOGGING_CATEGORY(lcVerify)
Q_DECLARE_LOGGING_CATEGORY(lcItems)
Q_DECLARE_LOGGING_CATEGORY(lcUi)
Q_DECLARE_LOGGING_CATEGORY(lcCli)
Q_DECLARE_LOGGING_CATEGORY(lcNetwork)
Q_DECLARE_LOGGING_CATEGORY(lcRegistry)
Q_DECLARE_LOGGING_CATEGORY(lcOci)

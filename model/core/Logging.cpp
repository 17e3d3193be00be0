#include "model/core/Logging.h"

Q_LOGGING_CATEGORY(lcCore, "provender.core", QtWarningMsg)
Q_LOGGING_CATEGORY(lcHash, "provender.hash", QtWarningMsg)
Q_LOGGING_CATEGORY(lcMirror, "provender.mirror", QtWarningMsg)
Q_LOGGING_CATEGORY(lcLock, "provender.lock", QtWarningMsg)
Q_LOGGING_CATEGORY(lcVerify, "provender.verify", QtWarningMsg)
Q_LOGGING_CATEGORY(lcItems, "provender.items", QtWarningMsg)
Q_LOGGING_CATEGORY(lcUi, "provender.ui", QtWarningMsg)
Q_LOGGING_CATEGORY(lcCli, "provender.cli", QtWarningMsg)
Q_LOGGING_CATEGORY(lcNetwork, "provender.network", QtWarningMsg)
Q_LOGGING_CATEGORY(lcRegistry, "provender.registry", QtWarningMsg)
Q_LOGGING_CATEGORY(lcOci, "provender.oci", QtWarningMsg)

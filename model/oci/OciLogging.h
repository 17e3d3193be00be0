#pragma once
// The OCI subsystem's logging category, "provender.oci" (quiet by default; enable with
// QT_LOGGING_RULES="provender.oci.debug=true"). Declared here rather than in model/core/Logging.h
// so that adding it did not rebuild every translation unit of the project; it follows the same
// rules as the categories there.

#include <QLoggingCategory>

Q_DECLARE_LOGGING_CATEGORY(lcOci)

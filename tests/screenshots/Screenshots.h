#pragma once
// The renderers of provender_screenshots, one per part; each writes its PNGs into `out` and
// returns 0, or 1 after saying on stderr what failed.

#include <QString>

int renderBundleScreenshots(const QString &out);
int renderBrowserScreenshots(const QString &out);
int renderExportScreenshots(const QString &out);
int renderLockScreenshots(const QString &out);
int renderOciScreenshots(const QString &out);

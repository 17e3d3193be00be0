#pragma once
// What the files of MainWindow share and nothing else includes: MainWindow.cpp (the typed
// surface, settings, selection), MainWindowWidgets.cpp (menus, actions, pages, docks),
// MainWindowOpen.cpp (opening a source), MainWindowVerify.cpp (verification, anomalies) and
// MainWindowView.cpp (filters, summary, details, copy).

#include "model/verify/Verdict.h"

#include <QList>

namespace provender::ui::mainwindow {

// The pages of the central stack.
constexpr int kEmptyPage = 0;
constexpr int kMirrorPage = 1;

// The order of the verdicts in the status bar's badges, the verdict filter and summaries.
inline const QList<Verdict> kVerdictOrder = {Verdict::Verified, Verdict::Mismatch, Verdict::Refused, Verdict::Unverified,
                                             Verdict::Missing,  Verdict::Error,    Verdict::Pending};

} // namespace provender::ui::mainwindow

#pragma once
// The status line of a window's or dialog's JobTracker as one row: a label for the tracker's
// messages and each job's description (it takes the free width), a progress bar (at most 200 px
// wide) and a Cancel button, the two visible only while a job runs (JobTracker::bindStatus).
//
// Widgets (objectName): "jobProgress", "jobCancel"; a window that names the label sets it.

#include <QWidget>

class QLabel;
class QProgressBar;
class QPushButton;

namespace provender::ui {

class JobTracker;

class JobStatusRow final : public QWidget
{
    Q_OBJECT
public:
    explicit JobStatusRow(JobTracker *jobs, QWidget *parent = nullptr);

    QLabel *label() const { return m_label; }
    QProgressBar *progressBar() const { return m_progress; }
    QPushButton *cancelButton() const { return m_cancel; }

private:
    QLabel *m_label = nullptr;
    QProgressBar *m_progress = nullptr;
    QPushButton *m_cancel = nullptr;
};

} // namespace provender::ui

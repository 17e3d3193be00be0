#include "ui/JobStatusRow.h"

#include "ui/JobTracker.h"

#include <QHBoxLayout>
#include <QLabel>
#include <QProgressBar>
#include <QPushButton>

namespace provender::ui {

JobStatusRow::JobStatusRow(JobTracker *jobs, QWidget *parent)
    : QWidget(parent),
      m_label(new QLabel(this)),
      m_progress(new QProgressBar(this)),
      m_cancel(new QPushButton(tr("Cancel"), this))
{
    m_progress->setObjectName(QStringLiteral("jobProgress"));
    m_progress->setMaximumWidth(200);
    m_cancel->setObjectName(QStringLiteral("jobCancel"));
    auto *row = new QHBoxLayout(this);
    row->setContentsMargins(0, 0, 0, 0);
    row->addWidget(m_label, 1);
    row->addWidget(m_progress);
    row->addWidget(m_cancel);
    jobs->bindStatus(m_label, m_progress, m_cancel);
}

} // namespace provender::ui

#include "ui/browser/RequestLogPanel.h"

#include "model/network/RequestLogModel.h"
#include "ui/VerdictStyle.h"

#include <QCheckBox>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QIdentityProxyModel>
#include <QLabel>
#include <QScrollBar>
#include <QSortFilterProxyModel>
#include <QTableView>
#include <QVBoxLayout>

namespace provender::ui {

namespace {

/// Colours failed rows (the model has no Qt Gui roles: it lives in model/).
class FailureTint final : public QIdentityProxyModel
{
public:
    using QIdentityProxyModel::QIdentityProxyModel;
    QVariant data(const QModelIndex &index, int role) const override
    {
        if (role == Qt::ForegroundRole && index.data(RequestLogModel::FailedRole).toBool())
            return verdictColor(Verdict::Error);
        return QIdentityProxyModel::data(index, role);
    }
};

} // namespace

RequestLogPanel::RequestLogPanel(RequestLogModel *model, QWidget *parent) : QWidget(parent), m_model(model)
{
    auto *layout = new QVBoxLayout(this);
    layout->setContentsMargins(4, 4, 4, 4);
    auto *top = new QHBoxLayout;
    m_summary = new QLabel(this);
    m_summary->setObjectName(QStringLiteral("requestLogSummary"));
    top->addWidget(m_summary, 1);
    m_failuresOnly = new QCheckBox(tr("Failures only"), this);
    m_failuresOnly->setObjectName(QStringLiteral("failuresOnly"));
    top->addWidget(m_failuresOnly);
    layout->addLayout(top);

    auto *tint = new FailureTint(this);
    tint->setSourceModel(model);
    m_proxy = new QSortFilterProxyModel(this);
    m_proxy->setSourceModel(tint);
    m_proxy->setFilterRole(RequestLogModel::FailedRole);
    m_proxy->setFilterKeyColumn(0);

    m_view = new QTableView(this);
    m_view->setObjectName(QStringLiteral("requestLogView"));
    m_view->setModel(m_proxy);
    m_view->setSelectionBehavior(QAbstractItemView::SelectRows);
    m_view->setAlternatingRowColors(true);
    m_view->setWordWrap(false);
    m_view->setTextElideMode(Qt::ElideMiddle);
    m_view->verticalHeader()->hide();
    m_view->verticalHeader()->setDefaultSectionSize(m_view->fontMetrics().height() + 6);
    QHeaderView *h = m_view->horizontalHeader();
    h->setStretchLastSection(true);
    h->resizeSection(RequestLogModel::MethodColumn, 60);
    h->resizeSection(RequestLogModel::StatusColumn, 60);
    h->resizeSection(RequestLogModel::UrlColumn, 520);
    h->resizeSection(RequestLogModel::BytesColumn, 90);
    h->resizeSection(RequestLogModel::TimeColumn, 80);
    h->resizeSection(RequestLogModel::AuthColumn, 55);
    layout->addWidget(m_view, 1);

    connect(m_failuresOnly, &QCheckBox::toggled, this,
            [this](bool on) { m_proxy->setFilterFixedString(on ? QStringLiteral("true") : QString()); });
    connect(model, &QAbstractItemModel::rowsInserted, this, [this] {
        updateSummary();
        if (m_view->verticalScrollBar() && !m_view->verticalScrollBar()->isSliderDown())
            m_view->scrollToBottom();
    });
    connect(model, &QAbstractItemModel::rowsRemoved, this, &RequestLogPanel::updateSummary);
    connect(model, &QAbstractItemModel::modelReset, this, &RequestLogPanel::updateSummary);
    updateSummary();
}

void RequestLogPanel::updateSummary()
{
    const int n = m_model->rowCount();
    if (n == 0) {
        m_summary->setText(tr("No requests yet."));
        return;
    }
    m_summary->setText(tr("%n request(s) · %1 failed · %2 received", nullptr, n)
                           .arg(m_model->failedCount())
                           .arg(RequestLogModel::formatBytes(m_model->totalBytes())));
}

} // namespace provender::ui

#pragma once
// The per-request log of a remote mirror (RequestLogModel) as a table with a one-line summary
// ("42 requests · 3 failed · 12.1 MiB") and a "Failures only" filter. Failed rows are drawn in
// the error verdict colour. objectNames: "requestLogView", "requestLogSummary", "failuresOnly".

#include <QWidget>

class QCheckBox;
class QLabel;
class QSortFilterProxyModel;
class QTableView;

namespace provender {
class RequestLogModel;
}

namespace provender::ui {

class RequestLogPanel : public QWidget
{
    Q_OBJECT
public:
    explicit RequestLogPanel(RequestLogModel *model, QWidget *parent = nullptr);
    QTableView *view() const { return m_view; }

private:
    RequestLogModel *m_model;
    QSortFilterProxyModel *m_proxy;
    QTableView *m_view;
    QLabel *m_summary;
    QCheckBox *m_failuresOnly;
    void updateSummary();
};

} // namespace provender::ui

#pragma once

#include <QMainWindow>

namespace provender::ui {

class MainWindow : public QMainWindow
{
    Q_OBJECT
public:
    explicit MainWindow(QWidget *parent = nullptr);
    ~MainWindow() override;

    /// Open a mirror directory: scan it and verify every archive in the background.
    void openMirror(const QString &path);
};

} // namespace provender::ui

#include "ui/MainWindow.h"

namespace provender::ui {

MainWindow::MainWindow(QWidget *parent) : QMainWindow(parent)
{
    setWindowTitle(QStringLiteral("Provender"));
    resize(1100, 700);
}

MainWindow::~MainWindow() = default;

void MainWindow::openMirror(const QString &path)
{
    setWindowTitle(path + QStringLiteral(" — Provender"));
}

} // namespace provender::ui

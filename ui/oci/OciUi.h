#pragma once
// OCI registries in the GUI (docs/OCI.md "In the GUI"): File ▸ Open OCI Registry… (Ctrl+Alt+O;
// OpenOciDialog: an OciSource in the main window's browser) and File ▸ Publish to OCI Registry…
// (Ctrl+Alt+P; PublishOciDialog: the directory mirror or bundle the browser shows, pushed in
// OpenTofu's oci_mirror format). `provender oci://…` opens a registry from the command line
// (openOciArgument, app/main.cpp).

namespace provender::ui {

class MainWindow;

void installOciUi(MainWindow *window);

} // namespace provender::ui

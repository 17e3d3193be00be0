#pragma once
// The dark palette of the documented dark-mode screenshots (tests/screenshots) and of the widget
// tests that check a view stays readable on it (tst_verdictstyle): one palette, so the tests check
// the colours the screenshots show.

#include <QColor>
#include <QPalette>

namespace provender::test {

inline QPalette darkPalette()
{
    QPalette p;
    const QColor text(0xe6, 0xe6, 0xe6);
    const QColor raised(0x3a, 0x3a, 0x3a);
    const QColor disabled(0x80, 0x80, 0x80);
    p.setColor(QPalette::Window, QColor(0x2f, 0x2f, 0x2f));
    p.setColor(QPalette::WindowText, text);
    p.setColor(QPalette::Base, QColor(0x24, 0x24, 0x24));
    p.setColor(QPalette::AlternateBase, QColor(0x2c, 0x2c, 0x2c));
    p.setColor(QPalette::Text, text);
    p.setColor(QPalette::PlaceholderText, QColor(0x9a, 0x9a, 0x9a));
    p.setColor(QPalette::Button, raised);
    p.setColor(QPalette::ButtonText, text);
    p.setColor(QPalette::Highlight, QColor(0x2a, 0x6f, 0xb8));
    p.setColor(QPalette::HighlightedText, Qt::white);
    p.setColor(QPalette::ToolTipBase, raised);
    p.setColor(QPalette::ToolTipText, text);
    p.setColor(QPalette::Link, QColor(0x7c, 0xb7, 0xff));
    for (const QPalette::ColorRole role : {QPalette::Text, QPalette::ButtonText, QPalette::WindowText})
        p.setColor(QPalette::Disabled, role, disabled);
    return p;
}

} // namespace provender::test

#include "theme.h"

#include <QListWidget>

namespace wp::theme {

QColor sideColor(int side) {
    return side == 0   ? QColor(0xb0, 0x25, 0x2e)
           : side == 1 ? QColor(0x1f, 0x4e, 0x9a)
                       : QColor(0x6b, 0x60, 0x50);
}

QColor sideLight(int side) {
    return side == 0   ? QColor(0xee, 0xc4, 0xbf)
           : side == 1 ? QColor(0xbd, 0xd2, 0xf0)
                       : QColor(0xe8, 0xe2, 0xc8);
}

QColor sideDark(int side) {
    return side == 0   ? QColor(0x6e, 0x12, 0x18)
           : side == 1 ? QColor(0x10, 0x2c, 0x5c)
                       : QColor(0x3b, 0x2f, 0x22);
}

QColor parchment() {
    return QColor(0xf4, 0xec, 0xd8);
}

QColor parchmentDark() {
    return QColor(0xe2, 0xd4, 0xb2);
}

QColor ink() {
    return QColor(0x2b, 0x1f, 0x12);
}

QColor gold() {
    return QColor(0xc8, 0x96, 0x1e);
}

QString sideName(int side) {
    return side == 0 ? QStringLiteral("Catholic") : side == 1 ? QStringLiteral("Protestant") : QString();
}

QString turnYears(int turn) {
    return QStringLiteral("%1–%2").arg(1618 + 2 * turn).arg(1619 + 2 * turn);
}

QFont serif(double pt, bool bold) {
    QFont f(QStringLiteral("DejaVu Serif"));
    f.setPointSizeF(pt);
    f.setBold(bold);
    f.setHintingPreference(QFont::PreferVerticalHinting); // see docs/gui.md "Speed"
    return f;
}

QFont sans(double pt, bool bold) {
    QFont f(QStringLiteral("DejaVu Sans"));
    f.setPointSizeF(pt);
    f.setBold(bold);
    f.setHintingPreference(QFont::PreferVerticalHinting);
    return f;
}

QString styleSheet() {
    return QStringLiteral(R"(
QMainWindow, QDialog { background: #efe5cf; }
QMainWindow::separator { background: #8a7556; width: 3px; height: 3px; }
QDockWidget { color: #f4ecd8; font-weight: bold; }
QDockWidget::title { background: qlineargradient(x1:0, y1:0, x2:0, y2:1, stop:0 #5a4630, stop:1 #3b2f22);
    padding: 5px 8px; text-align: left; }
QToolBar { background: qlineargradient(x1:0, y1:0, x2:0, y2:1, stop:0 #5a4630, stop:1 #3b2f22);
    border: none; spacing: 4px; padding: 3px; }
QToolBar QToolButton { color: #f4ecd8; padding: 4px 8px; border-radius: 4px; }
QToolBar QToolButton:hover { background: #6e5a40; }
QToolBar QToolButton:disabled { color: #9a8a70; }
QStatusBar { background: #3b2f22; color: #e8dcc0; }
QStatusBar QLabel { color: #e8dcc0; }
QPushButton { background: qlineargradient(x1:0, y1:0, x2:0, y2:1, stop:0 #fbf6ea, stop:1 #e4d6b6);
    border: 1px solid #8a7556; border-radius: 5px; padding: 5px 12px; color: #2b1f12; }
QPushButton:hover { background: qlineargradient(x1:0, y1:0, x2:0, y2:1, stop:0 #fffaf0, stop:1 #efdfb8);
    border-color: #c8961e; }
QPushButton:pressed { background: #d9c79e; }
QPushButton:disabled { color: #a09070; border-color: #c4b494; background: #eee6d4; }
QPushButton[primary="true"] { background: qlineargradient(x1:0, y1:0, x2:0, y2:1, stop:0 #e9b949, stop:1 #c8961e);
    border-color: #7a5a10; font-weight: bold; }
QPushButton[primary="true"]:hover { background: #f0c65a; }
QPushButton[choice="true"] { text-align: left; padding: 6px 10px; }
QTreeWidget, QListWidget, QListView, QTextBrowser, QPlainTextEdit, QTableWidget {
    background: #fbf7ee; border: 1px solid #b8a47e; border-radius: 4px; color: #2b1f12;
    selection-background-color: #e9c46a; selection-color: #2b1f12; }
QTreeWidget::item, QListWidget::item { padding: 3px 2px; }
QTreeWidget::item:hover, QListWidget::item:hover { background: #f3e4bd; }
QHeaderView::section { background: #e4d6b6; border: none; border-bottom: 1px solid #b8a47e; padding: 3px; }
QGroupBox { border: 1px solid #b8a47e; border-radius: 6px; margin-top: 14px; padding: 8px 6px 6px 6px;
    background: #f7f0e0; font-weight: bold; color: #4a3a24; }
QGroupBox::title { subcontrol-origin: margin; left: 10px; padding: 0 4px; }
QComboBox, QSpinBox, QLineEdit { background: #fbf7ee; border: 1px solid #b8a47e; border-radius: 4px;
    padding: 3px 6px; color: #2b1f12; }
QCheckBox, QRadioButton, QLabel { color: #2b1f12; }
QScrollArea { background: transparent; border: none; }
QScrollArea > QWidget > QWidget { background: transparent; }
QTabWidget::pane { border: 1px solid #b8a47e; }
QTabBar::tab { background: #e4d6b6; padding: 4px 10px; border-top-left-radius: 4px; border-top-right-radius: 4px; }
QTabBar::tab:selected { background: #fbf7ee; }
QToolTip { background: #fff9e6; color: #2b1f12; border: 1px solid #8a7556; padding: 4px; }
)");
}

void wrapLines(QListWidget* list) {
    list->setWordWrap(true);
    list->setResizeMode(QListView::Adjust);
    // The wrapped items come out a few pixels wider than the view; the text itself fits.
    list->setHorizontalScrollBarPolicy(Qt::ScrollBarAlwaysOff);
}

} // namespace wp::theme

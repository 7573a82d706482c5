// The look of the app: colours of the sides and of the parchment, fonts, the style sheet.
#pragma once

#include <QColor>
#include <QFont>
#include <QString>

class QListWidget;

namespace wp::theme {

QColor sideColor(int side); // 0 Catholic red, 1 Protestant blue, else grey
QColor sideLight(int side); // the pale tint of the side
QColor sideDark(int side);
QColor parchment();
QColor parchmentDark();
QColor ink();
QColor gold();

QString sideName(int side);  // "Catholic" / "Protestant"
QString turnYears(int turn); // "1620–1621" (turn t covers 1618+2t and 1619+2t)
QFont serif(double pt, bool bold = false);
QFont sans(double pt, bool bold = false);

QString styleSheet(); // the application's style sheet

// A list of lines of text (reasons, what happened) that wraps each line within the list's width, with no
// horizontal scroll bar.
void wrapLines(QListWidget* list);

} // namespace wp::theme

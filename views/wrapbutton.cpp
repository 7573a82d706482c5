#include "wrapbutton.h"

#include <QStyleOptionButton>
#include <QStylePainter>

#include <algorithm>

namespace wp {

WrapButton::WrapButton(const QString& text, QWidget* parent) : QPushButton(text, parent) {
    QSizePolicy p(QSizePolicy::Preferred, QSizePolicy::Preferred);
    p.setHeightForWidth(true);
    setSizePolicy(p);
}

QString WrapButton::wrapped(int width) const {
    const QFontMetrics fm = fontMetrics();
    QStringList lines;
    QString line;
    for (const QString& word : text().split(QLatin1Char(' '), Qt::SkipEmptyParts)) {
        const QString longer = line.isEmpty() ? word : line + QLatin1Char(' ') + word;
        if (!line.isEmpty() && fm.horizontalAdvance(longer) > width) {
            lines << line;
            line = word;
        } else {
            line = longer;
        }
    }
    lines << line;
    return lines.join(QLatin1Char('\n'));
}

QSize WrapButton::frame() const {
    QStyleOptionButton opt;
    initStyleOption(&opt);
    const QSize text(0, fontMetrics().height());
    return style()->sizeFromContents(QStyle::CT_PushButton, &opt, text, this) - text;
}

int WrapButton::heightForWidth(int width) const {
    const QSize f = frame();
    const int lines = int(wrapped(std::max(1, width - f.width())).count(QLatin1Char('\n'))) + 1;
    return std::max(QPushButton::sizeHint().height(),
                    f.height() + fontMetrics().height() + (lines - 1) * fontMetrics().lineSpacing());
}

QSize WrapButton::minimumSizeHint() const {
    // As narrow as its longest word: the rest goes onto further lines.
    int word = 0;
    for (const QString& w : text().split(QLatin1Char(' '), Qt::SkipEmptyParts))
        word = std::max(word, fontMetrics().horizontalAdvance(w));
    return {frame().width() + word, QPushButton::minimumSizeHint().height()};
}

void WrapButton::paintEvent(QPaintEvent*) {
    QStylePainter p(this);
    QStyleOptionButton opt;
    initStyleOption(&opt);
    opt.text = wrapped(width() - frame().width());
    p.drawControl(QStyle::CE_PushButton, opt);
}

} // namespace wp

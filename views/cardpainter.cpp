#include "cardpainter.h"

#include "theme.h"

#include <QFontMetricsF>
#include <QLinearGradient>
#include <QPainter>
#include <QPainterPath>
#include <QRadialGradient>

namespace wp {

QString donorName(const QString& donor) {
    if (donor.isEmpty())
        return donor;
    QString n = donor;
    n.replace(QLatin1Char('-'), QLatin1Char(' '));
    n[0] = n[0].toUpper();
    return n;
}

QString deckName(Deck deck) {
    switch (deck) {
    case Deck::Early:
        return QStringLiteral("Early War");
    case Deck::Intervention:
        return QStringLiteral("Intervention");
    case Deck::Apocalypse:
        return QStringLiteral("Apocalypse");
    }
    return {};
}

namespace {

// Lays out `text` in `r` with the largest font size (from `pt` down) that fits; returns false if even
// the smallest does not (then it is elided).
void drawFitted(QPainter& p, const QRectF& r, const QString& text, QFont font, double pt, double minPt,
                Qt::Alignment align = Qt::AlignLeft) {
    for (double size = pt; size >= minPt; size -= 0.25) {
        font.setPointSizeF(size);
        const QRectF need = QFontMetricsF(font).boundingRect(r, Qt::TextWordWrap | align, text);
        if (need.height() <= r.height() || size - 0.25 < minPt) {
            p.setFont(font);
            p.drawText(r, Qt::TextWordWrap | align, text);
            return;
        }
    }
}

} // namespace

void paintCard(QPainter& p, const QRectF& r, const GameData& d, int cardIdx, const CardLook& look) {
    const Card& c = d.cards[cardIdx];
    const int side = c.side == Side::Catholic ? 0 : 1;
    p.save();
    p.setRenderHint(QPainter::Antialiasing, true);
    p.setRenderHint(QPainter::TextAntialiasing, true);
    // Everything is laid out on a 180 x 260 card and scaled to r.
    p.translate(r.topLeft());
    const double sx = r.width() / 180.0, sy = r.height() / 260.0;
    p.scale(sx, sy);
    const QRectF card(0, 0, 180, 260);

    // Shadow and body.
    p.setPen(Qt::NoPen);
    p.setBrush(QColor(0, 0, 0, 50));
    p.drawRoundedRect(card.translated(2, 3), 10, 10);
    QLinearGradient body(card.topLeft(), card.bottomRight());
    body.setColorAt(0, QColor(0xfd, 0xf8, 0xea));
    body.setColorAt(1, QColor(0xec, 0xdf, 0xbf));
    p.setBrush(body);
    p.setPen(QPen(look.selected ? theme::gold() : theme::sideDark(side), look.selected ? 5 : 2.5));
    p.drawRoundedRect(card.adjusted(1.5, 1.5, -1.5, -1.5), 10, 10);

    // Header band in the side's colour.
    const QRectF band(6, 6, 168, 56);
    QLinearGradient bg(band.topLeft(), band.bottomLeft());
    bg.setColorAt(0, theme::sideColor(side).lighter(115));
    bg.setColorAt(1, theme::sideDark(side));
    QPainterPath bandPath;
    bandPath.addRoundedRect(band, 7, 7);
    p.fillPath(bandPath, bg);

    // Value disc.
    const QPointF vc(28, 34);
    QRadialGradient gold(vc - QPointF(5, 5), 22);
    gold.setColorAt(0, QColor(0xff, 0xf0, 0xa8));
    gold.setColorAt(0.7, QColor(0xd9, 0xa5, 0x20));
    gold.setColorAt(1, QColor(0x8a, 0x5a, 0x00));
    p.setBrush(gold);
    p.setPen(QPen(QColor(0x3a, 0x24, 0x05), 1.5));
    p.drawEllipse(vc, 17, 17);
    p.setPen(QColor(0x2b, 0x1a, 0x05));
    p.setFont(theme::serif(17, true));
    p.drawText(QRectF(vc.x() - 17, vc.y() - 17, 34, 34), Qt::AlignCenter, QString::number(c.value));

    // Id and mark.
    QString id = c.id;
    if (c.mark == CardMark::Asterisk)
        id += QStringLiteral(" ✱");
    else if (c.mark == CardMark::Dagger)
        id += QStringLiteral(" †");
    p.setPen(QColor(0xff, 0xf4, 0xd6));
    p.setFont(theme::sans(7.5, true));
    p.drawText(QRectF(50, 9, 120, 14), Qt::AlignRight | Qt::AlignVCenter, id);

    // Title.
    p.setPen(Qt::white);
    drawFitted(p, QRectF(50, 22, 120, 38), c.title, theme::serif(9.5, true), 9.5, 6.5,
               Qt::AlignLeft | Qt::AlignVCenter);

    // Deck line and the combat badge.
    p.setPen(QColor(0x6a, 0x55, 0x36));
    p.setFont(theme::sans(6.5));
    QString deckLine = deckName(c.deck);
    if (c.mark == CardMark::Asterisk)
        deckLine += QStringLiteral(" · removed after its Event");
    else if (c.mark == CardMark::Dagger)
        deckLine += QStringLiteral(" · Event once per game");
    p.drawText(QRectF(10, 64, 160, 12), Qt::AlignLeft | Qt::AlignVCenter, deckLine);
    double textTop = 80;
    if (c.combat) {
        const QRectF cb(10, 79, 82, 15);
        p.setPen(Qt::NoPen);
        p.setBrush(QColor(0x7a, 0x12, 0x12));
        p.drawRoundedRect(cb, 7.5, 7.5);
        p.setPen(Qt::white);
        p.setFont(theme::sans(6.5, true));
        p.drawText(cb, Qt::AlignCenter, QStringLiteral("COMBAT CARD"));
        textTop = 98;
    }

    // Event text.
    const double aidTop = 222;
    p.setPen(theme::ink());
    drawFitted(p, QRectF(11, textTop, 158, aidTop - textTop - 6), c.event, theme::sans(7.2), 7.2, 5.0);

    // Foreign Aid footer.
    p.setPen(QPen(QColor(0xb8, 0xa4, 0x7e), 1));
    p.drawLine(QPointF(10, aidTop), QPointF(170, aidTop));
    QStringList aid;
    for (auto it = c.aid.begin(); it != c.aid.end(); ++it)
        aid << QStringLiteral("%1 %2").arg(donorName(it.key())).arg(it.value());
    p.setPen(QColor(0x5a, 0x45, 0x26));
    p.setFont(theme::sans(6, true));
    p.drawText(QRectF(10, aidTop + 2, 160, 11), Qt::AlignLeft | Qt::AlignVCenter,
               QStringLiteral("FOREIGN AID"));
    p.setPen(theme::ink());
    drawFitted(p, QRectF(10, aidTop + 13, 160, 22),
               aid.isEmpty() ? QStringLiteral("—") : aid.join(QStringLiteral(" · ")), theme::sans(7.5, true),
               7.5, 5.5);

    if (look.dimmed) {
        p.setPen(Qt::NoPen);
        p.setBrush(QColor(0xf4, 0xec, 0xd8, 150));
        p.drawRoundedRect(card, 10, 10);
    }
    if (!look.badge.isEmpty()) {
        p.setFont(theme::sans(7, true));
        const double w = QFontMetricsF(p.font()).horizontalAdvance(look.badge) + 14;
        const QRectF br(180 - w - 8, 244, w, 13);
        p.setPen(Qt::NoPen);
        p.setBrush(QColor(0x3b, 0x2f, 0x22, 220));
        p.drawRoundedRect(br, 6.5, 6.5);
        p.setPen(QColor(0xf4, 0xec, 0xd8));
        p.drawText(br, Qt::AlignCenter, look.badge);
    }
    p.restore();
}

void paintCardBack(QPainter& p, const QRectF& r, int side, const QString& caption) {
    p.save();
    p.setRenderHint(QPainter::Antialiasing, true);
    QLinearGradient g(r.topLeft(), r.bottomRight());
    g.setColorAt(0, theme::sideColor(side));
    g.setColorAt(1, theme::sideDark(side));
    p.setBrush(g);
    p.setPen(QPen(QColor(0x2b, 0x1a, 0x08), 1.5));
    const double rad = r.width() * 0.06;
    p.drawRoundedRect(r.adjusted(1, 1, -1, -1), rad, rad);
    p.setPen(QPen(QColor(0xe9, 0xc4, 0x6a, 200), std::max(1.0, r.width() * 0.015)));
    p.setBrush(Qt::NoBrush);
    p.drawRoundedRect(r.adjusted(r.width() * 0.08, r.width() * 0.08, -r.width() * 0.08, -r.width() * 0.08),
                      rad * 0.6, rad * 0.6);
    // Crossed swords.
    const QPointF c = r.center();
    const double s = r.width() * 0.28;
    p.setPen(QPen(QColor(0xe9, 0xc4, 0x6a), std::max(1.2, r.width() * 0.035), Qt::SolidLine, Qt::RoundCap));
    p.drawLine(c + QPointF(-s, -s), c + QPointF(s, s));
    p.drawLine(c + QPointF(s, -s), c + QPointF(-s, s));
    p.drawLine(c + QPointF(-s * 0.55, s * 0.85), c + QPointF(-s * 0.85, s * 0.55));
    p.drawLine(c + QPointF(s * 0.55, s * 0.85), c + QPointF(s * 0.85, s * 0.55));
    if (!caption.isEmpty()) {
        QFont f = theme::sans(std::max(5.0, r.width() * 0.075), true);
        p.setFont(f);
        p.setPen(QColor(0xf4, 0xec, 0xd8));
        p.drawText(QRectF(r.left(), r.bottom() - r.height() * 0.22, r.width(), r.height() * 0.16),
                   Qt::AlignCenter, caption);
    }
    p.restore();
}

} // namespace wp

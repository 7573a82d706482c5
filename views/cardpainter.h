// Draws a Strategy card (title, value, asterisk/dagger, deck, event text, Foreign Aid by donor) or a card
// back, at any size: the hand, the card detail view and the card browser share it.
#pragma once

#include "data/gamedata.h"

#include <QRectF>

class QPainter;

namespace wp {

struct CardLook {
    bool selected = false;
    bool dimmed = false;
    QString badge; // a corner note ("played", "removed", "in battle")
};

void paintCard(QPainter& p, const QRectF& r, const GameData& d, int card, const CardLook& look = {});
void paintCardBack(QPainter& p, const QRectF& r, int side, const QString& caption = {});
QString donorName(const QString& donor); // "spain" -> "Spain"
QString deckName(Deck deck);

} // namespace wp

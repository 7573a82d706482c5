// The Dutch War Track (16.1): -3 .. +5, box effects once per game (16.131), the end of the war (16.132).
#include "rules/internal.h"

namespace wp::rules {

bool dutchWarOver(const GameState& s) {
    return s.dutchWar <= -3 || s.dutchWar >= 5;
}

void moveDutchWar(Ctx& c, int delta, const QString& rule) {
    GameState& s = c.s;
    if (dutchWarOver(s) || delta == 0)
        return; // 9.31: the marker no longer moves once the war has ended
    const int from = s.dutchWar;
    const int to = std::clamp(from + delta, -3, 5);
    s.dutchWar = static_cast<int8_t>(to);
    WP_SAY(c, QStringLiteral("%1 Dutch War marker %2 -> %3").arg(rule).arg(from).arg(to));
    // 16.13: effects on entering the boxes (passing through counts as entering, one box at a time)
    const int step = to > from ? 1 : -1;
    for (int box = from + step; box != to + step; box += step) {
        switch (box) {
        case 2:
            s.dutchAidModifier = -2;
            if (!(s.dutchWarVpAwarded & 1)) { // 16.131: once per game
                s.dutchWarVpAwarded |= 1;
                addVp(c, 2, QStringLiteral("16.13 Dutch War +2 box:"));
            }
            break;
        case 4:
            s.dutchAidModifier = -3;
            if (!(s.dutchWarVpAwarded & 2)) {
                s.dutchWarVpAwarded |= 2;
                addVp(c, 2, QStringLiteral("16.13 Dutch War +4 box:"));
            }
            break;
        case 5: {
            // the war ends: Dutch aid ends, armies in the UP are eliminated
            s.aidSources[kProtestant].removeAll(QStringLiteral("up"));
            const int up = c.d.box(QStringLiteral("up"));
            WP_SAY(c, QStringLiteral(
                          "16.13 the Dutch War ends (+5): Dutch aid ends, armies in the UP are eliminated"));
            if (up >= 0)
                for (int side : {kCatholic, kProtestant}) {
                    for (int u : unitsAt(s, kBoxBase + up, side, c.d))
                        eliminateUnit(c, u, false, QStringLiteral("16.13"));
                    for (int l : leadersAt(s, kBoxBase + up, side, c.d))
                        killLeader(c, l, QStringLiteral("12.43"));
                }
            break;
        }
        case -3: {
            s.dutchAidModifier = 3;
            if (!(s.dutchWarVpAwarded & 4)) {
                s.dutchWarVpAwarded |= 4;
                addVp(c, -3, QStringLiteral("16.13 Dutch War -3 box:"));
            }
            const int up = c.d.box(QStringLiteral("up"));
            WP_SAY(
                c,
                QStringLiteral(
                    "16.13 the Dutch War ends (-3): Dutch aid +3, a Catholic army in the UP is eliminated"));
            if (up >= 0) {
                for (int u : unitsAt(s, kBoxBase + up, kCatholic, c.d))
                    eliminateUnit(c, u, false, QStringLiteral("16.13"));
                for (int l : leadersAt(s, kBoxBase + up, kCatholic, c.d))
                    killLeader(c, l, QStringLiteral("12.43"));
            }
            break;
        }
        default:
            if (box < 2 && box > -3)
                s.dutchAidModifier = 0; // boxes without an effect
            break;
        }
    }
}

} // namespace wp::rules

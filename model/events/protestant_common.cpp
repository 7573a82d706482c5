#include "events/protestant_common.h"

#include "events/common.h"

#include <algorithm>

namespace wp::rules::prot {

void setCheck(EventDef& def, Check check) {
    def.playable = [check](const Ctx& c, int side) { return check(c, side).isEmpty(); };
    def.whyNot = std::move(check);
}

namespace {

// The Protestant card that ends each Catholic state switch.
QString enderOf(const QString& cardId) {
    if (cardId == QLatin1String("C5"))
        return QStringLiteral("P20");
    if (cardId == QLatin1String("C36"))
        return QStringLiteral("P2");
    if (cardId == QLatin1String("C54"))
        return QStringLiteral("P38");
    return {};
}

} // namespace

bool catholicEffectOn(const GameData& d, const GameState& s, const QString& cardId, bool ignoreEnder) {
    if (!ev::eventDone(d, s, cardId) || s.markers.value(cardId + QStringLiteral(".ended")) != 0)
        return false;
    // The ender is only playable while the switch is in effect, so once it was played (or counts as
    // played in the scenario, 18.34) the switch has ended.
    const QString ender = enderOf(cardId);
    return ignoreEnder || ender.isEmpty() || !ev::eventDone(d, s, ender);
}

void endCatholicEffect(Ctx& c, const QString& cardId, const QString& rule) {
    const QString prefix = cardId + QLatin1Char('.');
    for (const QString& k : c.s.markers.keys())
        if (k.startsWith(prefix))
            c.s.markers.remove(k);
    c.s.markers.insert(cardId + QStringLiteral(".ended"), 1);
    WP_SAY(c,
           QStringLiteral("%1 %2 \"%3\" is no longer in effect")
               .arg(rule, cardId, c.d.cards[c.d.card(cardId)].title),
           kProtestant);
}

std::vector<int16_t> activatableLeaders(const Ctx& c, int side, int value) {
    std::vector<int16_t> out;
    for (qsizetype l = 0; l < c.d.leaders.size(); ++l) {
        const LeaderState& ls = c.s.leaders[l];
        if (ls.status != LeaderStatus::InPlay || ls.loc < 0 ||
            leaderSide(c.d, c.s, static_cast<int>(l)) != side)
            continue;
        if (c.d.leaders[l].activation > value)
            continue;
        // 10.14: with a Dynamic leader in the stack only a Dynamic leader may activate it; Gustavus (two
        // stars) always is the activated leader.
        bool ok = true;
        for (int o : leadersAt(c.s, ls.loc, side, c.d)) {
            if (o == l || (c.s.leaders[o].flags & kInside) != (ls.flags & kInside))
                continue;
            const int stars = c.d.leaders[o].stars;
            if (stars == 2 || (stars == 1 && c.d.leaders[l].stars == 0))
                ok = false;
        }
        if (ok)
            out.push_back(static_cast<int16_t>(kLeaderBase + l));
    }
    return out;
}

} // namespace wp::rules::prot

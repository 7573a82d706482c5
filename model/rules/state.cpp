#include "rules/economy.h"
#include "rules/internal.h"

namespace wp::rules {

QString sideName(int side) {
    return side == kCatholic     ? QStringLiteral("Catholic")
           : side == kProtestant ? QStringLiteral("Protestant")
                                 : QStringLiteral("nobody");
}

QString cardUseName(CardUse u) {
    switch (u) {
    case CardUse::Act:
        return QStringLiteral("act");
    case CardUse::Rec:
        return QStringLiteral("rec");
    case CardUse::Aid:
        return QStringLiteral("aid");
    case CardUse::Event:
        return QStringLiteral("event");
    case CardUse::Dutch:
        return QStringLiteral("dutch");
    case CardUse::Enemies:
        return QStringLiteral("enemies");
    }
    return {};
}

int Ctx::roll(const QString& why, int side) {
    int r;
    if (!s.forcedDice.empty()) {
        r = s.forcedDice.front();
        s.forcedDice.erase(s.forcedDice.begin());
    } else {
        r = s.rng.d10();
    }
    randomness = true;
    say(QStringLiteral("%1 rolls %2 (%3)").arg(sideName(side)).arg(r).arg(why), side);
    return r;
}

int areaControl(const GameState& s, int area) {
    return s.areas[area].control;
}

bool areaNeutral(const GameState& s, int area) {
    return s.areas[area].neutral;
}

int effectiveCityControl(const GameData& d, const GameState& s, int city) {
    const CityState& cs = s.cities[city];
    if (cs.revolt) // 9.42: a city in revolt is Neutral
        return kNone;
    if (cs.marker != kNone)
        return cs.marker;
    const City& c = d.cities[city];
    if (c.france) // 2.42, 11.32: France is Protestant once it is in the war
        return s.franceInWar ? kProt : kNone;
    if (c.independent || c.area < 0)
        return kNone;
    return s.areas[c.area].control; // 3.13: the Area's controller holds unmarked cities
}

int unitSide(const GameData& d, const GameState& s, int unit) {
    return s.nationSide[d.unitTypes[s.units[unit].type].nationality];
}

int leaderSide(const GameData& d, const GameState& s, int leader) {
    return s.nationSide[d.leaders[leader].nationality];
}

const Nationality& unitNationality(const GameData& d, const GameState& s, int unit) {
    return d.nationalities[d.unitTypes[s.units[unit].type].nationality];
}

int unitCf(const GameData& d, const GameState& s, int unit) {
    const UnitType& t = d.unitTypes[s.units[unit].type];
    return s.units[unit].steps >= 2 ? t.cfFull : s.units[unit].steps == 1 ? t.cfReduced : 0;
}

int unitLf(const GameData& d, const GameState& s, int unit) {
    return d.unitTypes[s.units[unit].type].lf;
}

int unitMa(const GameData& d, const GameState& s, int unit) {
    return d.unitTypes[s.units[unit].type].ma;
}

static bool onBoard(int loc) {
    return loc >= 0;
}

namespace {
// mode: 0 all, 1 outside a fortress, 2 inside
template <class F>
void forUnitsAt(const GameState& s, int loc, int side, const GameData& d, int mode, F&& f) {
    if (!onBoard(loc))
        return;
    for (size_t i = 0; i < s.units.size(); ++i) {
        const UnitState& u = s.units[i];
        if (u.loc != loc || (mode == 1 && (u.flags & kInside)) || (mode == 2 && !(u.flags & kInside)))
            continue;
        if (s.nationSide[d.unitTypes[u.type].nationality] == side && f(static_cast<int>(i)))
            return;
    }
}

std::vector<int> unitsWhere(const GameState& s, int loc, int side, const GameData& d, int mode) {
    std::vector<int> out;
    forUnitsAt(s, loc, side, d, mode, [&](int u) {
        out.push_back(u);
        return false;
    });
    return out;
}

bool anyUnitWhere(const GameState& s, int loc, int side, const GameData& d, int mode) {
    bool any = false;
    forUnitsAt(s, loc, side, d, mode, [&](int) { return any = true; });
    return any;
}
} // namespace

std::vector<int> unitsAt(const GameState& s, int loc, int side, const GameData& d) {
    return unitsWhere(s, loc, side, d, 0);
}

std::vector<int> leadersAt(const GameState& s, int loc, int side, const GameData& d) {
    std::vector<int> out;
    for (size_t i = 0; i < s.leaders.size(); ++i)
        if (s.leaders[i].loc == loc && s.leaders[i].status == LeaderStatus::InPlay &&
            s.nationSide[d.leaders[i].nationality] == side)
            out.push_back(static_cast<int>(i));
    return out;
}

std::vector<int> unitsOutside(const GameState& s, int loc, int side, const GameData& d) {
    return unitsWhere(s, loc, side, d, 1);
}

std::vector<int> unitsInside(const GameState& s, int loc, int side, const GameData& d) {
    return unitsWhere(s, loc, side, d, 2);
}

bool anyUnitsAt(const GameState& s, int loc, int side, const GameData& d) {
    return anyUnitWhere(s, loc, side, d, 0);
}

bool anyUnitsOutside(const GameState& s, int loc, int side, const GameData& d) {
    return anyUnitWhere(s, loc, side, d, 1);
}

bool anyUnitsInside(const GameState& s, int loc, int side, const GameData& d) {
    return anyUnitWhere(s, loc, side, d, 2);
}

bool anyLeadersAt(const GameState& s, int loc, int side, const GameData& d) {
    for (size_t i = 0; i < s.leaders.size(); ++i)
        if (s.leaders[i].loc == loc && s.leaders[i].status == LeaderStatus::InPlay &&
            s.nationSide[d.leaders[i].nationality] == side)
            return true;
    return false;
}

int cfSum(const GameData& d, const GameState& s, const std::vector<int>& units) {
    int sum = 0;
    for (int u : units)
        sum += unitCf(d, s, u);
    return sum;
}

bool hasEnemyUnits(const GameData& d, const GameState& s, int city, int side) {
    return anyUnitsAt(s, city, other(side), d);
}

int siegeLevel(const GameData& d, const GameState& s, int city) {
    const City& c = d.cities[city];
    if (!c.fortress)
        return 0;
    // 13.13: Fortress Strength + CF of all units inside (of the side holding the fortress).
    int inside = 0;
    for (int side : {kCatholic, kProtestant})
        inside += cfSum(d, s, unitsInside(s, city, side, d));
    return c.fortress->strength + inside;
}

bool isDynamic(const GameData& d, const GameState& s, int leader) {
    return effectiveStars(d, s, leader) > 0; // 10.14, with 7.25 and 19.7
}

QString cityName(const GameData& d, int loc) {
    if (isCity(static_cast<int16_t>(loc)) && loc < d.cities.size())
        return d.cities[loc].name;
    if (isBox(static_cast<int16_t>(loc)) && loc - kBoxBase < d.boxes.size())
        return d.boxes[loc - kBoxBase].name;
    return QStringLiteral("(nowhere)");
}

QString leaderName(const GameData& d, int leader) {
    return d.leaders[leader].counterName;
}

int locSide(const GameData& d, const GameState& s, int loc) {
    for (int side : {kCatholic, kProtestant})
        if (anyUnitsAt(s, loc, side, d) || anyLeadersAt(s, loc, side, d))
            return side;
    return kNone;
}

} // namespace wp::rules

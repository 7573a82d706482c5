// Siege combat: 13.1 establishing and maintaining a siege, 13.2 siege combat, 13.26 continued sieges.
#include "rules/economy.h"
#include "rules/internal.h"

#include <QJsonArray>

namespace wp::rules {

namespace {

SiegeFrame& top(GameState& s) {
    return std::get<SiegeFrame>(s.frames.back());
}

enum SiegeStep : int8_t { kRoll = 0, kSiegeStepLoss = 1, kDone = 2 };

// The besieging units: the besieger's units in the city, outside the fortress.
std::vector<int> besiegers(const GameData& d, const GameState& s, int city, int side) {
    return unitsOutside(s, city, side, d);
}

} // namespace

bool canBesiege(const GameData& d, const GameState& s, const ActivationFrame& f) {
    if (f.freeAction || f.leader < 0 || !isCity(f.at))
        return false;
    const int city = f.at;
    const City& ct = d.cities[city];
    if (!ct.fortress || ct.offmap)
        return false;
    // 13.11: an enemy-controlled or neutral Fortress (3.12: a neutral non-Independent fortress may also be
    // captured by siege).
    if (effectiveCityControl(d, s, city) == f.side)
        return false;
    if (s.cities[city].siege > 0)
        return false;
    if (anyUnitsOutside(s, city, other(f.side), d))
        return false; // enemy units outside must be fought first
    if (s.leaders[f.leader].loc != city)
        return false;
    // 13.13: combat factors of the friendly units in the space >= Siege Level.
    return cfSum(d, s, besiegers(d, s, city, f.side)) >= siegeLevel(d, s, city);
}

void placeSiege(Ctx& c, int city, int side) {
    CityState& cs = c.s.cities[city];
    cs.siege = 1;
    cs.sieger = static_cast<int8_t>(side);
    WP_SAY(c,
           QStringLiteral("13.13 %1 besieges %2 (siege level %3, besiegers %4 CF)")
               .arg(sideName(side), cityName(c.d, city))
               .arg(siegeLevel(c.d, c.s, city))
               .arg(cfSum(c.d, c.s, besiegers(c.d, c.s, city, side))),
           side);
}

void checkSiegeMaintained(Ctx& c, int city) {
    CityState& cs = c.s.cities[city];
    if (cs.siege == 0)
        return;
    const int side = cs.sieger;
    const int cf = cfSum(c.d, c.s, besiegers(c.d, c.s, city, side));
    const int level = siegeLevel(c.d, c.s, city);
    if (cf >= level && effectiveCityControl(c.d, c.s, city) != side)
        return;
    // 13.14/13.26: below the Siege Level the Siege (and any Continued Siege) marker is removed.
    cs.siege = 0;
    cs.sieger = kNone;
    WP_SAY(c,
           QStringLiteral("13.14 the siege of %1 is lifted (%2 CF against siege level %3)")
               .arg(cityName(c.d, city))
               .arg(cf)
               .arg(level),
           side);
}

int siegeDrm(const GameData& d, const GameState& s, int city, int side, bool endPhase) {
    const City& ct = d.cities[city];
    int drm = 0;
    // 13.23: + the Continued Siege marker (+1..+3) ...
    drm += std::max(0, s.cities[city].siege - 1);
    // ... and the Fortress's Siege Modifier as printed in the data, signed so that the Breisach example
    // works out (Continued Siege +1 at Breisach, modifier -2: DRM -1; docs/data/map.md).
    if (ct.fortress)
        drm += ct.fortress->siegeModifier;
    // table modifiers (maps/tables.json): Spinola with the besiegers (13.23 historical note)
    for (const QJsonValue& v : d.tables.siege.modifiers) {
        const QJsonObject m = v.toObject();
        if (m.value("id").toString() == QLatin1String("spinola") && m.value("drm").isDouble()) {
            const int sp = d.leader(QStringLiteral("spinola"));
            if (sp >= 0 && s.leaders[sp].status == LeaderStatus::InPlay && s.leaders[sp].loc == city &&
                !(s.leaders[sp].flags & kInside) && leaderSide(d, s, sp) == side)
                drm += m.value("drm").toInt();
        }
    }
    Q_UNUSED(endPhase);
    return drm;
}

void startSiegeCombat(Ctx& c, int city, int side, bool endPhase) {
    SiegeFrame f;
    f.city = static_cast<int16_t>(city);
    f.side = static_cast<int8_t>(side);
    f.endPhase = endPhase;
    f.step = kRoll;
    c.s.frames.push_back(f);
}

int siegeActor(const GameState&, const SiegeFrame& f) {
    return f.side;
}

std::vector<Action> siegeLegal(const Ctx& c, const SiegeFrame& f) {
    std::vector<Action> out;
    if (f.step != kSiegeStepLoss)
        return out;
    // 13.25: the owning player chooses which besieging unit loses the step.
    for (int u : besiegers(c.d, c.s, f.city, f.side)) {
        Action a;
        a.kind = ActionKind::Choose;
        a.target = static_cast<int16_t>(u);
        out.push_back(a);
    }
    return out;
}

void siegeApply(Ctx& c, const Action& a) {
    SiegeFrame& f = top(c.s);
    const int city = f.city;
    UnitState& u = c.s.units[a.target];
    WP_SAY(c, QStringLiteral("13.25 natural 0: %1 loses a step").arg(unitLabel(c.d, c.s, a.target)), f.side);
    c.s.frames.pop_back();
    if (--u.steps == 0)
        eliminateUnit(c, a.target, false, QStringLiteral("13.25"));
    checkSiegeMaintained(c, city);
}

bool siegeAuto(Ctx& c) {
    SiegeFrame& f = top(c.s);
    if (f.step != kRoll)
        return false;
    const int city = f.city, side = f.side;
    CityState& cs = c.s.cities[city];
    if (cs.siege == 0 || cs.sieger != side) { // lifted meanwhile
        c.s.frames.pop_back();
        return true;
    }
    const int natural = WP_ROLL(c, QStringLiteral("13.24 siege combat at %1").arg(cityName(c.d, city)), side);
    const int drm = siegeDrm(c.d, c.s, city, side, f.endPhase);
    const RollTable& t = c.d.tables.siege;
    const int modified = std::clamp(natural + drm, t.rollMin, t.rollMax);
    bool success;
    if (natural == 9)
        success = true; // 13.25
    else if (natural == 0)
        success = false; // 13.25
    else {
        const RollBand* b = t.lookup(modified);
        success = b && b->result.value(QStringLiteral("result")).toString() == QLatin1String("success");
    }
    WP_SAY(c,
           QStringLiteral("13.24 siege of %1: roll %2, DRM %3%4, modified %5: %6")
               .arg(cityName(c.d, city))
               .arg(natural)
               .arg(drm >= 0 ? "+" : "")
               .arg(drm)
               .arg(modified)
               .arg(success ? "Successful" : "Unsuccessful"),
           side);
    if (success) {
        // 13.24: the fortress is captured; enemy units inside are eliminated.
        c.s.frames.pop_back();
        for (int u2 : unitsInside(c.s, city, other(side), c.d))
            eliminateUnit(c, u2, false, QStringLiteral("13.24"));
        for (int l : leadersAt(c.s, city, other(side), c.d))
            killLeader(c, l, QStringLiteral("13.24"));
        cs.siege = 0;
        cs.sieger = kNone;
        setCityControl(c, city, side, QStringLiteral("13.24"));
        if (wallensteinLeadsAt(c, city, side)) // 7.1: one box per city gained
            advanceWallenstein(c, 1, QStringLiteral("Wallenstein's army takes %1").arg(cityName(c.d, city)));
        return true;
    }
    // 13.26: the next Continued Siege marker, up to +3.
    if (cs.siege < 4)
        cs.siege++;
    WP_SAY(c, QStringLiteral("13.26 %1: Continued Siege +%2").arg(cityName(c.d, city)).arg(cs.siege - 1),
           side);
    if (natural == 0 && !besiegers(c.d, c.s, city, side).empty()) {
        f.step = kSiegeStepLoss;
        return true;
    }
    c.s.frames.pop_back();
    return true;
}

} // namespace wp::rules

// Paying units (15.1), looting (15.2), pillage effects (15.24) and recovery (15.25): the Pay Phase (6.E),
// the Pillage Recovery Phase (6.B), Lines of Communication (15.14) and the step losses of looting.
#include "rules/economy.h"

#include <QSet>

#include <algorithm>
#include <deque>

namespace wp::rules {

namespace {

using eco::top;

constexpr uint8_t kLastCath = 8, kLastProt = 16; // areaMarks: the controller the VP bookkeeping last saw

int vpSign(int side) {
    return side == kCatholic ? 1 : -1;
}

bool inBox(int16_t loc) {
    return isBox(loc);
}

bool isUpBox(const GameData& d, int16_t loc) {
    return isBox(loc) && d.boxes[loc - kBoxBase].kind == QLatin1String("up");
}

// 15.14: may a LoC of `side` pass through `city` (not its start)?
bool passable(const GameData& d, const GameState& s, int city, int side) {
    const City& ct = d.cities[city];
    if (s.cities[city].revolt)
        return false; // 9.42
    if (ct.france && !s.franceInWar)
        return false;
    if (!ct.independent && ct.area >= 0 && s.areas[ct.area].neutral)
        return false;
    if (anyUnitsOutside(s, city, other(side), d))
        return false; // an enemy force, besieging or masking
    if (anyUnitsInside(s, city, other(side), d))
        return anyUnitsOutside(s, city, side, d); // 13.14: through our besieging or masking units
    return effectiveCityControl(d, s, city) == side;
}

bool validEnd(const GameData& d, const GameState& s, int city, int side) {
    return !s.cities[city].revolt && !anyUnitsAt(s, city, other(side), d);
}

template <class IsBase>
bool traceLoc(const GameData& d, const GameState& s, int from, int side, IsBase isBase) {
    if (!isCity(static_cast<int16_t>(from)))
        return false;
    if (isBase(from) && validEnd(d, s, from, side))
        return true;
    std::vector<bool> seen(static_cast<size_t>(d.cities.size()), false);
    std::deque<int> q{from};
    seen[from] = true;
    while (!q.empty()) {
        const int at = q.front();
        q.pop_front();
        for (int n : d.cities[at].neighbours) {
            if (seen[n])
                continue;
            seen[n] = true;
            if (isBase(n) && validEnd(d, s, n, side))
                return true;
            if (passable(d, s, n, side))
                q.push_back(n);
        }
    }
    return false;
}

int lossClass(UnitKind k) {
    return k == UnitKind::Mercenary ? 0 : k == UnitKind::Militia ? 1 : 2; // 15.223
}

// The units that may take the next step loss: the first class of 15.223 that has any.
std::vector<int> lossCandidates(const GameData& d, const GameState& s, const std::vector<int16_t>& units) {
    std::vector<int> out;
    int best = 3;
    for (int16_t u : units) {
        const UnitState& us = s.units[u];
        if (us.loc < 0 || us.steps == 0)
            continue;
        const int cls = lossClass(d.unitTypes[us.type].kind);
        if (cls < best) {
            best = cls;
            out.clear();
        }
        if (cls == best)
            out.push_back(u);
    }
    return out;
}

bool interchangeable(const GameState& s, const std::vector<int>& units) {
    for (int u : units) {
        const UnitState& a = s.units[u];
        const UnitState& b = s.units[units.front()];
        if (a.type != b.type || a.steps != b.steps || a.loc != b.loc ||
            (a.flags & kInside) != (b.flags & kInside))
            return false;
    }
    return true;
}

void loseStep(Ctx& c, int unit, bool permanent) {
    UnitState& u = c.s.units[unit];
    WP_SAY(c, QStringLiteral("15.222 %1 loses a step").arg(unitLabel(c.d, c.s, unit)),
           unitSide(c.d, c.s, unit));
    u.steps = static_cast<uint8_t>(u.steps - 1);
    if (u.steps == 0)
        eliminateUnit(c, unit, permanent, permanent ? QStringLiteral("15.224") : QStringLiteral("15.222"));
    else if (isCity(u.loc))
        checkSiegeMaintained(c, u.loc); // 13.14: fewer besieging factors (or a lower Siege Level)
}

// Resolves forced step losses on top of the stack; stops at a real decision.
void advanceLosses(Ctx& c) {
    for (int guard = 0; guard < 64; ++guard) {
        if (c.s.frames.empty() || !std::holds_alternative<ChoiceFrame>(c.s.frames.back()))
            return;
        ChoiceFrame& f = top(c.s);
        if (f.purpose != kStepLoss)
            return;
        const std::vector<int> cand = lossCandidates(c.d, c.s, f.options);
        if (f.count <= 0 || cand.empty()) {
            const int side = f.actor, city = f.city;
            if (f.count > 0)
                WP_SAY(c,
                       QStringLiteral("15.222 no unit left to take %1 more step loss%2")
                           .arg(f.count)
                           .arg(f.count > 1 ? "es" : ""),
                       side);
            c.s.frames.pop_back();
            if (city >= 0)
                eco::placeLeadersAlone(c, side, city);
            return;
        }
        if (!interchangeable(c.s, cand))
            return;
        f.count = static_cast<int16_t>(f.count - 1);
        loseStep(c, cand.front(), f.flag);
    }
}

// 15.25: may `side` recover a Pillage level in `city` now?
bool recoverable(const GameData& d, const GameState& s, int city, int side) {
    const City& ct = d.cities[city];
    if (s.cities[city].pillage <= 0 || ct.offmap)
        return false;
    if (std::find(s.pendingCities.begin(), s.pendingCities.end(), city) != s.pendingCities.end())
        return false; // 15.251: one level per city per turn
    if (ct.independent || ct.france || ct.area < 0) {
        const int ctl = effectiveCityControl(d, s, city);
        if (ctl != side && ctl != kNone)
            return false;
    } else {
        const int ctl = s.areas[ct.area].control;
        if (ctl != side && ctl != kNone)
            return false;
    }
    return !eco::enemyUnitsAtOrNextTo(d, s, city, side);
}

std::vector<int16_t> recoveryOptions(const GameData& d, const GameState& s, int side) {
    std::vector<int16_t> out;
    const PieceIndexScope pieces(s, d);
    for (qsizetype ci = 0; ci < d.cities.size(); ++ci)
        if (recoverable(d, s, static_cast<int>(ci), side))
            out.push_back(static_cast<int16_t>(ci));
    return out;
}

// ---------------------------------------------------------------- paying

bool swedishOnly(const GameData& d, const GameState& s, int unit) {
    return payableBySwedishAidOnly(d, s, unit);
}

int available(const GameState& s, int side, bool swedish) {
    if (side != kProtestant)
        return s.aidPoints[side];
    return swedish ? std::min(s.aidSwedish, s.aidPoints[side]) : s.aidPoints[side];
}

bool locFor(const GameData& d, const GameState& s, int unit) {
    // 19.3: the LoC established at the end of the side's sixth round, if it was.
    const int side = unitSide(d, s, unit);
    if (s.options.loc_action_phase && s.markers.value(QStringLiteral("19.3.%1").arg(side), -1) == s.turn &&
        static_cast<size_t>(unit) < s.locMarks.size() && s.locMarks[unit] != 0)
        return s.locMarks[unit] == 1;
    return hasLoc(d, s, unit);
}

std::vector<int16_t> payable(const GameData& d, const GameState& s, int side) {
    std::vector<int16_t> out;
    const PieceIndexScope pieces(s, d);
    // hasLoc depends on the unit's space, nationality and whether only Swedish aid pays it: trace each such
    // kind of unit once.
    struct Traced {
        int16_t loc, nat;
        bool swedish, loc_ok;
    };
    std::vector<Traced> traced;
    for (size_t u = 0; u < s.units.size(); ++u) {
        const UnitState& us = s.units[u];
        const int unit = static_cast<int>(u);
        if (us.loc < 0 || !(us.flags & kUnpaid) || unitSide(d, s, unit) != side || inBox(us.loc) ||
            besiegedInside(d, s, unit))
            continue;
        const bool swedish = swedishOnly(d, s, unit);
        if (payRate(d, s, unit) > available(s, side, swedish))
            continue;
        const auto nat = static_cast<int16_t>(d.unitTypes[us.type].nationality);
        bool ok;
        if (s.options.loc_action_phase) {
            ok = locFor(d, s, unit);
        } else {
            const auto known = std::find_if(traced.begin(), traced.end(), [&](const Traced& t) {
                return t.loc == us.loc && t.nat == nat && t.swedish == swedish;
            });
            ok = known != traced.end() ? known->loc_ok : hasLoc(d, s, unit);
            if (known == traced.end())
                traced.push_back(Traced{us.loc, nat, swedish, ok});
        }
        if (ok)
            out.push_back(static_cast<int16_t>(u));
    }
    return out;
}

void payUnit(Ctx& c, int unit) {
    GameState& s = c.s;
    const int side = unitSide(c.d, s, unit);
    const int rate = payRate(c.d, s, unit);
    if (side == kProtestant) {
        if (swedishOnly(c.d, s, unit)) {
            s.aidSwedish = static_cast<int8_t>(s.aidSwedish - rate);
        } else {
            // other units use the points that cannot pay Swedes first
            const int other = s.aidPoints[side] - s.aidSwedish;
            if (other < rate)
                s.aidSwedish = static_cast<int8_t>(s.aidSwedish - (rate - other));
        }
    }
    s.aidPoints[side] = static_cast<int8_t>(s.aidPoints[side] - rate);
    s.units[unit].flags &= static_cast<uint8_t>(~kUnpaid);
    WP_SAY(c,
           QStringLiteral("15.13 %1 pays %2 (%3 AP, %4 left)")
               .arg(sideName(side), unitLabel(c.d, s, unit))
               .arg(rate)
               .arg(s.aidPoints[side]),
           side);
}

// 15.12, 15.133, 16.21: who is paid locally, who is Unpaid until paid with Aid Points.
void markPay(Ctx& c) {
    GameState& s = c.s;
    int local[2] = {0, 0}, toPay[2] = {0, 0}, besieged[2] = {0, 0};
    for (size_t u = 0; u < s.units.size(); ++u) {
        UnitState& us = s.units[u];
        const int unit = static_cast<int>(u);
        if (us.loc < 0 || us.steps == 0)
            continue;
        const int side = unitSide(c.d, s, unit);
        if (besiegedInside(c.d, s, unit)) {
            us.flags |= kUnpaid; // 15.133
            besieged[side]++;
        } else if (locallyPaid(c.d, s, unit)) {
            us.flags &= static_cast<uint8_t>(~kUnpaid);
            local[side]++;
        } else {
            us.flags |= kUnpaid;
            toPay[side]++;
        }
    }
    for (int side : {kProtestant, kCatholic})
        WP_SAY(c,
               QStringLiteral(
                   "15.12 %1: %2 units paid locally, %3 to pay with %4 Aid Points or loot, %5 besieged "
                   "(Unpaid, 15.133)")
                   .arg(sideName(side))
                   .arg(local[side])
                   .arg(toPay[side])
                   .arg(s.aidPoints[side])
                   .arg(besieged[side]),
               side);
}

// The Loot Table's modifiers and results as numbers, read once per table and thread (the data never
// changes while loaded; the fingerprint guards against another data set loaded at the same address).
struct LootDigest {
    const RollTable* table = nullptr;
    QByteArray fingerprint;
    int pillage1 = 0, pillage2 = 0, besieged = 0, mercenary = 0, veteran = 0, dynamic = 0;
    struct Bracket {
        int min = 0, max = 0, drm = 0;
    };
    std::vector<Bracket> brackets;  // the unit-count brackets, in table order
    std::vector<int> levels, steps; // per band: Pillage levels reached, step losses
};

const LootDigest& lootDigest(const GameData& d) {
    const RollTable& t = d.tables.loot;
    thread_local LootDigest g;
    if (g.table == &t && g.fingerprint == d.fingerprint)
        return g;
    g = LootDigest{};
    g.table = &t;
    g.fingerprint = d.fingerprint;
    g.pillage1 = eco::tableDrm(t, QStringLiteral("pillage1"), 1);
    g.pillage2 = eco::tableDrm(t, QStringLiteral("pillage2"), 2);
    g.besieged = eco::tableDrm(t, QStringLiteral("besieged"), 2);
    g.mercenary = eco::tableDrm(t, QStringLiteral("mercenary-majority"), 1);
    g.veteran = eco::tableDrm(t, QStringLiteral("veteran-majority"), -1);
    g.dynamic = eco::tableDrm(t, QStringLiteral("dynamic"), -1);
    for (const QJsonValue& v : t.modifiers) {
        const QJsonObject o = v.toObject();
        const QJsonObject r = o.value(QStringLiteral("units")).toObject();
        if (!r.isEmpty())
            g.brackets.push_back({r.value(QStringLiteral("min")).toInt(),
                                  r.value(QStringLiteral("max")).toInt(),
                                  o.value(QStringLiteral("drm")).toInt()});
    }
    for (const RollBand& b : t.bands) {
        g.levels.push_back(b.result.value(QStringLiteral("pillage")).toInt());
        g.steps.push_back(b.result.value(QStringLiteral("steps")).toInt());
    }
    return g;
}

int lootDrm(const Ctx& c, int city, int side, const std::vector<int>& units, int p0, QStringList* why) {
    const LootDigest& t = lootDigest(c.d);
    int drm = 0;
    auto add = [&](int v, const QString& text) {
        drm += v;
        if (why) // the reasons are words for the log only
            *why << QStringLiteral("%1%2 %3").arg(v > 0 ? "+" : "").arg(v).arg(text);
    };
    if (p0 == 1)
        add(t.pillage1, QStringLiteral("Pillage-1"));
    if (p0 >= 2)
        add(t.pillage2, QStringLiteral("Pillage-2"));
    const int n = static_cast<int>(units.size());
    int merc = 0, vet = 0;
    bool inside = false, besieged = false;
    for (int u : units) {
        const UnitKind k = c.d.unitTypes[c.s.units[u].type].kind;
        merc += k == UnitKind::Mercenary;
        vet += k == UnitKind::Veteran;
        inside |= bool(c.s.units[u].flags & kInside);
        besieged |= besiegedInside(c.d, c.s, u);
    }
    for (const LootDigest::Bracket& r : t.brackets) // the unit-count brackets (units, not steps)
        if (n >= r.min && n <= r.max) {
            drm += r.drm;
            if (why)
                *why << QStringLiteral("+%1 %2 units").arg(r.drm).arg(n);
        }
    if (besieged)
        add(t.besieged, QStringLiteral("besieged"));
    if (2 * merc > n)
        add(t.mercenary, QStringLiteral("Mercenary majority"));
    if (2 * vet > n)
        add(t.veteran, QStringLiteral("Veteran majority"));
    for (int l : leadersAt(c.s, city, side, c.d))
        if (bool(c.s.leaders[l].flags & kInside) == inside && effectiveStars(c.d, c.s, l) > 0) {
            add(t.dynamic, QStringLiteral("Dynamic leader"));
            break;
        }
    return drm;
}

struct LootRoll {
    int side = kNone;
    std::vector<int> units;
    int after = 0; // the pillage level this roll reaches (15.211)
    int steps = 0; // step losses, with unfulfilled levels (15.221)
};

// 15.21-15.22: one roll per side for its units in `city`, simultaneous (15.211).
void lootCity(Ctx& c, int city, std::vector<LootRoll> rolls, const QString& rule) {
    const int p0 = c.s.cities[city].pillage;
    for (LootRoll& r : rolls) {
        QStringList why;
        const int drm = lootDrm(c, city, r.side, r.units, p0, c.log ? &why : nullptr);
        const int die = WP_ROLL(c,
                                QStringLiteral("%1 Loot Table, %2 unit%3 at %4")
                                    .arg(rule)
                                    .arg(r.units.size())
                                    .arg(r.units.size() == 1 ? "" : "s")
                                    .arg(cityName(c.d, city)),
                                r.side);
        const RollBand* b = eco::tableLookup(c.d.tables.loot, die + drm);
        const LootDigest& digest = lootDigest(c.d);
        const size_t band = b ? size_t(b - c.d.tables.loot.bands.constData()) : 0;
        const int levels = b ? digest.levels[band] : 0;
        const int steps = b ? digest.steps[band] : 0;
        const int reached = p0 + levels;
        const int unfulfilled = std::max(0, reached - 2);
        r.after = std::min(2, reached);
        r.steps = steps + unfulfilled;
        WP_SAY(c,
               QStringLiteral("15.21 %1 %2 = %3: %4%5")
                   .arg(die)
                   .arg(why.join(QLatin1Char(' ')))
                   .arg(die + drm)
                   .arg(b ? b->result.value(QStringLiteral("label")).toString() : QStringLiteral("?"))
                   .arg(unfulfilled ? QStringLiteral(
                                          "; %1 Pillage level%2 unfulfilled: %3 step loss%4 in all (15.221)")
                                          .arg(unfulfilled)
                                          .arg(unfulfilled > 1 ? "s" : "")
                                          .arg(r.steps)
                                          .arg(r.steps > 1 ? "es" : "")
                                    : QString()),
               r.side);
    }
    int final = p0;
    for (const LootRoll& r : rolls)
        final = std::max(final, r.after);
    if (final != p0) {
        c.s.cities[city].pillage = static_cast<int8_t>(final);
        WP_SAY(c, QStringLiteral("15.211 %1 is now at Pillage-%2").arg(cityName(c.d, city)).arg(final));
        reconcileAreas(c);
    }
    for (const LootRoll& r : rolls)
        for (int u : r.units)
            c.s.units[u].flags &= static_cast<uint8_t>(~kUnpaid); // every result pays the units (15.22)
    for (auto it = rolls.rbegin(); it != rolls.rend(); ++it)      // the first side's losses on top
        if (it->steps > 0)
            takeStepLosses(c, it->side, it->units, it->steps, true, city, rule);
}

std::vector<int> unpaidAt(const GameData& d, const GameState& s, int city, int side) {
    std::vector<int> out;
    for (int u : unitsAt(s, city, side, d))
        if (s.units[u].flags & kUnpaid)
            out.push_back(u);
    return out;
}

uint8_t lastMark(int side) {
    return side == kCatholic ? kLastCath : side == kProtestant ? kLastProt : 0;
}

int lastOf(uint8_t m) {
    return (m & kLastCath) ? kCatholic : (m & kLastProt) ? kProtestant : kNone;
}

} // namespace

// ---------------------------------------------------------------- queries

int payRate(const GameData& d, const GameState& s, int unit) {
    return d.unitTypes[s.units[unit].type].kind == UnitKind::Militia ? 1 : 2; // 15.131
}

bool besiegedInside(const GameData& d, const GameState& s, int unit) {
    Q_UNUSED(d);
    const UnitState& u = s.units[unit];
    if (!(u.flags & kInside) || !isCity(u.loc))
        return false;
    const CityState& cs = s.cities[u.loc];
    return cs.siege > 0 && cs.sieger != kNone;
}

bool locallyPaid(const GameData& d, const GameState& s, int unit) {
    const UnitState& u = s.units[unit];
    if (u.loc < 0)
        return false;
    if (isUpBox(d, u.loc))
        return true; // 16.21: armies in the UP are paid automatically
    if (inBox(u.loc))
        return true; // interpretation: the Danish (and Swedish) boxes are home, paid by their kings
    if (besiegedInside(d, s, unit))
        return false; // 15.133
    const City& ct = d.cities[u.loc];
    const QString n = unitNatId(d, s, unit);
    if (effectAny(s, QStringLiteral("nolocalpay."), n))
        return false; // economy.h effects
    if (n == QLatin1String("imperial") &&
        (s.markers.value(QStringLiteral("P8.austriaNotLocallyPaidTurn"), -1) == s.turn ||
         s.markers.value(QStringLiteral("P21.austriaNotLocallyPaidThroughTurn"), -1) >= s.turn))
        return false; // 15.12 exceptions: P8 (this turn), P21 (this turn and the next)
    const QString area = ct.area >= 0 ? d.areas[ct.area].id : QString();
    if (n == QLatin1String("danish"))
        return hasLoc(d, s, unit); // 15.12, 17.D.1
    if (n == QLatin1String("spanish"))
        return area == QLatin1String("spanish-netherlands"); // 17.Sp.1
    if (n == QLatin1String("french"))
        return ct.france; // 17.F.1
    if (n == QLatin1String("imperial"))
        return area == QLatin1String("austria"); // 17.A.1
    if (n == QLatin1String("bavarian"))
        return area == QLatin1String("bavaria"); // 17.B.1
    if (n == QLatin1String("hungarian"))
        return area == QLatin1String("hungary"); // 17.H.1
    return false;
}

bool payableBySwedishAidOnly(const GameData& d, const GameState& s, int unit) {
    const NatCode n = unitNationality(d, s, unit).code;
    if (n == NatCode::Swedish)
        return true;
    if (n != NatCode::Protestant)
        return false;
    // 17.Sw.2: German Protestants in an army under a Swedish leader count as Swedish.
    const UnitState& u = s.units[unit];
    for (int l : leadersAt(s, u.loc, kProtestant, d))
        if (d.nationalities[d.leaders[l].nationality].code == NatCode::Swedish &&
            (s.leaders[l].flags & kInside) == (u.flags & kInside))
            return true;
    return false;
}

bool hasLoc(const GameData& d, const GameState& s, int unit) {
    const UnitState& u = s.units[unit];
    if (!isCity(u.loc))
        return false;
    const int side = unitSide(d, s, unit);
    const int nat = d.unitTypes[u.type].nationality;
    const QString n = nationalityId(d, nat);
    if (payableBySwedishAidOnly(d, s, unit)) {
        // 17.Sw.1-2: the Swedish Base; without one, a Protestant French or Lorraine city.
        const int base = usableSwedishBase(d, s);
        if (base >= 0)
            return traceLoc(d, s, u.loc, side, [&](int city) { return city == base; });
        const int french = d.nationality(QStringLiteral("french"));
        return french >= 0 &&
               traceLoc(d, s, u.loc, side, [&](int city) { return isSupplyBase(d, s, french, city); });
    }
    if (n == QLatin1String("spanish") && !d.cities[u.loc].spanishZone) {
        // 17.Sp.1: the Cardinal Infante's army outside the Zone draws on Vienna.
        const int imperial = d.nationality(QStringLiteral("imperial"));
        return traceLoc(d, s, u.loc, side, [&](int city) { return isSupplyBase(d, s, imperial, city); });
    }
    return traceLoc(d, s, u.loc, side, [&](int city) { return isSupplyBase(d, s, nat, city); });
}

int areaVpValue(const GameData& d, const GameState& s, int area) {
    const bool dev = static_cast<size_t>(area) < s.areaMarks.size() && (s.areaMarks[area] & kAreaDevastated);
    return std::max(0, d.areas[area].vp - (dev ? 1 : 0));
}

// ---------------------------------------------------------------- pillage and the Area bookkeeping

int addPillage(Ctx& c, int city, int levels, const QString& rule) {
    CityState& cs = c.s.cities[city];
    const int before = cs.pillage;
    const int after = std::clamp(before + levels, 0, 2);
    cs.pillage = static_cast<int8_t>(after);
    WP_SAY(c, QStringLiteral("%1 %2: Pillage-%3 -> Pillage-%4")
                  .arg(rule, cityName(c.d, city))
                  .arg(before)
                  .arg(after));
    reconcileAreas(c);
    return before + levels - after;
}

void recoverPillage(Ctx& c, int city, const QString& rule) {
    CityState& cs = c.s.cities[city];
    if (cs.pillage <= 0)
        return;
    cs.pillage = static_cast<int8_t>(cs.pillage - 1);
    WP_SAY(c, QStringLiteral("%1 %2 recovers to Pillage-%3").arg(rule, cityName(c.d, city)).arg(cs.pillage));
    reconcileAreas(c);
}

void reconcileAreas(Ctx& c) {
    GameState& s = c.s;
    const size_t n = static_cast<size_t>(c.d.areas.size());
    if (s.areaMarks.size() != n) {
        s.areaMarks.assign(n, 0);
        for (size_t a = 0; a < n; ++a)
            s.areaMarks[a] = lastMark(s.areas[a].control);
    }
    bool electors = false;
    for (size_t ai = 0; ai < n; ++ai) {
        const int a = static_cast<int>(ai);
        const Area& ar = c.d.areas[a];
        uint8_t& m = s.areaMarks[ai];
        int ctl = s.areas[a].control;
        // 9.41: revolts leave the controller short of the Control rating: he loses the Area and its VP.
        if (ctl != kNone) {
            // the revolts in his cities (placeRevolt records whose city it was; unrecorded ones count as his)
            int held = 0, revoltsHis = 0;
            for (int city : ar.cities) {
                held += effectiveCityControl(c.d, s, city) == ctl;
                if (s.cities[city].revolt)
                    revoltsHis += s.markers.value(QStringLiteral("9.41.") + c.d.cities[city].id, ctl) == ctl;
            }
            if (revoltsHis > 0 && held < ar.control && held + revoltsHis >= ar.control) {
                for (int city : ar.cities)
                    if (effectiveCityControl(c.d, s, city) == ctl)
                        s.cities[city].marker = static_cast<int8_t>(ctl); // he keeps those cities
                s.areas[a].control = kNone;
                addVp(c, -vpSign(ctl) * areaVpValue(c.d, s, a),
                      QStringLiteral("9.41 Peasant Revolts: %1 loses control of %2 (%3 of %4 cities):")
                          .arg(sideName(ctl), ar.name)
                          .arg(held)
                          .arg(ar.control));
                m = static_cast<uint8_t>((m & kAreaDevastated) |
                                         (ctl == kCatholic ? kAreaRevoltCath : kAreaRevoltProt));
                ctl = kNone;
                electors = true;
            }
        }
        // A new controller: control changes count the Area's full VP (control.cpp); a devastated Area is
        // worth one less (15.24), so the gain is corrected.
        const int last = lastOf(m);
        const bool wasDev = m & kAreaDevastated;
        if (ctl != last) {
            if (ctl != kNone) {
                m = static_cast<uint8_t>(m & ~(kAreaRevoltCath | kAreaRevoltProt));
                if (wasDev && c.d.areas[a].vp > 0)
                    addVp(
                        c, -vpSign(ctl),
                        QStringLiteral("15.24 %1 is devastated: gained at its reduced value:").arg(ar.name));
            }
            m = static_cast<uint8_t>((m & ~(kLastCath | kLastProt)) | lastMark(ctl));
        }
        // 15.24: every city at Pillage-2 reduces the Area's VP value by one (restored on recovery).
        bool dev = !ar.cities.isEmpty();
        for (int city : ar.cities)
            dev &= s.cities[city].pillage >= 2;
        if (dev != wasDev) {
            m = static_cast<uint8_t>(dev ? (m | kAreaDevastated) : (m & ~kAreaDevastated));
            if (ctl != kNone && ar.vp > 0)
                addVp(c, dev ? -vpSign(ctl) : vpSign(ctl),
                      QStringLiteral("15.24 %1 %2:")
                          .arg(ar.name, dev ? QStringLiteral("is devastated (every city at Pillage-2)")
                                            : QStringLiteral("recovers from devastation")));
            else
                WP_SAY(c, QStringLiteral("15.24 %1 %2")
                              .arg(ar.name, dev ? QStringLiteral("is devastated (VP value -1)")
                                                : QStringLiteral("recovers its VP value")));
        }
    }
    // 9.41: the records of whose city a revolt broke out in go with the revolt.
    for (auto it = s.markers.lowerBound(QStringLiteral("9.41."));
         it != s.markers.end() && it.key().startsWith(QLatin1String("9.41."));) {
        const int city = c.d.city(it.key().mid(5));
        if (city >= 0 && s.cities[city].revolt)
            ++it;
        else
            it = s.markers.erase(it);
    }
    // 9.42: revolt VP lost by Independent and French cities come back when the revolt is gone.
    for (auto it = s.markers.lowerBound(QStringLiteral("9.42."));
         it != s.markers.end() && it.key().startsWith(QLatin1String("9.42."));) {
        const int city = c.d.city(it.key().mid(5));
        if (city >= 0 && s.cities[city].revolt) {
            ++it;
            continue;
        }
        const int lost = it.value();
        if (city >= 0 && effectiveCityControl(c.d, s, city) == lost)
            addVp(c, vpSign(lost) * c.d.cities[city].vp,
                  QStringLiteral("9.42 %1 is no longer in revolt:").arg(cityName(c.d, city)));
        it = s.markers.erase(it);
    }
    if (electors)
        updateElectors(c);
}

// ---------------------------------------------------------------- step losses and leaders left alone

void takeStepLosses(Ctx& c, int side, const std::vector<int>& units, int steps, bool permanent, int city,
                    const QString& rule) {
    if (steps <= 0 || units.empty())
        return;
    WP_SAY(c,
           QStringLiteral("%1 %2 takes %3 step loss%4 (15.223: Mercenaries, then Militia, then Veterans)")
               .arg(rule, sideName(side))
               .arg(steps)
               .arg(steps > 1 ? "es" : ""),
           side);
    ChoiceFrame f;
    f.actor = static_cast<int8_t>(side);
    f.purpose = kStepLoss;
    for (int u : units)
        f.options.push_back(static_cast<int16_t>(u));
    f.count = static_cast<int16_t>(steps);
    f.flag = permanent;
    f.city = static_cast<int16_t>(city);
    c.s.frames.push_back(f);
    advanceLosses(c);
}

namespace eco {

void placeLeadersAlone(Ctx& c, int side, int city) {
    if (anyUnitsAt(c.s, city, side, c.d))
        return;
    const std::vector<int> leaders = leadersAt(c.s, city, side, c.d);
    if (leaders.empty())
        return;
    std::vector<int16_t> options;
    { // the search does not change the state
        const PieceIndexScope pieces(c.s, c.d);
        for (qsizetype ci = 0; ci < c.d.cities.size(); ++ci) {
            const int to = static_cast<int>(ci);
            if (effectiveCityControl(c.d, c.s, to) != side || hasEnemyUnits(c.d, c.s, to, side))
                continue;
            bool ok = true;
            for (int l : leaders)
                ok = ok && pieceMayEnter(c, c.d.leaders[l].nationality, to);
            if (!ok)
                continue;
            std::vector<int> ls = leadersAt(c.s, to, side, c.d);
            for (int l : leaders)
                if (to != city)
                    ls.push_back(l);
            if (mixAllowed(c, unitsAt(c.s, to, side, c.d), ls))
                options.push_back(static_cast<int16_t>(to));
        }
    }
    if (options.empty()) {
        for (int l : leaders) {
            WP_SAY(c, QStringLiteral("15.225 no friendly city for %1: eliminated").arg(leaderName(c.d, l)),
                   side);
            killLeader(c, l, QStringLiteral("12.43"));
        }
        return;
    }
    ChoiceFrame f;
    f.actor = static_cast<int8_t>(side);
    f.purpose = kLeadersPlace;
    f.options = options;
    f.city = static_cast<int16_t>(city);
    for (int l : leaders)
        f.extra.push_back(static_cast<int16_t>(l));
    c.s.frames.push_back(f);
}

std::vector<Action> payLegal(const Ctx& c, const ChoiceFrame& f) {
    std::vector<Action> out;
    switch (f.purpose) {
    case kPayUnits:
        for (int16_t u : payable(c.d, c.s, f.actor))
            out.push_back(choose(u));
        if (!out.empty())
            out.push_back(pass());
        break;
    case kStepLoss:
        if (f.count > 0)
            for (int u : lossCandidates(c.d, c.s, f.options))
                out.push_back(choose(static_cast<int16_t>(u)));
        break;
    case kLeadersPlace:
        for (int16_t city : f.options)
            out.push_back(choose(city));
        break;
    case kRecoverPillage:
        if (f.count > 0)
            for (int16_t city : recoveryOptions(c.d, c.s, f.actor))
                out.push_back(choose(city));
        if (!out.empty())
            out.push_back(pass());
        break;
    default:
        break;
    }
    return out;
}

void payApply(Ctx& c, const Action& a) {
    ChoiceFrame& f = top(c.s);
    switch (f.purpose) {
    case kPayUnits:
        if (a.kind == ActionKind::Pass) {
            c.s.frames.pop_back();
            return;
        }
        payUnit(c, a.target);
        if (const PieceIndexScope pieces(c.s, c.d); payLegal(c, top(c.s)).empty())
            c.s.frames.pop_back();
        return;
    case kStepLoss:
        f.count = static_cast<int16_t>(f.count - 1);
        loseStep(c, a.target, f.flag);
        advanceLosses(c);
        return;
    case kLeadersPlace: {
        const std::vector<int16_t> leaders = f.extra;
        const int from = f.city;
        c.s.frames.pop_back();
        for (int16_t l : leaders)
            c.s.leaders[l] = LeaderState{a.target, LeaderStatus::InPlay, 0};
        WP_SAY(c,
               QStringLiteral("15.225 the leaders left alone at %1 go to %2")
                   .arg(cityName(c.d, from), cityName(c.d, a.target)),
               f.actor);
        return;
    }
    case kRecoverPillage: {
        if (a.kind == ActionKind::Pass) {
            WP_SAY(c,
                   QStringLiteral("15.251 %1 leaves %2 recovery level%3 unused")
                       .arg(sideName(f.actor))
                       .arg(f.count)
                       .arg(f.count > 1 ? "s" : ""),
                   f.actor);
            c.s.frames.pop_back();
            return;
        }
        f.count = static_cast<int16_t>(f.count - 1);
        c.s.pendingCities.push_back(a.target);
        recoverPillage(c, a.target, QStringLiteral("15.25"));
        if (payLegal(c, top(c.s)).empty())
            c.s.frames.pop_back();
        return;
    }
    default:
        c.s.frames.pop_back();
        return;
    }
}

} // namespace eco

// ---------------------------------------------------------------- the phases

void lootStack(Ctx& c, int city, int side, const std::vector<int>& units, const QString& rule) {
    if (units.empty())
        return;
    LootRoll r;
    r.side = side;
    r.units = units;
    lootCity(c, city, {r}, rule);
}

bool payPhase(Ctx& c) {
    GameState& s = c.s;
    const int step = eco::turnStep(s);
    const int cities = static_cast<int>(c.d.cities.size());
    if (step == 0) {
        nationalEffects(c);
        reconcileAreas(c);
        if (s.options.aid_no_limit) { // 19.4a: the turn's AID cards count with this turn's events
            for (int side : {kCatholic, kProtestant}) {
                int total = 0;
                for (int16_t card : s.aidCards[side])
                    total += aidCardValue(c.d, s, side, card);
                if (total != s.aidFromCards[side]) {
                    s.aidPoints[side] = static_cast<int8_t>(
                        std::clamp(s.aidPoints[side] + total - s.aidFromCards[side], 0, 99));
                    s.aidFromCards[side] = static_cast<int16_t>(total);
                    WP_SAY(c,
                           QStringLiteral(
                               "19.4a %1's AID cards re-counted with this turn's events: %2 Aid Points")
                               .arg(sideName(side))
                               .arg(s.aidPoints[side]),
                           side);
                }
            }
            s.aidSwedish = std::min(s.aidSwedish, s.aidPoints[kProtestant]);
        }
        WP_SAY(c, QStringLiteral("6.E Pay Phase: the Pay Segment (15.1)"));
        markPay(c);
        eco::setTurnStep(s, 1);
        return true;
    }
    if (step == 1 || step == 2) {
        const int side = step == 1 ? kProtestant : kCatholic;
        eco::setTurnStep(s, step + 1);
        if (!payable(c.d, s, side).empty()) {
            ChoiceFrame f;
            f.actor = static_cast<int8_t>(side);
            f.purpose = kPayUnits;
            s.frames.push_back(f);
        }
        return true;
    }
    if (step == 3)
        WP_SAY(c, QStringLiteral("6.E the Loot Segment (15.2)"));
    if (step >= 3 && step < 3 + cities) {
        // the next city (in city order) with an unpaid unit of a side in the war: one pass over the counters
        int city = cities;
        for (const UnitState& u : s.units)
            if ((u.flags & kUnpaid) && isCity(u.loc) && u.loc >= step - 3 && u.loc < city &&
                s.nationSide[c.d.unitTypes[u.type].nationality] != kNone)
                city = u.loc;
        eco::setTurnStep(s, city + 3 + (city < cities ? 1 : 0));
        if (city >= cities)
            return true;
        std::vector<LootRoll> rolls;
        for (int side : {kProtestant, kCatholic}) {
            std::vector<int> units = unpaidAt(c.d, s, city, side);
            if (units.empty())
                continue;
            LootRoll r;
            r.side = side;
            r.units = std::move(units);
            rolls.push_back(std::move(r));
        }
        if (!rolls.empty())
            lootCity(c, city, std::move(rolls), QStringLiteral("15.2"));
        return true;
    }
    // the turn's aid is spent (the sequence resets the points)
    s.aidSwedish = 0;
    s.aidCards[0].clear();
    s.aidCards[1].clear();
    s.aidFromCards[0] = s.aidFromCards[1] = 0;
    reconcileAreas(c);
    nationalEffects(c);
    return false;
}

bool recoveryPhase(Ctx& c) {
    GameState& s = c.s;
    if (!s.setupPillageDone)
        return eco::recoverySetup(c);
    const int step = eco::turnStep(s);
    if (step == 0) {
        s.pendingCities.clear();
        nationalEffects(c);
        reconcileAreas(c);
        // 19.7: Wallenstein not brought into play by the beginning of turn 6 costs 3 VP (once).
        const int w = c.d.leader(QStringLiteral("wallenstein"));
        if (s.options.tilly_dynamic && s.turn >= 6 && w >= 0 &&
            s.leaders[w].status == LeaderStatus::NotEntered &&
            !s.markers.contains(QStringLiteral("19.7.vp"))) {
            s.markers[QStringLiteral("19.7.vp")] = 1;
            addVp(c, -3,
                  QStringLiteral("19.7 Wallenstein is not in play at the beginning of turn %1:").arg(s.turn));
        }
        eco::setTurnStep(s, 1);
        return true;
    }
    if (step == 1 || step == 2) {
        const int side = step == 1 ? kProtestant : kCatholic;
        eco::setTurnStep(s, step + 1);
        const int r = WP_ROLL(c, QStringLiteral("15.25 Pillage Recovery"), side);
        const int levels = s.truce ? std::max(1, r) : std::max(1, (r + 1) / 2);
        WP_SAY(c,
               QStringLiteral("15.25 %1 may recover %2 Pillage level%3%4")
                   .arg(sideName(side))
                   .arg(levels)
                   .arg(levels > 1 ? "s" : "")
                   .arg(s.truce ? QStringLiteral(" (5.32 Truce: not halved)") : QString()),
               side);
        if (!recoveryOptions(c.d, s, side).empty()) {
            ChoiceFrame f;
            f.actor = static_cast<int8_t>(side);
            f.purpose = kRecoverPillage;
            f.count = static_cast<int16_t>(levels);
            s.frames.push_back(f);
        }
        return true;
    }
    s.truce = false;
    return false;
}

// 19.3: each side's LoC is fixed at the end of its sixth round.
void actionPhaseCheckpoint(Ctx& c) {
    GameState& s = c.s;
    if (!s.options.loc_action_phase || s.frames.size() != 1)
        return;
    for (int side : {kProtestant, kCatholic}) {
        const QString key = QStringLiteral("19.3.%1").arg(side);
        if (s.roundsUsed[side] < 6 || s.markers.value(key, -1) == s.turn)
            continue;
        s.locMarks.resize(s.units.size(), 0);
        int yes = 0, no = 0;
        for (size_t u = 0; u < s.units.size(); ++u) {
            const int unit = static_cast<int>(u);
            if (s.units[u].loc < 0 || unitSide(c.d, s, unit) != side)
                continue;
            const bool loc = hasLoc(c.d, s, unit);
            s.locMarks[u] = loc ? 1 : 2;
            (loc ? yes : no)++;
        }
        s.markers[key] = s.turn;
        WP_SAY(c,
               QStringLiteral("19.3 %1's LoC established after the sixth round: %2 units with, %3 without")
                   .arg(sideName(side))
                   .arg(yes)
                   .arg(no),
               side);
    }
}

} // namespace wp::rules

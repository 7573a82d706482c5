// National effects (17.x): where each nationality may go and with whom it may stack, the Supply Bases
// (15.15), the Swedish Base, and the lasting national conditions (Hungary's rebellion, the Danes without
// their king, the Cardinal Infante's march). The recruiting restrictions are with recruitment (recruit.cpp).
#include "rules/economy.h"
#include "rules/named.h"

#include <algorithm>

namespace wp::rules {

namespace {

bool isArea(const GameData& d, const City& ct, const char* id) {
    return ct.area >= 0 && d.areas[ct.area].id == QLatin1String(id);
}

int cardIndex(const GameData& d, const char* id) {
    return d.card(QLatin1String(id));
}

bool played(const GameData& d, const GameState& s, const char* id) {
    const int ci = cardIndex(d, id);
    return ci >= 0 && s.eventPlayed[ci];
}

bool hasSwedenArrow(const GameData& d, int city) {
    for (const Arrow& a : d.arrows)
        if (a.city == city && d.boxes[a.box].kind == QLatin1String("sweden"))
            return true;
    return false;
}

// 19.7: until Wallenstein is brought into play, Imperial pieces stay in these Areas.
bool imperialAreaBefore(const GameData& d, const City& ct) {
    static const QStringList allowed{"bohemia", "moravia", "silesia", "upper-palatinate", "lower-palatinate",
                                     "austria", "bavaria", "tyrol",   "hungary"};
    const int area = ct.area >= 0 ? ct.area : ct.within;
    return area >= 0 && allowed.contains(d.areas[area].id);
}

// The Cardinal Infante (or his replacement), if in play.
int cardinalLeader(const GameData& d, const GameState& s) {
    for (const char* id : {"cardinal-infante", "cardinal-infante-successor"}) {
        const int l = d.leader(QLatin1String(id));
        if (l >= 0 && s.leaders[l].status == LeaderStatus::InPlay)
            return l;
    }
    return -1;
}

bool inSpanishZone(const GameData& d, int loc) {
    if (isCity(static_cast<int16_t>(loc)))
        return d.cities[loc].spanishZone;
    return isBox(static_cast<int16_t>(loc)) && d.boxes[loc - kBoxBase].kind == QLatin1String("up");
}

} // namespace

QString nationalityId(const GameData& d, int nationality) {
    return d.nationalities[nationality].id;
}

QString unitNatId(const GameData& d, const GameState& s, int unit) {
    return unitNationality(d, s, unit).id;
}

QString leaderNatId(const GameData& d, int leader) {
    return d.nationalities[d.leaders[leader].nationality].id;
}

bool wallensteinInPlay(const GameData& d, const GameState& s) {
    const int w = named(d, Named::Wallenstein);
    return w >= 0 && s.leaders[w].status == LeaderStatus::InPlay;
}

int effectiveStars(const GameData& d, const GameState& s, int leader) {
    const QString& id = d.leaders[leader].id;
    if (s.options.wallenstein_two_star && id == QLatin1String("wallenstein"))
        return 2; // 7.25
    if (s.options.tilly_dynamic && id == QLatin1String("tilly"))
        return 2; // 19.7
    return d.leaders[leader].stars;
}

// Nationality movement limits (11.31-11.32, 17.Sp.2-17.Sp.32, 17.H.4, 19.7).
bool pieceMayEnter(const Ctx& c, int nationality, int city) {
    const City& ct = c.d.cities[city];
    const NatCode n = c.d.nationalities[nationality].code;
    if (ct.france) {
        // 11.31-11.32: nobody enters France before it is in the war; only Protestants enter the off-map
        // spaces.
        if (!c.s.franceInWar)
            return false;
        if (ct.offmap && c.s.nationSide[nationality] != kProtestant)
            return false;
    }
    if (n == NatCode::Spanish && !ct.spanishZone) {
        // 17.Sp.2; 17.Sp.3: the Cardinal Infante's army marches from Tyrol until it reaches the Zone, and
        // then stays in it (17.Sp.32).
        // Only the army moving with him: the activation on top of the stack must include him.
        const int cl = cardinalLeader(c.d, c.s);
        const bool marching = effect(c.s, QStringLiteral("cardinalInfante")) > 0;
        if (!marching || cl < 0 || inSpanishZone(c.d, c.s.leaders[cl].loc) || c.s.frames.empty())
            return false;
        const auto* f = std::get_if<ActivationFrame>(&c.s.frames.back());
        if (!f || std::find(f->leaders.begin(), f->leaders.end(), cl) == f->leaders.end())
            return false;
    }
    if (n == NatCode::Hungarian) {
        // 17.H.4: Hungary and the Areas adjacent to Austria only.
        static const QStringList allowed{"hungary", "austria", "moravia", "bohemia", "bavaria", "tyrol"};
        const int area = ct.area >= 0 ? ct.area : ct.within;
        if (area < 0 || !allowed.contains(c.d.areas[area].id))
            return false;
    }
    if (c.s.nationSide[nationality] == kCatholic &&
        c.s.markers.value(QStringLiteral("P11.neutralsClosedToCatholicTurn"), -1) == c.s.turn) {
        // P11 Treaty of Ulm: this turn no Catholic piece enters a Neutral Area or a Neutral Independent City.
        const bool neutralArea = ct.area >= 0 && c.s.areas[ct.area].neutral;
        const bool neutralIndependent = ct.independent && effectiveCityControl(c.d, c.s, city) == kNone;
        if (neutralArea || neutralIndependent)
            return false;
    }
    if (n == NatCode::Imperial && c.s.options.tilly_dynamic) {
        // 19.7 note: until Wallenstein is brought into play Imperial pieces stay in the Kingdom of Bohemia,
        // the Palatinates, Austria, Bavaria, Tyrol and Hungary.
        const int w = named(c.d, Named::Wallenstein);
        if (w >= 0 && c.s.leaders[w].status == LeaderStatus::NotEntered && !imperialAreaBefore(c.d, ct))
            return false;
    }
    return true;
}

// 17.A.2 Imperial/Bavarian (and 19.7), 7.24 Wallenstein/Tilly, 17.F.5 French/Swedish under C54.
bool mixAllowed(const Ctx& c, const std::vector<int>& units, const std::vector<int>& leaders) {
    bool imp = false, bav = false, wallenstein = false, tilly = false, impLeader = false, french = false,
         swedish = false;
    for (int u : units) {
        const NatCode n = unitNationality(c.d, c.s, u).code;
        imp |= n == NatCode::Imperial;
        bav |= n == NatCode::Bavarian;
        french |= n == NatCode::French;
        swedish |= n == NatCode::Swedish;
    }
    for (int l : leaders) {
        const NatCode n = c.d.nationalities[c.d.leaders[l].nationality].code;
        imp |= n == NatCode::Imperial;
        impLeader |= n == NatCode::Imperial;
        bav |= n == NatCode::Bavarian;
        french |= n == NatCode::French;
        swedish |= n == NatCode::Swedish;
        wallenstein |= c.d.leaders[l].id == QLatin1String("wallenstein");
        tilly |= c.d.leaders[l].id == QLatin1String("tilly");
    }
    if (wallenstein && tilly)
        return false; // 7.24
    if (french && swedish && played(c.d, c.s, "C54") && !played(c.d, c.s, "P38"))
        return false; // 17.F.5 Conflict of Interest, until Oxenstierna
    if (c.s.imperialBavarianBan && imp && bav) {
        // 19.7: before Wallenstein enters, Tilly may lead both with an Imperial sub-commander.
        const int w = named(c.d, Named::Wallenstein);
        const bool before = w >= 0 && c.s.leaders[w].status == LeaderStatus::NotEntered;
        return c.s.options.tilly_dynamic && before && tilly && impLeader;
    }
    return true;
}

int usableSwedishBase(const GameData& d, const GameState& s) {
    const int b = s.swedishBase;
    if (b < 0 || !hasSwedenArrow(d, b) || s.cities[b].revolt)
        return -1;
    // 17.Sw.1: a Protestant-controlled or Neutral port with an arrow to Sweden.
    return effectiveCityControl(d, s, b) == kCatholic ? -1 : b;
}

std::vector<int> swedishBaseOptions(const GameData& d, const GameState& s) {
    std::vector<int> out;
    for (qsizetype ci = 0; ci < d.cities.size(); ++ci) {
        const int city = static_cast<int>(ci);
        if (city != s.swedishBase && hasSwedenArrow(d, city) && !s.cities[city].revolt &&
            effectiveCityControl(d, s, city) != kCatholic)
            out.push_back(city);
    }
    return out;
}

bool canMoveSwedishBase(const GameData& d, const GameState& s) {
    // 17.Sw.1: on a turn after Sweden entered (the P18 event's reminder "P18.turn", if it left one), once a
    // turn
    return s.swedenInWar && s.swedishBase >= 0 && s.markers.value(QStringLiteral("P18.turn"), -1) != s.turn &&
           s.markers.value(QStringLiteral("17.Sw.1.moved"), -1) != s.turn &&
           !swedishBaseOptions(d, s).empty();
}

void moveSwedishBase(Ctx& c, int city) {
    WP_SAY(c,
           QStringLiteral("17.Sw.1 the Swedish Base moves %1 -> %2")
               .arg(cityName(c.d, c.s.swedishBase), cityName(c.d, city)),
           kProtestant);
    c.s.swedishBase = static_cast<int16_t>(city);
    c.s.markers[QStringLiteral("17.Sw.1.moved")] = c.s.turn;
}

bool isSupplyBase(const GameData& d, const GameState& s, int nationality, int city) {
    const QString n = nationalityId(d, nationality);
    const int side = s.nationSide[nationality];
    const City& ct = d.cities[city];
    const int ctl = effectiveCityControl(d, s, city);
    if (s.cities[city].revolt)
        return false;
    if (n == QLatin1String("danish")) {
        // 17.D.1: any city of Schleswig-Holstein neither Catholic-controlled nor Catholic-occupied.
        return isArea(d, ct, "schleswig-holstein") && ctl != kCatholic && !anyUnitsAt(s, city, kCatholic, d);
    }
    if (n == QLatin1String("spanish")) // 17.Sp.1
        return isArea(d, ct, "spanish-netherlands") && ctl == side;
    if (n == QLatin1String("french")) // 17.F.1
        return (ct.france || isArea(d, ct, "lorraine")) && ctl == kProtestant;
    if (n == QLatin1String("swedish")) // 17.Sw.1
        return city == usableSwedishBase(d, s);
    // 17.A.1, 17.B.1, 17.Sa.1, 17.G.1, 17.H.1, 17.E.2: the listed cities, friendly-controlled (15.15); those
    // of an Area still Neutral are not yet bases (17.G.1: Breisach, Brunswick, Kassel).
    if (side == kProtestant && n != QLatin1String("saxon") && city == usableSwedishBase(d, s))
        return true; // 17.G.1, 17.H.1: the Swedish Base serves them too
    if (!d.nationalities[nationality].supplyCities.contains(city))
        return false;
    if (ct.area >= 0 && s.areas[ct.area].neutral)
        return false;
    return ctl == side;
}

void leaderLossEffects(Ctx& c) {
    GameState& s = c.s;
    // 17.H.5: Hungary's rebellion ends with Bethlen Gabor's loss or when the Catholic holds every city of
    // Hungary.
    if (s.hungaryRebellion) {
        const int gabor = c.d.leader(QStringLiteral("bethlen-gabor"));
        const int hungary = c.d.area(QStringLiteral("hungary"));
        bool allCatholic = hungary >= 0;
        if (hungary >= 0)
            for (int city : c.d.areas[hungary].cities)
                allCatholic &= effectiveCityControl(c.d, s, city) == kCatholic;
        const bool lost = gabor >= 0 && (s.leaders[gabor].status == LeaderStatus::Dead ||
                                         s.leaders[gabor].status == LeaderStatus::Removed);
        if (lost || allCatholic) {
            s.hungaryRebellion = false;
            WP_SAY(c, QStringLiteral("17.H.5 the Hungarian Rebellion ends (%1)")
                          .arg(lost ? QStringLiteral("Bethlen Gabor is lost")
                                    : QStringLiteral("the Catholic holds every city of Hungary")));
            for (size_t u = 0; u < s.units.size(); ++u)
                if (unitNatId(c.d, s, static_cast<int>(u)) == QLatin1String("hungarian") &&
                    s.units[u].loc != kRemoved) {
                    const int16_t loc = s.units[u].loc;
                    s.units[u] = UnitState{s.units[u].type, kRemoved, 0, 0};
                    if (isCity(loc))
                        checkSiegeMaintained(c, loc);
                }
            if (gabor >= 0 && s.leaders[gabor].status == LeaderStatus::InPlay)
                s.leaders[gabor] = LeaderState{kRemoved, LeaderStatus::Removed, 0};
            if (hungary >= 0)
                for (int city : c.d.areas[hungary].cities)
                    if (!s.cities[city].revolt)
                        setCityControl(c, city, kCatholic, QStringLiteral("17.H.5"));
        }
    }
    // 17.D.3: if King Christian becomes a casualty, all Danish units leave the game.
    const int christian = named(c.d, Named::ChristianIV);
    const int danish = named(c.d, Named::DanishNationality);
    if (christian >= 0 && danish >= 0 &&
        (s.leaders[christian].status == LeaderStatus::Dead ||
         s.leaders[christian].status == LeaderStatus::Removed)) {
        for (size_t u = 0; u < s.units.size(); ++u)
            if (c.d.unitTypes[s.units[u].type].nationality == danish && s.units[u].loc != kRemoved) {
                const int16_t loc = s.units[u].loc;
                if (loc >= 0)
                    WP_SAY(c,
                           QStringLiteral("17.D.3 %1 leaves the game with King Christian")
                               .arg(unitLabel(c.d, s, static_cast<int>(u))),
                           kProtestant);
                s.units[u] = UnitState{s.units[u].type, kRemoved, 0, 0};
                if (isCity(loc))
                    checkSiegeMaintained(c, loc);
            }
    }
}

void conflictOfInterestGrace(Ctx& c) {
    GameState& s = c.s;
    const QString turnKey = QStringLiteral("C54.graceTurn"), roundKey = QStringLiteral("C54.graceRound");
    if (!s.markers.contains(turnKey))
        return;
    const int turn = s.markers.value(turnKey), round = s.markers.value(roundKey);
    const bool over = s.turn > turn || (s.turn == turn && s.roundsUsed[kProtestant] >= round);
    if (!over && !played(c.d, s, "P38"))
        return;
    s.markers.remove(turnKey);
    s.markers.remove(roundKey);
    if (played(c.d, s, "P38"))
        return; // Oxenstierna ended the conflict first
    const int french = c.d.nationality(QStringLiteral("french"));
    const int swedish = c.d.nationality(QStringLiteral("swedish"));
    for (qsizetype ci = 0; ci < c.d.cities.size(); ++ci) {
        std::vector<int> fr, sw;
        for (int u : unitsAt(s, static_cast<int>(ci), kProtestant, c.d)) {
            const int nat = c.d.unitTypes[s.units[u].type].nationality;
            if (nat == french)
                fr.push_back(u);
            else if (nat == swedish)
                sw.push_back(u);
        }
        if (fr.empty() || sw.empty())
            continue;
        // 17.F.5, 10.22: the stack is illegal; "the owning player decides which units to eliminate" until
        // French and Swedes no longer stack (a kChooseOverstack choice in its mixed-nationality mode).
        WP_SAY(c,
               QStringLiteral(
                   "17.F.5, 10.22 the grace period of Conflict of Interest is over: French and Swedish "
                   "units still stacked at %1")
                   .arg(cityName(c.d, static_cast<int>(ci))),
               kProtestant);
        ChoiceFrame ch;
        ch.actor = kProtestant;
        ch.purpose = kChooseOverstack;
        ch.city = static_cast<int16_t>(ci);
        ch.kind = kOverstackFrenchSwedish;
        for (int u : fr)
            ch.options.push_back(static_cast<int16_t>(u));
        for (int u : sw)
            ch.options.push_back(static_cast<int16_t>(u));
        std::sort(ch.options.begin(), ch.options.end());
        ch.count = static_cast<int16_t>(ch.options.size());
        s.frames.push_back(ch);
    }
}

void nationalEffects(Ctx& c) {
    GameState& s = c.s;
    leaderLossEffects(c);
    // 17.Sp.3/17.Sp.31: the Cardinal Infante's army while it marches to the Spanish Zone.
    if (effect(s, QStringLiteral("cardinalInfante")) > 0) {
        const int cl = cardinalLeader(c.d, s);
        // 17.Sp.31: Spanish units outside the Zone not with the Cardinal (or his replacement) are lost. This
        // holds also when the Cardinal himself reaches the Zone in this Activation: a unit he left behind
        // outside it ends the Activation apart from him (and could never move again, 17.Sp.2).
        for (size_t u = 0; u < s.units.size(); ++u) {
            const UnitState& us = s.units[u];
            if (us.loc < 0 || unitNatId(c.d, s, static_cast<int>(u)) != QLatin1String("spanish") ||
                inSpanishZone(c.d, us.loc))
                continue;
            if (cl >= 0 && s.leaders[cl].loc == us.loc)
                continue;
            eliminateUnit(c, static_cast<int>(u), false, QStringLiteral("17.Sp.31"));
        }
        if (cl >= 0 && inSpanishZone(c.d, s.leaders[cl].loc)) {
            clearEffect(c, QStringLiteral("cardinalInfante"));
            WP_SAY(c, QStringLiteral("17.Sp.32 the Cardinal Infante's army reaches the Spanish Zone"),
                   kCatholic);
        }
    }
}

// 17.Sp.3: at the end of the turn after its arrival, the Cardinal's army not in the Zone is eliminated.
void cardinalDeadline(Ctx& c) {
    GameState& s = c.s;
    const QString key = QStringLiteral("cardinalInfante");
    if (effect(s, key) <= 0 || s.markers.value(key + QLatin1Char('@')) != s.turn)
        return;
    nationalEffects(c); // reached this round?
    if (effect(s, key) <= 0)
        return;
    WP_SAY(c,
           QStringLiteral(
               "17.Sp.3 the Cardinal Infante's army has not reached the Spanish Zone: it is eliminated"),
           kCatholic);
    for (size_t u = 0; u < s.units.size(); ++u)
        if (s.units[u].loc >= 0 && unitNatId(c.d, s, static_cast<int>(u)) == QLatin1String("spanish") &&
            !inSpanishZone(c.d, s.units[u].loc))
            eliminateUnit(c, static_cast<int>(u), false, QStringLiteral("17.Sp.3"));
    const int cl = cardinalLeader(c.d, s);
    if (cl >= 0 && !inSpanishZone(c.d, s.leaders[cl].loc))
        killLeader(c, cl, QStringLiteral("12.43"));
    clearEffect(c, key);
}

} // namespace wp::rules

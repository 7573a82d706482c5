// The Catholic card events C1-C55, one small unit per card, registered by card id. The effects follow
// cards/cards.json (`event`) and every rule that names the card; docs/cards.md explains each one, its
// choices and the reading of reconstructed texts. Shared machinery is in events/common.h; lasting
// effects on aid, pay and recruitment are read by the economy (rules/economy.h) from
// GameState::eventPlayed or from the effects set here.
#include "events/common.h"

#include "rules/economy.h"

#include <algorithm>

namespace wp::rules {

namespace {

using namespace ev;

int16_t i16(int v) {
    return static_cast<int16_t>(v);
}

int card(const Ctx& c, const char* id) {
    return cardIdx(c.d, QLatin1String(id));
}

int leader(const Ctx& c, const char* id) {
    return leaderIdx(c.d, QLatin1String(id));
}

QString ok() {
    return {};
}

// ---------------------------------------------------------------- aid and politics

// C1, C38 Val Telline Passes Open (14.4).
EventDef valTellineOpen(const char* id) {
    EventDef d;
    setCheck(d, [](const Ctx& c, int) {
        return c.s.valTellineOpen ? QStringLiteral("14.4: the Val Telline Passes are already open") : ok();
    });
    d.apply = [id](Ctx& c, int side) {
        c.s.valTellineOpen = true;
        if (!c.s.aidSources[kCatholic].contains(QStringLiteral("spain")))
            c.s.aidSources[kCatholic] << QStringLiteral("spain");
        WP_SAY(c,
               QStringLiteral("14.4 %1: the Val Telline Passes are open; Spanish Aid is received again")
                   .arg(QLatin1String(id)),
               side);
    };
    return d;
}

// C2 England Withdraws Troops (17.E.3).
int englishUnit(const Ctx& c) {
    for (size_t u = 0; u < c.s.units.size(); ++u)
        if (natOf(c.d, c.s, static_cast<int>(u)) == QLatin1String("english"))
            return static_cast<int>(u);
    return -1;
}

EventDef c2() {
    EventDef d;
    setCheck(d, [](const Ctx& c, int) {
        const int u = englishUnit(c);
        return u >= 0 && c.s.units[u].loc >= 0 ? ok()
                                               : QStringLiteral("17.E.3: the English unit is not on the map");
    });
    d.apply = [](Ctx& c, int) {
        const int u = englishUnit(c);
        eliminateUnit(c, u, true, QStringLiteral("17.E.3 C2 England withdraws its troops:"));
        WP_SAY(c, QStringLiteral("17.E.3 English Aid continues as before"));
    };
    return d;
}

// C5 Spain Declares War with England (8.65): -2 on English Aid until P20; the economy reads eventPlayed.
EventDef c5() {
    EventDef d;
    d.apply = [](Ctx& c, int side) {
        WP_SAY(
            c,
            QStringLiteral("8.65 C5: Spain is at war with England: -2 English Aid Points on every Protestant "
                           "AID card until P20"),
            side);
    };
    return d;
}

// C6 Edict of Restitution (18.14).
EventDef c6() {
    EventDef d;
    setCheck(d, [](const Ctx& c, int) {
        const int bohemia = areaIdx(c.d, QStringLiteral("bohemia"));
        return bohemia >= 0 && c.s.areas[bohemia].control == kCatholic
                   ? ok()
                   : QStringLiteral("8.61 C6: the Catholic must control Bohemia");
    });
    d.apply = [](Ctx& c, int) { addVp(c, 2, QStringLiteral("C6 Edict of Restitution (18.14):")); };
    return d;
}

// C12 Frederick of Palatine Deposed as Elector (5.142).
EventDef c12() {
    EventDef d;
    setCheck(d, [](const Ctx& c, int) {
        return c.s.electorate == areaIdx(c.d, QStringLiteral("bavaria"))
                   ? QStringLiteral("5.142: Bavaria is already the Electorate")
                   : ok();
    });
    d.apply = [](Ctx& c, int side) {
        c.s.electorate = static_cast<int8_t>(areaIdx(c.d, QStringLiteral("bavaria")));
        WP_SAY(
            c,
            QStringLiteral("5.142 C12: the Lower Palatinate ceases to be an Electorate; Bavaria becomes one"),
            side);
        updateElectors(c); // 5.141: a majority or all-Electors award at once
    };
    return d;
}

// C16 Marie of Spain Marries Ferdinand III: +2 Spanish Aid for the rest of the game (read from eventPlayed).
EventDef c16() {
    EventDef d;
    d.apply = [](Ctx& c, int side) {
        WP_SAY(
            c,
            QStringLiteral("8.65 C16: +2 Spanish Aid Points on every Catholic AID card for the rest of the "
                           "game (while the Val Telline Passes are open)"),
            side);
    };
    return d;
}

// C19 Elector Maximilian (17.A.2, 17.B.2).
EventDef c19() {
    EventDef d;
    setCheck(d, [](const Ctx& c, int) {
        const int w = leader(c, "wallenstein");
        if (w >= 0 && leaderOnMap(c.s, w))
            return QStringLiteral("8.61 C19: Wallenstein is on the map (7.0)");
        if (!c.s.imperialBavarianBan)
            return QStringLiteral("17.A.2: Imperial and Bavarian forces may already stack together");
        return ok();
    });
    d.apply = [](Ctx& c, int side) {
        c.s.imperialBavarianBan = false;
        WP_SAY(
            c,
            QStringLiteral("17.A.2 C19: Imperial and Bavarian leaders and units may stack together for the "
                           "rest of the game (Imperial leaders still may not recruit in Bavaria, 17.A.3)"),
            side);
    };
    return d;
}

// C22 Electoral Meeting: 4 Aid Points now; +1 VP with a majority of the Electors.
EventDef c22() {
    EventDef d;
    d.apply = [](Ctx& c, int side) {
        receiveAidPoints(c, kCatholic, 4, QStringLiteral("emperor"),
                         QStringLiteral("14.1 C22 Electoral Meeting:"));
        const int n = electorsControlled(c.d, c.s, kCatholic);
        if (n >= 4)
            addVp(c, 1, QStringLiteral("C22 the Catholic controls %1 Electors:").arg(n));
        else
            WP_SAY(c, QStringLiteral("C22 the Catholic controls %1 Electors: no VP").arg(n), side);
    };
    return d;
}

// C36 French Huguenots Revolt: no French Aid until P2 (the economy reads eventPlayed).
EventDef c36() {
    EventDef d;
    setCheck(d, [](const Ctx& c, int) {
        return eventDone(c.d, c.s, QStringLiteral("P2"))
                   ? QStringLiteral("19.9/C36: La Rochelle has fallen (P2 was played)")
                   : ok();
    });
    d.apply = [](Ctx& c, int side) {
        c.s.aidSources[kProtestant].removeAll(QStringLiteral("france"));
        WP_SAY(c, QStringLiteral("14.3 C36: the Huguenots revolt: no French Aid Points until P2"), side);
    };
    return d;
}

// C40 English Civil War (14.3, 17.E.1).
EventDef c40() {
    EventDef d;
    d.apply = [](Ctx& c, int side) {
        c.s.aidSources[kProtestant].removeAll(QStringLiteral("england"));
        WP_SAY(c,
               QStringLiteral(
                   "17.E.1 C40: English Aid ends permanently; P6 may no longer be played as an Event"),
               side);
    };
    return d;
}

// C42 Cardinal Richelieu Dies: no French Aid this turn and next.
EventDef c42() {
    EventDef d;
    d.apply = [](Ctx& c, int side) {
        setEffect(c, QStringLiteral("noaid.france.C42"), 1, c.s.turn + 1);
        WP_SAY(c,
               QStringLiteral("C42 Richelieu dies: no French Aid Points for the rest of turn %1 and turn %2")
                   .arg(c.s.turn)
                   .arg(c.s.turn + 1),
               side);
    };
    return d;
}

// C43 King Louis XIII Dies: +1 VP; French leaders may not recruit this turn and next.
EventDef c43() {
    EventDef d;
    d.apply = [](Ctx& c, int side) {
        addVp(c, 1, QStringLiteral("C43 Louis XIII dies:"));
        setEffect(c, QStringLiteral("norecruit.french.C43"), 1, c.s.turn + 1);
        WP_SAY(c,
               QStringLiteral(
                   "C43 the regency: French leaders may not recruit for the rest of turn %1 and turn %2")
                   .arg(c.s.turn)
                   .arg(c.s.turn + 1),
               side);
    };
    return d;
}

// C44 Innocent X Becomes Pope (14.4, 17.P.1-17.P.2).
EventDef c44() {
    EventDef d;
    d.apply = [](Ctx& c, int side) {
        const QString before = c.s.pope;
        c.s.pope = QStringLiteral("innocent-x");
        if (!c.s.aidSources[kCatholic].contains(QStringLiteral("pope")))
            c.s.aidSources[kCatholic] << QStringLiteral("pope");
        WP_SAY(c,
               QStringLiteral(
                   "17.P.1 C44: Innocent X becomes Pope (was %1); Papal Aid is received from the next "
                   "AID card on")
                   .arg(before.isEmpty() ? QStringLiteral("none") : before),
               side);
    };
    return d;
}

// C54 Conflict of Interest (17.F.5): mixAllowed reads eventPlayed; the grace period is recorded here.
EventDef c54() {
    EventDef d;
    d.apply = [](Ctx& c, int side) {
        bool mixed = false;
        for (qsizetype ci = 0; ci < c.d.cities.size() && !mixed; ++ci) {
            bool fr = false, sw = false;
            for (int u : unitsAt(c.s, static_cast<int>(ci), kProtestant, c.d)) {
                fr |= natOf(c.d, c.s, u) == QLatin1String("french");
                sw |= natOf(c.d, c.s, u) == QLatin1String("swedish");
            }
            mixed = fr && sw;
        }
        WP_SAY(c, QStringLiteral("17.F.5 C54: French and Swedish units may not stack together until P38"),
               side);
        if (!mixed)
            return;
        // 17.F.5: until the end of the Protestant's next Card Round (his first of next turn if this was
        // the Catholic's last card of the turn)
        const bool last = c.s.roundsUsed[kCatholic] >= 6;
        const int turn = last ? c.s.turn + 1 : c.s.turn;
        const int round = last ? 1 : c.s.roundsUsed[kProtestant] + 1;
        c.s.markers[QStringLiteral("C54.graceTurn")] = turn;
        c.s.markers[QStringLiteral("C54.graceRound")] = round;
        WP_SAY(c,
               QStringLiteral(
                   "17.F.5 mixed French-Swedish stacks must separate by the end of the Protestant's round "
                   "%1 of turn %2, else 10.22 applies")
                   .arg(round)
                   .arg(turn),
               side);
    };
    return d;
}

// ---------------------------------------------------------------- the Dutch War (9.3, 16.2)

QString dutchWarOpen(const Ctx& c) {
    return dutchWarOver(c.s) ? QStringLiteral("9.31: the Dutch War has ended") : ok();
}

// C3, C4 Spinola Besieges Bergen / Breda (9.32, 16.25-16.253).
EventDef spinolaBesieges(const char* id) {
    EventDef d;
    setCheck(d, [](const Ctx& c, int) {
        if (const QString w = dutchWarOpen(c); !w.isEmpty())
            return w;
        if (!spinolaArmyInUp(c.d, c.s))
            return QStringLiteral(
                "9.32: Spinola's army (a Spanish leader and 3 Spanish units) is not in the UP");
        if (c.s.roundsUsed[kCatholic] > 0)
            return QStringLiteral("16.25: only as the Catholic's first card play of the turn");
        return ok();
    });
    d.apply = [id](Ctx& c, int) {
        moveDutchWar(c, 1, QStringLiteral("9.32 %1:").arg(QLatin1String(id)));
        if (dutchWarOver(c.s))
            return;
        c.s.markers[QStringLiteral("%1.respond").arg(QLatin1String(id))] = c.s.turn;
        WP_SAY(c,
               QStringLiteral(
                   "16.251 the Protestant must Respond with an army of a leader and 3 units in the UP by "
                   "the end of the turn, or the marker moves one more box up"),
               kProtestant);
        dutchSiegeResponse(c); // an army already there Responds at once
    };
    return d;
}

// C18 Spanish Capture Amersfoort (9.31, 16.24).
EventDef c18() {
    EventDef d;
    setCheck(d, [](const Ctx& c, int) { return dutchWarOpen(c); });
    d.apply = [](Ctx& c, int) { moveDutchWar(c, 1, QStringLiteral("9.31 C18:")); };
    return d;
}

// C11 Spinola Recalled to the Netherlands (16.21(2)-(3), 16.24, 5.15).
enum C11Code : int16_t { kC11Leader = 1, kC11Units = 2 };

std::vector<int16_t> spanishUnitsInCities(const Ctx& c) {
    std::vector<int16_t> out;
    for (int u : unitsOfNat(c.d, c.s, QStringLiteral("spanish"), true))
        if (unitSide(c.d, c.s, u) == kCatholic)
            out.push_back(i16(u));
    return out;
}

std::vector<int16_t> spanishLeadersOnMap(const Ctx& c) {
    std::vector<int16_t> out;
    for (qsizetype l = 0; l < c.d.leaders.size(); ++l)
        if (leaderOnMap(c.s, static_cast<int>(l)) && isCity(c.s.leaders[l].loc) &&
            ev::leaderNat(c.d, static_cast<int>(l)) == QLatin1String("spanish"))
            out.push_back(i16(kLeaderBase + static_cast<int>(l)));
    return out;
}

void c11Move(Ctx& c, int ldr, const std::vector<int16_t>& units) {
    const int up = upLoc(c.d);
    std::vector<int> from;
    QStringList names;
    if (ldr >= 0) {
        from.push_back(c.s.leaders[ldr].loc);
        c.s.leaders[ldr].loc = i16(up);
        c.s.leaders[ldr].flags = 0;
        names << leaderName(c.d, ldr);
    }
    for (int16_t u : units) {
        from.push_back(c.s.units[u].loc);
        c.s.units[u].loc = i16(up);
        c.s.units[u].flags = 0;
        names << QStringLiteral("u%1").arg(u);
    }
    c.s.spinolaInUp = true;
    WP_SAY(c,
           QStringLiteral("16.21 C11: %1 go to the UP for good (16.24; 5.15 is satisfied)%2")
               .arg(names.join(QLatin1Char(' ')),
                    ldr < 0 ? QStringLiteral(" under a subordinate leader (16.21(3))") : QString()),
           kCatholic);
    std::sort(from.begin(), from.end());
    from.erase(std::unique(from.begin(), from.end()), from.end());
    for (int loc : from)
        if (isCity(i16(loc)))
            checkSiegeMaintained(c, loc);
}

void c11ChooseUnits(Ctx& c, int ldr) {
    const std::vector<int16_t> all = spanishUnitsInCities(c);
    if (all.size() <= 3) { // all of them must go
        c11Move(c, ldr, all);
        return;
    }
    pushChoice(c, kCatholic, card(c, "C11"), kC11Units, all, 3, {i16(ldr)});
}

EventDef c11() {
    EventDef d;
    setCheck(d, [](const Ctx& c, int) {
        if (const QString w = dutchWarOpen(c); !w.isEmpty())
            return QStringLiteral("16.132: the Dutch War has ended; no army may enter the UP");
        if (c.s.spinolaInUp || spinolaArmyInUp(c.d, c.s))
            return QStringLiteral("16.24: Spinola's army is already in the UP");
        if (!upUnits(c.d, c.s, kCatholic).empty() || !upLeaders(c.d, c.s, kCatholic).empty())
            return QStringLiteral("16.24: the Catholic army in the UP must leave it first");
        if (spanishUnitsInCities(c).size() < 3)
            return QStringLiteral("16.21: fewer than 3 Spanish units on the map");
        return ok();
    });
    d.apply = [](Ctx& c, int) {
        const int sp = leader(c, "spinola");
        if (sp >= 0 && leaderOnMap(c.s, sp)) {
            c11ChooseUnits(c, sp);
            return;
        }
        const auto leaders = spanishLeadersOnMap(c); // 16.21(2): Spinola is dead, any Spanish leader
        if (leaders.size() > 1) {
            pushChoice(c, kCatholic, card(c, "C11"), kC11Leader, leaders);
            return;
        }
        c11ChooseUnits(c, leaders.empty() ? -1 : leaders.front() - kLeaderBase);
    };
    d.choiceInfo = [](const GameData&, const GameState&, const ChoiceFrame& f) {
        return codeOf(f) == kC11Leader
                   ? EventChoiceInfo{EventOption::Leader,
                                     QStringLiteral(
                                         "the Spanish leader who takes the army to the UP (16.21)")}
                   : EventChoiceInfo{
                         EventOption::Unit,
                         QStringLiteral("a Spanish unit for the army in the UP (3 to 8; pass when "
                                        "done, 16.21)")};
    };
    d.choiceLegal = [](const Ctx& c, const ChoiceFrame& f) {
        if (codeOf(f) == kC11Leader)
            return chooseEach(f.options);
        // units: any not yet chosen (8 at most, 10.21); "pass" once at least 3 are chosen
        const size_t chosen = f.extra.size() - 1;
        std::vector<int16_t> left;
        if (chosen < 8)
            for (int16_t u : spanishUnitsInCities(c))
                if (std::find(f.extra.begin() + 1, f.extra.end(), u) == f.extra.end())
                    left.push_back(u);
        return chooseEach(left, chosen >= 3);
    };
    d.choiceApply = [](Ctx& c, const ChoiceFrame& f, const Action& a) {
        if (codeOf(f) == kC11Leader) {
            popChoice(c);
            c11ChooseUnits(c, a.target - kLeaderBase);
            return;
        }
        ChoiceFrame& top = std::get<ChoiceFrame>(c.s.frames.back());
        if (a.kind == ActionKind::Choose)
            top.extra.push_back(a.target);
        const bool full = top.extra.size() - 1 >= 8 || top.extra.size() - 1 >= spanishUnitsInCities(c).size();
        if (a.kind == ActionKind::Pass || full) {
            const int ldr = top.extra.front();
            const std::vector<int16_t> units(top.extra.begin() + 1, top.extra.end());
            popChoice(c);
            c11Move(c, ldr, units);
        }
    };
    return d;
}

// ---------------------------------------------------------------- New Leaders (9.21-9.23)

EventDef newLeaders(const char* id, std::vector<const char*> ids, Placement p,
                    std::function<QString(const Ctx&)> extraCheck = {}) {
    EventDef d;
    auto leaders = [ids](const Ctx& c) {
        std::vector<int> out;
        for (const char* l : ids)
            out.push_back(leader(c, l));
        return out;
    };
    setCheck(d, [ids, p, extraCheck](const Ctx& c, int side) {
        if (extraCheck)
            if (const QString w = extraCheck(c); !w.isEmpty())
                return w;
        bool any = false;
        for (const char* lid : ids) {
            const int l = any ? -1 : leader(c, lid);
            if (l >= 0 && c.s.leaders[l].status == LeaderStatus::NotEntered)
                any = anyLeaderPlace(c, side, l, p);
        }
        return any ? ok()
                   : QStringLiteral(
                         "9.21-9.23: no leader of the card can enter (in play already, or no place)");
    });
    d.apply = [id, leaders, p](Ctx& c, int side) { placeNewLeaders(c, side, card(c, id), leaders(c), p); };
    return d;
}

Placement with(const char* nat) {
    Placement p;
    p.nat = QLatin1String(nat);
    return p;
}

// C9 Córdoba (9.23 clarification) and C45 Duke of Feria: Spanish units, else the Spanish Netherlands.
Placement spanishPlacement(const Ctx* c, bool zone) {
    Placement p = with("spanish");
    p.spanishZone = zone;
    if (c)
        p.fallbackArea = areaIdx(c->d, QStringLiteral("spanish-netherlands"));
    return p;
}

EventDef spanishLeader(const char* id, const char* leaderId, bool needsSpinola) {
    EventDef d;
    setCheck(d, [leaderId, needsSpinola](const Ctx& c, int side) {
        if (needsSpinola && !spinolaArmyInUp(c.d, c.s))
            return QStringLiteral(
                "9.23: Spinola (or his replacement) must be in the UP with at least 3 units");
        const int l = leader(c, leaderId);
        if (l < 0 || c.s.leaders[l].status != LeaderStatus::NotEntered)
            return QStringLiteral("9.21: %1 is already in the game")
                .arg(l < 0 ? QString() : leaderName(c.d, l));
        if (!anyLeaderPlace(c, side, l, spanishPlacement(&c, !needsSpinola)))
            return QStringLiteral(
                "9.23: no Spanish units to join and no Catholic city of the Spanish Netherlands");
        return ok();
    });
    d.apply = [id, leaderId, needsSpinola](Ctx& c, int side) {
        placeNewLeaders(c, side, card(c, id), {leader(c, leaderId)}, spanishPlacement(&c, !needsSpinola));
    };
    return d;
}

// C23 Cardinal Infante (17.Sp.1, 17.Sp.3, 17.Sp.31).
enum C23Code : int16_t { kC23City = 1 };

std::vector<int16_t> c23Cities(const Ctx& c) {
    std::vector<int16_t> out;
    const int tyrol = areaIdx(c.d, QStringLiteral("tyrol"));
    if (tyrol < 0)
        return out;
    for (int city : c.d.areas[tyrol].cities)
        if (effectiveCityControl(c.d, c.s, city) == kCatholic && !hasEnemyUnits(c.d, c.s, city, kCatholic))
            out.push_back(i16(city));
    return out;
}

void c23Place(Ctx& c, int city) {
    const int ci = leader(c, "cardinal-infante");
    placeLeader(c, ci, city, QStringLiteral("17.Sp.3 C23:"));
    placeFromPool(c, QStringLiteral("spanish"), UnitKind::Veteran, 4, city, QStringLiteral("17.Sp.3 C23:"));
    setEffect(c, QStringLiteral("cardinalInfante"), 1, c.s.turn + 1);
    WP_SAY(c,
           QStringLiteral(
               "17.Sp.3 the Cardinal Infante's army must reach the Spanish Zone by the end of turn %1")
               .arg(c.s.turn + 1),
           kCatholic);
    checkStacking(c, city, kCatholic);
}

EventDef c23() {
    EventDef d;
    setCheck(d, [](const Ctx& c, int) {
        const int ci = leader(c, "cardinal-infante");
        if (ci < 0 || c.s.leaders[ci].status != LeaderStatus::NotEntered)
            return QStringLiteral("17.Sp.3: the Cardinal Infante is already in the game");
        if (c23Cities(c).empty())
            return QStringLiteral("17.Sp.3: no Catholic-controlled city of Tyrol free of enemy units");
        return ok();
    });
    d.apply = [](Ctx& c, int) {
        const auto cities = c23Cities(c);
        if (cities.size() == 1) {
            c23Place(c, cities.front());
            return;
        }
        pushChoice(c, kCatholic, card(c, "C23"), kC23City, cities);
    };
    d.choiceLegal = [](const Ctx& c, const ChoiceFrame&) { return chooseEach(c23Cities(c)); };
    d.choiceInfo = [](const GameData&, const GameState&, const ChoiceFrame&) {
        return EventChoiceInfo{
            EventOption::City,
            QStringLiteral("the city of Tyrol where the Cardinal Infante enters (17.Sp.3)")};
    };
    d.choiceApply = [](Ctx& c, const ChoiceFrame&, const Action& a) {
        popChoice(c);
        c23Place(c, a.target);
    };
    return d;
}

// ---------------------------------------------------------------- leaders leave (16.22)

// C13 Discretion over Valor: Anhalt deserts.
EventDef c13() {
    EventDef d;
    setCheck(d, [](const Ctx& c, int) {
        const int a = leader(c, "anhalt");
        return a >= 0 && leaderOnMap(c.s, a) ? ok() : QStringLiteral("16.22 C13: Anhalt is not on the map");
    });
    d.apply = [](Ctx& c, int) {
        const int a = leader(c, "anhalt");
        const bool inUp = c.s.leaders[a].loc == upLoc(c.d);
        const int16_t loc = c.s.leaders[a].loc;
        c.s.leaders[a] = LeaderState{kRemoved, LeaderStatus::Removed, 0};
        WP_SAY(c, QStringLiteral("C13 Anhalt deserts at %1 and leaves the game").arg(cityName(c.d, loc)),
               kCatholic);
        if (inUp)
            upLeaderless(c, card(c, "C13")); // 16.22 a-c
    };
    return d;
}

// C21 Swedish-Danish Conflict: Christian IV and the Danes leave.
EventDef c21() {
    EventDef d;
    setCheck(d, [](const Ctx& c, int) {
        if (!c.s.swedenInWar || !c.s.denmarkInWar)
            return QStringLiteral("9.11 C21: Sweden and Denmark must both have entered the war");
        const int k = leader(c, "christian-iv");
        if (k < 0 || c.s.leaders[k].status != LeaderStatus::InPlay)
            return QStringLiteral("17.D.3 C21: Christian IV is not in play");
        return ok();
    });
    d.apply = [](Ctx& c, int) {
        const int k = leader(c, "christian-iv");
        const bool inUp = c.s.leaders[k].loc == upLoc(c.d);
        c.s.leaders[k] = LeaderState{kRemoved, LeaderStatus::Removed, 0};
        WP_SAY(c, QStringLiteral("C21 Christian IV leaves the war with all Danish units (17.D.3)"),
               kCatholic);
        for (size_t u = 0; u < c.s.units.size(); ++u)
            if (natOf(c.d, c.s, static_cast<int>(u)) == QLatin1String("danish") &&
                c.s.units[u].loc != kRemoved) {
                if (c.s.units[u].loc >= 0) {
                    eliminateUnit(c, static_cast<int>(u), true, QStringLiteral("17.D.3 C21:"));
                } else {
                    c.s.units[u] = UnitState{c.s.units[u].type, kRemoved, 0, 0};
                }
            }
        if (inUp)
            upLeaderless(c, card(c, "C21")); // 16.22 a-c
    };
    return d;
}

// ---------------------------------------------------------------- Saxony (8.66)

EventDef c17() {
    EventDef d;
    setCheck(d, [](const Ctx& c, int) {
        const int sax = natIdx(c.d, QStringLiteral("saxon"));
        return sax >= 0 && c.s.nationSide[sax] == kProtestant
                   ? ok()
                   : QStringLiteral("8.66: Saxony is already Catholic (P35 has not switched it)");
    });
    d.apply = [](Ctx& c, int) { saxonySwitches(c, kCatholic, card(c, "C17"), QStringLiteral("8.66 C17:")); };
    return d;
}

// ---------------------------------------------------------------- families

EventDef revolt(const char* id, RevoltRule r, bool needsFrance) {
    EventDef d;
    setCheck(d, [r, needsFrance](const Ctx& c, int side) {
        if (needsFrance && !c.s.franceInWar)
            return QStringLiteral("11.31 C39: France has not entered the war (P17)");
        return !anyRevoltCity(c, side, r) ? QStringLiteral("9.41: no eligible city without an enemy army")
                                          : ok();
    });
    d.apply = [id, r](Ctx& c, int side) { chooseRevolt(c, side, card(c, id), r); };
    return d;
}

RevoltRule germanyRule() {
    RevoltRule r;
    r.areas = {QStringLiteral("germany")};
    r.ofControl = kProtestant;
    r.notSupplyBase = true;
    return r;
}

RevoltRule franceRule() {
    RevoltRule r;
    r.areas = {QStringLiteral("france")};
    r.onMapOnly = true;
    return r;
}

EventDef famineCard(const char* id) {
    EventDef d;
    setCheck(d, [](const Ctx& c, int side) {
        return famineTargets(c, side).empty() ? QStringLiteral("15.223 Famine & Plague: no enemy stack in a "
                                                               "pillaged city and none of 4 or more units")
                                              : ok();
    });
    d.apply = [id](Ctx& c, int side) { famine(c, side, card(c, id)); };
    return d;
}

EventDef recoveryCard(const char* id) {
    EventDef d;
    setCheck(d, [](const Ctx& c, int side) {
        return recoveryCities(c, side).empty()
                   ? QStringLiteral(
                         "8.63: no pillaged city in a friendly or Neutral Area or Independent city")
                   : ok();
    });
    d.apply = [id](Ctx& c, int side) { recovery(c, side, card(c, id), 3); };
    return d;
}

EventDef mutinyCard(const char* id) {
    EventDef d;
    setCheck(d, [](const Ctx& c, int side) {
        return mutinyTargets(c, side).empty()
                   ? QStringLiteral("15.224 Mutiny: no enemy stack with a Mercenary unit")
                   : ok();
    });
    d.apply = [id](Ctx& c, int side) { mutiny(c, side, card(c, id)); };
    return d;
}

// ---------------------------------------------------------------- combat cards (9.5)

int aliveCount(const Ctx& c, const std::vector<int16_t>& units) {
    int n = 0;
    for (int u : units)
        n += c.s.units[u].loc >= 0 && c.s.units[u].steps > 0;
    return n;
}

EventDef combatCard(CombatCardEffect e, std::function<bool(const Ctx&, const CombatFrame&, int)> cond) {
    EventDef d;
    d.combat = e;
    d.combatAllowed = combatRule(std::move(cond));
    return d;
}

// C31 Fog: defender only; the attacker fires one column to the left.
EventDef c31() {
    return combatCard({0, 0, 0, -1},
                      [](const Ctx&, const CombatFrame& f, int side) { return side != f.attacker; });
}

// C32 Flanking Maneuver: 2+ leaders and at least as many units as the enemy: one column right.
EventDef c32() {
    return combatCard({0, 0, 1, 0}, [](const Ctx& c, const CombatFrame& f, int side) {
        return combatLeaders(f, side).size() >= 2 &&
               aliveCount(c, combatUnits(f, side)) >= aliveCount(c, combatUnits(f, other(side)));
    });
}

// C33 Croats: an army with an Imperial unit: +1 DRM; a beaten enemy loses one more step after retreating.
EventDef c33() {
    EventDef d = combatCard({1, 0, 0, 0}, [](const Ctx& c, const CombatFrame& f, int side) {
        return armyHasNat(c, f, side, QStringLiteral("imperial"));
    });
    d.afterCombat = [](Ctx& c, const CombatFrame& f, int side) {
        if (f.winner != side)
            return;
        std::vector<int> units;
        for (int u : combatUnits(f, other(side)))
            if (c.s.units[u].loc >= 0 && c.s.units[u].steps > 0)
                units.push_back(u);
        if (units.empty())
            return;
        WP_SAY(
            c,
            QStringLiteral("C33 Croats: the beaten %1 army loses one more step").arg(sideName(other(side))),
            side);
        takeStepLosses(c, other(side), units, 1, false, -1, QStringLiteral("C33"));
    };
    return d;
}

// C34 Command Rivalry: the enemy army has at least 2 leaders: -1 to the enemy (12.3 example: P13 against
// Tilly's army, so the card's "no Dynamic commander" clause is not applied; docs/cards.md).
EventDef c34() {
    return combatCard({0, -1, 0, 0}, [](const Ctx&, const CombatFrame& f, int side) {
        return combatLeaders(f, other(side)).size() >= 2;
    });
}

// C35 Spanish Tercios: an army with a Spanish Veteran: +1 DRM, +2 when defending.
EventDef c35() {
    EventDef d = combatCard({1, 0, 0, 0}, [](const Ctx& c, const CombatFrame& f, int side) {
        return armyHasNat(c, f, side, QStringLiteral("spanish"), static_cast<int>(UnitKind::Veteran));
    });
    d.combatEffect = [](const Ctx&, const CombatFrame& f, int side) {
        return CombatCardEffect{side == f.attacker ? 1 : 2, 0, 0, 0};
    };
    return d;
}

// C47 Cavalry Charge: not an all-Militia army: +1 DRM, +2 under a Dynamic commander.
EventDef c47() {
    EventDef d = combatCard({1, 0, 0, 0}, [](const Ctx& c, const CombatFrame& f, int side) {
        return armyHasKind(c, f, side, UnitKind::Mercenary) || armyHasKind(c, f, side, UnitKind::Veteran);
    });
    d.combatEffect = [](const Ctx& c, const CombatFrame& f, int side) {
        const int cmd = combatCommander(f, side);
        return CombatCardEffect{cmd >= 0 && effectiveStars(c.d, c.s, cmd) > 0 ? 2 : 1, 0, 0, 0};
    };
    return d;
}

// C48 Surprise Attack: attacker only: +1 DRM; the defender may play no combat card (common.h).
EventDef c48() {
    return combatCard({1, 0, 0, 0},
                      [](const Ctx&, const CombatFrame& f, int side) { return side == f.attacker; });
}

// C49 Unreliable Troops: the enemy army has Militia or Mercenaries: -1 to the enemy.
EventDef c49() {
    return combatCard({0, -1, 0, 0}, [](const Ctx& c, const CombatFrame& f, int side) {
        return armyHasKind(c, f, other(side), UnitKind::Militia) ||
               armyHasKind(c, f, other(side), UnitKind::Mercenary);
    });
}

// C50 Field Fortifications: defender only: -2 to the attacker; no effect against P47 Furia Franchese,
// so it cannot be played once the attacker (who plays first, 9.51) has played P47.
EventDef c50() {
    return combatCard({0, -2, 0, 0}, [](const Ctx& c, const CombatFrame& f, int side) {
        if (side == f.attacker)
            return false;
        for (int16_t cd : f.cards[f.attacker])
            if (c.d.cards[cd].id == QLatin1String("P47"))
                return false;
        return true;
    });
}

} // namespace

void registerCatholicEvents(EventRegistry& r) {
    add(r, QStringLiteral("C1"), valTellineOpen("C1"));
    add(r, QStringLiteral("C2"), c2());
    add(r, QStringLiteral("C3"), spinolaBesieges("C3"));
    add(r, QStringLiteral("C4"), spinolaBesieges("C4"));
    add(r, QStringLiteral("C5"), c5());
    add(r, QStringLiteral("C6"), c6());
    add(r, QStringLiteral("C7"), newLeaders("C7", {"wallenstein", "piccolomini"}, with("imperial")));
    add(r, QStringLiteral("C8"), newLeaders("C8", {"charles-of-lorraine", "gallas"}, with("imperial")));
    add(r, QStringLiteral("C9"), spanishLeader("C9", "cordoba", true));
    add(r, QStringLiteral("C10"), newLeaders("C10", {"aldringer", "holk"}, with("bavarian")));
    add(r, QStringLiteral("C11"), c11());
    add(r, QStringLiteral("C12"), c12());
    add(r, QStringLiteral("C13"), c13());
    add(r, QStringLiteral("C14"), mutinyCard("C14"));
    add(r, QStringLiteral("C15"), newLeaders("C15", {"werth", "goetz"}, with("bavarian")));
    add(r, QStringLiteral("C16"), c16());
    add(r, QStringLiteral("C17"), c17());
    add(r, QStringLiteral("C18"), c18());
    add(r, QStringLiteral("C19"), c19());
    add(r, QStringLiteral("C20"), revolt("C20", germanyRule(), false));
    add(r, QStringLiteral("C21"), c21());
    add(r, QStringLiteral("C22"), c22());
    add(r, QStringLiteral("C23"), c23());
    for (const char* id : {"C24", "C25", "C26", "C27", "C51", "C55"})
        add(r, QLatin1String(id), famineCard(id));
    for (const char* id : {"C28", "C29", "C52", "C53"})
        add(r, QLatin1String(id), recoveryCard(id));
    add(r, QStringLiteral("C30"),
        newLeaders("C30", {"archduke-leopold", "savelli", "hatzfeld"}, with("imperial")));
    add(r, QStringLiteral("C31"), c31());
    add(r, QStringLiteral("C32"), c32());
    add(r, QStringLiteral("C33"), c33());
    add(r, QStringLiteral("C34"), c34());
    add(r, QStringLiteral("C35"), c35());
    add(r, QStringLiteral("C36"), c36());
    add(r, QStringLiteral("C37"), revolt("C37", germanyRule(), false));
    add(r, QStringLiteral("C38"), valTellineOpen("C38"));
    add(r, QStringLiteral("C39"), revolt("C39", franceRule(), true));
    add(r, QStringLiteral("C40"), c40());
    add(r, QStringLiteral("C41"), mutinyCard("C41"));
    add(r, QStringLiteral("C42"), c42());
    add(r, QStringLiteral("C43"), c43());
    add(r, QStringLiteral("C44"), c44());
    add(r, QStringLiteral("C45"), spanishLeader("C45", "feria", false));
    add(r, QStringLiteral("C46"), newLeaders("C46", {"mercy", "groenfeld", "melander"}, with("bavarian")));
    add(r, QStringLiteral("C47"), c47());
    add(r, QStringLiteral("C48"), c48());
    add(r, QStringLiteral("C49"), c49());
    add(r, QStringLiteral("C50"), c50());
    add(r, QStringLiteral("C54"), c54());
}

} // namespace wp::rules

// The Protestant card events, P1-P55. Each card is one small unit registered by card id; the effects follow
// cards/cards.json ("event", in our words) and every rule that names the card (docs/cards-protestant.md).
// Shared machinery (New Leader placement, war entry of an Area, revolts, famine, recovery, mutiny, Saxony,
// combat-card conditions) is in common.h; Protestant-only helpers and the reminders the economy reads are in
// protestant_common.h.
#include "events/common.h"
#include "events/protestant_common.h"
#include "rules/economy.h"
#include "rules/events.h"
#include "rules/internal.h"

#include <algorithm>

namespace wp::rules {

namespace {

using prot::Check;
using prot::setCheck;

// Codes of the cards' own choices (kChooseEventBase + code; common.h's helpers use 900 and up).
enum Code : int16_t {
    kCodePlace = 1,    // a city for a leader and the units named on the card
    kCodeLand = 2,     // P18: the port where Gustavus' army lands (or attacks)
    kCodeVeteran = 3,  // P42: the Spanish Veteran the Catholic removes
    kCodeActivate = 4, // P50: the leader the Bridge of Boats activates
};

int cardOf(const Ctx& c, const QString& id) {
    return ev::cardIdx(c.d, id);
}

QString areaName(const Ctx& c, const QString& areaId) {
    return c.d.areas[ev::areaIdx(c.d, areaId)].name;
}

// Each option a Choose action; the card's own frames offer exactly their options.
std::vector<Action> ownOptions(const Ctx&, const ChoiceFrame& f) {
    return ev::chooseEach(f.options);
}

// The frame being applied is on top of the stack: remove it before the effect pushes frames of its own.
void popOwn(Ctx& c) {
    if (!c.s.frames.empty() && std::holds_alternative<ChoiceFrame>(c.s.frames.back()))
        c.s.frames.pop_back();
}

// A choice the player must make, or its effect at once when there is a single option (nothing to decide).
void choose(Ctx& c, int actor, const QString& cardId, int code, const std::vector<int16_t>& options,
            const std::function<void(Ctx&, int16_t)>& effect) {
    if (options.empty())
        return;
    if (options.size() == 1) {
        effect(c, options.front());
        return;
    }
    ev::pushChoice(c, actor, cardOf(c, cardId), code, options);
}

// War Entry Events (9.11, 9.12).
QString warEntryCheck(const Ctx& c, bool inWar, const QString& nation, const QString& rule) {
    if (inWar)
        return QStringLiteral("%1: %2 is already in the war").arg(rule, nation);
    if (c.s.warEntryThisTurn)
        return QStringLiteral("9.12: only one War Entry Event may be played per turn, and one was played "
                              "this turn");
    return {};
}

void startWarEntry(Ctx& c, const QString& nation, const QString& rule) {
    c.s.warEntryThisTurn = true;
    WP_SAY(c, QStringLiteral("9.11 %1 enters the war (%2)").arg(nation, rule), kProt);
}

// Places a leader (if he has not entered yet) and units from the counter mix at `loc`.
void placeArmy(Ctx& c, const QStringList& leaders, const QString& nat, UnitKind kind, int count, int loc,
               const QString& rule) {
    for (const QString& id : leaders) {
        const int l = ev::leaderIdx(c.d, id);
        if (l < 0)
            continue;
        if (c.s.leaders[l].status != LeaderStatus::NotEntered) {
            WP_SAY(c, QStringLiteral("%1 %2 has already entered the game").arg(rule, leaderName(c.d, l)),
                   kProt);
            continue;
        }
        ev::placeLeader(c, l, loc, rule);
    }
    if (count > 0)
        ev::placeFromPool(c, nat, kind, count, loc, rule);
}

void checkStack(Ctx& c, int loc) {
    if (isCity(static_cast<int16_t>(loc)))
        checkStacking(c, loc, kProt);
}

// Issue 5: what the card's own choices offer (notation, prompt, UI).
EventChoiceInfo ownChoiceInfo(const GameData& d, const GameState&, const ChoiceFrame& f) {
    switch (ev::codeOf(f)) {
    case kCodePlace:
        return {
            EventOption::City,
            QStringLiteral("where the leader and units of %1 enter (9.11, 9.21)").arg(d.cards[f.data].id)};
    case kCodeLand:
        return {EventOption::City, QStringLiteral("the port where Gustavus' army lands (P18, 17.Sw.1)")};
    case kCodeVeteran:
        return {EventOption::Unit, QStringLiteral("the Spanish Veteran removed for good (P42)")};
    case kCodeActivate:
        return {EventOption::Leader, QStringLiteral("the leader the Bridge of Boats activates (P50)")};
    default:
        return {};
    }
}

EventDef withChoices(EventDef def) {
    def.choiceLegal = ownOptions;
    def.choiceInfo = ownChoiceInfo;
    return def;
}

// ---------------------------------------------------------------- aid and state switches

// P1, P39: Val Telline Passes Closed (14.4).
EventDef valTellineClosed() {
    EventDef d;
    setCheck(d, [](const Ctx& c, int) {
        return c.s.valTellineOpen ? QString()
                                  : QStringLiteral("14.4: the Val Telline Passes are already Closed");
    });
    d.apply = [](Ctx& c, int) {
        c.s.valTellineOpen = false;
        c.s.aidSources[kCath].removeAll(prot::kSpain);
        WP_SAY(c,
               QStringLiteral("14.4 the Val Telline Passes are Closed: no Spanish Aid until a Val Telline "
                              "Passes Open Event (C1, C38)"),
               kProt);
    };
    return d;
}

// P2: Three Musketeers: La Rochelle falls (19.9); optionally the Old Corps combat card.
EventDef threeMusketeers() {
    EventDef d;
    d.apply = [](Ctx& c, int) {
        if (prot::catholicEffectOn(c.d, c.s, QStringLiteral("C36"), true)) {
            prot::endCatholicEffect(c, QStringLiteral("C36"), QStringLiteral("19.9 La Rochelle falls:"));
            if (donorEligible(c.d, c.s, kProt, prot::kFrance) &&
                !c.s.aidSources[kProt].contains(prot::kFrance)) {
                c.s.aidSources[kProt].append(prot::kFrance);
                WP_SAY(c, QStringLiteral("14.3 French Aid is received again from the next AID card on"),
                       kProt);
            }
        } else {
            WP_SAY(c,
                   QStringLiteral("19.9 La Rochelle falls: the Huguenot revolt (C36) may no longer be played "
                                  "as an Event"),
                   kProt);
        }
    };
    // 19.9 (optional): until the Event is played, a repeating Combat card for a Protestant army with French
    // units: one column to the right.
    d.combatAllowed = ev::combatRule([](const Ctx& c, const CombatFrame& f, int side) {
        return c.s.options.old_corps && side == kProt && ev::armyHasNat(c, f, side, QStringLiteral("french"));
    });
    d.combat.ownShift = 1;
    return d;
}

// P5: Gregory XV Becomes Pope (17.P.1); Papal Aid halted for the rest of this turn and the next.
EventDef gregoryXV() {
    EventDef d;
    setCheck(d, [](const Ctx& c, int) {
        if (c.s.pope.isEmpty() || c.s.pope == prot::kPaulV)
            return QString();
        return QStringLiteral("17.P.1: Gregory XV succeeded Paul V; the Pope is now %1").arg(c.s.pope);
    });
    d.apply = [](Ctx& c, int) {
        if (!c.s.pope.isEmpty() && c.s.pope != prot::kPaulV) {
            WP_SAY(c, QStringLiteral("17.P.1 no effect: the Pope is already %1").arg(c.s.pope), kProt);
            return;
        }
        c.s.pope = prot::kGregoryXV;
        // 17.P.1: the interregnum; the economy reads the reminder (donorEligible): no Papal Aid before it.
        c.s.markers.insert(prot::mk::papalAidResumes, c.s.turn + 2);
        WP_SAY(c,
               QStringLiteral("17.P.1 Gregory XV becomes Pope: no Papal Aid for the rest of turn %1 and in "
                              "turn %2")
                   .arg(c.s.turn)
                   .arg(c.s.turn + 1),
               kProt);
    };
    return d;
}

// P15: Urban VIII Becomes Pope (14.4, 17.P.2): Papal Aid ends until Innocent X (C44).
EventDef urbanVIII() {
    EventDef d;
    setCheck(d, [](const Ctx& c, int) {
        if (c.s.pope == prot::kUrbanVIII || c.s.pope == prot::kInnocentX)
            return QStringLiteral("17.P.1: Urban VIII already reigned; the Pope is now %1").arg(c.s.pope);
        return QString();
    });
    d.apply = [](Ctx& c, int) {
        if (c.s.pope == prot::kUrbanVIII || c.s.pope == prot::kInnocentX) {
            WP_SAY(c, QStringLiteral("17.P.1 no effect: the Pope is already %1").arg(c.s.pope), kProt);
            return;
        }
        c.s.pope = prot::kUrbanVIII;
        c.s.aidSources[kCath].removeAll(prot::kPope);
        c.s.markers.remove(prot::mk::papalAidResumes);
        WP_SAY(c, QStringLiteral("17.P.2 Urban VIII becomes Pope: Papal Aid ends until Innocent X (C44)"),
               kProt);
    };
    return d;
}

// P8: Ottoman Turks Raid Imperial Borders (15.12): no Local Pay for Imperial units in Austria this turn.
EventDef ottomanRaids() {
    EventDef d;
    d.apply = [](Ctx& c, int) {
        c.s.markers.insert(prot::mk::austriaUnpaidP8, c.s.turn);
        WP_SAY(
            c,
            QStringLiteral("15.12 Turkish raids: in the Pay Phase of turn %1 Imperial units in Austria are "
                           "not Locally Paid")
                .arg(c.s.turn),
            kProt);
    };
    return d;
}

// P21: Ferdinand III Becomes Holy Roman Emperor (15.12): the same for this turn and the next.
EventDef ferdinandIII() {
    EventDef d;
    d.apply = [](Ctx& c, int) {
        const int through = std::max(c.s.markers.value(prot::mk::austriaUnpaidP21), c.s.turn + 1);
        c.s.markers.insert(prot::mk::austriaUnpaidP21, through);
        WP_SAY(c,
               QStringLiteral("15.12 Ferdinand III succeeds as Emperor: in the Pay Phases of turns %1 and %2 "
                              "Imperial units in Austria are not Locally Paid")
                   .arg(c.s.turn)
                   .arg(c.s.turn + 1),
               kProt);
    };
    return d;
}

// P9: Richelieu Becomes Chief Minister of France (14.3); optional 19.10 gives the printed aid at once.
EventDef richelieu() {
    EventDef d;
    d.apply = [](Ctx& c, int) {
        GameState& s = c.s;
        if (prot::catholicEffectOn(c.d, s, QStringLiteral("C36"))) {
            WP_SAY(
                c,
                QStringLiteral("14.3 Richelieu is Chief Minister, but the Huguenots revolt (C36): French Aid "
                               "starts when P2 is played"),
                kProt);
        } else if (!s.aidSources[kProt].contains(prot::kFrance)) {
            s.aidSources[kProt].append(prot::kFrance);
            WP_SAY(
                c,
                QStringLiteral("14.3 Richelieu becomes Chief Minister: French Aid is received from the next "
                               "AID card on"),
                kProt);
        }
        if (!s.options.richelieu_aid)
            return;
        // 19.10: Fr 7 / Eng 3 / UP 8 on play of the Event, from the donors eligible now with their modifiers
        // (14.2, 16.13, C5).
        for (const auto& [donor, printed] :
             {std::pair{prot::kFrance, 7}, {prot::kEngland, 3}, {prot::kUp, 8}}) {
            const int pts = donorPoints(c.d, s, kProt, donor, printed);
            if (pts > 0)
                receiveAidPoints(c, kProt, pts, donor, QStringLiteral("19.10 Richelieu:"));
        }
    };
    return d;
}

// P10: Swedish Aid (14.3): 3 points now; not once Sweden is in the war.
EventDef swedishAid() {
    EventDef d;
    setCheck(d, [](const Ctx& c, int) {
        return c.s.swedenInWar ? QStringLiteral("14.3: Swedish Aid cannot be played once Sweden has entered "
                                                "the war (P18)")
                               : QString();
    });
    d.apply = [](Ctx& c, int) {
        receiveAidPoints(c, kProt, 3, QStringLiteral("sweden"), QStringLiteral("14.3 Swedish Aid:"));
    };
    return d;
}

// P19: Aid from Duke of Savoy (14.3): 3 points now, never for Swedish units (17.Sw.1: not in aidSwedish).
EventDef savoyAid() {
    EventDef d;
    d.apply = [](Ctx& c, int) {
        receiveAidPoints(
            c, kProt, 3, QStringLiteral("savoy"),
            QStringLiteral("14.3 Aid from the Duke of Savoy (never for Swedish units, 17.Sw.1):"));
    };
    return d;
}

// P11: Treaty of Ulm: the Catholic may not enter Neutral Areas or Neutral Independent cities this turn.
EventDef treatyOfUlm() {
    EventDef d;
    d.apply = [](Ctx& c, int) {
        c.s.markers.insert(prot::mk::treatyOfUlm, c.s.turn);
        WP_SAY(c,
               QStringLiteral("Treaty of Ulm: for the rest of turn %1 Catholic units may not enter a Neutral "
                              "Area or a Neutral Independent City")
                   .arg(c.s.turn),
               kProt);
    };
    return d;
}

// P20: Spain Makes Peace with England (8.65): ends C5.
EventDef spainEnglandPeace() {
    EventDef d;
    setCheck(d, [](const Ctx& c, int) {
        return prot::catholicEffectOn(c.d, c.s, QStringLiteral("C5"))
                   ? QString()
                   : QStringLiteral("8.65: Spain is not at war with England (C5 is not in effect)");
    });
    d.apply = [](Ctx& c, int) {
        if (prot::catholicEffectOn(c.d, c.s, QStringLiteral("C5"), true))
            prot::endCatholicEffect(c, QStringLiteral("C5"),
                                    QStringLiteral("8.65 Spain makes peace with England: English Aid returns "
                                                   "to the printed values;"));
    };
    return d;
}

// P38: Oxenstierna (17.F.5): ends C54.
EventDef oxenstierna() {
    EventDef d;
    setCheck(d, [](const Ctx& c, int) {
        return prot::catholicEffectOn(c.d, c.s, QStringLiteral("C54"))
                   ? QString()
                   : QStringLiteral("17.F.5: Conflict of Interest (C54) is not in effect");
    });
    d.apply = [](Ctx& c, int) {
        if (prot::catholicEffectOn(c.d, c.s, QStringLiteral("C54"), true))
            prot::endCatholicEffect(c, QStringLiteral("C54"),
                                    QStringLiteral("17.F.5 Oxenstierna: French and Swedish units may stack "
                                                   "together again;"));
    };
    return d;
}

// P24: Dutch Capture Spanish Treasure Fleet (8.65): Spain Aid -3 until the end of the next turn.
EventDef treasureFleet() {
    EventDef d;
    d.apply = [](Ctx& c, int) {
        c.s.markers.insert(prot::mk::treasureFleet, c.s.turn + 1);
        WP_SAY(
            c,
            QStringLiteral("8.65 the Dutch capture the Spanish treasure fleet: -3 Spain Aid Points on every "
                           "Catholic AID card through turn %1")
                .arg(c.s.turn + 1),
            kProt);
    };
    return d;
}

// P22: Sack of Magdeburg.
EventDef sackOfMagdeburg() {
    EventDef d;
    setCheck(d, [](const Ctx& c, int) {
        const int m = c.d.city(QStringLiteral("magdeburg"));
        return m >= 0 && effectiveCityControl(c.d, c.s, m) == kCath
                   ? QString()
                   : QStringLiteral("P22: only if Magdeburg is Catholic-controlled");
    });
    d.apply = [](Ctx& c, int) {
        const int m = c.d.city(QStringLiteral("magdeburg"));
        c.s.cities[m].pillage = 2;
        WP_SAY(c, QStringLiteral("15.2 the Sack of Magdeburg: Magdeburg is at Pillage-2"), kProt);
        addVp(c, -2, QStringLiteral("5.12 the Sack of Magdeburg:"));
    };
    return d;
}

// ---------------------------------------------------------------- the Dutch War (9.31, 16.12)

QString dutchWarCheck(const Ctx& c) {
    return dutchWarOver(c.s) ? QStringLiteral("9.31: the Dutch War has ended; Dutch War Track cards may no "
                                              "longer be played as Events")
                             : QString();
}

EventDef dutchCapture(const QString& cardId) {
    EventDef d;
    setCheck(d, [](const Ctx& c, int) { return dutchWarCheck(c); });
    d.apply = [cardId](Ctx& c, int) { moveDutchWar(c, -1, QStringLiteral("9.31 %1:").arg(cardId)); };
    return d;
}

// P27: Dutch Recapture Breda: 2 boxes with a Protestant army (a leader and 3 units) in the UP.
EventDef recaptureBreda() {
    EventDef d;
    setCheck(d, [](const Ctx& c, int) { return dutchWarCheck(c); });
    d.apply = [](Ctx& c, int) {
        const bool army = !ev::upLeaders(c.d, c.s, kProt).empty() && ev::upUnits(c.d, c.s, kProt).size() >= 3;
        if (army)
            WP_SAY(c, QStringLiteral("16.12 a Protestant army is in the United Provinces: two boxes"), kProt);
        moveDutchWar(c, army ? -2 : -1, QStringLiteral("9.31 P27:"));
    };
    return d;
}

// P43: Battle of the Downs: Dutch War -1 while it lasts, Spain Aid -2 for the rest of the game.
EventDef battleOfTheDowns() {
    EventDef d;
    d.apply = [](Ctx& c, int) {
        if (dutchWarOver(c.s))
            WP_SAY(c, QStringLiteral("9.31 the Dutch War has ended: the marker does not move"), kProt);
        else
            moveDutchWar(c, -1, QStringLiteral("9.31 P43:"));
        c.s.markers.insert(prot::mk::downs, 1);
        WP_SAY(
            c,
            QStringLiteral("8.65 the Spanish fleet is destroyed: -2 Spain Aid Points on every Catholic AID "
                           "card for the rest of the game"),
            kProt);
    };
    return d;
}

// P42: Portugal Revolts vs. Spain: the Catholic removes a Spanish Veteran for good, else Spain Aid -2.
std::vector<int16_t> spanishVeterans(const Ctx& c) {
    std::vector<int16_t> out;
    for (int u : ev::unitsOfNat(c.d, c.s, QStringLiteral("spanish")))
        if (c.d.unitTypes[c.s.units[u].type].kind == UnitKind::Veteran)
            out.push_back(static_cast<int16_t>(u));
    return out;
}

void removeVeteran(Ctx& c, int16_t u) {
    eliminateUnit(c, u, true, QStringLiteral("P42 Spain must fight in Portugal:"));
}

EventDef portugal() {
    EventDef d = withChoices({});
    d.apply = [](Ctx& c, int) {
        const auto vets = spanishVeterans(c);
        if (vets.empty()) {
            c.s.markers.insert(prot::mk::portugal, 1);
            WP_SAY(
                c,
                QStringLiteral("8.65 Portugal revolts and Spain has no Veteran to send: -2 Spain Aid Points "
                               "on every Catholic AID card for the rest of the game"),
                kProt);
            return;
        }
        WP_SAY(c, QStringLiteral("Portugal revolts: the Catholic removes a Spanish Veteran unit permanently"),
               kProt);
        choose(c, kCath, QStringLiteral("P42"), kCodeVeteran, vets, removeVeteran);
    };
    d.choiceApply = [](Ctx& c, const ChoiceFrame&, const Action& a) {
        popOwn(c);
        removeVeteran(c, a.target);
    };
    return d;
}

// ---------------------------------------------------------------- Areas entering on the Protestant side

// P3, P4, P28, P29: the Area enters the war (9.13, 9.22; P29 only if P3 has not), then the leader and the
// units named on the card arrive in a city of the Area without Catholic units (9.21).
EventDef areaLeader(const QString& cardId, const QString& areaId, const QString& leaderId, UnitKind kind,
                    int count, bool enterOnlyWithoutP3) {
    EventDef d = withChoices({});
    auto place = [=](Ctx& c, int16_t city) {
        placeArmy(c, {leaderId}, QStringLiteral("protestant"), kind, count, city, QStringLiteral("9.21"));
        checkStack(c, city);
    };
    setCheck(d, [=](const Ctx& c, int) {
        const int area = ev::areaIdx(c.d, areaId);
        if (ev::areaCitiesFreeOf(c.d, c.s, area, kCath).empty())
            return QStringLiteral("9.22: every city of %1 is occupied by Catholic units")
                .arg(areaName(c, areaId));
        return QString();
    });
    d.apply = [=](Ctx& c, int) {
        const int area = ev::areaIdx(c.d, areaId);
        if (!enterOnlyWithoutP3 || !ev::eventDone(c.d, c.s, QStringLiteral("P3"))) {
            if (enterOnlyWithoutP3)
                WP_SAY(c,
                       QStringLiteral("9.13 P29 is played before P3: %1 enters the war as with P3")
                           .arg(areaName(c, areaId)),
                       kProt);
            ev::areaEntersWar(c, area, QStringLiteral("9.13"));
        }
        choose(c, kProt, cardId, kCodePlace, ev::areaCitiesFreeOf(c.d, c.s, area, kCath), place);
    };
    d.choiceApply = [=](Ctx& c, const ChoiceFrame&, const Action& a) {
        popOwn(c);
        place(c, a.target);
    };
    return d;
}

// P6: England Intervenes (17.E.2): the English unit in a Protestant-controlled or Neutral city of the Lower
// Palatinate; not after C40; not a War Entry Event (9.12).
std::vector<int16_t> englishCities(const Ctx& c) {
    std::vector<int16_t> out;
    for (int16_t city :
         ev::areaCitiesFreeOf(c.d, c.s, ev::areaIdx(c.d, QStringLiteral("lower-palatinate")), kCath))
        if (effectiveCityControl(c.d, c.s, city) != kCath)
            out.push_back(city);
    return out;
}

EventDef englandIntervenes() {
    EventDef d = withChoices({});
    auto place = [](Ctx& c, int16_t city) {
        ev::placeFromPool(c, QStringLiteral("english"), UnitKind::Mercenary, 1, city,
                          QStringLiteral("17.E.2"));
        checkStack(c, city);
    };
    setCheck(d, [](const Ctx& c, int) {
        if (ev::eventDone(c.d, c.s, QStringLiteral("C40")))
            return QStringLiteral(
                "17.E.2: England Intervenes cannot be played after the English Civil War (C40)");
        if (ev::poolUnits(c.d, c.s, QStringLiteral("english"), UnitKind::Mercenary).empty())
            return QStringLiteral("17.E.3: the English unit is not available");
        if (englishCities(c).empty())
            return QStringLiteral("17.E.2: every city of the Lower Palatinate is Catholic-controlled or "
                                  "Catholic-occupied");
        return QString();
    });
    d.apply = [place](Ctx& c, int) {
        WP_SAY(c, QStringLiteral("17.E.2 England intervenes (not a War Entry Event, 9.12)"), kProt);
        choose(c, kProt, QStringLiteral("P6"), kCodePlace, englishCities(c), place);
    };
    d.choiceApply = [place](Ctx& c, const ChoiceFrame&, const Action& a) {
        popOwn(c);
        place(c, a.target);
    };
    return d;
}

// ---------------------------------------------------------------- War Entry Events (9.1)

// P7: Denmark Enters War (17.D.3).
EventDef denmark() {
    EventDef d;
    setCheck(d, [](const Ctx& c, int) {
        return warEntryCheck(c, c.s.denmarkInWar, QStringLiteral("Denmark"), QStringLiteral("17.D.3"));
    });
    d.apply = [](Ctx& c, int) {
        startWarEntry(c, QStringLiteral("Denmark"), QStringLiteral("17.D.3"));
        c.s.denmarkInWar = true;
        // 17.D.3, 9.13: the cities of Schleswig-Holstein become Protestant unless Catholic-occupied.
        ev::areaEntersWar(c, ev::areaIdx(c.d, QStringLiteral("schleswig-holstein")),
                          QStringLiteral("17.D.3"));
        const int box = ev::boxLoc(c.d, QStringLiteral("denmark"));
        const int danes =
            static_cast<int>(ev::poolUnits(c.d, c.s, QStringLiteral("danish"), UnitKind::Mercenary).size());
        placeArmy(c, {QStringLiteral("christian-iv")}, QStringLiteral("danish"), UnitKind::Mercenary, danes,
                  box, QStringLiteral("17.D.3"));
        WP_SAY(
            c,
            QStringLiteral("17.D.3 Christian IV and the Danish army enter the map from Denmark by a separate "
                           "Activation, through Rendsburg or Kiel"),
            kProt);
    };
    return d;
}

// P17: France Enters War (17.F.3, 17.F.4).
const ScenarioStack* franceDeployment(const GameData& d) {
    for (const Scenario& sc : d.scenarios)
        for (qsizetype i = 0; i < sc.deploymentCards.size() && i < sc.deployments.size(); ++i)
            if (sc.deploymentCards[i] == QLatin1String("P17"))
                return &sc.deployments[i];
    return nullptr;
}

std::vector<int16_t> laForceCities(const Ctx& c) {
    std::vector<int16_t> out;
    const int lorraine = ev::areaIdx(c.d, QStringLiteral("lorraine"));
    for (int16_t city : ev::areaCitiesFreeOf(c.d, c.s, lorraine, kCath))
        if (effectiveCityControl(c.d, c.s, city) == kProt)
            out.push_back(city);
    if (!out.empty())
        return out;
    // 17.F.4: all three Lorraine cities Catholic-occupied: any city of France, on or off the map.
    for (qsizetype ci = 0; ci < c.d.cities.size(); ++ci)
        if (c.d.cities[ci].france && ev::stackAt(c.d, c.s, static_cast<int>(ci), kCath).empty())
            out.push_back(static_cast<int16_t>(ci));
    return out;
}

void placeLaForce(Ctx& c, int16_t city) {
    const QString rule = QStringLiteral("17.F.4");
    if (const ScenarioStack* st = franceDeployment(c.d)) {
        QStringList leaders;
        for (int l : st->leaders)
            leaders << c.d.leaders[l].id;
        placeArmy(c, leaders, {}, UnitKind::Mercenary, 0, city, rule);
        for (const ScenarioUnits& su : st->units) {
            const QString nat = c.d.nationalities[su.nationality].id;
            ev::placeFromPool(c, nat, su.kind, su.count, city, rule);
            for (int u : ev::placeFromPool(c, nat, su.kind, su.reduced, city, rule))
                c.s.units[u].steps = 1;
        }
    } else { // the deployment of scenarios/apocalypse.json
        placeArmy(c, {QStringLiteral("la-force")}, QStringLiteral("french"), UnitKind::Mercenary, 4, city,
                  rule);
        ev::placeFromPool(c, QStringLiteral("french"), UnitKind::Militia, 2, city, rule);
    }
    if (c.s.options.guebriant) // 19.2b: Guebriant enters with France
        placeArmy(c, {QStringLiteral("guebriant")}, {}, UnitKind::Mercenary, 0, city,
                  QStringLiteral("19.2b"));
    checkStack(c, city);
}

EventDef france() {
    EventDef d = withChoices({});
    setCheck(d, [](const Ctx& c, int) {
        return warEntryCheck(c, c.s.franceInWar, QStringLiteral("France"), QStringLiteral("17.F.3"));
    });
    d.apply = [](Ctx& c, int) {
        startWarEntry(c, QStringLiteral("France"), QStringLiteral("17.F.3, 17.F.4"));
        c.s.franceInWar = true; // 17.F.3, 11.31: units may now enter France, the off-map cities too
        // 17.F.4: the VP of the French cities, now Protestant-controlled (2.42).
        int vp = 0;
        for (qsizetype ci = 0; ci < c.d.cities.size(); ++ci)
            if (c.d.cities[ci].france && effectiveCityControl(c.d, c.s, static_cast<int>(ci)) == kProt)
                vp += c.d.cities[ci].vp;
        addVp(c, -vp, QStringLiteral("17.F.4 the French cities to the Protestant:"));
        // 17.F.4, 9.22: Lorraine enters as Protestant unless two of its cities are Catholic-occupied; the
        // cities without Catholic units flip anyway.
        const int lorraine = ev::areaIdx(c.d, QStringLiteral("lorraine"));
        const auto free = ev::areaCitiesFreeOf(c.d, c.s, lorraine, kCath);
        const int occupied = static_cast<int>(c.d.areas[lorraine].cities.size() - free.size());
        if (occupied < c.d.areas[lorraine].control) {
            ev::areaEntersWar(c, lorraine, QStringLiteral("17.F.4"));
        } else {
            WP_SAY(
                c,
                QStringLiteral("17.F.4 %1 Lorraine cities are Catholic-occupied: Lorraine does not enter the "
                               "war, its other cities turn Protestant")
                    .arg(occupied),
                kProt);
            c.s.areas[lorraine].neutral = false; // 9.13: in the war, without a violation
            for (int16_t city : free)
                if (!c.s.cities[city].revolt)
                    setCityControl(c, city, kProt, QStringLiteral("17.F.4"));
        }
        choose(c, kProt, QStringLiteral("P17"), kCodePlace, laForceCities(c), placeLaForce);
        WP_SAY(c, QStringLiteral("8.12 the Apocalypse cards are added at the next Card Draw Phase"), kProt);
    };
    d.choiceApply = [](Ctx& c, const ChoiceFrame&, const Action& a) {
        popOwn(c);
        placeLaForce(c, a.target);
    };
    return d;
}

// P18: Sweden Enters War (17.Sw.1, 9.13).
std::vector<int16_t> swedenPorts(const GameData& d) {
    std::vector<int16_t> out;
    for (const Arrow& a : d.arrows)
        if (d.boxes[a.box].kind == QLatin1String("sweden"))
            out.push_back(static_cast<int16_t>(a.city));
    return out;
}

// Where Gustavus' army may land: a Protestant-controlled or Neutral port without Catholic units; if there
// is none, any port without Catholic units; if every port has Catholic units, any of them (attack).
std::vector<int16_t> landings(const Ctx& c) {
    const auto ports = swedenPorts(c.d);
    std::vector<int16_t> free, open;
    for (int16_t p : ports) {
        if (!ev::stackAt(c.d, c.s, p, kCath).empty())
            continue;
        free.push_back(p);
        if (effectiveCityControl(c.d, c.s, p) != kCath)
            open.push_back(p);
    }
    return !open.empty() ? open : !free.empty() ? free : ports;
}

const QStringList& swedishLeaders() {
    static const QStringList l{QStringLiteral("gustavus-adolphus"), QStringLiteral("baner"),
                               QStringLiteral("horn"), QStringLiteral("bernard-of-saxe-weimar")};
    return l;
}

void landSwedes(Ctx& c, int16_t city) {
    const QString rule = QStringLiteral("17.Sw.1");
    placeArmy(c, swedishLeaders(), QStringLiteral("swedish"), UnitKind::Veteran, 6, city, rule);
    c.s.swedishBase = city;
    WP_SAY(c, QStringLiteral("17.Sw.1 %1 is the Swedish Base").arg(cityName(c.d, city)), kProt);
    const int area = c.d.cities[city].area;
    if (area >= 0 && c.s.areas[area].neutral) {
        WP_SAY(c,
               QStringLiteral("9.13 the Swedish landing violates the neutrality of %1")
                   .arg(c.d.areas[area].name),
               kProt);
        violateNeutrality(c, area, kProt);
    }
    if (!anyUnitsOutside(c.s, city, kCath, c.d)) {
        checkStack(c, city);
        return;
    }
    // 17.Sw.1: every port is Catholic-occupied: the army attacks from the Sweden box; it is eliminated if
    // it must retreat (no space to retreat to), its leaders with it (12.43).
    WP_SAY(c,
           QStringLiteral("17.Sw.1 the Swedish army must fight its way onto the map at %1")
               .arg(cityName(c.d, city)),
           kProt);
    std::vector<int16_t> units, leaders;
    for (int u : unitsOutside(c.s, city, kProt, c.d))
        units.push_back(static_cast<int16_t>(u));
    for (int l : leadersAt(c.s, city, kProt, c.d))
        leaders.push_back(static_cast<int16_t>(l));
    const int gustavus = ev::leaderIdx(c.d, QStringLiteral("gustavus-adolphus"));
    int commander = -1;
    for (int16_t l : leaders)
        if (l == gustavus || commander < 0)
            commander = l;
    startCombat(c, city, kProt, units, leaders, commander, -1, false, false);
}

EventDef sweden() {
    EventDef d = withChoices({});
    setCheck(d, [](const Ctx& c, int) {
        return warEntryCheck(c, c.s.swedenInWar, QStringLiteral("Sweden"), QStringLiteral("17.Sw.1"));
    });
    d.apply = [](Ctx& c, int) {
        startWarEntry(c, QStringLiteral("Sweden"), QStringLiteral("17.Sw.1"));
        c.s.swedenInWar = true;
        choose(c, kProt, QStringLiteral("P18"), kCodeLand, landings(c), landSwedes);
    };
    d.choiceApply = [](Ctx& c, const ChoiceFrame&, const Action& a) {
        popOwn(c);
        landSwedes(c, a.target);
    };
    return d;
}

// P35: Saxony Switches Sides (8.66).
EventDef saxonySwitches() {
    EventDef d;
    setCheck(d, [](const Ctx& c, int) {
        if (!c.s.swedenInWar)
            return QStringLiteral(
                "8.66: Saxony joins the Protestants only after Sweden has entered the war (P18)");
        if (c.s.nationSide[ev::natIdx(c.d, QStringLiteral("saxon"))] != kCath)
            return QStringLiteral("8.66: Saxony is already Protestant");
        return QString();
    });
    d.apply = [](Ctx& c, int) {
        ev::saxonySwitches(c, kProt, cardOf(c, QStringLiteral("P35")), QStringLiteral("8.66"));
    };
    return d;
}

// ---------------------------------------------------------------- New Leaders (9.2)

QString swedenCheck(const Ctx& c) {
    return c.s.swedenInWar ? QString()
                           : QStringLiteral("17.Sw.1: only after Sweden has entered the war (P18)");
}

// The leaders of a list who can still arrive and have somewhere to go.
bool anyPlaceable(const Ctx& c, const QStringList& leaders, const ev::Placement& p) {
    for (const QString& id : leaders) {
        const int l = ev::leaderIdx(c.d, id);
        if (l >= 0 && c.s.leaders[l].status == LeaderStatus::NotEntered && ev::anyLeaderPlace(c, kProt, l, p))
            return true;
    }
    return false;
}

using PlacementOf = std::function<ev::Placement(const Ctx&)>;

EventDef newLeaders(const QString& cardId, const QStringList& leaders, PlacementOf placement,
                    bool needSweden) {
    EventDef d;
    setCheck(d, [=](const Ctx& c, int) {
        if (needSweden && !c.s.swedenInWar)
            return swedenCheck(c);
        const ev::Placement p = placement(c);
        if (!anyPlaceable(c, leaders, p))
            return QStringLiteral("9.23: none of the leaders can be placed (no %1 units, no Protestant-"
                                  "controlled city where they may go)")
                .arg(p.nat);
        return QString();
    });
    d.apply = [=](Ctx& c, int) {
        std::vector<int> ls;
        for (const QString& id : leaders)
            ls.push_back(ev::leaderIdx(c.d, id));
        ev::placeNewLeaders(c, kProt, cardOf(c, cardId), ls, placement(c));
    };
    return d;
}

// P44: Torstensson and 2 Swedish Veterans at the Swedish Base (17.Sw.1); with no usable Base, with Swedish
// units (9.23 by analogy: any Protestant-controlled city if there are none).
std::vector<int16_t> torstenssonPlaces(const Ctx& c) {
    const int base = c.s.swedishBase;
    if (base >= 0 && effectiveCityControl(c.d, c.s, base) != kCath &&
        ev::stackAt(c.d, c.s, base, kCath).empty())
        return {static_cast<int16_t>(base)};
    ev::Placement p;
    p.nat = QStringLiteral("swedish");
    return ev::leaderPlaces(c, kProt, ev::leaderIdx(c.d, QStringLiteral("torstensson")), p);
}

void placeTorstensson(Ctx& c, int16_t loc) {
    placeArmy(c, {QStringLiteral("torstensson")}, QStringLiteral("swedish"), UnitKind::Veteran, 2, loc,
              QStringLiteral("17.Sw.1"));
    checkStack(c, loc);
}

EventDef torstensson() {
    EventDef d = withChoices({});
    setCheck(d, [](const Ctx& c, int) {
        if (!c.s.swedenInWar)
            return swedenCheck(c);
        if (c.s.leaders[ev::leaderIdx(c.d, QStringLiteral("torstensson"))].status != LeaderStatus::NotEntered)
            return QStringLiteral("9.21: Torstensson has already entered the game");
        if (torstenssonPlaces(c).empty())
            return QStringLiteral("9.23: Torstensson has nowhere to go (no usable Swedish Base, no Swedish "
                                  "units, no Protestant-controlled city)");
        return QString();
    });
    d.apply = [](Ctx& c, int) {
        choose(c, kProt, QStringLiteral("P44"), kCodePlace, torstenssonPlaces(c), placeTorstensson);
    };
    d.choiceApply = [](Ctx& c, const ChoiceFrame&, const Action& a) {
        popOwn(c);
        placeTorstensson(c, a.target);
    };
    return d;
}

// P23: Treaty of Heilbronn: Leslie with Swedish units (at the Swedish Base if none), then two Recruit
// attempts as with a 2-point REC card, by Swedish or German Protestant leaders (17.Sw.3, 17.G.2).
std::vector<int16_t> lesliePlaces(const Ctx& c) {
    const int leslie = ev::leaderIdx(c.d, QStringLiteral("leslie"));
    if (c.s.leaders[leslie].status != LeaderStatus::NotEntered)
        return {};
    ev::Placement p;
    p.nat = QStringLiteral("swedish");
    if (ev::unitsOfNat(c.d, c.s, p.nat, true).empty() && c.s.swedishBase >= 0)
        p.only = c.s.swedishBase;
    return ev::leaderPlaces(c, kProt, leslie, p);
}

void heilbronnRecruit(Ctx& c) {
    startRecruitAttempts(c, kProt, 2, {QStringLiteral("swedish"), QStringLiteral("protestant")},
                         QStringLiteral("8.4 the Treaty of Heilbronn (17.Sw.3):"));
}

void placeLeslie(Ctx& c, int16_t loc) {
    ev::placeLeader(c, ev::leaderIdx(c.d, QStringLiteral("leslie")), loc, QStringLiteral("9.21 P23:"));
    heilbronnRecruit(c);
}

EventDef heilbronn() {
    EventDef d = withChoices({});
    setCheck(d, [](const Ctx& c, int) { return swedenCheck(c); });
    d.apply = [](Ctx& c, int) {
        const auto places = lesliePlaces(c);
        if (places.empty()) {
            WP_SAY(c, QStringLiteral("9.23 Leslie cannot be placed"), kProt);
            heilbronnRecruit(c);
            return;
        }
        choose(c, kProt, QStringLiteral("P23"), kCodePlace, places, placeLeslie);
    };
    d.choiceApply = [](Ctx& c, const ChoiceFrame&, const Action& a) {
        popOwn(c);
        placeLeslie(c, a.target);
    };
    return d;
}

// P50: Bridge of Boats: a leader activates as with a 3-point ACT card, his units +2 MA.
void bridgeActivate(Ctx& c, int16_t piece) {
    WP_SAY(c, QStringLiteral("Bridge of Boats: every unit of the army has +2 MA in this Activation"), kProt);
    startActivation(c, kProt, piece - kLeaderBase, cardOf(c, QStringLiteral("P50")));
}

EventDef bridgeOfBoats() {
    EventDef d = withChoices({});
    setCheck(d, [](const Ctx& c, int) {
        return prot::activatableLeaders(c, kProt, 3).empty()
                   ? QStringLiteral("8.3: no Protestant leader may be activated with a 3-point card")
                   : QString();
    });
    d.apply = [](Ctx& c, int) {
        choose(c, kProt, QStringLiteral("P50"), kCodeActivate, prot::activatableLeaders(c, kProt, 3),
               bridgeActivate);
    };
    d.choiceApply = [](Ctx& c, const ChoiceFrame&, const Action& a) {
        popOwn(c);
        bridgeActivate(c, a.target);
    };
    return d;
}

// ---------------------------------------------------------------- Peasant Revolts, famine, recovery, mutiny

EventDef peasantRevolt(const QString& cardId, const QString& areaId, const QString& except) {
    ev::RevoltRule r;
    r.areas = {areaId};
    r.except = {except};
    EventDef d;
    setCheck(d, [=](const Ctx& c, int) {
        return !ev::anyRevoltCity(c, kProt, r)
                   ? QStringLiteral("9.41: no city of %1 (except %2) without a Catholic army or a revolt")
                         .arg(areaName(c, areaId), c.d.cities[c.d.city(except)].name)
                   : QString();
    });
    d.apply = [=](Ctx& c, int) { ev::chooseRevolt(c, kProt, cardOf(c, cardId), r); };
    return d;
}

EventDef famine(const QString& cardId) {
    EventDef d;
    setCheck(d, [](const Ctx& c, int) {
        return ev::famineTargets(c, kProt).empty()
                   ? QStringLiteral(
                         "Famines & Plagues: no Catholic stack in a pillaged city, nor one of 4 or "
                         "more units")
                   : QString();
    });
    d.apply = [cardId](Ctx& c, int) { ev::famine(c, kProt, cardOf(c, cardId)); };
    return d;
}

EventDef recovery(const QString& cardId) {
    EventDef d;
    setCheck(d, [](const Ctx& c, int) {
        return ev::recoveryCities(c, kProt).empty()
                   ? QStringLiteral(
                         "8.63: no pillaged city in a Protestant-controlled or Neutral Area, nor a "
                         "Protestant or Neutral Independent city")
                   : QString();
    });
    d.apply = [cardId](Ctx& c, int) { ev::recovery(c, kProt, cardOf(c, cardId), 3); };
    return d;
}

EventDef mutiny(const QString& cardId) {
    EventDef d;
    setCheck(d, [](const Ctx& c, int) {
        return ev::mutinyTargets(c, kProt).empty()
                   ? QStringLiteral("15.224: no Catholic stack with a Mercenary unit outside the UP")
                   : QString();
    });
    d.apply = [cardId](Ctx& c, int) { ev::mutiny(c, kProt, cardOf(c, cardId)); };
    return d;
}

// ---------------------------------------------------------------- combat cards (9.5)

using Cond = std::function<bool(const Ctx&, const CombatFrame&, int)>;

EventDef combatCard(Cond cond, CombatCardEffect effect) {
    EventDef d;
    d.combatAllowed = ev::combatRule(std::move(cond));
    d.combat = effect;
    return d;
}

CombatCardEffect drm(int own, int enemy) {
    CombatCardEffect e;
    e.ownDrm = own;
    e.enemyDrm = enemy;
    return e;
}

CombatCardEffect shift(int own, int enemy) {
    CombatCardEffect e;
    e.ownShift = own;
    e.enemyShift = enemy;
    return e;
}

bool hasLeaderOf(const Ctx& c, const CombatFrame& f, int side, const QString& nat) {
    for (int l : ev::combatLeaders(f, side))
        if (ev::leaderNat(c.d, l) == nat)
            return true;
    return false;
}

} // namespace

void registerProtestantEvents(EventRegistry& r) {
    auto add = [&r](const char* id, EventDef d) { ev::add(r, QString::fromLatin1(id), std::move(d)); };

    add("P1", valTellineClosed());
    add("P2", threeMusketeers());
    add("P3", areaLeader(QStringLiteral("P3"), QStringLiteral("brunswick-lueneburg"),
                         QStringLiteral("christian-of-brunswick"), UnitKind::Mercenary, 2, false));
    add("P4", areaLeader(QStringLiteral("P4"), QStringLiteral("baden"),
                         QStringLiteral("george-frederick-of-baden"), UnitKind::Militia, 2, false));
    add("P5", gregoryXV());
    add("P6", englandIntervenes());
    add("P7", denmark());
    add("P8", ottomanRaids());
    add("P9", richelieu());
    add("P10", swedishAid());
    add("P11", treatyOfUlm());
    // P12 Surprise Attack: attacker only, +1 DRM; the defender may play no Combat card (ev::combatRule).
    add("P12",
        combatCard([](const Ctx&, const CombatFrame& f, int side) { return side == f.attacker; }, drm(1, 0)));
    // P13 Command Rivalry: -1 DRM to an enemy army with at least two leaders (12.3: Tilly and Pappenheim
    // at Breitenfeld).
    add("P13", combatCard([](const Ctx&, const CombatFrame& f,
                             int side) { return ev::combatLeaders(f, other(side)).size() >= 2; },
                          drm(0, -1)));
    add("P14", peasantRevolt(QStringLiteral("P14"), QStringLiteral("austria"), QStringLiteral("vienna")));
    add("P15", urbanVIII());
    add("P16", mutiny(QStringLiteral("P16")));
    add("P17", france());
    add("P18", sweden());
    add("P19", savoyAid());
    add("P20", spainEnglandPeace());
    add("P21", ferdinandIII());
    add("P22", sackOfMagdeburg());
    add("P23", heilbronn());
    add("P24", treasureFleet());
    add("P25", dutchCapture(QStringLiteral("P25")));
    add("P26", dutchCapture(QStringLiteral("P26")));
    add("P27", recaptureBreda());
    add("P28", areaLeader(QStringLiteral("P28"), QStringLiteral("hesse-kassel"),
                          QStringLiteral("william-of-hesse-kassel"), UnitKind::Militia, 3, false));
    add("P29", areaLeader(QStringLiteral("P29"), QStringLiteral("brunswick-lueneburg"),
                          QStringLiteral("george-of-brunswick-lueneburg"), UnitKind::Militia, 3, true));
    // P30 Fog: defender only; the attacker fires one column to the left.
    add("P30", combatCard([](const Ctx&, const CombatFrame& f, int side) { return side != f.attacker; },
                          shift(0, -1)));
    // P31 Massed Artillery: attacker only, with a Swedish leader: two columns to the right.
    add("P31", combatCard(
                   [](const Ctx& c, const CombatFrame& f, int side) {
                       return side == f.attacker && hasLeaderOf(c, f, side, QStringLiteral("swedish"));
                   },
                   shift(2, 0)));
    // P32 Flanking Maneuver: two leaders and at least as many units as the enemy: one column right.
    add("P32", combatCard(
                   [](const Ctx&, const CombatFrame& f, int side) {
                       return ev::combatLeaders(f, side).size() >= 2 &&
                              ev::combatUnits(f, side).size() >= ev::combatUnits(f, other(side)).size();
                   },
                   shift(1, 0)));
    // P33 Cavalry Charge: not an army of Militia only: +1 DRM, +2 under a Dynamic commander
    // (EventDef::combatEffect; `combat` holds the basic +1).
    {
        EventDef d = combatCard(
            [](const Ctx& c, const CombatFrame& f, int side) {
                return ev::armyHasKind(c, f, side, UnitKind::Veteran) ||
                       ev::armyHasKind(c, f, side, UnitKind::Mercenary);
            },
            drm(1, 0));
        d.combatEffect = [](const Ctx& c, const CombatFrame& f, int side) {
            const int cmd = ev::combatCommander(f, side);
            return drm(cmd >= 0 && effectiveStars(c.d, c.s, cmd) > 0 ? 2 : 1, 0);
        };
        add("P33", std::move(d));
    }
    // P34 Swedish Firepower: a Protestant army with a Swedish Veteran: +1 DRM (12.3).
    add("P34", combatCard(
                   [](const Ctx& c, const CombatFrame& f, int side) {
                       return side == kProt && ev::armyHasNat(c, f, side, QStringLiteral("swedish"),
                                                              static_cast<int>(UnitKind::Veteran));
                   },
                   drm(1, 0)));
    add("P35", saxonySwitches());
    add("P36", famine(QStringLiteral("P36")));
    add("P37", famine(QStringLiteral("P37")));
    add("P38", oxenstierna());
    add("P39", valTellineClosed());
    add("P40", peasantRevolt(QStringLiteral("P40"), QStringLiteral("bavaria"), QStringLiteral("munich")));
    add("P41", mutiny(QStringLiteral("P41")));
    add("P42", portugal());
    add("P43", battleOfTheDowns());
    add("P44", torstensson());
    // P45: Wrangel and Koenigsmarck, each with Swedish units (9.23: any Protestant-controlled city).
    add("P45", newLeaders(
                   QStringLiteral("P45"), {QStringLiteral("wrangel"), QStringLiteral("koenigsmarck")},
                   [](const Ctx&) {
                       ev::Placement p;
                       p.nat = QStringLiteral("swedish");
                       return p;
                   },
                   true));
    // P46: Conde, L'Hopital, Gassion, each with French units (else a Protestant city of France or Lorraine).
    add("P46", newLeaders(
                   QStringLiteral("P46"),
                   {QStringLiteral("conde"), QStringLiteral("l-hopital"), QStringLiteral("gassion")},
                   [](const Ctx& c) {
                       ev::Placement p;
                       p.nat = QStringLiteral("french");
                       p.fallbackArea = ev::areaIdx(c.d, QStringLiteral("lorraine"));
                       p.fallbackFrance = true;
                       return p;
                   },
                   false));
    // P47 Furia Franchese: attacker only, with a French unit: +2 DRM (cancelling C50 needs the engine).
    add("P47", combatCard(
                   [](const Ctx& c, const CombatFrame& f, int side) {
                       return side == f.attacker && ev::armyHasNat(c, f, side, QStringLiteral("french"));
                   },
                   drm(2, 0)));
    // P48 Unreliable Troops: an enemy army with Militia or Mercenaries: -1 DRM to the enemy (12.3, C49).
    add("P48", combatCard(
                   [](const Ctx& c, const CombatFrame& f, int side) {
                       return ev::armyHasKind(c, f, other(side), UnitKind::Militia) ||
                              ev::armyHasKind(c, f, other(side), UnitKind::Mercenary);
                   },
                   drm(0, -1)));
    // P49 Hesitation: the enemy commander, not Dynamic, counts his Battle rating as 0: minus his rating
    // to the enemy (EventDef::combatEffect). Every leader who is not Dynamic rates 0 or 1, so the basic
    // effect is -1, and the card is offered when it changes something.
    {
        EventDef d = combatCard(
            [](const Ctx& c, const CombatFrame& f, int side) {
                const int cmd = ev::combatCommander(f, other(side));
                return cmd >= 0 && effectiveStars(c.d, c.s, cmd) == 0 && c.d.leaders[cmd].battle > 0;
            },
            drm(0, -1));
        d.combatEffect = [](const Ctx& c, const CombatFrame& f, int side) {
            const int cmd = ev::combatCommander(f, other(side));
            return drm(0, cmd >= 0 ? -c.d.leaders[cmd].battle : 0);
        };
        add("P49", std::move(d));
    }
    add("P50", bridgeOfBoats());
    add("P51", famine(QStringLiteral("P51")));
    add("P52", famine(QStringLiteral("P52")));
    add("P53", recovery(QStringLiteral("P53")));
    add("P54", recovery(QStringLiteral("P54")));
    add("P55", recovery(QStringLiteral("P55")));
}

} // namespace wp::rules

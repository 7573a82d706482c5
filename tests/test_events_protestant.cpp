// The Protestant card events P1-P55 (issue 5): each card played as an Event (or in a combat) from a
// constructed position, and where it has a precondition, the refusal with its reason.
// tests/card-tests.json maps every card to its test here.
#include "rules_fixture.h"

#include "events/common.h"
#include "events/protestant_common.h"
#include "rules/economy.h"
#include "rules/events.h"

using namespace wp;
using namespace wp::rules;
using namespace wp::rules::test;

namespace {

constexpr int P = kProtestant;
constexpr int C = kCatholic;

// A game of `scenario` in its Action Phase, the Protestant to play with exactly `hand`.
bool start(Rules& f, const QStringList& hand, const QString& scenario = QStringLiteral("campaign"),
           bool clear = true) {
    if (!f.newGame(scenario))
        return false;
    if (clear)
        f.clearBoard();
    f.setHand(P, hand);
    f.setActive(P);
    return true;
}

bool canPlay(const Rules& f, const QString& card) {
    return f.legal(QStringLiteral("play %1 event").arg(card));
}

// The reason the card may not be played as an Event now (EventDef::whyNot).
QString whyNot(const Rules& f, const QString& card) {
    const EventDef* ev = EventRegistry::instance().find(card);
    if (!ev || !ev->whyNot)
        return {};
    Ctx c{f.d(), const_cast<GameState&>(f.s), nullptr};
    return ev->whyNot(c, P);
}

#define REFUSED(f, card, fragment)                                                                           \
    do {                                                                                                     \
        QVERIFY2(!canPlay(f, card), qPrintable(QStringLiteral("%1 is playable").arg(card)));                 \
        const QString why_ = whyNot(f, card);                                                                \
        QVERIFY2(why_.contains(fragment), qPrintable(why_));                                                 \
    } while (false)

#define PLAY(f, card) QVERIFY2((f).act(QStringLiteral("play %1 event").arg(card)), qPrintable((f).error))
#define ACT(f, text) QVERIFY2((f).act(text), qPrintable((f).error + "\n" + (f).logText((f).last)))

// 9.51: a combat card is never played as an Event outside a combat (the Action Phase), though the card
// itself may still be used there (ACT, REC or AID, 8.2).
#define COMBAT_ONLY(f, card)                                                                                 \
    do {                                                                                                     \
        QVERIFY2(!canPlay(f, card), qPrintable(QStringLiteral("%1 is playable as an Event").arg(card)));     \
        bool used_ = false;                                                                                  \
        for (const QString& t_ : (f).legalTexts())                                                           \
            used_ |= t_.startsWith(QStringLiteral("play %1 ").arg(card));                                    \
        QVERIFY2(used_, qPrintable(QStringLiteral("%1 has no use at all").arg(card)));                       \
    } while (false)

int unitsOf(const Rules& f, const QString& where, const QString& nat, int side = P) {
    int n = 0;
    for (int u : unitsAt(f.s, f.locOf(where), side, f.d()))
        n += ev::natOf(f.d(), f.s, u) == nat;
    return n;
}

int stepsAt(const Rules& f, const QString& where, int side) {
    int n = 0;
    for (int u : unitsAt(f.s, f.locOf(where), side, f.d()))
        n += f.s.units[u].steps;
    return n;
}

bool leaderAt(const Rules& f, const QString& id, const QString& where) {
    const LeaderState& l = f.s.leaders[f.leader(id)];
    return l.status == LeaderStatus::InPlay && l.loc == f.locOf(where);
}

bool inEventChoice(const Rules& f) {
    const auto* ch = f.s.frames.empty() ? nullptr : std::get_if<ChoiceFrame>(&f.s.frames.back());
    return ch && ch->purpose >= kChooseEventBase;
}

// ------------------------------------------------------------------ combat

// Starts a battle at `city` between the pieces placed there, `attacker` attacking with all his units
// (12.13) under his best leader; the scripted dice are the attacker's and the defender's combat rolls.
void battle(Rules& f, int attacker, const QString& city, int attackRoll = 5, int defendRoll = 5) {
    Ctx c{f.d(), f.s, &f.log};
    const int ci = f.city(city);
    std::vector<int16_t> units, leaders;
    for (int u : unitsAt(f.s, ci, attacker, f.d()))
        units.push_back(static_cast<int16_t>(u));
    int cmd = -1;
    for (int l : leadersAt(f.s, ci, attacker, f.d())) {
        leaders.push_back(static_cast<int16_t>(l));
        const Leader& ld = f.d().leaders[l];
        if (cmd < 0 ||
            ld.stars * 100 + ld.battle > f.d().leaders[cmd].stars * 100 + f.d().leaders[cmd].battle)
            cmd = l;
    }
    f.dice({attackRoll, defendRoll, 0, 0, 0, 0, 0, 0, 0, 0});
    startCombat(c, ci, attacker, units, leaders, cmd, -1, false, false);
}

// "column 11-14, roll 5 +1" of the side's combat line (12.26) in the last action's log.
QString fire(const Rules& f, int side) {
    const QString head = QStringLiteral("12.26 %1: ").arg(sideName(side));
    for (const LogLine& l : f.last)
        if (l.text.startsWith(head)) {
            const QString t = l.text.mid(l.text.indexOf(QStringLiteral("column")));
            return t.left(t.indexOf(QStringLiteral(" =")));
        }
    return QStringLiteral("(no combat line)");
}

// Plays `attack` cards for the attacker and `defend` cards for the defender (12.23), each list followed
// by a pass; the combat is then resolved.
bool cards(Rules& f, const QStringList& attack, const QStringList& defend) {
    for (const QString& c : attack)
        if (!f.act(QStringLiteral("card ") + c))
            return false;
    if (!f.act(QStringLiteral("pass")))
        return false;
    for (const QString& c : defend)
        if (!f.act(QStringLiteral("card ") + c))
            return false;
    return f.act(QStringLiteral("pass"));
}

// A Protestant army (Mansfeld, Anhalt, 4 Protestant Mercenaries: 12 CF) and a Catholic one (Bucquoy, 3
// Imperial Veterans: 12 CF) at Luetzen.
void armies(Rules& f) {
    f.placeLeader("mansfeld", "luetzen");
    f.placeLeader("anhalt", "luetzen");
    f.place("protestant", UnitKind::Mercenary, "luetzen", 4);
    f.placeLeader("bucquoy", "luetzen");
    f.place("imperial", UnitKind::Veteran, "luetzen", 3);
}

} // namespace

class TestEventsProtestant : public QObject {
    Q_OBJECT

  private slots:
    void initTestCase() { QVERIFY(rulesData()); }

    // ================================================================ aid and state switches

    // P1 (14.4): the Passes close; Spanish Aid stops. Refused while they are Closed.
    void p1ValTellineClosed() {
        Rules f;
        QVERIFY(start(f, {"P1"}));
        QVERIFY(f.s.valTellineOpen);
        QVERIFY(f.s.aidSources[C].contains("spain"));
        PLAY(f, "P1");
        QVERIFY(!f.s.valTellineOpen);
        QVERIFY(!f.s.aidSources[C].contains("spain"));
        QVERIFY(f.logged("14.4 the Val Telline Passes are Closed"));
        QCOMPARE(f.s.cardPlace[f.card("P1")], CardPlace::Removed); // 8.62: asterisk
    }
    void p1Refused() {
        Rules f;
        QVERIFY(start(f, {"P1"}));
        f.s.valTellineOpen = false;
        REFUSED(f, "P1", "14.4");
    }

    // P39: the same event from the Apocalypse deck.
    void p39ValTellineClosed() {
        Rules f;
        QVERIFY(start(f, {"P39"}));
        PLAY(f, "P39");
        QVERIFY(!f.s.valTellineOpen);
        QVERIFY(!f.s.aidSources[C].contains("spain"));
    }
    // 14.4: refused while the Passes are Closed.
    void p39_refused() {
        Rules f;
        QVERIFY(start(f, {"P39"}));
        QVERIFY(canPlay(f, "P39"));
        f.s.valTellineOpen = false;
        REFUSED(f, "P39", "14.4");
    }

    // P2 (19.9): La Rochelle falls: the Huguenot revolt (C36) ends and French Aid resumes.
    void p2ThreeMusketeers() {
        Rules f;
        QVERIFY(start(f, {"P2"}));
        f.s.eventPlayed[f.card("P9")] = true;
        f.s.eventPlayed[f.card("C36")] = true; // the Huguenots revolt: no French Aid
        f.s.aidSources[P].removeAll("france");
        PLAY(f, "P2");
        QVERIFY(f.s.markers.value("C36.ended"));
        QVERIFY(f.s.aidSources[P].contains("france"));
        QVERIFY(!prot::catholicEffectOn(f.d(), f.s, "C36"));
        // without C36 the event only forestalls it
        Rules g;
        QVERIFY(start(g, {"P2"}));
        PLAY(g, "P2");
        QVERIFY(g.logged("may no longer be played"));
        QVERIFY(!g.s.aidSources[P].contains("france"));
    }
    // 19.9 (optional): a combat card for a Protestant army with French units: one column to the right.
    void p2OldCorpsCombat() {
        Rules f;
        QVERIFY(start(f, {}));
        f.placeLeader("la-force", "luetzen");
        f.place("french", UnitKind::Mercenary, "luetzen", 4);
        f.placeLeader("bucquoy", "luetzen");
        f.place("imperial", UnitKind::Veteran, "luetzen", 3);
        battle(f, P, "luetzen");
        const EventDef* ev = EventRegistry::instance().find("P2");
        QVERIFY(ev && ev->combatAllowed);
        Ctx c{f.d(), f.s, nullptr};
        const CombatFrame& cf = *f.combat();
        QVERIFY(!ev->combatAllowed(c, cf, P)); // the option is off
        f.s.options.old_corps = true;
        QVERIFY(ev->combatAllowed(c, cf, P));
        QVERIFY(!ev->combatAllowed(c, cf, C));
        QCOMPARE(ev->combat.ownShift, 1);
    }

    // P5 (17.P.1): Gregory XV; Papal Aid halted for the rest of the turn and the next one. "Unless
    // discarded" (8.64): played as AID it still takes effect.
    void p5GregoryXV() {
        Rules f;
        QVERIFY(start(f, {"P5"}));
        QCOMPARE(f.s.pope, QStringLiteral("paul-v"));
        QVERIFY(donorEligible(f.d(), f.s, C, "pope"));
        PLAY(f, "P5");
        QCOMPARE(f.s.pope, QStringLiteral("gregory-xv"));
        QCOMPARE(f.s.markers.value(prot::mk::papalAidResumes), f.s.turn + 2);
        QVERIFY(!donorEligible(f.d(), f.s, C, "pope")); // the economy reads the interregnum
        f.s.turn = static_cast<int8_t>(f.s.turn + 1);
        QVERIFY(!donorEligible(f.d(), f.s, C, "pope"));
        f.s.turn = static_cast<int8_t>(f.s.turn + 1);
        QVERIFY(donorEligible(f.d(), f.s, C, "pope"));
        Rules g;
        QVERIFY(start(g, {"P5"}));
        ACT(g, "play P5 aid");
        QVERIFY(g.logged("8.64 the event of P5 takes effect"));
        QCOMPARE(g.s.pope, QStringLiteral("gregory-xv"));
    }
    void p5Refused() {
        Rules f;
        QVERIFY(start(f, {"P5"}));
        f.s.pope = "urban-viii";
        REFUSED(f, "P5", "17.P.1");
    }

    // P15 (17.P.2): Urban VIII; Papal Aid ends.
    void p15UrbanVIII() {
        Rules f;
        QVERIFY(start(f, {"P15"}));
        PLAY(f, "P15");
        QCOMPARE(f.s.pope, QStringLiteral("urban-viii"));
        QVERIFY(!f.s.aidSources[C].contains("pope"));
        QVERIFY(!donorEligible(f.d(), f.s, C, "pope"));
        QVERIFY(f.logged("17.P.2 Urban VIII becomes Pope"));
    }
    void p15Refused() {
        Rules f;
        QVERIFY(start(f, {"P15"}));
        f.s.pope = "innocent-x";
        REFUSED(f, "P15", "17.P.1");
    }

    // P8 (15.12): no Local Pay for Imperial units in Austria in this turn's Pay Phase.
    void p8OttomanRaids() {
        Rules f;
        QVERIFY(start(f, {"P8"}));
        PLAY(f, "P8");
        QCOMPARE(f.s.markers.value(prot::mk::austriaUnpaidP8), int(f.s.turn));
        QCOMPARE(f.s.cardPlace[f.card("P8")], CardPlace::Played); // no asterisk: it comes back
    }
    // P8 has no precondition (always playable as an Event); the second case: used as AID it is not an
    // "unless discarded" card (8.64), so the raids do not happen.
    void p8_asAid() {
        Rules f;
        QVERIFY(start(f, {"P8"}));
        ACT(f, "play P8 aid");
        QVERIFY(!f.logged("8.64"));
        QVERIFY(!f.s.markers.contains(prot::mk::austriaUnpaidP8));
        QVERIFY(!f.s.eventPlayed[f.card("P8")]);
    }

    // P21 (15.12): this turn and the next; a dagger card, "unless discarded" (8.64).
    void p21FerdinandIII() {
        Rules f;
        QVERIFY(start(f, {"P21"}));
        PLAY(f, "P21");
        QCOMPARE(f.s.markers.value(prot::mk::austriaUnpaidP21), f.s.turn + 1);
        QCOMPARE(f.s.cardPlace[f.card("P21")], CardPlace::Played); // 8.62: the dagger card stays
        // 8.62: the Event only once
        f.setHand(P, {"P21"});
        f.setActive(P);
        QVERIFY(!canPlay(f, "P21"));
    }
    // P21 has no precondition beyond the dagger; "unless discarded" (8.64): used as AID it takes effect.
    void p21_asAid() {
        Rules g;
        QVERIFY(start(g, {"P21"}));
        ACT(g, "play P21 aid");
        QVERIFY(g.logged("8.64 the event of P21 takes effect"));
        QCOMPARE(g.s.markers.value(prot::mk::austriaUnpaidP21), g.s.turn + 1);
    }

    // P9 (14.3): French Aid from the next AID card on; 19.10: the printed aid at once.
    void p9Richelieu() {
        Rules f;
        QVERIFY(start(f, {"P9"}));
        QVERIFY(!f.s.aidSources[P].contains("france"));
        PLAY(f, "P9");
        QVERIFY(f.s.aidSources[P].contains("france"));
        QCOMPARE(f.s.aidPoints[P], int8_t(0));
        // 19.10: Fr 7 + Eng 3 + UP 8 on play
        Rules g;
        QVERIFY(start(g, {"P9"}));
        g.s.options.richelieu_aid = true;
        PLAY(g, "P9");
        QCOMPARE(g.s.aidPoints[P], int8_t(18));
        QCOMPARE(g.s.aidSwedish, int8_t(7)); // French points may pay Swedish units (17.Sw.1)
    }
    // P9 has no precondition; the second branch: during the Huguenot revolt (C36) French Aid waits for P2
    // (14.3, 19.9).
    void p9_huguenotRevolt() {
        // during the Huguenot revolt (C36) French Aid waits for P2
        Rules h;
        QVERIFY(start(h, {"P9"}));
        h.s.eventPlayed[h.card("C36")] = true;
        PLAY(h, "P9");
        QVERIFY(!h.s.aidSources[P].contains("france"));
    }

    // P10 (14.3): 3 Swedish Aid Points now; not once Sweden is in the war.
    void p10SwedishAid() {
        Rules f;
        QVERIFY(start(f, {"P10"}));
        PLAY(f, "P10");
        QCOMPARE(f.s.aidPoints[P], int8_t(3));
        QCOMPARE(f.s.aidSwedish, int8_t(3));
        QVERIFY(!f.s.aidCardPlayed[P]); // not the turn's AID card (14.1)
    }
    void p10Refused() {
        Rules f;
        QVERIFY(start(f, {"P10"}));
        f.s.swedenInWar = true;
        REFUSED(f, "P10", "14.3");
    }

    // P19 (14.3, 17.Sw.1): 3 Savoyard points, never for Swedish units.
    void p19SavoyAid() {
        Rules f;
        QVERIFY(start(f, {"P19"}));
        PLAY(f, "P19");
        QCOMPARE(f.s.aidPoints[P], int8_t(3));
        QCOMPARE(f.s.aidSwedish, int8_t(0));
    }
    // P19 has no precondition; the second case: used as AID (not "unless discarded", 8.64) the Savoyard
    // points are not received, only the card's printed aid.
    void p19_asAid() {
        Rules f;
        QVERIFY(start(f, {"P19"}));
        const int printed = aidCardValue(f.d(), f.s, P, f.card("P19"));
        ACT(f, "play P19 aid");
        QCOMPARE(int(f.s.aidPoints[P]), printed); // not printed + 3
        QVERIFY(!f.logged("8.64"));
        QVERIFY(!f.logged("14.3 Aid from the Duke of Savoy"));
        QVERIFY(!f.s.eventPlayed[f.card("P19")]);
    }

    // P11: Treaty of Ulm: a reminder for the rest of the turn.
    void p11TreatyOfUlm() {
        Rules f;
        QVERIFY(start(f, {"P11"}));
        PLAY(f, "P11");
        QCOMPARE(f.s.markers.value(prot::mk::treatyOfUlm), int(f.s.turn));
    }
    // P11 has no precondition; the second case: used as AID (not "unless discarded", 8.64) it has no
    // effect.
    void p11_asAid() {
        Rules f;
        QVERIFY(start(f, {"P11"}));
        ACT(f, "play P11 aid");
        QVERIFY(!f.logged("8.64"));
        QVERIFY(!f.s.markers.contains(prot::mk::treatyOfUlm));
    }
    // P11: for the rest of the turn Catholic units may not enter a Neutral Area. Thuringia is Neutral in
    // 1618: Bucquoy's army at Lützen may march to Weimar (violating its neutrality, 5.13) without the
    // event, and must not after it.
    void p11_neutralsClosed() {
        bool weimar[2] = {false, false};
        for (bool play : {false, true}) {
            Rules f;
            QVERIFY(start(f, {"P11"}));
            f.placeLeader("bucquoy", "luetzen");
            f.place("imperial", UnitKind::Mercenary, "luetzen", 2);
            QVERIFY(f.s.areas[f.area("thuringia")].neutral);
            if (play)
                PLAY(f, "P11");
            f.setActive(C);
            QVERIFY2(f.activate("bucquoy"), qPrintable(f.error));
            for (const Action& a : f.legalActions())
                weimar[play] |= a.kind == ActionKind::Move && a.target == f.city("weimar");
        }
        QVERIFY(weimar[0]);
        QVERIFY(!weimar[1]); // pieceMayEnter reads P11's marker
    }

    // P20 (8.65): ends C5 (Spain at war with England).
    void p20SpainEnglandPeace() {
        Rules f;
        QVERIFY(start(f, {"P20"}));
        f.s.eventPlayed[f.card("C5")] = true;
        f.s.markers.insert("C5.englandAidMinus2", 1); // whatever reminder C5 keeps goes
        QVERIFY(prot::catholicEffectOn(f.d(), f.s, "C5"));
        PLAY(f, "P20");
        QVERIFY(!prot::catholicEffectOn(f.d(), f.s, "C5"));
        QVERIFY(!f.s.markers.contains("C5.englandAidMinus2"));
        QVERIFY(f.s.markers.value("C5.ended"));
    }
    void p20Refused() {
        Rules f;
        QVERIFY(start(f, {"P20"}));
        REFUSED(f, "P20", "8.65");
    }

    // P38 (17.F.5): ends C54 (Conflict of Interest).
    void p38Oxenstierna() {
        Rules f;
        QVERIFY(start(f, {"P38"}));
        f.s.eventPlayed[f.card("C54")] = true;
        PLAY(f, "P38");
        QVERIFY(!prot::catholicEffectOn(f.d(), f.s, "C54"));
        QVERIFY(f.logged("17.F.5 Oxenstierna"));
    }
    void p38Refused() {
        Rules f;
        QVERIFY(start(f, {"P38"}));
        REFUSED(f, "P38", "17.F.5");
    }

    // P24 (8.65): Spain Aid -3 through the next turn.
    void p24TreasureFleet() {
        Rules f;
        QVERIFY(start(f, {"P24"}));
        PLAY(f, "P24");
        QCOMPARE(f.s.markers.value(prot::mk::treasureFleet), f.s.turn + 1);
    }
    // P24 has no precondition; the second case is its effect on the economy (8.65): Spain Aid -3 this
    // turn and the next, never below 0, then the printed value again.
    void p24_spainAidMinus3() {
        Rules f;
        QVERIFY(start(f, {"P24"}));
        QCOMPARE(donorPoints(f.d(), f.s, C, "spain", 5), 5);
        PLAY(f, "P24");
        QCOMPARE(donorPoints(f.d(), f.s, C, "spain", 5), 2);
        QCOMPARE(donorPoints(f.d(), f.s, C, "spain", 2), 0);
        f.s.turn = static_cast<int8_t>(f.s.turn + 1);
        QCOMPARE(donorPoints(f.d(), f.s, C, "spain", 5), 2);
        f.s.turn = static_cast<int8_t>(f.s.turn + 1);
        QCOMPARE(donorPoints(f.d(), f.s, C, "spain", 5), 5);
    }

    // P22: the Sack of Magdeburg: Pillage-2 and -2 VP, only while Magdeburg is Catholic.
    void p22SackOfMagdeburg() {
        Rules f;
        QVERIFY(start(f, {"P22"}));
        f.setMarker("magdeburg", C);
        const int vp = f.s.vp;
        PLAY(f, "P22");
        QCOMPARE(f.s.cities[f.city("magdeburg")].pillage, int8_t(2));
        QCOMPARE(int(f.s.vp), vp - 2);
    }
    void p22Refused() {
        Rules f;
        QVERIFY(start(f, {"P22"})); // Magdeburg is Protestant in the Campaign
        REFUSED(f, "P22", "Magdeburg");
    }

    // ================================================================ the Dutch War (9.31)

    void p25DutchCapture() {
        Rules f;
        QVERIFY(start(f, {"P25"}));
        PLAY(f, "P25");
        QCOMPARE(f.s.dutchWar, int8_t(-1));
        f.s.dutchWar = 5; // 9.31: the war has ended
        f.setHand(P, {"P26"});
        f.setActive(P);
        REFUSED(f, "P26", "9.31");
    }
    void p26DutchCapture() {
        Rules f;
        QVERIFY(start(f, {"P26"}));
        f.s.dutchWar = -2;
        PLAY(f, "P26");
        QCOMPARE(f.s.dutchWar, int8_t(-3)); // 16.13: the war ends at -3
        QVERIFY(f.logged("16.13 the Dutch War ends (-3)"));
        f.setHand(P, {"P25"});
        f.setActive(P);
        REFUSED(f, "P25", "9.31");
    }
    // 9.31: P25 and P26 are refused once the Dutch War has ended, at either end of the track.
    void p25_refused() {
        Rules f;
        QVERIFY(start(f, {"P25"}));
        QVERIFY(canPlay(f, "P25"));
        f.s.dutchWar = -3;
        REFUSED(f, "P25", "9.31");
    }
    void p26_refused() {
        Rules f;
        QVERIFY(start(f, {"P26"}));
        QVERIFY(canPlay(f, "P26"));
        f.s.dutchWar = 5;
        REFUSED(f, "P26", "9.31");
    }
    // P27: two boxes with a Protestant army (a leader, 3 units) in the UP.
    void p27RecaptureBreda() {
        Rules f;
        QVERIFY(start(f, {"P27"}));
        PLAY(f, "P27");
        QCOMPARE(f.s.dutchWar, int8_t(-1));
        Rules g;
        QVERIFY(start(g, {"P27"}));
        g.placeLeader("mansfeld", "up");
        g.place("protestant", UnitKind::Mercenary, "up", 3);
        PLAY(g, "P27");
        QCOMPARE(g.s.dutchWar, int8_t(-2));
    }
    // 9.31: refused once the Dutch War has ended.
    void p27_refused() {
        Rules g;
        QVERIFY(start(g, {"P27"}));
        QVERIFY(canPlay(g, "P27"));
        g.s.dutchWar = -3;
        REFUSED(g, "P27", "9.31");
    }
    // P43: -1 while the war lasts; Spain Aid -2 for the rest of the game in any case.
    void p43BattleOfTheDowns() {
        Rules f;
        QVERIFY(start(f, {"P43"}));
        PLAY(f, "P43");
        QCOMPARE(f.s.dutchWar, int8_t(-1));
        QVERIFY(f.s.markers.value(prot::mk::downs));
    }
    // P43 has no precondition; the second branch: the Dutch War has ended, the marker stays, Spain Aid is
    // still -2 for the rest of the game.
    void p43_warOver() {
        Rules g;
        QVERIFY(start(g, {"P43"}));
        g.s.dutchWar = 5;
        QCOMPARE(donorPoints(g.d(), g.s, C, "spain", 5), 5);
        PLAY(g, "P43");
        QCOMPARE(g.s.dutchWar, int8_t(5));
        QVERIFY(g.logged("the marker does not move"));
        QVERIFY(g.s.markers.value(prot::mk::downs));
        QCOMPARE(donorPoints(g.d(), g.s, C, "spain", 5), 3);
        g.s.turn = static_cast<int8_t>(g.s.turn + 5);
        QCOMPARE(donorPoints(g.d(), g.s, C, "spain", 5), 3);
    }

    // P42: the Catholic removes a Spanish Veteran permanently; with none, Spain Aid -2.
    void p42Portugal() {
        Rules f;
        QVERIFY(start(f, {"P42"}));
        const auto vets = f.place("spanish", UnitKind::Veteran, "brussels", 2);
        f.place("spanish", UnitKind::Veteran, "up", 1);
        PLAY(f, "P42");
        QVERIFY(inEventChoice(f));
        QCOMPARE(f.e.actor(f.s), C);
        ACT(f, QStringLiteral("choose u%1").arg(vets[1]));
        QCOMPARE(f.s.units[vets[1]].loc, kRemoved);
        QVERIFY(!f.s.markers.contains(prot::mk::portugal));
    }
    // P42 has no precondition; the second branch: no Spanish Veteran to remove, Spain Aid -2 (8.65).
    void p42_noVeteran() {
        Rules g;
        QVERIFY(start(g, {"P42"}));
        QCOMPARE(donorPoints(g.d(), g.s, C, "spain", 5), 5);
        PLAY(g, "P42");
        QVERIFY(!inEventChoice(g)); // nothing to choose
        QVERIFY(g.s.markers.value(prot::mk::portugal));
        QCOMPARE(donorPoints(g.d(), g.s, C, "spain", 5), 3);
    }

    // ================================================================ Areas joining the Protestants

    // P3 (9.13, 9.21): Neutral Brunswick-Lueneburg enters without a violation, -1 VP; Christian of
    // Brunswick and 2 Mercenaries where the Protestant chooses.
    void p3ChristianOfBrunswick() {
        Rules f;
        QVERIFY(start(f, {"P3"}));
        const int vp = f.s.vp;
        PLAY(f, "P3");
        QVERIFY(inEventChoice(f));
        ACT(f, "choose celle");
        const int bl = f.area("brunswick-lueneburg");
        QCOMPARE(f.s.areas[bl].control, int8_t(P));
        QVERIFY(!f.s.areas[bl].neutral);
        QCOMPARE(int(f.s.vp), vp - 1);
        QVERIFY(!f.logged("5.13")); // no neutrality violation
        QVERIFY(leaderAt(f, "christian-of-brunswick", "celle"));
        QCOMPARE(unitsOf(f, "celle", "protestant"), 2);
    }
    void p3Refused() {
        Rules f;
        QVERIFY(start(f, {"P3"}));
        f.setAreaControl("brunswick-lueneburg", C);
        for (const char* c : {"brunswick", "celle", "lueneburg", "hameln"})
            f.place("imperial", UnitKind::Mercenary, c);
        REFUSED(f, "P3", "9.22");
    }

    // P4 (9.22): Catholic Baden: the cities without Catholic units switch, the occupied one does not.
    void p4FrederickOfBaden() {
        Rules f;
        QVERIFY(start(f, {"P4"}));
        f.setAreaControl("baden", C);
        f.place("bavarian", UnitKind::Mercenary, "breisach");
        const int vp = f.s.vp;
        PLAY(f, "P4");
        ACT(f, "choose durlach");
        QCOMPARE(f.control("freiburg"), int(P));
        QCOMPARE(f.control("durlach"), int(P));
        QCOMPARE(f.control("breisach"), int(C));                 // occupied: does not switch
        QCOMPARE(f.s.areas[f.area("baden")].control, int8_t(P)); // 3 cities of 3 (3.13)
        QCOMPARE(int(f.s.vp), vp - 1);
        QVERIFY(leaderAt(f, "george-frederick-of-baden", "durlach"));
        QCOMPARE(unitsOf(f, "durlach", "protestant"), 2);
        QVERIFY(!f.legal("choose breisach"));
    }
    void p4Refused() {
        Rules f;
        QVERIFY(start(f, {"P4"}));
        f.setAreaControl("baden", C);
        for (const char* c : {"breisach", "freiburg", "offenburg", "durlach"})
            f.place("bavarian", UnitKind::Militia, c);
        REFUSED(f, "P4", "9.22");
    }

    // P28: Hesse-Kassel joins; William and 3 Militia.
    void p28WilliamOfHesse() {
        Rules f;
        QVERIFY(start(f, {"P28"}));
        const int vp = f.s.vp;
        PLAY(f, "P28");
        ACT(f, "choose kassel");
        QCOMPARE(f.s.areas[f.area("hesse-kassel")].control, int8_t(P));
        QCOMPARE(int(f.s.vp), vp - 1);
        QVERIFY(leaderAt(f, "william-of-hesse-kassel", "kassel"));
        QCOMPARE(unitsOf(f, "kassel", "protestant"), 3);
    }
    void p28Refused() {
        Rules f;
        QVERIFY(start(f, {"P28"}));
        f.setAreaControl("hesse-kassel", C);
        for (const char* c : {"kassel", "ziegenhain", "marburg", "hanau"})
            f.place("imperial", UnitKind::Militia, c);
        REFUSED(f, "P28", "9.22");
    }

    // P29 (9.13 clarification): played before P3 it brings Brunswick-Lueneburg in; after P3 it does not
    // again.
    void p29GeorgeOfBrunswick() {
        Rules f;
        QVERIFY(start(f, {"P29"}));
        const int vp = f.s.vp;
        PLAY(f, "P29");
        QVERIFY(f.logged("P29 is played before P3"));
        ACT(f, "choose hameln");
        QCOMPARE(f.s.areas[f.area("brunswick-lueneburg")].control, int8_t(P));
        QCOMPARE(int(f.s.vp), vp - 1);
        QVERIFY(leaderAt(f, "george-of-brunswick-lueneburg", "hameln"));
        QCOMPARE(unitsOf(f, "hameln", "protestant"), 3);
        // after P3: only the leader and his militia
        Rules g;
        QVERIFY(start(g, {"P29"}));
        g.s.eventPlayed[g.card("P3")] = true;
        g.setAreaControl("brunswick-lueneburg", P);
        const int vp2 = g.s.vp;
        PLAY(g, "P29");
        ACT(g, "choose celle");
        QVERIFY(!g.logged("P29 is played before P3"));
        QCOMPARE(int(g.s.vp), vp2);
    }
    void p29Refused() {
        Rules f;
        QVERIFY(start(f, {"P29"}));
        f.setAreaControl("brunswick-lueneburg", C);
        for (const char* c : {"brunswick", "celle", "lueneburg", "hameln"})
            f.place("imperial", UnitKind::Mercenary, c);
        REFUSED(f, "P29", "9.22");
    }

    // P6 (17.E.2): the English unit in a Protestant or Neutral city of the Lower Palatinate; not a War
    // Entry Event (9.12).
    void p6EnglandIntervenes() {
        Rules f;
        QVERIFY(start(f, {"P6"}));
        f.s.warEntryThisTurn = true; // 9.12: may follow a War Entry Event
        f.setMarker("mannheim", C);
        f.setMarker("heidelberg", C);
        PLAY(f, "P6");
        QVERIFY(!f.legal("choose mannheim"));
        ACT(f, "choose landau");
        QCOMPARE(unitsOf(f, "landau", "english"), 1);
    }
    void p6Refused() {
        Rules f;
        QVERIFY(start(f, {"P6"}));
        f.s.eventPlayed[f.card("C40")] = true;
        REFUSED(f, "P6", "C40");
        Rules g;
        QVERIFY(start(g, {"P6"}));
        g.setAreaControl("lower-palatinate", C);
        REFUSED(g, "P6", "17.E.2");
    }

    // ================================================================ War Entry Events (9.1)

    // P7 (17.D.3): Schleswig-Holstein turns Protestant unless Catholic-occupied; Christian IV and the Danes
    // wait on the Denmark box.
    void p7Denmark() {
        Rules f;
        QVERIFY(start(f, {"P7"}));
        const int vp = f.s.vp;
        PLAY(f, "P7");
        QVERIFY(f.s.denmarkInWar);
        QVERIFY(f.s.warEntryThisTurn);
        QCOMPARE(f.s.areas[f.area("schleswig-holstein")].control, int8_t(P));
        QCOMPARE(int(f.s.vp), vp - 1); // 9.13
        QVERIFY(leaderAt(f, "christian-iv", "denmark"));
        QCOMPARE(unitsOf(f, "denmark", "danish"), 5);
        // a Catholic-occupied city does not turn
        Rules g;
        QVERIFY(start(g, {"P7"}));
        g.setAreaControl("schleswig-holstein", kNone);
        g.place("imperial", UnitKind::Mercenary, "kiel");
        g.setMarker("kiel", C);
        PLAY(g, "P7");
        QCOMPARE(g.control("kiel"), int(C));
        QCOMPARE(g.control("rendsburg"), int(P));
    }
    void p7Refused() {
        Rules f;
        QVERIFY(start(f, {"P7"}));
        f.s.warEntryThisTurn = true;
        REFUSED(f, "P7", "9.12");
        f.s.warEntryThisTurn = false;
        f.s.denmarkInWar = true;
        REFUSED(f, "P7", "17.D.3");
    }

    // P17 (17.F.4): the 4 VP of the French cities, Lorraine's 2; La Force and the French army in a Lorraine
    // city (the deployment of scenarios/apocalypse.json); 19.2b Guebriant.
    void p17France() {
        Rules f;
        QVERIFY(start(f, {"P17"}));
        f.s.options.guebriant = true;
        const int vp = f.s.vp;
        PLAY(f, "P17");
        QVERIFY(f.s.franceInWar);
        QVERIFY(f.s.warEntryThisTurn);
        QCOMPARE(int(f.s.vp), vp - 6);
        QCOMPARE(f.s.areas[f.area("lorraine")].control, int8_t(P));
        QVERIFY(!f.legal("choose paris")); // Lorraine first
        ACT(f, "choose epinal");
        QVERIFY(leaderAt(f, "la-force", "epinal"));
        QVERIFY(leaderAt(f, "guebriant", "epinal"));
        QCOMPARE(unitsOf(f, "epinal", "french"), 6);
        QVERIFY(f.s.eventPlayed[f.card("P17")]); // 8.12 adds the Apocalypse cards at the next draw
    }
    // 17.F.4: two Lorraine cities Catholic-occupied: Lorraine stays out, the third city flips and La Force
    // enters there; all three occupied: anywhere in France.
    void p17LorraineCases() {
        Rules f;
        QVERIFY(start(f, {"P17"}));
        f.setAreaControl("lorraine", C);
        f.place("spanish", UnitKind::Veteran, "nancy");
        f.place("spanish", UnitKind::Veteran, "epinal");
        const int vp = f.s.vp;
        PLAY(f, "P17");
        QCOMPARE(int(f.s.vp), vp - 4);
        QCOMPARE(f.s.areas[f.area("lorraine")].control, int8_t(C));
        QCOMPARE(f.control("bar-le-duc"), int(P));
        QVERIFY(leaderAt(f, "la-force", "bar-le-duc")); // the only city: placed at once
        Rules g;
        QVERIFY(start(g, {"P17"}));
        g.setAreaControl("lorraine", C);
        for (const char* c : {"nancy", "epinal", "bar-le-duc"})
            g.place("spanish", UnitKind::Veteran, c);
        PLAY(g, "P17");
        QVERIFY(g.legal("choose paris"));
        QVERIFY(g.legal("choose verdun"));
        ACT(g, "choose paris");
        QVERIFY(leaderAt(g, "la-force", "paris"));
    }
    void p17Refused() {
        Rules f;
        QVERIFY(start(f, {"P17"}));
        f.s.warEntryThisTurn = true;
        REFUSED(f, "P17", "9.12");
        f.s.warEntryThisTurn = false;
        f.s.franceInWar = true;
        REFUSED(f, "P17", "17.F.3");
    }

    // P18 (17.Sw.1, 9.13): Gustavus' army lands in Neutral Pomerania, violating its neutrality.
    void p18Sweden() {
        Rules f;
        QVERIFY(start(f, {"P18"}));
        const int vp = f.s.vp;
        PLAY(f, "P18");
        QVERIFY(f.s.swedenInWar);
        QVERIFY(f.s.warEntryThisTurn);
        QVERIFY(f.legal("choose stettin") && f.legal("choose wolgast"));
        ACT(f, "choose stralsund");
        QCOMPARE(int(f.s.swedishBase), f.city("stralsund"));
        for (const char* l : {"gustavus-adolphus", "baner", "horn", "bernard-of-saxe-weimar"})
            QVERIFY(leaderAt(f, l, "stralsund"));
        QCOMPARE(unitsOf(f, "stralsund", "swedish"), 6);
        QVERIFY(!f.s.areas[f.area("pomerania")].neutral);
        QCOMPARE(int(f.s.vp), vp + 1); // 5.13: the Catholic gains 1 VP
    }
    // 17.Sw.1: Catholic-controlled ports: land where there are no Catholic units; all occupied: attack.
    void p18Landings() {
        Rules f;
        QVERIFY(start(f, {"P18"}));
        f.setAreaControl("pomerania", C);
        f.place("imperial", UnitKind::Mercenary, "stettin");
        f.place("imperial", UnitKind::Mercenary, "wolgast");
        PLAY(f, "P18");
        QVERIFY(leaderAt(f, "gustavus-adolphus", "stralsund")); // the only port without Catholic units
        Rules g;
        QVERIFY(start(g, {"P18", "P34"}));
        g.setAreaControl("pomerania", C);
        for (const char* c : {"stettin", "stralsund", "wolgast"})
            g.place("imperial", UnitKind::Mercenary, c, 2);
        PLAY(g, "P18");
        g.dice({9, 0, 0, 0, 0, 0, 0, 0, 0, 0});
        ACT(g, "choose wolgast");
        QVERIFY(g.combat());
        QCOMPARE(g.combat()->attacker, int8_t(P));
        QCOMPARE(g.combat()->attackerFrom, int16_t(-1)); // no retreat: eliminated if they lose
        QVERIFY(g.legal("card P34"));
        QVERIFY(g.runUntil([&] { return !g.combat(); }));
        QVERIFY(g.logged("12.28 Protestant wins the battle at Wolgast"));
        QCOMPARE(unitsOf(g, "wolgast", "imperial", C), 0);
    }
    void p18Refused() {
        Rules f;
        QVERIFY(start(f, {"P18"}));
        f.s.warEntryThisTurn = true;
        REFUSED(f, "P18", "9.12");
        f.s.warEntryThisTurn = false;
        f.s.swedenInWar = true;
        REFUSED(f, "P18", "17.Sw.1");
    }

    // P35 (8.66): Saxony joins the Protestants; Saxons stacked with Catholics go to a Saxony city; the
    // Area and its Elector change sides.
    void p35SaxonySwitches() {
        Rules f;
        QVERIFY(start(f, {"P35"}, QStringLiteral("campaign"), false));
        f.s.swedenInWar = true;
        f.place("imperial", UnitKind::Mercenary, "dresden"); // with the Saxon militia there
        const int vp = f.s.vp;
        PLAY(f, "P35");
        QCOMPARE(f.s.nationSide[f.nationality("saxon")], int8_t(P));
        QCOMPARE(leaderSide(f.d(), f.s, f.leader("john-george")), P);
        QCOMPARE(f.s.areas[f.area("saxony")].control, int8_t(P));
        QCOMPARE(f.control("dresden"), int(C)); // Catholic-occupied
        QCOMPARE(int(f.s.vp), vp - 1 - 2);      // Saxony, and the majority of Electors (5.141)
        ACT(f, "choose torgau");
        QCOMPARE(unitsOf(f, "torgau", "saxon"), 1);
        QCOMPARE(unitsOf(f, "dresden", "saxon"), 0);
    }
    void p35Refused() {
        Rules f;
        QVERIFY(start(f, {"P35"}));
        REFUSED(f, "P35", "P18");
        f.s.swedenInWar = true;
        f.s.nationSide[f.nationality("saxon")] = P;
        REFUSED(f, "P35", "already Protestant");
    }

    // ================================================================ New Leaders (9.2)

    // P23: Leslie with the Swedish units; the recruitment is the economy's (8.4, startRecruitment).
    void p23Heilbronn() {
        Rules f;
        QVERIFY(start(f, {"P23"}));
        f.s.swedenInWar = true;
        f.place("swedish", UnitKind::Veteran, "stettin", 2);
        PLAY(f, "P23");
        QVERIFY(leaderAt(f, "leslie", "stettin"));
        QVERIFY(f.logged("may make 2 recruitment attempts"));
        QVERIFY2(f.legal("choose leslie"), qPrintable(f.legalTexts().join(", "))); // 8.4, 17.Sw.3
        // no Swedish units: at the Swedish Base
        Rules g;
        QVERIFY(start(g, {"P23"}));
        g.s.swedenInWar = true;
        g.s.swedishBase = static_cast<int16_t>(g.city("wolgast"));
        g.setAreaControl("pomerania", P);
        PLAY(g, "P23");
        QVERIFY(leaderAt(g, "leslie", "wolgast"));
    }
    void p23Refused() {
        Rules f;
        QVERIFY(start(f, {"P23"}));
        REFUSED(f, "P23", "17.Sw.1");
    }

    // P44 (17.Sw.1): Torstensson and 2 Veterans at the Swedish Base.
    void p44Torstensson() {
        Rules f;
        QVERIFY(start(f, {"P44"}));
        f.s.swedenInWar = true;
        f.s.swedishBase = static_cast<int16_t>(f.city("stettin"));
        f.setAreaControl("pomerania", P);
        f.place("swedish", UnitKind::Veteran, "berlin", 2);
        PLAY(f, "P44");
        QVERIFY(leaderAt(f, "torstensson", "stettin"));
        QCOMPARE(unitsOf(f, "stettin", "swedish"), 2);
        // the Base lost: with the Swedish units
        Rules g;
        QVERIFY(start(g, {"P44"}));
        g.s.swedenInWar = true;
        g.s.swedishBase = static_cast<int16_t>(g.city("stettin"));
        g.setAreaControl("pomerania", C);
        g.place("swedish", UnitKind::Veteran, "berlin", 2);
        PLAY(g, "P44");
        QVERIFY(leaderAt(g, "torstensson", "berlin"));
        QCOMPARE(unitsOf(g, "berlin", "swedish"), 4);
    }
    void p44Refused() {
        Rules f;
        QVERIFY(start(f, {"P44"}));
        REFUSED(f, "P44", "17.Sw.1");
        f.s.swedenInWar = true;
        f.placeLeader("torstensson", "berlin");
        REFUSED(f, "P44", "9.21");
    }

    // P45 (9.21, 9.23): Wrangel and Koenigsmarck, each with Swedish units.
    void p45WrangelKoenigsmarck() {
        Rules f;
        QVERIFY(start(f, {"P45"}));
        f.s.swedenInWar = true;
        f.place("swedish", UnitKind::Veteran, "berlin");
        f.place("swedish", UnitKind::Veteran, "magdeburg");
        PLAY(f, "P45");
        ACT(f, "choose berlin");
        ACT(f, "choose magdeburg");
        QVERIFY(leaderAt(f, "wrangel", "berlin"));
        QVERIFY(leaderAt(f, "koenigsmarck", "magdeburg"));
    }
    void p45Refused() {
        Rules f;
        QVERIFY(start(f, {"P45"}));
        REFUSED(f, "P45", "17.Sw.1");
    }

    // P46 (9.23): Conde, L'Hopital, Gassion with French units, else a Protestant city of France/Lorraine.
    void p46FrenchLeaders() {
        Rules f;
        QVERIFY(start(f, {"P46"}));
        f.s.franceInWar = true;
        f.place("french", UnitKind::Militia, "nancy");
        PLAY(f, "P46"); // a single place: each enters at once
        for (const char* l : {"conde", "l-hopital", "gassion"})
            QVERIFY(leaderAt(f, l, "nancy"));
        // no French units on the map: Protestant cities of France or Lorraine
        Rules g;
        QVERIFY(start(g, {"P46"}));
        g.s.franceInWar = true;
        PLAY(g, "P46");
        QVERIFY(g.legal("choose toul"));
        QVERIFY(!g.legal("choose prague"));
        ACT(g, "choose toul");
        QVERIFY(leaderAt(g, "conde", "toul"));
    }
    void p46Refused() {
        Rules f;
        QVERIFY(start(f, {"P46"})); // France not in the war, no French units, Lorraine Neutral
        REFUSED(f, "P46", "9.23");
    }

    // P50: a leader activates as with a 3-point card (the +2 MA is the engine's, keyed on the card).
    void p50BridgeOfBoats() {
        Rules f;
        QVERIFY(start(f, {"P50"}));
        f.placeLeader("mansfeld", "heidelberg");
        f.place("protestant", UnitKind::Mercenary, "heidelberg", 2);
        f.placeLeader("thurn", "prague");
        PLAY(f, "P50");
        QVERIFY(f.legal("choose mansfeld"));
        // issue 5: the choice names its options and the prompt says what is chosen
        QStringList texts;
        for (const Action& a : f.e.legalActions(f.s))
            texts << formatAction(f.d(), f.s, a);
        QCOMPARE(texts, QStringList({"choose mansfeld", "choose thurn"}));
        QVERIFY2(f.e.prompt(f.s).contains("P50") &&
                     f.e.prompt(f.s).contains("the leader the Bridge of Boats activates"),
                 qPrintable(f.e.prompt(f.s)));
        ACT(f, "choose mansfeld");
        QVERIFY(f.activation());
        QCOMPARE(f.activation()->leader, int16_t(f.leader("mansfeld")));
        QCOMPARE(f.activation()->card, int16_t(f.card("P50")));
    }
    void p50Refused() {
        Rules f;
        QVERIFY(start(f, {"P50"}));
        REFUSED(f, "P50", "8.3");
    }

    // ================================================================ revolts, famine, recovery, mutiny

    // P14 (9.41): a revolt in Austria, not Vienna, not with a Catholic army.
    void p14PeasantRevoltAustria() {
        Rules f;
        QVERIFY(start(f, {"P14"}));
        f.place("imperial", UnitKind::Militia, "krems");
        PLAY(f, "P14");
        QVERIFY(!f.legal("choose vienna"));
        QVERIFY(!f.legal("choose krems"));
        ACT(f, "choose linz");
        QVERIFY(f.s.cities[f.city("linz")].revolt);
        QCOMPARE(f.control("linz"), int(kNone));
    }
    void p14Refused() {
        Rules f;
        QVERIFY(start(f, {"P14"}));
        for (const char* c : {"krems", "linz", "znaim", "graz", "villach"})
            f.place("imperial", UnitKind::Militia, c);
        REFUSED(f, "P14", "9.41");
    }

    // P40 (9.41): Bavaria except Munich.
    void p40PeasantRevoltBavaria() {
        Rules f;
        QVERIFY(start(f, {"P40"}));
        PLAY(f, "P40");
        QVERIFY(!f.legal("choose munich"));
        ACT(f, "choose passau");
        QVERIFY(f.s.cities[f.city("passau")].revolt);
    }
    void p40Refused() {
        Rules f;
        QVERIFY(start(f, {"P40"}));
        for (const char* c : {"ingolstadt", "landshut", "donauwoerth", "passau"})
            f.place("bavarian", UnitKind::Militia, c);
        REFUSED(f, "P40", "9.41");
    }

    // Famines & Plagues: a Catholic stack in a pillaged city loses a step (2 at Pillage-2).
    void famineFamily_data() {
        QTest::addColumn<QString>("card");
        for (const char* c : {"P36", "P37", "P51", "P52"})
            QTest::newRow(c) << QString::fromLatin1(c);
    }
    void famineFamily() {
        QFETCH(QString, card);
        Rules f;
        QVERIFY(start(f, {card}));
        f.place("imperial", UnitKind::Mercenary, "linz", 2);
        f.s.cities[f.city("linz")].pillage = 2;
        f.place("imperial", UnitKind::Militia, "graz", 4); // not pillaged: not a target now
        PLAY(f, card);
        QVERIFY(f.runUntil([&] { return f.inActionPhase(); }));
        QCOMPARE(stepsAt(f, "linz", C), 2);
        QCOMPARE(stepsAt(f, "graz", C), 8);
    }
    void famineFamily_refused_data() { famineFamily_data(); }
    void famineFamily_refused() {
        QFETCH(QString, card);
        // refused: no Catholic stack in a pillaged city nor one of 4 units
        Rules g;
        QVERIFY(start(g, {card}));
        g.place("imperial", UnitKind::Mercenary, "graz", 3);
        REFUSED(g, card, "Famines");
    }

    // Recovery (8.63): up to 3 levels, one city 2 levels at most, enemy units no obstacle.
    void recoveryFamily_data() {
        QTest::addColumn<QString>("card");
        for (const char* c : {"P53", "P54", "P55"})
            QTest::newRow(c) << QString::fromLatin1(c);
    }
    void recoveryFamily() {
        QFETCH(QString, card);
        Rules f;
        QVERIFY(start(f, {card}));
        f.s.cities[f.city("prague")].pillage = 2;
        f.s.cities[f.city("pilsen")].pillage = 2;
        f.place("imperial", UnitKind::Veteran, "pilsen"); // 8.63: ignored
        f.s.cities[f.city("vienna")].pillage = 2;         // Catholic Area: not eligible
        PLAY(f, card);
        QVERIFY(!f.legal("choose vienna"));
        ACT(f, "choose prague");
        ACT(f, "choose prague");
        QVERIFY(!f.legal("choose prague")); // one city recovers 2 levels at most
        ACT(f, "choose pilsen");
        QVERIFY(!inEventChoice(f));
        QCOMPARE(f.s.cities[f.city("prague")].pillage, int8_t(0));
        QCOMPARE(f.s.cities[f.city("pilsen")].pillage, int8_t(1));
    }
    // 8.63: refused with no pillaged city in a friendly or Neutral Area.
    void recoveryFamily_refused_data() { recoveryFamily_data(); }
    void recoveryFamily_refused() {
        QFETCH(QString, card);
        Rules g;
        QVERIFY(start(g, {card}));
        REFUSED(g, card, "8.63");
    }

    // Mutiny (15.224): the Catholic Mercenaries of a stack roll on the Loot Table; losses are permanent.
    void mutinyFamily_data() {
        QTest::addColumn<QString>("card");
        for (const char* c : {"P16", "P41"})
            QTest::newRow(c) << QString::fromLatin1(c);
    }
    void mutinyFamily() {
        QFETCH(QString, card);
        Rules f;
        QVERIFY(start(f, {card}));
        const auto mercs = f.place("imperial", UnitKind::Mercenary, "linz", 2, 1);
        f.place("imperial", UnitKind::Veteran, "linz");
        f.place("bavarian", UnitKind::Mercenary, "passau");
        PLAY(f, card);
        f.dice({9}); // +1 Mercenary majority: 10, Pillage 2 and one step
        ACT(f, "choose linz");
        QVERIFY(f.runUntil([&] { return f.inActionPhase(); }));
        QVERIFY(f.logged("Catholic rolls 9"));
        QCOMPARE(f.s.cities[f.city("linz")].pillage, int8_t(2));
        const int removed = (f.s.units[mercs[0]].loc == kRemoved) + (f.s.units[mercs[1]].loc == kRemoved);
        QCOMPARE(removed, 1); // 15.224: the reduced Mercenary that lost its step leaves the game
        QCOMPARE(stepsAt(f, "linz", C), 1 + 2); // the other Mercenary and the Veteran
        QCOMPARE(stepsAt(f, "passau", C), 2);
    }
    // 15.224: refused with no Catholic stack holding a Mercenary.
    void mutinyFamily_refused_data() { mutinyFamily_data(); }
    void mutinyFamily_refused() {
        QFETCH(QString, card);
        Rules g;
        QVERIFY(start(g, {card}));
        g.place("imperial", UnitKind::Veteran, "linz");
        REFUSED(g, card, "15.224");
    }

    // ================================================================ combat cards (9.5)

    // P12: attacker only, +1 DRM, and the defender may play no combat card.
    void p12SurpriseAttack() {
        Rules f;
        QVERIFY(start(f, {"P12"}));
        f.setHand(C, {"C49"});
        armies(f);
        battle(f, P, "luetzen");
        QVERIFY(f.legal("card P12"));
        ACT(f, "card P12");
        ACT(f, "pass");
        QVERIFY(!f.legal("card C49")); // C49 would be playable against Mercenaries
        ACT(f, "pass");
        QCOMPARE(fire(f, P), QStringLiteral("column 11-14, roll 5 +2")); // Mansfeld 1, P12 +1
    }
    // 9.51: P12 only in a combat, and attacker only.
    void p12_refused() {
        {
            Rules e;
            QVERIFY(start(e, {"P12"}));
            COMBAT_ONLY(e, "P12");
        }
        // not for the defender
        Rules g;
        QVERIFY(start(g, {}));
        g.setHand(P, {"P12"});
        armies(g);
        battle(g, C, "luetzen");
        ACT(g, "pass");
        QVERIFY(!g.legal("card P12"));
    }

    // P13 (12.3): -1 DRM to an enemy army with two leaders.
    void p13CommandRivalry() {
        Rules f;
        QVERIFY(start(f, {"P13"}));
        armies(f);
        f.placeLeader("tilly", "luetzen"); // Bucquoy and Tilly: two leaders, Tilly commands
        battle(f, P, "luetzen");
        QVERIFY(f.legal("card P13"));
        QVERIFY(cards(f, {"P13"}, {}));
        QCOMPARE(fire(f, C), QStringLiteral("column 11-14, roll 5 +1")); // Tilly 2, P13 -1
    }
    // 9.51: P13 only in a combat, and only against an army of two or more leaders.
    void p13_refused() {
        {
            Rules e;
            QVERIFY(start(e, {"P13"}));
            COMBAT_ONLY(e, "P13");
        }
        Rules g;
        QVERIFY(start(g, {"P13"}));
        armies(g); // Bucquoy alone
        battle(g, P, "luetzen");
        QVERIFY(!g.legal("card P13"));
    }

    // P30: defender only: the attacker fires one column to the left.
    void p30Fog() {
        Rules f;
        QVERIFY(start(f, {"P30"}));
        armies(f);
        battle(f, C, "luetzen");
        QVERIFY(cards(f, {}, {"P30"}));
        QCOMPARE(fire(f, C), QStringLiteral("column 7-10, roll 5 +1"));
    }
    // 9.51: P30 only in a combat, and defender only.
    void p30_refused() {
        {
            Rules e;
            QVERIFY(start(e, {"P30"}));
            COMBAT_ONLY(e, "P30");
        }
        Rules g;
        QVERIFY(start(g, {"P30"}));
        armies(g);
        battle(g, P, "luetzen");
        QVERIFY(!g.legal("card P30"));
    }

    // P31: attacker only, with a Swedish leader: two columns to the right.
    void p31MassedArtillery() {
        Rules f;
        QVERIFY(start(f, {"P31"}));
        armies(f);
        f.placeLeader("horn", "luetzen");
        battle(f, P, "luetzen");
        QVERIFY(cards(f, {"P31"}, {}));
        QCOMPARE(fire(f, P), QStringLiteral("column 20+, roll 5 +1"));
    }
    // 9.51: P31 only in a combat, and attacker only, with a Swedish leader.
    void p31_refused() {
        {
            Rules e;
            QVERIFY(start(e, {"P31"}));
            COMBAT_ONLY(e, "P31");
        }
        Rules g;
        QVERIFY(start(g, {"P31"}));
        armies(g);
        battle(g, P, "luetzen");
        QVERIFY(!g.legal("card P31")); // no Swedish leader
    }

    // P32: two leaders and at least as many units as the enemy: one column to the right.
    void p32FlankingManeuver() {
        Rules f;
        QVERIFY(start(f, {"P32"}));
        armies(f);
        battle(f, P, "luetzen");
        QVERIFY(cards(f, {"P32"}, {}));
        QCOMPARE(fire(f, P), QStringLiteral("column 15-19, roll 5 +1"));
    }
    // 9.51: P32 only in a combat, and two leaders.
    void p32_refused() {
        {
            Rules e;
            QVERIFY(start(e, {"P32"}));
            COMBAT_ONLY(e, "P32");
        }
        Rules g;
        QVERIFY(start(g, {"P32"}));
        g.placeLeader("mansfeld", "luetzen");
        g.place("protestant", UnitKind::Mercenary, "luetzen", 4);
        g.placeLeader("bucquoy", "luetzen");
        g.place("imperial", UnitKind::Veteran, "luetzen", 3);
        battle(g, P, "luetzen");
        QVERIFY(!g.legal("card P32")); // one leader
    }

    // P33: +1 DRM, not for an army of Militia only.
    void p33CavalryCharge() {
        Rules f;
        QVERIFY(start(f, {"P33"}));
        armies(f);
        battle(f, P, "luetzen");
        {
            // +2 under a Dynamic commander (EventDef::combatEffect)
            const EventDef* ev = EventRegistry::instance().find("P33");
            QVERIFY(ev && ev->combatEffect);
            Ctx c{f.d(), f.s, nullptr};
            QCOMPARE(ev->combatEffect(c, *f.combat(), P).ownDrm, 1); // Mansfeld
            CombatFrame dyn = *f.combat();
            dyn.attackCommander = static_cast<int16_t>(f.leader("bernard-of-saxe-weimar"));
            QCOMPARE(ev->combatEffect(c, dyn, P).ownDrm, 2);
        }
        QVERIFY(cards(f, {"P33"}, {}));
        QCOMPARE(fire(f, P), QStringLiteral("column 11-14, roll 5 +2"));
    }
    // 9.51: P33 only in a combat, and never for an army of Militia only.
    void p33_refused() {
        {
            Rules e;
            QVERIFY(start(e, {"P33"}));
            COMBAT_ONLY(e, "P33");
        }
        Rules g;
        QVERIFY(start(g, {"P33"}));
        g.placeLeader("thurn", "luetzen");
        g.place("protestant", UnitKind::Militia, "luetzen", 4);
        g.placeLeader("bucquoy", "luetzen");
        g.place("imperial", UnitKind::Veteran, "luetzen", 3);
        battle(g, P, "luetzen");
        QVERIFY(!g.legal("card P33"));
    }

    // P34 (12.3): a Protestant army with a Swedish Veteran: +1 DRM.
    void p34SwedishFirepower() {
        Rules f;
        QVERIFY(start(f, {"P34"}));
        armies(f);
        f.place("swedish", UnitKind::Veteran, "luetzen");
        battle(f, P, "luetzen");
        QVERIFY(cards(f, {"P34"}, {}));
        QCOMPARE(fire(f, P), QStringLiteral("column 15-19, roll 5 +2"));
    }
    // 9.51: P34 only in a combat, and only for an army with a Swedish Veteran.
    void p34_refused() {
        {
            Rules e;
            QVERIFY(start(e, {"P34"}));
            COMBAT_ONLY(e, "P34");
        }
        Rules g;
        QVERIFY(start(g, {"P34"}));
        armies(g);
        battle(g, P, "luetzen");
        QVERIFY(!g.legal("card P34"));
    }

    // P47: attacker only, with a French unit: +2 DRM.
    void p47FuriaFranchese() {
        Rules f;
        QVERIFY(start(f, {"P47"}));
        armies(f);
        f.place("french", UnitKind::Militia, "luetzen");
        battle(f, P, "luetzen");
        QVERIFY(cards(f, {"P47"}, {}));
        QCOMPARE(fire(f, P), QStringLiteral("column 11-14, roll 5 +3"));
    }
    // 9.51: P47 only in a combat, and attacker only.
    void p47_refused() {
        {
            Rules e;
            QVERIFY(start(e, {"P47"}));
            COMBAT_ONLY(e, "P47");
        }
        Rules g;
        QVERIFY(start(g, {"P47"}));
        armies(g);
        g.place("french", UnitKind::Militia, "luetzen");
        battle(g, C, "luetzen");
        ACT(g, "pass");
        QVERIFY(!g.legal("card P47")); // not as defender
    }

    // P48: an enemy army with Militia or Mercenaries: -1 DRM to it.
    void p48UnreliableTroops() {
        Rules f;
        QVERIFY(start(f, {"P48"}));
        armies(f);
        f.place("imperial", UnitKind::Militia, "luetzen");
        battle(f, P, "luetzen");
        QVERIFY(cards(f, {"P48"}, {}));
        QCOMPARE(fire(f, C), QStringLiteral("column 11-14, roll 5 +0"));
    }
    // 9.51: P48 only in a combat, and only against Militia or Mercenaries.
    void p48_refused() {
        {
            Rules e;
            QVERIFY(start(e, {"P48"}));
            COMBAT_ONLY(e, "P48");
        }
        Rules g;
        QVERIFY(start(g, {"P48"}));
        armies(g); // Veterans only
        battle(g, P, "luetzen");
        QVERIFY(!g.legal("card P48"));
    }

    // P49: the enemy commander (not Dynamic) counts his Battle rating as 0.
    void p49Hesitation() {
        Rules f;
        QVERIFY(start(f, {"P49"}));
        armies(f);
        battle(f, P, "luetzen");
        QVERIFY(cards(f, {"P49"}, {}));
        QCOMPARE(fire(f, C), QStringLiteral("column 11-14, roll 5 +0")); // Bucquoy's 1 counts 0
    }
    // 9.51: P49 only in a combat, and never against a Dynamic commander.
    void p49_refused() {
        {
            Rules e;
            QVERIFY(start(e, {"P49"}));
            COMBAT_ONLY(e, "P49");
        }
        Rules g;
        QVERIFY(start(g, {"P49"}));
        g.placeLeader("mansfeld", "luetzen");
        g.place("protestant", UnitKind::Mercenary, "luetzen", 4);
        g.placeLeader("tilly", "luetzen");
        g.place("bavarian", UnitKind::Mercenary, "luetzen", 4);
        battle(g, P, "luetzen");
        QVERIFY(!g.legal("card P49")); // Tilly is Dynamic
    }

    // 9.5: each combat card in the same battle (armies(), plus the unit or leader its condition needs;
    // same dice) fought without and with the card: the difference in the fire line is the card's DRM or
    // column shift.
    void combatWithWithout_data() {
        QTest::addColumn<QString>("card");
        QTest::addColumn<int>("attacker");
        QTest::addColumn<int>("firer"); // whose fire line the card changes
        QTest::addColumn<int>("drmDelta");
        QTest::addColumn<bool>("columnShift");
        QTest::addColumn<QString>("extra"); // "nat:kind:side" unit or "leader" added at Luetzen
        QTest::newRow("P12") << "P12" << P << P << 1 << false << "";
        QTest::newRow("P13") << "P13" << P << C << -1 << false << "gallas";
        QTest::newRow("P30") << "P30" << C << C << 0 << true << "";
        QTest::newRow("P31") << "P31" << P << P << 0 << true << "horn";
        QTest::newRow("P32") << "P32" << P << P << 0 << true << "";
        QTest::newRow("P33") << "P33" << P << P << 1 << false << "";
        QTest::newRow("P34") << "P34" << P << P << 1 << false << "swedish";
        QTest::newRow("P47") << "P47" << P << P << 2 << false << "french";
        QTest::newRow("P48") << "P48" << P << C << -1 << false << "imperial";
        QTest::newRow("P49") << "P49" << P << C << -1 << false << "";
    }
    void combatWithWithout() {
        QFETCH(QString, card);
        QFETCH(int, attacker);
        QFETCH(int, firer);
        QFETCH(int, drmDelta);
        QFETCH(bool, columnShift);
        QFETCH(QString, extra);
        auto drmOf = [](const QString& line) { return line.section(QLatin1Char(' '), -1).toInt(); };
        auto columnOf = [](const QString& line) { return line.section(QLatin1Char(','), 0, 0); };
        QString line[2];
        for (bool play : {false, true}) {
            Rules f;
            QVERIFY(start(f, {card}));
            armies(f);
            if (extra == "swedish")
                f.place("swedish", UnitKind::Veteran, "luetzen");
            else if (extra == "french")
                f.place("french", UnitKind::Militia, "luetzen");
            else if (extra == "imperial")
                f.place("imperial", UnitKind::Militia, "luetzen");
            else if (!extra.isEmpty())
                f.placeLeader(extra, "luetzen");
            battle(f, attacker, "luetzen");
            const QStringList mine = play ? QStringList{card} : QStringList{};
            QVERIFY2(attacker == P ? cards(f, mine, {}) : cards(f, {}, mine), qPrintable(f.error));
            line[play] = fire(f, firer);
            QVERIFY2(line[play].startsWith("column"), qPrintable(line[play]));
        }
        const QString both = line[0] + " / " + line[1];
        QVERIFY2(drmOf(line[1]) - drmOf(line[0]) == drmDelta, qPrintable(both));
        QVERIFY2((columnOf(line[0]) != columnOf(line[1])) == columnShift, qPrintable(both));
    }
};

QTEST_GUILESS_MAIN(TestEventsProtestant)
#include "test_events_protestant.moc"

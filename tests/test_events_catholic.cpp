// The Catholic card events C1-C55 (issue 5): each card played as an Event (or in a combat) from a
// constructed position through Engine::apply, and where it has a precondition, the refusal with its
// reason. tests/card-tests.json maps every card to its tests; cardTestsAreHonest() checks that file.
#include "rules_fixture.h"

#include "events/common.h"
#include "rules/economy.h"
#include "rules/events.h"

#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QMetaMethod>
#include <QProcess>

using namespace wp;
using namespace wp::rules;
using namespace wp::rules::test;

namespace {

constexpr int C = kCatholic;
constexpr int P = kProtestant;

// A game of `scenario` in its Action Phase, the Catholic to play his first round with exactly `hand`.
bool start(Rules& f, const QStringList& hand, const QString& scenario = QStringLiteral("campaign"),
           bool clear = true) {
    if (!f.newGame(scenario))
        return false;
    if (clear)
        f.clearBoard();
    f.setHand(C, hand);
    f.setActive(C);
    return true;
}

bool canPlay(const Rules& f, const QString& card) {
    return f.legal(QStringLiteral("play %1 event").arg(card));
}

QString whyNot(const Rules& f, const QString& card) {
    const EventDef* ev = EventRegistry::instance().find(card);
    if (!ev || !ev->whyNot)
        return {};
    Ctx c{f.d(), const_cast<GameState&>(f.s), nullptr};
    return ev->whyNot(c, C);
}

#define REFUSED(f, card, fragment)                                                                           \
    do {                                                                                                     \
        QVERIFY2(!canPlay(f, card), qPrintable(QStringLiteral("%1 is playable").arg(card)));                 \
        const QString why_ = whyNot(f, card);                                                                \
        QVERIFY2(why_.contains(fragment), qPrintable(why_));                                                 \
    } while (false)

#define PLAY(f, card)                                                                                        \
    QVERIFY2((f).act(QStringLiteral("play %1 event").arg(card)),                                             \
             qPrintable((f).error + QStringLiteral(" / ") + whyNot(f, card)))
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

int unitsOf(const Rules& f, const QString& where, const QString& nat, int side) {
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

bool backToProtestant(const Rules& f) {
    return f.inActionPhase() && f.s.activeSide == P;
}

// ------------------------------------------------------------------ combat

// Starts a battle at `city`: `attacker` attacks with all his units there under his best leader; the
// scripted dice are the attacker's and the defender's combat rolls (leader-loss rolls 0).
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

// The column label of a fire line ("column 11-14, roll 5 +1" -> "11-14").
QString column(const QString& fireText) {
    return fireText.section(QLatin1Char(','), 0, 0).mid(7);
}

// The signed DRM of a fire line ("column 11-14, roll 5 +1" -> 1).
int drm(const QString& fireText) {
    return fireText.section(QLatin1Char(' '), -1).toInt();
}

// A Protestant army (Mansfeld, Anhalt, 4 Protestant Mercenaries: 12 CF) and a Catholic one (Bucquoy and
// Gallas, 4 Imperial Mercenaries: 12 CF) at `city`.
void armies(Rules& f, const QString& city = QStringLiteral("luetzen")) {
    f.placeLeader("mansfeld", city);
    f.placeLeader("anhalt", city);
    f.place("protestant", UnitKind::Mercenary, city, 4);
    f.placeLeader("bucquoy", city);
    f.placeLeader("gallas", city);
    f.place("imperial", UnitKind::Mercenary, city, 4);
}

// The fire lines of a battle fought with and without the cards (same dice): {without, with}.
struct Fires {
    QString mine[2], theirs[2];
};

} // namespace

class TestEventsCatholic : public QObject {
    Q_OBJECT

  private slots:
    void initTestCase() { QVERIFY(rulesData()); }

    // ================================================================ aid and politics

    // C1 (14.4): the Passes reopen; Spanish Aid is received again. The asterisk removes the card (8.62).
    void c01_valTellineOpen() {
        Rules f;
        QVERIFY(start(f, {"C1"}));
        f.s.valTellineOpen = false;
        f.s.aidSources[C].removeAll("spain");
        PLAY(f, "C1");
        QVERIFY(f.s.valTellineOpen);
        QVERIFY(f.s.aidSources[C].contains("spain"));
        QVERIFY(donorEligible(f.d(), f.s, C, "spain"));
        QVERIFY(f.logged("14.4 C1"));
        QCOMPARE(f.s.cardPlace[f.card("C1")], CardPlace::Removed);
        QVERIFY(backToProtestant(f));
    }
    void c01_refused() {
        Rules f;
        QVERIFY(start(f, {"C1"}));
        REFUSED(f, "C1", "14.4");
    }

    // C38: the same event without the asterisk.
    void c38_valTellineOpen() {
        Rules f;
        QVERIFY(start(f, {"C38"}));
        f.s.valTellineOpen = false;
        PLAY(f, "C38");
        QVERIFY(f.s.valTellineOpen);
        QCOMPARE(f.s.cardPlace[f.card("C38")], CardPlace::Played);
    }
    void c38_refused() {
        Rules f;
        QVERIFY(start(f, {"C38"}));
        REFUSED(f, "C38", "14.4");
    }

    // C2 (17.E.3): the English unit leaves the game, even besieged; English Aid continues.
    void c02_englandWithdraws() {
        Rules f;
        QVERIFY(start(f, {"C2"}));
        const auto eng = f.place("english", UnitKind::Mercenary, "mannheim", 1, 2, true);
        f.place("imperial", UnitKind::Mercenary, "mannheim", 3);
        PLAY(f, "C2");
        QCOMPARE(f.s.units[eng[0]].loc, kRemoved);
        QVERIFY(f.s.aidSources[P].contains("england"));
        QVERIFY(f.logged("17.E.3"));
    }
    void c02_refused() {
        Rules f;
        QVERIFY(start(f, {"C2"}));
        REFUSED(f, "C2", "17.E.3");
    }

    // C5 (8.65): -2 English Aid on every Protestant AID card until P20.
    void c05_spainWarWithEngland() {
        Rules f;
        QVERIFY(start(f, {"C5"}));
        QCOMPARE(donorPoints(f.d(), f.s, P, "england", 3), 3);
        PLAY(f, "C5");
        QVERIFY(f.s.eventPlayed[f.card("C5")]);
        QCOMPARE(donorPoints(f.d(), f.s, P, "england", 3), 1);
        QCOMPARE(donorPoints(f.d(), f.s, P, "england", 1), 0); // never below 0
    }
    // C5 has no precondition (always playable as an Event); the second case is its end: P20 (8.65) makes
    // peace and English Aid returns to the printed value. Played as AID, C5 (not "unless discarded") has
    // no effect (8.64).
    void c05_endedByP20() {
        Rules f;
        QVERIFY(start(f, {"C5"}));
        PLAY(f, "C5");
        QCOMPARE(donorPoints(f.d(), f.s, P, "england", 3), 1);
        f.setHand(P, {"P20"});
        f.setActive(P);
        ACT(f, "play P20 event");
        QCOMPARE(donorPoints(f.d(), f.s, P, "england", 3), 3);
        Rules g;
        QVERIFY(start(g, {"C5"}));
        ACT(g, "play C5 aid");
        QVERIFY(!g.logged("8.64"));
        QVERIFY(!g.s.eventPlayed[g.card("C5")]);
        QCOMPARE(donorPoints(g.d(), g.s, P, "england", 3), 3);
    }

    // C6 (18.14): +2 VP; only while the Catholic controls Bohemia.
    void c06_edictOfRestitution() {
        Rules f;
        QVERIFY(start(f, {"C6"}));
        f.setAreaControl("bohemia", C);
        const int vp = f.s.vp;
        PLAY(f, "C6");
        QCOMPARE(f.s.vp, vp + 2);
        QVERIFY(f.s.eventPlayed[f.card("C6")]); // 18.14 reads it
    }
    void c06_refused() {
        Rules f;
        QVERIFY(start(f, {"C6"})); // Bohemia is Protestant in 1618
        REFUSED(f, "C6", "Bohemia");
    }

    // C12 (5.142): the Electorate moves to Bavaria; the majority award is given at once (5.141).
    void c12_palatinateDeposed() {
        Rules f;
        QVERIFY(start(f, {"C12"}));
        f.setAreaControl("saxony", P); // the Catholic holds 3 Electors (Trier, Köln, Mainz)
        f.s.electorMajorityHolder = P;
        QCOMPARE(electorsControlled(f.d(), f.s, C), 3);
        const int vp = f.s.vp;
        PLAY(f, "C12");
        QCOMPARE(f.s.electorate, static_cast<int8_t>(f.area("bavaria")));
        QCOMPARE(electorsControlled(f.d(), f.s, C), 4);
        QCOMPARE(f.s.electorMajorityHolder, static_cast<int8_t>(C));
        QCOMPARE(f.s.vp, vp + 2);
    }
    void c12_refused() {
        Rules f;
        QVERIFY(start(f, {"C12"}, "intervention"));
        REFUSED(f, "C12", "5.142");
    }

    // C16: +2 Spanish Aid on every Catholic AID card for the rest of the game.
    void c16_marieOfSpain() {
        Rules f;
        QVERIFY(start(f, {"C16"}));
        PLAY(f, "C16");
        QCOMPARE(donorPoints(f.d(), f.s, C, "spain", 3), 5);
        f.s.valTellineOpen = false; // only while Spanish Aid is received
        QCOMPARE(donorPoints(f.d(), f.s, C, "spain", 3), 0);
    }
    // C16 has no precondition: the second case plays it while the Passes are Closed. The event takes effect
    // (8.65) but gives nothing until a Val Telline Passes Open Event (C38, 14.4) brings Spanish Aid back.
    void c16_passesClosed() {
        Rules f;
        QVERIFY(start(f, {"C16", "C38"}));
        f.s.valTellineOpen = false;
        f.s.aidSources[C].removeAll("spain");
        PLAY(f, "C16");
        QVERIFY(f.s.eventPlayed[f.card("C16")]);
        QCOMPARE(donorPoints(f.d(), f.s, C, "spain", 3), 0);
        f.setActive(C);
        PLAY(f, "C38");
        QCOMPARE(donorPoints(f.d(), f.s, C, "spain", 3), 5);
    }

    // C19 (17.A.2): Imperial and Bavarian forces may stack; refused while Wallenstein is on the map.
    void c19_electorMaximilian() {
        Rules f;
        QVERIFY(start(f, {"C19"}));
        PLAY(f, "C19");
        QVERIFY(!f.s.imperialBavarianBan);
        Ctx c{f.d(), f.s, nullptr};
        QVERIFY(mixAllowed(c,
                           {f.place("imperial", UnitKind::Mercenary, "munich")[0],
                            f.place("bavarian", UnitKind::Mercenary, "munich")[0]},
                           {}));
    }
    void c19_refused() {
        Rules f;
        QVERIFY(start(f, {"C19"}));
        f.placeLeader("wallenstein", "vienna");
        REFUSED(f, "C19", "Wallenstein");
        f.s.leaders[f.leader("wallenstein")] = LeaderState{kAside, LeaderStatus::Aside, 0}; // dismissed
        QVERIFY(canPlay(f, "C19"));
        f.s.imperialBavarianBan = false;
        REFUSED(f, "C19", "17.A.2");
    }

    // C22: 4 Aid Points now and +1 VP with a majority of the Electors (4 in 1618).
    void c22_electoralMeeting() {
        Rules f;
        QVERIFY(start(f, {"C22"}));
        const int vp = f.s.vp;
        PLAY(f, "C22");
        QCOMPARE(f.s.aidPoints[C], int8_t(4));
        QCOMPARE(f.s.vp, vp + 1);
    }
    // C22 has no precondition: the second branch, without a majority of the Electors (5.141): Saxony
    // Protestant leaves the Catholic 3 Electors, so the Aid Points only.
    void c22_noMajority() {
        Rules g;
        QVERIFY(start(g, {"C22"}));
        g.setAreaControl("saxony", P);
        QCOMPARE(electorsControlled(g.d(), g.s, C), 3);
        const int vp2 = g.s.vp;
        PLAY(g, "C22");
        QCOMPARE(g.s.aidPoints[C], int8_t(4));
        QCOMPARE(g.s.vp, vp2);
        QVERIFY(g.logged("no VP"));
    }

    // C36 (14.3): no French Aid until P2; refused once P2 was played.
    void c36_huguenotsRevolt() {
        Rules f;
        QVERIFY(start(f, {"C36"}));
        f.s.eventPlayed[f.card("P9")] = true;
        QVERIFY(donorEligible(f.d(), f.s, P, "france"));
        PLAY(f, "C36");
        QVERIFY(!donorEligible(f.d(), f.s, P, "france"));
    }
    void c36_refused() {
        Rules f;
        QVERIFY(start(f, {"C36"}));
        f.s.eventPlayed[f.card("P2")] = true;
        REFUSED(f, "C36", "P2");
    }

    // C40 (17.E.1): English Aid ends for good.
    void c40_englishCivilWar() {
        Rules f;
        QVERIFY(start(f, {"C40"}));
        PLAY(f, "C40");
        QVERIFY(!f.s.aidSources[P].contains("england"));
        QVERIFY(!donorEligible(f.d(), f.s, P, "england"));
        QVERIFY(f.logged("17.E.1"));
    }
    // C40 has no precondition; the second case is its lasting effect: P6 England Intervenes, playable
    // before, is refused afterwards (17.E.2).
    void c40_blocksP6() {
        Rules f;
        QVERIFY(start(f, {"C40"}));
        f.setHand(P, {"P6"});
        f.setActive(P);
        QVERIFY(f.legal("play P6 event"));
        f.setActive(C);
        PLAY(f, "C40");
        f.setActive(P);
        QVERIFY(!f.legal("play P6 event"));
        const EventDef* p6 = EventRegistry::instance().find("P6");
        QVERIFY(p6 && p6->whyNot);
        Ctx c{f.d(), f.s, nullptr};
        const QString why = p6->whyNot(c, P);
        QVERIFY2(why.contains("17.E.2") && why.contains("C40"), qPrintable(why));
    }

    // C42: no French Aid for the rest of this turn and the next; as AID the event takes effect too (8.64).
    void c42_richelieuDies() {
        Rules f;
        QVERIFY(start(f, {"C42"}));
        f.s.eventPlayed[f.card("P9")] = true;
        PLAY(f, "C42");
        QVERIFY(!donorEligible(f.d(), f.s, P, "france"));
        f.s.turn = static_cast<int8_t>(f.s.turn + 1);
        QVERIFY(!donorEligible(f.d(), f.s, P, "france"));
        f.s.turn = static_cast<int8_t>(f.s.turn + 1);
        QVERIFY(donorEligible(f.d(), f.s, P, "france"));
    }
    // C42 has no precondition; "unless discarded" (8.64): used as AID, the event takes effect as well.
    void c42_asAid() {
        Rules g;
        QVERIFY(start(g, {"C42"}));
        g.s.eventPlayed[g.card("P9")] = true;
        QVERIFY(donorEligible(g.d(), g.s, P, "france"));
        ACT(g, "play C42 aid");
        QVERIFY(g.logged("8.64 the event of C42 takes effect"));
        QVERIFY(!donorEligible(g.d(), g.s, P, "france"));
        QCOMPARE(effect(g.s, "noaid.france.C42"), 1);
    }

    // C43: +1 VP; French leaders may not recruit this turn and next (8.64 as well).
    void c43_louisDies() {
        Rules f;
        QVERIFY(start(f, {"C43"}));
        const int vp = f.s.vp;
        ACT(f, "play C43 aid");
        QVERIFY(f.logged("8.64 the event of C43 takes effect"));
        QCOMPARE(f.s.vp, vp + 1);
        QCOMPARE(effect(f.s, "norecruit.french.C43"), 1);
        f.s.turn = static_cast<int8_t>(f.s.turn + 2);
        QCOMPARE(effect(f.s, "norecruit.french.C43"), 0);
    }
    // C43 has no precondition; the second case plays it as an Event: the same VP and regency, through
    // the next turn only.
    void c43_asEvent() {
        Rules g;
        QVERIFY(start(g, {"C43"}));
        const int vp = g.s.vp;
        QCOMPARE(effect(g.s, "norecruit.french.C43"), 0);
        PLAY(g, "C43");
        QCOMPARE(g.s.vp, vp + 1);
        QCOMPARE(effect(g.s, "norecruit.french.C43"), 1);
        g.s.turn = static_cast<int8_t>(g.s.turn + 1);
        QCOMPARE(effect(g.s, "norecruit.french.C43"), 1);
        g.s.turn = static_cast<int8_t>(g.s.turn + 1);
        QCOMPARE(effect(g.s, "norecruit.french.C43"), 0);
    }

    // C44 (17.P.1-17.P.2): Innocent X; Papal Aid resumes after Urban VIII.
    void c44_innocentX() {
        Rules f;
        QVERIFY(start(f, {"C44"}, "intervention"));
        f.s.eventPlayed[f.card("P15")] = true;
        QVERIFY(!donorEligible(f.d(), f.s, C, "pope"));
        PLAY(f, "C44");
        QCOMPARE(f.s.pope, QStringLiteral("innocent-x"));
        QVERIFY(f.s.aidSources[C].contains("pope"));
        QVERIFY(donorEligible(f.d(), f.s, C, "pope"));
    }
    // C44 has no precondition; "unless discarded" (8.64): used as AID, Innocent X still becomes Pope.
    void c44_asAid() {
        Rules f;
        QVERIFY(start(f, {"C44"}, "intervention"));
        f.s.eventPlayed[f.card("P15")] = true;
        QVERIFY(!donorEligible(f.d(), f.s, C, "pope"));
        ACT(f, "play C44 aid");
        QVERIFY(f.logged("8.64 the event of C44 takes effect"));
        QCOMPARE(f.s.pope, QStringLiteral("innocent-x"));
        QVERIFY(donorEligible(f.d(), f.s, C, "pope"));
    }

    // C54 (17.F.5): French and Swedish units may not stack; a mixed stack gets until the Protestant's next
    // Card Round.
    void c54_conflictOfInterest() {
        Rules f;
        QVERIFY(start(f, {"C54"}));
        const auto fr = f.place("french", UnitKind::Mercenary, "erfurt");
        const auto sw = f.place("swedish", UnitKind::Veteran, "erfurt");
        PLAY(f, "C54");
        Ctx c{f.d(), f.s, nullptr};
        QVERIFY(!mixAllowed(c, {fr[0], sw[0]}, {}));
        QCOMPARE(f.s.markers.value("C54.graceTurn"), int(f.s.turn));
        QCOMPARE(f.s.markers.value("C54.graceRound"), 2); // the Protestant's next round
        f.s.eventPlayed[f.card("P38")] = true;            // Oxenstierna ends it
        QVERIFY(mixAllowed(c, {fr[0], sw[0]}, {}));
    }
    // C54 has no precondition; the second branch: no mixed stack on the map, so no grace period, but
    // French and Swedish units may no longer join (17.F.5).
    void c54_noMixedStack() {
        Rules f;
        QVERIFY(start(f, {"C54"}));
        const auto fr = f.place("french", UnitKind::Mercenary, "erfurt");
        const auto sw = f.place("swedish", UnitKind::Veteran, "leipzig");
        {
            Ctx c{f.d(), f.s, nullptr};
            QVERIFY(mixAllowed(c, {fr[0], sw[0]}, {}));
        }
        PLAY(f, "C54");
        QVERIFY(!f.s.markers.contains("C54.graceTurn"));
        QVERIFY(!f.s.markers.contains("C54.graceRound"));
        Ctx c{f.d(), f.s, nullptr};
        QVERIFY(!mixAllowed(c, {fr[0], sw[0]}, {}));
    }

    // 17.F.5: played as the Catholic's last card of the turn, a mixed stack has until the end of the
    // Protestant's first Card Round of the next turn.
    void c54_lastCardOfTurn() {
        Rules f;
        QVERIFY(start(f, {"C54"}));
        f.place("french", UnitKind::Mercenary, "erfurt");
        f.place("swedish", UnitKind::Veteran, "erfurt");
        f.s.roundsUsed[P] = 6;
        f.s.roundsUsed[C] = 5; // the Catholic plays his sixth card
        const int turn = f.s.turn;
        PLAY(f, "C54");
        QCOMPARE(f.s.markers.value("C54.graceTurn"), turn + 1);
        QCOMPARE(f.s.markers.value("C54.graceRound"), 1);
    }

    // 17.F.5: a stack still mixing French and Swedish units at the end of the grace period (the
    // Protestant's next Card Round) is treated as overstacked (10.22): "the owning player decides which units
    // to eliminate", one at a time, until French and Swedes no longer stack.
    void c54_graceEnds() {
        Rules f;
        QVERIFY(start(f, {"C54"}));
        const auto fr = f.place("french", UnitKind::Mercenary, "erfurt", 2);
        const auto sw = f.place("swedish", UnitKind::Veteran, "erfurt");
        PLAY(f, "C54");
        QCOMPARE(f.s.markers.value("C54.graceRound"), 2);
        QCOMPARE(f.s.activeSide, int8_t(P));
        // the Protestant's round 2 passes (an AID card), the stack stays together
        const QString aid = f.plainCard(P, 1);
        f.setHand(P, {aid});
        ACT(f, QStringLiteral("play %1 aid").arg(aid));
        QVERIFY2(f.e.prompt(f.s).contains("17.F.5"), qPrintable(f.e.prompt(f.s)));
        QCOMPARE(f.e.actor(f.s), int(P)); // the owner chooses (10.22)
        QVERIFY(f.legal(QStringLiteral("choose u%1").arg(fr[0])));
        QVERIFY(f.legal(QStringLiteral("choose u%1").arg(sw[0])));
        // a French unit first: French and Swedes still stack, so he chooses again
        ACT(f, QStringLiteral("choose u%1").arg(fr[0]));
        QVERIFY(f.e.prompt(f.s).contains("17.F.5"));
        QVERIFY(!f.legal(QStringLiteral("choose u%1").arg(fr[0])));
        ACT(f, QStringLiteral("choose u%1").arg(sw[0])); // the Swede goes: one French unit stays
        QVERIFY2(f.runUntil([&] { return f.inActionPhase() && f.s.activeSide == C; }), qPrintable(f.error));
        QCOMPARE(unitsOf(f, "erfurt", "french", P), 1);
        QCOMPARE(unitsOf(f, "erfurt", "swedish", P), 0);
        QVERIFY(f.logged("17.F.5, 10.22"));
    }

    // ================================================================ the Dutch War

    // C3 (9.32, 16.25): Dutch War +1 with Spinola's army in the UP, first Catholic card of the turn;
    // 16.253: no Response by the end of the turn, +1 more.
    void c03_spinolaBesiegesBergen() {
        Rules f;
        QVERIFY(start(f, {"C3"}));
        f.placeLeader("spinola", "up");
        f.place("spanish", UnitKind::Veteran, "up", 3);
        PLAY(f, "C3");
        QCOMPARE(f.s.dutchWar, int8_t(1));
        QCOMPARE(f.s.markers.value("C3.respond"), int(f.s.turn));
        QVERIFY(ev::dutchSiegePending(f.s));
        const int vp = f.s.vp;
        Ctx c{f.d(), f.s, &f.log};
        ev::dutchSiegeEndOfTurn(c);
        QCOMPARE(f.s.dutchWar, int8_t(2));
        QCOMPARE(f.s.vp, vp + 2); // 16.13: the +2 box
        QVERIFY(!ev::dutchSiegePending(f.s));
    }
    // 16.251-16.252: a Protestant army already in the UP Responds at once and loses a step.
    void c03_responded() {
        Rules f;
        QVERIFY(start(f, {"C3"}));
        f.placeLeader("spinola", "up");
        f.place("spanish", UnitKind::Veteran, "up", 3);
        f.placeLeader("mansfeld", "up");
        f.place("protestant", UnitKind::Mercenary, "up", 2);
        f.place("protestant", UnitKind::Militia, "up", 1);
        PLAY(f, "C3");
        QVERIFY(inEventChoice(f)); // the Protestant chooses the unit
        QCOMPARE(f.e.actor(f.s), P);
        const int before = stepsAt(f, "up", P);
        const auto units = unitsAt(f.s, f.locOf("up"), P, f.d());
        ACT(f, QStringLiteral("choose u%1").arg(units.back()));
        QCOMPARE(stepsAt(f, "up", P), before - 1);
        QVERIFY(!ev::dutchSiegePending(f.s));
        Ctx c{f.d(), f.s, &f.log};
        ev::dutchSiegeEndOfTurn(c);
        QCOMPARE(f.s.dutchWar, int8_t(1));
    }
    void c03_refused() {
        Rules f;
        QVERIFY(start(f, {"C3"}));
        REFUSED(f, "C3", "9.32"); // no Spinola army in the UP
        f.placeLeader("spinola", "up");
        f.place("spanish", UnitKind::Veteran, "up", 2);
        REFUSED(f, "C3", "9.32"); // only 2 Spanish units
        f.place("spanish", UnitKind::Veteran, "up", 1);
        QVERIFY(canPlay(f, "C3"));
        f.s.roundsUsed[C] = 1; // not the first card of the turn
        f.s.roundsUsed[P] = 2;
        REFUSED(f, "C3", "16.25");
        f.setActive(C);
        f.s.dutchWar = 5; // the war is over
        REFUSED(f, "C3", "9.31");
    }
    // 16.21(3): three Spanish units alone count when no Spanish leader is in play.
    void c03_leaderlessArmy() {
        Rules f;
        QVERIFY(start(f, {"C3"}));
        f.place("spanish", UnitKind::Veteran, "up", 3);
        QVERIFY(canPlay(f, "C3"));
        f.placeLeader("cordoba", "brussels");
        REFUSED(f, "C3", "9.32");
    }

    // C4: the same for Breda.
    void c04_spinolaBesiegesBreda() {
        Rules f;
        QVERIFY(start(f, {"C4"}));
        f.placeLeader("spinola-successor", "up"); // his successor will do
        f.place("spanish", UnitKind::Veteran, "up", 4);
        PLAY(f, "C4");
        QCOMPARE(f.s.dutchWar, int8_t(1));
        QVERIFY(f.s.markers.contains("C4.respond"));
    }
    void c04_refused() {
        Rules f;
        QVERIFY(start(f, {"C4"}));
        f.placeLeader("spinola", "brussels");
        f.place("spanish", UnitKind::Veteran, "brussels", 3);
        REFUSED(f, "C4", "9.32");
    }

    // C18 (9.31, 16.24): Dutch War +1 without Spinola's army; refused after the war ended.
    void c18_amersfoort() {
        Rules f;
        QVERIFY(start(f, {"C18"}));
        f.s.dutchWar = 3;
        const int vp = f.s.vp;
        PLAY(f, "C18");
        QCOMPARE(f.s.dutchWar, int8_t(4));
        QCOMPARE(f.s.vp, vp + 2); // 16.13: the +4 box
    }
    void c18_refused() {
        Rules f;
        QVERIFY(start(f, {"C18"}));
        f.s.dutchWar = -3;
        REFUSED(f, "C18", "9.31");
    }

    // C11 (16.21(2), 16.24): Spinola and at least 3 Spanish units from anywhere (even besieged) go to the UP.
    void c11_spinolaRecalled() {
        Rules f;
        QVERIFY(start(f, {"C11"}));
        f.placeLeader("spinola", "brussels");
        const auto a = f.place("spanish", UnitKind::Veteran, "brussels", 2);
        const auto b = f.place("spanish", UnitKind::Veteran, "antwerp", 2, 2, true); // besieged
        f.place("protestant", UnitKind::Mercenary, "antwerp", 2);
        PLAY(f, "C11");
        QVERIFY(inEventChoice(f));
        QVERIFY(!f.legal("pass")); // at least three
        ACT(f, QStringLiteral("choose u%1").arg(a[0]));
        ACT(f, QStringLiteral("choose u%1").arg(a[1]));
        QVERIFY(!f.legal("pass"));
        ACT(f, QStringLiteral("choose u%1").arg(b[0]));
        QVERIFY(f.legal(QStringLiteral("choose u%1").arg(b[1])));
        ACT(f, "pass");
        QVERIFY(leaderAt(f, "spinola", "up"));
        QCOMPARE(unitsOf(f, "up", "spanish", C), 3);
        QCOMPARE(unitsOf(f, "antwerp", "spanish", C), 1);
        QVERIFY(f.s.spinolaInUp);
        QVERIFY(ev::spinolaArmyInUp(f.d(), f.s)); // 5.15 is satisfied
        QVERIFY(backToProtestant(f));
    }
    // Spinola dead: the Catholic chooses another Spanish leader; with exactly 3 units they all go.
    void c11_otherLeader() {
        Rules f;
        QVERIFY(start(f, {"C11"}));
        f.s.leaders[f.leader("spinola")] = LeaderState{kRemoved, LeaderStatus::Dead, 0};
        f.placeLeader("cordoba", "brussels");
        f.placeLeader("feria", "namur");
        f.place("spanish", UnitKind::Veteran, "namur", 3);
        PLAY(f, "C11");
        // issue 5: the choice names its options and the prompt says what is chosen
        QStringList texts;
        for (const Action& a : f.e.legalActions(f.s))
            texts << formatAction(f.d(), f.s, a);
        texts.sort();
        QCOMPARE(texts, QStringList({"choose cordoba", "choose feria"}));
        QVERIFY2(f.e.prompt(f.s).contains("Spanish leader who takes the army to the UP"),
                 qPrintable(f.e.prompt(f.s)));
        ACT(f, "choose feria");
        QVERIFY(f.e.prompt(f.s).contains("a Spanish unit for the army in the UP") || !inEventChoice(f));
        QVERIFY(leaderAt(f, "feria", "up"));
        QVERIFY(leaderAt(f, "cordoba", "brussels"));
        QCOMPARE(unitsOf(f, "up", "spanish", C), 3);
    }
    void c11_refused() {
        Rules f;
        QVERIFY(start(f, {"C11"}));
        f.placeLeader("spinola", "brussels");
        f.place("spanish", UnitKind::Veteran, "brussels", 2);
        REFUSED(f, "C11", "16.21");
        f.place("spanish", UnitKind::Veteran, "namur", 1);
        QVERIFY(canPlay(f, "C11"));
        f.placeLeader("tilly", "up"); // another Catholic army in the UP must leave first
        f.place("bavarian", UnitKind::Mercenary, "up", 3);
        REFUSED(f, "C11", "16.24");
        Rules g;
        QVERIFY(start(g, {"C11"}));
        g.place("spanish", UnitKind::Veteran, "brussels", 3);
        g.s.dutchWar = 5;
        REFUSED(g, "C11", "16.132");
    }

    // ================================================================ New Leaders (9.21-9.23)

    // C7: Wallenstein and Piccolomini, each with any Imperial units, in the same or different spaces.
    void c07_wallensteinPiccolomini() {
        Rules f;
        QVERIFY(start(f, {"C7"}));
        f.place("imperial", UnitKind::Mercenary, "vienna");
        f.place("imperial", UnitKind::Mercenary, "linz");
        PLAY(f, "C7");
        QVERIFY(inEventChoice(f));
        QVERIFY(!f.legal("choose innsbruck")); // Imperial units are on the map: join them
        ACT(f, "choose linz");
        ACT(f, "choose vienna");
        QVERIFY(leaderAt(f, "wallenstein", "linz"));
        QVERIFY(leaderAt(f, "piccolomini", "vienna"));
        QVERIFY(f.logged("9.21 C7: Wallenstein enters at Linz"));
        QVERIFY(wallensteinInPlay(f.d(), f.s));
        QVERIFY(backToProtestant(f));
    }
    // 9.23 example: no Imperial units on the map: any Catholic-controlled city, but not with Bavarian
    // units (17.A.2) nor inside a besieged fortress.
    void c07_noImperialUnits() {
        Rules f;
        QVERIFY(start(f, {"C7"}));
        f.place("bavarian", UnitKind::Mercenary, "munich");
        f.place("bavarian", UnitKind::Mercenary, "passau", 1, 2, true);
        f.place("protestant", UnitKind::Mercenary, "passau", 2);
        PLAY(f, "C7");
        QVERIFY(f.legal("choose ingolstadt"));
        QVERIFY(f.legal("choose innsbruck"));
        QVERIFY(!f.legal("choose munich")); // 17.A.2
        QVERIFY(!f.legal("choose passau")); // 9.23: besieged
        QVERIFY(!f.legal("choose pilsen")); // Protestant-controlled
        ACT(f, "choose ingolstadt");
        ACT(f, "choose ingolstadt");
        QVERIFY(leaderAt(f, "wallenstein", "ingolstadt"));
        QVERIFY(leaderAt(f, "piccolomini", "ingolstadt"));
    }
    void c07_refused() {
        Rules f;
        QVERIFY(start(f, {"C7"}));
        f.placeLeader("wallenstein", "vienna");
        f.placeLeader("piccolomini", "vienna");
        REFUSED(f, "C7", "9.21");
    }

    // C8: Charles of Lorraine and Gallas with Imperial units (one place: at once).
    void c08_charlesGallas() {
        Rules f;
        QVERIFY(start(f, {"C8"}));
        f.place("imperial", UnitKind::Militia, "graz", 2);
        PLAY(f, "C8");
        QVERIFY(leaderAt(f, "charles-of-lorraine", "graz"));
        QVERIFY(leaderAt(f, "gallas", "graz"));
    }
    void c08_refused() {
        Rules f;
        QVERIFY(start(f, {"C8"}));
        f.placeLeader("charles-of-lorraine", "vienna");
        f.s.leaders[f.leader("gallas")] = LeaderState{kRemoved, LeaderStatus::Dead, 0};
        REFUSED(f, "C8", "9.21");
    }

    // C9 (9.23 clarification): Córdoba with Spanish units outside the UP, only with Spinola's army in the UP.
    void c09_cordoba() {
        Rules f;
        QVERIFY(start(f, {"C9"}));
        f.placeLeader("spinola", "up");
        f.place("spanish", UnitKind::Veteran, "up", 3);
        f.place("spanish", UnitKind::Veteran, "namur");
        PLAY(f, "C9");
        QVERIFY(leaderAt(f, "cordoba", "namur"));
        // no Spanish units outside the UP: a Catholic city of the Spanish Netherlands
        Rules g;
        QVERIFY(start(g, {"C9"}));
        g.placeLeader("spinola", "up");
        g.place("spanish", UnitKind::Veteran, "up", 3);
        PLAY(g, "C9");
        QVERIFY(g.legal("choose ghent"));
        QVERIFY(!g.legal("choose vienna"));
        ACT(g, "choose ghent");
        QVERIFY(leaderAt(g, "cordoba", "ghent"));
    }
    void c09_refused() {
        Rules f;
        QVERIFY(start(f, {"C9"}));
        f.place("spanish", UnitKind::Veteran, "brussels", 3);
        REFUSED(f, "C9", "9.23");
    }

    // C10: Aldringer and Holk with Bavarian units.
    void c10_aldringerHolk() {
        Rules f;
        QVERIFY(start(f, {"C10"}));
        f.place("bavarian", UnitKind::Mercenary, "munich", 2);
        f.place("bavarian", UnitKind::Mercenary, "amberg");
        PLAY(f, "C10");
        ACT(f, "choose amberg");
        ACT(f, "choose munich");
        QVERIFY(leaderAt(f, "aldringer", "amberg"));
        QVERIFY(leaderAt(f, "holk", "munich"));
    }
    void c10_refused() {
        Rules f;
        QVERIFY(start(f, {"C10"}));
        f.placeLeader("aldringer", "munich");
        f.placeLeader("holk", "munich");
        REFUSED(f, "C10", "9.21");
    }

    // C15: Werth and Goetz with Bavarian units; not with Wallenstein's Imperial army (17.A.2).
    void c15_werthGoetz() {
        Rules f;
        QVERIFY(start(f, {"C15"}));
        f.place("bavarian", UnitKind::Militia, "landshut");
        PLAY(f, "C15");
        QVERIFY(leaderAt(f, "werth", "landshut"));
        QVERIFY(leaderAt(f, "goetz", "landshut"));
    }
    void c15_refused() {
        Rules f;
        QVERIFY(start(f, {"C15"}));
        f.placeLeader("werth", "munich");
        f.placeLeader("goetz", "munich");
        REFUSED(f, "C15", "9.21");
    }

    // C30: Archduke Leopold, Savelli and Hatzfeld; Savelli, already in play (Intervention), does not
    // arrive again.
    void c30_leopoldSavelliHatzfeld() {
        Rules f;
        QVERIFY(start(f, {"C30"}, "intervention", false));
        QVERIFY(f.s.leaders[f.leader("savelli")].status == LeaderStatus::InPlay);
        const int16_t savelliAt = f.s.leaders[f.leader("savelli")].loc;
        PLAY(f, "C30");
        // Imperial units at Rostock, Wittstock, Bärwalde and Vienna: the Catholic chooses
        ACT(f, "choose vienna");
        ACT(f, "choose rostock");
        QVERIFY(leaderAt(f, "archduke-leopold", "vienna"));
        QVERIFY(leaderAt(f, "hatzfeld", "rostock"));
        QCOMPARE(f.s.leaders[f.leader("savelli")].loc, savelliAt);
        QVERIFY(f.logged("Savelli is already in the game"));
    }
    void c30_refused() {
        Rules f;
        QVERIFY(start(f, {"C30"}));
        for (const char* id : {"archduke-leopold", "savelli", "hatzfeld"})
            f.placeLeader(id, "vienna");
        REFUSED(f, "C30", "9.21");
    }

    // C45: the Duke of Feria with Spanish units in the Spanish Zone.
    void c45_feria() {
        Rules f;
        QVERIFY(start(f, {"C45"}));
        f.place("spanish", UnitKind::Veteran, "luxembourg");
        PLAY(f, "C45");
        QVERIFY(leaderAt(f, "feria", "luxembourg"));
    }
    void c45_refused() {
        Rules f;
        QVERIFY(start(f, {"C45"}));
        f.placeLeader("feria", "brussels");
        REFUSED(f, "C45", "9.21");
    }

    // C46 (12.42): Mercy, Groenfeld and Melander; Mercy already in play as Pappenheim's replacement.
    void c46_mercyGroenfeldMelander() {
        Rules f;
        QVERIFY(start(f, {"C46"}));
        f.placeLeader("mercy", "munich");
        f.place("bavarian", UnitKind::Mercenary, "ingolstadt");
        PLAY(f, "C46");
        QVERIFY(leaderAt(f, "groenfeld", "ingolstadt"));
        QVERIFY(leaderAt(f, "melander", "ingolstadt"));
        QVERIFY(leaderAt(f, "mercy", "munich"));
        QVERIFY(f.logged("Mercy is already in the game"));
    }
    void c46_refused() {
        Rules f;
        QVERIFY(start(f, {"C46"}));
        for (const char* id : {"mercy", "groenfeld", "melander"})
            f.placeLeader(id, "munich");
        REFUSED(f, "C46", "9.21");
    }

    // C23 (17.Sp.3): the Cardinal Infante and 4 Spanish Veterans in a Catholic city of Tyrol; he must reach
    // the Spanish Zone by the end of the next turn.
    void c23_cardinalInfante() {
        Rules f;
        QVERIFY(start(f, {"C23"}));
        f.place("protestant", UnitKind::Militia, "bozen");
        PLAY(f, "C23");
        QVERIFY(!f.legal("choose bozen")); // an enemy unit there
        ACT(f, "choose innsbruck");
        QVERIFY(leaderAt(f, "cardinal-infante", "innsbruck"));
        QCOMPARE(unitsOf(f, "innsbruck", "spanish", C), 4);
        QCOMPARE(effect(f.s, "cardinalInfante"), 1);
        QCOMPARE(f.s.markers.value("cardinalInfante@"), f.s.turn + 1);
        // 17.Sp.3: his army may march outside the Spanish Zone
        f.setActive(C);
        QVERIFY(f.activate("cardinal-infante"));
        bool outside = false;
        for (const Action& a : f.legalActions())
            outside |= a.kind == ActionKind::Move && isCity(a.target) && !f.d().cities[a.target].spanishZone;
        QVERIFY(outside);
    }
    // The counter mix runs out: fewer Veterans.
    void c23_shortMix() {
        Rules f;
        QVERIFY(start(f, {"C23"}));
        f.place("spanish", UnitKind::Veteran, "brussels", 6);
        PLAY(f, "C23");
        ACT(f, "choose kufstein");
        QCOMPARE(unitsOf(f, "kufstein", "spanish", C), 2);
        QVERIFY(f.logged("8.412"));
    }
    void c23_refused() {
        Rules f;
        QVERIFY(start(f, {"C23"}));
        f.placeLeader("cardinal-infante", "brussels");
        REFUSED(f, "C23", "17.Sp.3");
        Rules g;
        QVERIFY(start(g, {"C23"}));
        g.setAreaControl("tyrol", P);
        REFUSED(g, "C23", "Tyrol");
    }

    // ================================================================ leaders leave (16.22)

    // C13: Anhalt deserts and leaves the game.
    void c13_anhaltDeserts() {
        Rules f;
        QVERIFY(start(f, {"C13"}));
        f.placeLeader("anhalt", "pilsen");
        f.placeLeader("mansfeld", "pilsen");
        PLAY(f, "C13");
        QCOMPARE(f.s.leaders[f.leader("anhalt")].status, LeaderStatus::Removed);
        QCOMPARE(f.s.leaders[f.leader("gp-replacement-anhalt")].status, LeaderStatus::NotEntered);
    }
    // 16.22a: he led the army in the UP: a German Protestant replacement leader takes command.
    void c13_inUpReplacement() {
        Rules f;
        QVERIFY(start(f, {"C13"}));
        f.placeLeader("anhalt", "up");
        f.place("protestant", UnitKind::Mercenary, "up", 3);
        PLAY(f, "C13");
        QVERIFY(leaderAt(f, "gp-replacement-anhalt", "up"));
        QVERIFY(f.logged("16.22a"));
    }
    // 16.22b: no replacement: the army retreats to Lingen or Wesel (the Protestant chooses); c: eliminated.
    void c13_inUpRetreat() {
        Rules f;
        QVERIFY(start(f, {"C13"}));
        f.placeLeader("anhalt", "up");
        f.place("protestant", UnitKind::Mercenary, "up", 3);
        f.s.leaders[f.leader("gp-replacement-anhalt")].status = LeaderStatus::Dead;
        PLAY(f, "C13");
        QCOMPARE(f.e.actor(f.s), P);
        ACT(f, "choose wesel");
        QCOMPARE(unitsOf(f, "wesel", "protestant", P), 3);
        QCOMPARE(unitsOf(f, "up", "protestant", P), 0);
        Rules g;
        QVERIFY(start(g, {"C13"}));
        g.placeLeader("anhalt", "up");
        g.place("protestant", UnitKind::Mercenary, "up", 3);
        g.s.leaders[g.leader("gp-replacement-anhalt")].status = LeaderStatus::Dead;
        g.place("imperial", UnitKind::Mercenary, "wesel");
        g.place("imperial", UnitKind::Mercenary, "lingen");
        PLAY(g, "C13");
        QCOMPARE(unitsOf(g, "up", "protestant", P), 0);
        QVERIFY(g.logged("16.22c"));
    }
    void c13_refused() {
        Rules f;
        QVERIFY(start(f, {"C13"}));
        REFUSED(f, "C13", "Anhalt");
    }

    // C21 (17.D.3, 16.22): with Sweden and Denmark at war, Christian IV and every Danish unit leave.
    void c21_swedishDanishConflict() {
        Rules f;
        QVERIFY(start(f, {"C21"}));
        f.s.swedenInWar = f.s.denmarkInWar = true;
        f.placeLeader("christian-iv", "up");
        const auto dk = f.place("danish", UnitKind::Mercenary, "up", 2);
        const auto ger = f.place("protestant", UnitKind::Mercenary, "up", 2);
        const auto home = f.place("danish", UnitKind::Mercenary, "kiel", 1);
        f.s.leaders[f.leader("mansfeld")] = LeaderState{kRemoved, LeaderStatus::Dead, 0}; // his back is free
        PLAY(f, "C21");
        QCOMPARE(f.s.leaders[f.leader("christian-iv")].status, LeaderStatus::Removed);
        for (int16_t u : {dk[0], dk[1], home[0]})
            QCOMPARE(f.s.units[u].loc, kRemoved);
        for (size_t u = 0; u < f.s.units.size(); ++u)
            if (ev::natOf(f.d(), f.s, static_cast<int>(u)) == QLatin1String("danish"))
                QCOMPARE(f.s.units[u].loc, kRemoved);
        // 16.22a: the German units in the UP get a replacement leader (the back of Mansfeld's counter)
        QVERIFY(leaderAt(f, "gp-replacement-mansfeld", "up"));
        for (int16_t u : ger)
            QCOMPARE(f.s.units[u].loc, f.locOf("up"));
    }
    void c21_refused() {
        Rules f;
        QVERIFY(start(f, {"C21"}));
        f.placeLeader("christian-iv", "kiel");
        f.s.denmarkInWar = true;
        REFUSED(f, "C21", "Sweden and Denmark");
        f.s.swedenInWar = true;
        QVERIFY(canPlay(f, "C21"));
        f.s.leaders[f.leader("christian-iv")] = LeaderState{kRemoved, LeaderStatus::Dead, 0};
        REFUSED(f, "C21", "Christian IV");
    }

    // ================================================================ Saxony (8.66)

    // C17: Saxony turns Catholic; Saxons stacked with Protestants return to a Catholic Saxony city; the
    // Saxony cities free of Protestant units turn Catholic, and the Area with them.
    void c17_saxonySwitches() {
        Rules f;
        QVERIFY(start(f, {"C17"}));
        f.s.nationSide[f.nationality("saxon")] = P;
        f.setAreaControl("saxony", P);
        f.placeLeader("john-george", "dresden");
        f.place("saxon", UnitKind::Militia, "dresden", 2);
        const auto mixed = f.place("saxon", UnitKind::Militia, "leipzig");
        f.place("protestant", UnitKind::Mercenary, "leipzig", 2);
        const int vp = f.s.vp;
        PLAY(f, "C17");
        QCOMPARE(int(f.s.nationSide[f.nationality("saxon")]), C);
        QCOMPARE(int(f.s.areas[f.area("saxony")].control), C);
        QCOMPARE(f.control("leipzig"), P); // occupied by Protestant units
        QCOMPARE(f.control("dresden"), C);
        QVERIFY(f.s.vp > vp); // the Area (5.12) and its Elector
        QVERIFY(inEventChoice(f));
        QVERIFY(!f.legal("choose leipzig"));
        ACT(f, "choose torgau");
        QCOMPARE(f.s.units[mixed[0]].loc, int16_t(f.city("torgau")));
        QCOMPARE(leaderSide(f.d(), f.s, f.leader("john-george")), C);
    }
    // 8.66: a siege between the Saxons and their new friends ends.
    void c17_siegeEnds() {
        Rules f;
        QVERIFY(start(f, {"C17"}));
        f.s.nationSide[f.nationality("saxon")] = P;
        f.setAreaControl("saxony", P);
        f.place("saxon", UnitKind::Militia, "dresden", 1, 2, true);
        f.place("imperial", UnitKind::Mercenary, "dresden", 4);
        f.s.cities[f.city("dresden")].siege = 1;
        f.s.cities[f.city("dresden")].sieger = C;
        PLAY(f, "C17");
        QCOMPARE(f.s.cities[f.city("dresden")].siege, int8_t(0));
        QCOMPARE(f.control("dresden"), C);
        for (int u : unitsAt(f.s, f.city("dresden"), C, f.d()))
            QVERIFY(!(f.s.units[u].flags & kInside));
    }
    // 8.66 with 13.14: Saxons besieging beside Protestants leave the besieging force the moment they switch
    // (they then return to Saxony): a siege that falls below its Siege Level is lifted at once, not left
    // standing until the Catholic chooses their Saxony city (fuzzer, intervention seed 408223: Bremen with
    // 2 CF against level 3 while the choice was pending).
    void c17_saxonBesiegersLiftTheSiege() {
        Rules f;
        QVERIFY(start(f, {"C17"}));
        f.s.nationSide[f.nationality("saxon")] = P;
        f.setAreaControl("saxony", P);
        const auto saxons = f.place("saxon", UnitKind::Militia, "bremen");
        f.place("protestant", UnitKind::Militia, "bremen");
        const int bremen = f.city("bremen");
        f.s.cities[bremen].siege = 1;
        f.s.cities[bremen].sieger = P;
        const int level = siegeLevel(f.d(), f.s, bremen);
        QVERIFY(cfSum(f.d(), f.s, unitsAt(f.s, bremen, P, f.d())) >= level); // the siege stands before
        PLAY(f, "C17");
        QVERIFY(inEventChoice(f));                     // the Saxons' Saxony city is still to be chosen ...
        QCOMPARE(f.s.cities[bremen].siege, int8_t(0)); // ... and the siege is already lifted (13.14)
        QCOMPARE(int(f.s.cities[bremen].sieger), int(kNone));
        QVERIFY(f.logged("13.14 the siege of Bremen is lifted"));
        ACT(f, "choose dresden");
        QCOMPARE(f.s.units[saxons[0]].loc, int16_t(f.city("dresden")));
        QCOMPARE(f.s.cities[bremen].siege, int8_t(0));
    }
    void c17_refused() {
        Rules f;
        QVERIFY(start(f, {"C17"}));
        REFUSED(f, "C17", "8.66");
    }

    // ================================================================ families

    // Peasant Revolt in Germany (9.41): a city of a Protestant-controlled German Area, not a Supply Base,
    // without a Protestant army.
    void revoltGermany_data() {
        QTest::addColumn<QString>("card");
        QTest::newRow("C20") << "C20";
        QTest::newRow("C37") << "C37";
    }
    void revoltGermany() {
        QFETCH(QString, card);
        Rules f;
        QVERIFY(start(f, {card}));
        f.place("protestant", UnitKind::Mercenary, "pilsen");
        PLAY(f, card);
        QVERIFY(!f.legal("choose prague"));    // a Supply Base
        QVERIFY(!f.legal("choose pilsen"));    // a Protestant army
        QVERIFY(!f.legal("choose vienna"));    // Austria is Catholic
        QVERIFY(!f.legal("choose pressburg")); // Hungary is not in Germany (2.46)
        ACT(f, "choose budweis");
        QVERIFY(f.s.cities[f.city("budweis")].revolt);
        QCOMPARE(f.control("budweis"), int(kNone));
    }
    void revoltGermany_refused_data() { revoltGermany_data(); }
    void revoltGermany_refused() {
        QFETCH(QString, card);
        Rules f;
        QVERIFY(start(f, {card}));
        for (AreaState& a : f.s.areas)
            if (a.control == P)
                a.control = C;
        REFUSED(f, card, "9.41");
    }

    // C39: Peasant Revolt in France, once France is in the war; never off-map France.
    void c39_revoltFrance() {
        Rules f;
        QVERIFY(start(f, {"C39"}));
        f.s.franceInWar = true;
        f.place("french", UnitKind::Militia, "toul");
        PLAY(f, "C39");
        QVERIFY(!f.legal("choose paris"));
        QVERIFY(!f.legal("choose toul"));
        ACT(f, "choose verdun");
        QVERIFY(f.s.cities[f.city("verdun")].revolt);
        QCOMPARE(f.control("verdun"), int(kNone));
    }
    void c39_refused() {
        Rules f;
        QVERIFY(start(f, {"C39"}));
        REFUSED(f, "C39", "P17");
    }

    // Famine & Plague: an enemy stack in a pillaged city loses 1 step (2 at Pillage-2), Mercenaries first.
    void famine_data() {
        QTest::addColumn<QString>("card");
        for (const char* id : {"C24", "C25", "C26", "C27", "C51", "C55"})
            QTest::newRow(id) << id;
    }
    void famine() {
        QFETCH(QString, card);
        Rules f;
        QVERIFY(start(f, {card}));
        const auto merc = f.place("protestant", UnitKind::Mercenary, "pilsen");
        const auto mil = f.place("protestant", UnitKind::Militia, "pilsen");
        f.place("protestant", UnitKind::Mercenary, "eger", 2);
        f.s.cities[f.city("pilsen")].pillage = 2;
        f.s.cities[f.city("eger")].pillage = 1;
        f.s.cities[f.city("vienna")].pillage = 2;
        f.place("imperial", UnitKind::Mercenary, "vienna"); // never its own side
        PLAY(f, card);
        QVERIFY(!f.legal("choose vienna"));
        ACT(f, "choose pilsen");
        QCOMPARE(f.s.units[merc[0]].loc, kPool); // 2 steps, both from the Mercenary
        QCOMPARE(f.s.units[mil[0]].steps, uint8_t(2));
        // the fallback: no enemy stack in a pillaged city, a stack of 4 or more loses 1 step
        Rules g;
        QVERIFY(start(g, {card}));
        g.place("protestant", UnitKind::Militia, "prague", 4);
        g.place("protestant", UnitKind::Militia, "eger", 3);
        PLAY(g, card);
        QCOMPARE(stepsAt(g, "prague", P), 7);
    }
    void famine_refused_data() { famine_data(); }
    void famine_refused() {
        QFETCH(QString, card);
        Rules f;
        QVERIFY(start(f, {card}));
        f.place("protestant", UnitKind::Militia, "prague", 3);
        REFUSED(f, card, "Famine");
    }

    // Recovery (8.63): 3 levels in friendly or Neutral Areas, enemy units do not matter, one city 2 levels.
    void recovery_data() {
        QTest::addColumn<QString>("card");
        for (const char* id : {"C28", "C29", "C52", "C53"})
            QTest::newRow(id) << id;
    }
    void recovery() {
        QFETCH(QString, card);
        Rules f;
        QVERIFY(start(f, {card}));
        f.s.cities[f.city("vienna")].pillage = 2;
        f.s.cities[f.city("linz")].pillage = 2;
        f.s.cities[f.city("graz")].pillage = 1;
        f.s.cities[f.city("pilsen")].pillage = 1;            // Protestant Bohemia
        f.place("protestant", UnitKind::Mercenary, "krems"); // next to Vienna: no matter (8.63)
        PLAY(f, card);
        QVERIFY(!f.legal("choose pilsen"));
        ACT(f, "choose vienna");
        ACT(f, "choose vienna");
        QVERIFY(f.legal("choose linz"));
        ACT(f, "choose linz");
        QCOMPARE(f.s.cities[f.city("vienna")].pillage, int8_t(0));
        QCOMPARE(f.s.cities[f.city("linz")].pillage, int8_t(1));
        QCOMPARE(f.s.cities[f.city("graz")].pillage, int8_t(1));
        QVERIFY(backToProtestant(f)); // three levels: done
        // only one city may recover two levels; pass ends early
        Rules g;
        QVERIFY(start(g, {card}));
        g.s.cities[g.city("vienna")].pillage = 2;
        g.s.cities[g.city("linz")].pillage = 2;
        PLAY(g, card);
        ACT(g, "choose linz");
        ACT(g, "choose linz");
        ACT(g, "choose vienna");
        QCOMPARE(g.s.cities[g.city("vienna")].pillage, int8_t(1));
        QCOMPARE(g.s.cities[g.city("linz")].pillage, int8_t(0));
        Rules h;
        QVERIFY(start(h, {card}));
        h.s.cities[h.city("vienna")].pillage = 1;
        h.s.cities[h.city("linz")].pillage = 1;
        PLAY(h, card);
        ACT(h, "choose linz");
        QVERIFY(!h.legal("choose linz"));
        ACT(h, "pass");
        QCOMPARE(h.s.cities[h.city("vienna")].pillage, int8_t(1));
        QVERIFY(backToProtestant(h));
    }
    void recovery_refused_data() { recovery_data(); }
    void recovery_refused() {
        QFETCH(QString, card);
        Rules f;
        QVERIFY(start(f, {card}));
        f.s.cities[f.city("pilsen")].pillage = 2;
        REFUSED(f, card, "8.63");
    }

    // Mutiny (15.224): the Mercenaries of an enemy stack loot as if Unpaid; eliminated units leave the game.
    void mutiny_data() {
        QTest::addColumn<QString>("card");
        QTest::newRow("C14") << "C14";
        QTest::newRow("C41") << "C41";
    }
    void mutiny() {
        QFETCH(QString, card);
        Rules f;
        QVERIFY(start(f, {card}));
        const auto merc = f.place("protestant", UnitKind::Mercenary, "pilsen", 1, 1);
        const auto mil = f.place("protestant", UnitKind::Militia, "pilsen");
        f.place("protestant", UnitKind::Militia, "prague");
        f.dice({9});
        PLAY(f, card); // one enemy stack with Mercenaries: no choice
        // roll 9 + 1 (Mercenary majority) = 10: Pillage 2, One Step Loss
        QCOMPARE(f.s.cities[f.city("pilsen")].pillage, int8_t(2));
        QCOMPARE(f.s.units[merc[0]].loc, kRemoved);    // 15.224: out of the game
        QCOMPARE(f.s.units[mil[0]].steps, uint8_t(2)); // only the Mercenaries loot
        // two stacks: the Catholic chooses
        Rules g;
        QVERIFY(start(g, {card}));
        g.place("protestant", UnitKind::Mercenary, "pilsen");
        g.place("protestant", UnitKind::Mercenary, "eger");
        g.dice({0});
        PLAY(g, card);
        QVERIFY(inEventChoice(g));
        ACT(g, "choose eger");
        QVERIFY(g.logged("Loot"));
    }
    void mutiny_refused_data() { mutiny_data(); }
    void mutiny_refused() {
        QFETCH(QString, card);
        Rules f;
        QVERIFY(start(f, {card}));
        f.place("protestant", UnitKind::Militia, "pilsen", 3);
        f.place("imperial", UnitKind::Mercenary, "vienna", 3);
        REFUSED(f, card, "Mercenary");
    }

    // ================================================================ combat cards (9.5)

    // C31 Fog: the defender's card: the attacker fires one column to the left.
    void c31_fog() {
        QString base, with;
        for (bool play : {false, true}) {
            Rules f;
            QVERIFY(start(f, {"C31"}));
            armies(f);
            battle(f, P, "luetzen");
            QVERIFY(cards(f, {}, play ? QStringList{"C31"} : QStringList{}));
            (play ? with : base) = fire(f, P);
        }
        QVERIFY2(column(base) != column(with), qPrintable(base + " / " + with));
    }
    // 9.51: C31 only in a combat, and only for the defender.
    void c31_refused() {
        {
            Rules e;
            QVERIFY(start(e, {"C31"}));
            COMBAT_ONLY(e, "C31");
        }
        // never the attacker's card
        Rules g;
        QVERIFY(start(g, {"C31"}));
        armies(g);
        battle(g, C, "luetzen");
        QVERIFY(!g.legal("card C31"));
    }

    // C32 Flanking Maneuver: 2 leaders and at least as many units as the enemy: one column right.
    void c32_flankingManeuver() {
        QString base, with;
        for (bool play : {false, true}) {
            Rules f;
            QVERIFY(start(f, {"C32"}));
            armies(f);
            battle(f, C, "luetzen");
            QVERIFY(cards(f, play ? QStringList{"C32"} : QStringList{}, {}));
            (play ? with : base) = fire(f, C);
        }
        QVERIFY2(column(base) != column(with), qPrintable(base + " / " + with));
    }
    // 9.51: C32 only in a combat, and only with at least as many units as the enemy.
    void c32_refused() {
        {
            Rules e;
            QVERIFY(start(e, {"C32"}));
            COMBAT_ONLY(e, "C32");
        }
        Rules g;
        QVERIFY(start(g, {"C32"}));
        armies(g);
        g.place("protestant", UnitKind::Militia, "luetzen"); // fewer units than the enemy
        battle(g, C, "luetzen");
        QVERIFY(!g.legal("card C32"));
    }

    // C33 Croats: an army with Imperial units: +1 DRM; the beaten enemy loses one more step.
    void c33_croats() {
        Rules f;
        QVERIFY(start(f, {"C33"}));
        armies(f);
        battle(f, C, "luetzen");
        QVERIFY(cards(f, {"C33"}, {}));
        QCOMPARE(drm(fire(f, C)), 1 + 1); // Bucquoy's Battle rating +1, C33 +1
        const EventDef* ev = EventRegistry::instance().find("C33");
        QVERIFY(ev && ev->afterCombat);
    }
    // 9.51: C33 only in a combat, and only for an army with an Imperial unit.
    void c33_refused() {
        {
            Rules e;
            QVERIFY(start(e, {"C33"}));
            COMBAT_ONLY(e, "C33");
        }
        Rules g;
        QVERIFY(start(g, {"C33"}));
        g.placeLeader("tilly", "luetzen");
        g.place("bavarian", UnitKind::Mercenary, "luetzen", 3);
        g.placeLeader("mansfeld", "luetzen");
        g.place("protestant", UnitKind::Mercenary, "luetzen", 3);
        battle(g, C, "luetzen");
        QVERIFY(!g.legal("card C33")); // no Imperial unit
    }

    // C33 after the combat: the beaten Protestant army loses one more step than without the card (same
    // battle, same dice: the Catholic rolls 9, the Protestant 0).
    void c33_beatenLosesAStep() {
        int steps[2] = {0, 0};
        for (bool play : {false, true}) {
            Rules f;
            QVERIFY(start(f, {"C33"}));
            armies(f);
            battle(f, C, "luetzen", 9, 0);
            QVERIFY(cards(f, play ? QStringList{"C33"} : QStringList{}, {}));
            QVERIFY2(f.runUntil([&] { return f.inActionPhase(); }), qPrintable(f.error));
            QVERIFY2(f.logged("C33 Croats: the beaten Protestant army loses one more step") == play,
                     qPrintable(f.logText(f.log)));
            for (size_t u = 0; u < f.s.units.size(); ++u)
                if (f.s.units[u].loc >= 0 && ev::natOf(f.d(), f.s, static_cast<int>(u)) == "protestant")
                    steps[play] += f.s.units[u].steps;
        }
        QVERIFY(steps[0] > 0);
        QCOMPARE(steps[1], steps[0] - 1);
    }

    // 9.51: at most two combat cards per side per combat; after the combat the asterisked C33 leaves the
    // game, C47 goes to the Played pile.
    void c33_twoCardsAtMost() {
        Rules f;
        QVERIFY(start(f, {"C33", "C47", "C49"}));
        armies(f);
        battle(f, C, "luetzen");
        QVERIFY(f.legal("card C49")); // each of the three may be played
        ACT(f, "card C33");
        QVERIFY(f.legal("card C49"));
        ACT(f, "card C47");
        QCOMPARE(f.legalOf(ActionKind::CombatCard), QStringList{}); // not a third
        QVERIFY(f.legal("pass"));
        QVERIFY(cards(f, {}, {}));
        QVERIFY(f.runUntil([&] { return !f.combat(); }));
        QCOMPARE(f.s.cardPlace[f.card("C33")], CardPlace::Removed);
        QCOMPARE(f.s.cardPlace[f.card("C47")], CardPlace::Played);
        QCOMPARE(f.s.cardPlace[f.card("C49")], CardPlace::Hand);
    }

    // C34 Command Rivalry: an enemy army with 2 leaders: -1 to the enemy (12.3 example: even under Tilly).
    void c34_commandRivalry() {
        Rules f;
        QVERIFY(start(f, {"C34"}));
        armies(f);
        battle(f, P, "luetzen");
        QVERIFY(cards(f, {}, {"C34"}));
        QCOMPARE(drm(fire(f, P)), 1 - 1); // Mansfeld +1, C34 -1
    }
    // 9.51: C34 only in a combat, and only against an army of two or more leaders.
    void c34_refused() {
        {
            Rules e;
            QVERIFY(start(e, {"C34"}));
            COMBAT_ONLY(e, "C34");
        }
        Rules g;
        QVERIFY(start(g, {"C34"}));
        g.placeLeader("mansfeld", "luetzen");
        g.place("protestant", UnitKind::Mercenary, "luetzen", 3);
        g.placeLeader("bucquoy", "luetzen");
        g.place("imperial", UnitKind::Mercenary, "luetzen", 3);
        battle(g, P, "luetzen");
        QVERIFY(g.act("pass"));
        QVERIFY(!g.legal("card C34")); // one enemy leader
    }

    // C35 Spanish Tercios: an army with a Spanish Veteran: +1 DRM attacking, +2 defending.
    void c35_spanishTercios() {
        Rules f;
        QVERIFY(start(f, {"C35"}));
        f.placeLeader("spinola", "namur");
        f.place("spanish", UnitKind::Veteran, "namur", 3);
        f.placeLeader("mansfeld", "namur");
        f.place("protestant", UnitKind::Mercenary, "namur", 4);
        battle(f, C, "namur");
        QVERIFY(cards(f, {"C35"}, {}));
        QCOMPARE(drm(fire(f, C)), 1 + 1); // Spinola +1, C35 +1
        const EventDef* ev = EventRegistry::instance().find("C35");
        QVERIFY(ev && ev->combatEffect);
        Ctx c{f.d(), f.s, nullptr};
        CombatFrame cf;
        cf.attacker = P;
        QCOMPARE(ev->combatEffect(c, cf, C).ownDrm, 2);
        cf.attacker = C;
        QCOMPARE(ev->combatEffect(c, cf, C).ownDrm, 1);
    }
    // 9.51: C35 only in a combat, and only for an army with a Spanish Veteran.
    void c35_refused() {
        {
            Rules e;
            QVERIFY(start(e, {"C35"}));
            COMBAT_ONLY(e, "C35");
        }
        Rules g;
        QVERIFY(start(g, {"C35"}));
        armies(g);
        battle(g, C, "luetzen");
        QVERIFY(!g.legal("card C35"));
    }

    // C47 Cavalry Charge: not an all-Militia army: +1 DRM (+2 under a Dynamic commander).
    void c47_cavalryCharge() {
        Rules f;
        QVERIFY(start(f, {"C47"}));
        armies(f);
        battle(f, C, "luetzen");
        QVERIFY(cards(f, {"C47"}, {}));
        QCOMPARE(drm(fire(f, C)), 1 + 1);
        const EventDef* ev = EventRegistry::instance().find("C47");
        QVERIFY(ev && ev->combatEffect);
        Ctx c{f.d(), f.s, nullptr};
        CombatFrame cf;
        cf.attacker = C;
        cf.attackCommander = static_cast<int16_t>(f.leader("tilly"));
        QCOMPARE(ev->combatEffect(c, cf, C).ownDrm, 2);
        cf.attackCommander = static_cast<int16_t>(f.leader("bucquoy"));
        QCOMPARE(ev->combatEffect(c, cf, C).ownDrm, 1);
    }
    // 9.51: C47 only in a combat, and never for an army of Militia only.
    void c47_refused() {
        {
            Rules e;
            QVERIFY(start(e, {"C47"}));
            COMBAT_ONLY(e, "C47");
        }
        Rules g;
        QVERIFY(start(g, {"C47"}));
        g.placeLeader("bucquoy", "luetzen");
        g.place("imperial", UnitKind::Militia, "luetzen", 3);
        g.placeLeader("mansfeld", "luetzen");
        g.place("protestant", UnitKind::Mercenary, "luetzen", 3);
        battle(g, C, "luetzen");
        QVERIFY(!g.legal("card C47")); // Militia only
    }

    // C48 Surprise Attack: attacker only, +1 DRM; the defender may play no combat card.
    void c48_surpriseAttack() {
        Rules f;
        QVERIFY(start(f, {"C48"}));
        armies(f);
        f.setHand(P, {"P48"});
        battle(f, C, "luetzen");
        QVERIFY(f.act("card C48"));
        QVERIFY(f.act("pass"));
        QCOMPARE(f.legalOf(ActionKind::CombatCard), QStringList{}); // the defender may not play P48
        QVERIFY(f.act("pass"));
        QCOMPARE(drm(fire(f, C)), 1 + 1);
        Rules g;
        QVERIFY(start(g, {"C48"}));
        armies(g);
        battle(g, P, "luetzen");
        QVERIFY(g.act("pass"));
        QVERIFY(!g.legal("card C48")); // never the defender's
    }
    // ... and a Protestant Surprise Attack (P12) keeps the Catholic's cards out.
    void c48_blocksDefender() {
        Rules f;
        QVERIFY(start(f, {"C49"}));
        armies(f);
        CombatFrame cf;
        cf.attacker = P;
        cf.cards[P].push_back(static_cast<int16_t>(f.card("P12")));
        Ctx c{f.d(), f.s, nullptr};
        QVERIFY(ev::surpriseBlocks(c, cf, C));
        QVERIFY(!ev::surpriseBlocks(c, cf, P));
        const EventDef* ev = EventRegistry::instance().find("C49");
        QVERIFY(!ev->combatAllowed(c, cf, C));
    }

    // C49 Unreliable Troops: the enemy has Militia or Mercenaries: -1 to him (the Breitenfeld card).
    void c49_unreliableTroops() {
        Rules f;
        QVERIFY(start(f, {"C49"}));
        armies(f);
        battle(f, P, "luetzen");
        QVERIFY(cards(f, {}, {"C49"}));
        QCOMPARE(drm(fire(f, P)), 1 - 1);
    }
    // 9.51: C49 only in a combat, and only against Militia or Mercenaries.
    void c49_refused() {
        {
            Rules e;
            QVERIFY(start(e, {"C49"}));
            COMBAT_ONLY(e, "C49");
        }
        Rules g;
        QVERIFY(start(g, {"C49"}));
        g.placeLeader("gustavus-adolphus", "luetzen");
        g.place("swedish", UnitKind::Veteran, "luetzen", 3);
        g.placeLeader("bucquoy", "luetzen");
        g.place("imperial", UnitKind::Mercenary, "luetzen", 3);
        battle(g, P, "luetzen");
        QVERIFY(g.act("pass"));
        QVERIFY(!g.legal("card C49")); // Veterans only
    }

    // C50 Field Fortifications: defender only, -2 to the attacker; not after Furia Franchese (P47).
    void c50_fieldFortifications() {
        Rules f;
        QVERIFY(start(f, {"C50"}));
        armies(f);
        battle(f, P, "luetzen");
        QVERIFY(cards(f, {}, {"C50"}));
        QCOMPARE(drm(fire(f, P)), 1 - 2);
    }
    // 9.51: C50 only in a combat, only for the defender, and not after Furia Franchese (P47).
    void c50_refused() {
        {
            Rules e;
            QVERIFY(start(e, {"C50"}));
            COMBAT_ONLY(e, "C50");
        }
        // Furia Franchese (P47) played by the attacker cancels it; without P47 it is playable
        for (bool furia : {false, true}) {
            Rules g;
            QVERIFY(start(g, {"C50"}));
            g.placeLeader("la-force", "luetzen");
            g.place("french", UnitKind::Mercenary, "luetzen", 4);
            g.placeLeader("bucquoy", "luetzen");
            g.place("imperial", UnitKind::Mercenary, "luetzen", 3);
            g.setHand(P, {"P47"});
            g.s.franceInWar = true;
            battle(g, P, "luetzen");
            QVERIFY(g.legal("card P47"));
            if (furia)
                QVERIFY(g.act("card P47"));
            QVERIFY(g.act("pass"));
            QCOMPARE(g.legal("card C50"), !furia);
        }
        Rules h;
        QVERIFY(start(h, {"C50"}));
        armies(h);
        battle(h, C, "luetzen");
        QVERIFY(!h.legal("card C50")); // never the attacker's
    }

    // 9.5: each combat card in the same battle (armies(): 4 Imperial Mercenaries under Bucquoy and Gallas,
    // 4 Protestant Mercenaries under Mansfeld and Anhalt; same dice) fought without and with the card: the
    // difference in the fire line is the card's DRM or column shift.
    void combatWithWithout_data() {
        QTest::addColumn<QString>("card");
        QTest::addColumn<int>("attacker");
        QTest::addColumn<int>("firer"); // whose fire line the card changes
        QTest::addColumn<int>("drmDelta");
        QTest::addColumn<bool>("columnShift");
        QTest::addColumn<bool>("spanish"); // a Spanish Veteran joins the Catholic army
        QTest::newRow("C31") << "C31" << P << P << 0 << true << false;
        QTest::newRow("C32") << "C32" << C << C << 0 << true << false;
        QTest::newRow("C33") << "C33" << C << C << 1 << false << false;
        QTest::newRow("C34") << "C34" << P << P << -1 << false << false;
        QTest::newRow("C35 attacking") << "C35" << C << C << 1 << false << true;
        QTest::newRow("C35 defending") << "C35" << P << C << 2 << false << true;
        QTest::newRow("C47") << "C47" << C << C << 1 << false << false;
        QTest::newRow("C48") << "C48" << C << C << 1 << false << false;
        QTest::newRow("C49") << "C49" << P << P << -1 << false << false;
        QTest::newRow("C50") << "C50" << P << P << -2 << false << false;
    }
    void combatWithWithout() {
        QFETCH(QString, card);
        QFETCH(int, attacker);
        QFETCH(int, firer);
        QFETCH(int, drmDelta);
        QFETCH(bool, columnShift);
        QFETCH(bool, spanish);
        QString line[2];
        for (bool play : {false, true}) {
            Rules f;
            QVERIFY(start(f, {card}));
            armies(f);
            if (spanish)
                f.place("spanish", UnitKind::Veteran, "luetzen");
            battle(f, attacker, "luetzen");
            const QStringList mine = play ? QStringList{card} : QStringList{};
            QVERIFY2(attacker == C ? cards(f, mine, {}) : cards(f, {}, mine), qPrintable(f.error));
            line[play] = fire(f, firer);
            QVERIFY2(line[play].startsWith("column"), qPrintable(line[play]));
        }
        const QString both = line[0] + " / " + line[1];
        QCOMPARE(drm(line[1]) - drm(line[0]), drmDelta);
        QVERIFY2((column(line[0]) != column(line[1])) == columnShift, qPrintable(both));
    }

    // ================================================================ registry and coverage

    // Issue 5 (Behaviour): when an event may not be played, "the UI and CLI say why in words with the rule
    // number": the engine's refusal of the action, which the CLI prints, carries the reason (8.61 for C6
    // without Bohemia, 9.51 for a combat card outside a combat).
    void refusalReasonReachesThePlayer() {
        auto refusal = [](Rules& f, const QString& text) {
            const auto a = parseAction(f.d(), f.s, text, nullptr);
            if (!a)
                return QStringLiteral("(cannot parse)");
            const ApplyResult r = f.e.apply(f.s, *a, nullptr);
            return r.ok ? QStringLiteral("(applied)") : r.error;
        };
        Rules f;
        QVERIFY(start(f, {"C6", "C31"})); // Bohemia is Protestant in 1618
        QVERIFY(whyNot(f, "C6").contains("8.61"));
        QString e = refusal(f, "play C6 event");
        QVERIFY2(e.contains("not a legal action") && e.contains("8.61") && e.contains("Bohemia"),
                 qPrintable(e));
        e = refusal(f, "play C31 event");
        QVERIFY2(e.contains("not a legal action") && e.contains("9.51"), qPrintable(e));
        f.setAreaControl("bohemia", C);
        QCOMPARE(refusal(f, "play C6 event"), QStringLiteral("(applied)"));
    }

    // Every Catholic card has an event (an apply, or a combat effect for combat cards) and every
    // precondition has a reason.
    void everyCardRegistered() {
        Rules f;
        QVERIFY(f.newGame());
        for (const Card& cd : f.d().cards) {
            if (cd.side != Side::Catholic)
                continue;
            const EventDef* ev = EventRegistry::instance().find(cd.id);
            QVERIFY2(ev, qPrintable(cd.id));
            if (cd.combat)
                QVERIFY2(ev->combatAllowed, qPrintable(cd.id));
            else
                QVERIFY2(ev->apply, qPrintable(cd.id));
            QVERIFY2(!ev->playable || ev->whyNot, qPrintable(cd.id));
        }
    }

    // westphalia-cli cards coverage: all 55 Catholic cards implemented and tested (--strict: exit 0).
    void cardsCoverageCli() {
#ifdef WESTPHALIA_CLI
        QProcess p;
        p.start(QStringLiteral(WESTPHALIA_CLI), {"cards", "coverage", "--side", "catholic", "--json",
                                                 "--strict", "--data", WESTPHALIA_SOURCE_DIR});
        QVERIFY(p.waitForFinished(60000));
        QCOMPARE(p.exitCode(), 0);
        const QJsonObject root = QJsonDocument::fromJson(p.readAllStandardOutput()).object();
        const QJsonObject cath = root.value("totals").toObject().value("catholic").toObject();
        QCOMPARE(cath.value("cards").toInt(), 55);
        QCOMPARE(cath.value("implemented").toInt(), 55);
        QCOMPARE(cath.value("tested").toInt(), 55);
        QCOMPARE(root.value("cards").toArray().size(), 55);
#else
        QSKIP("built without the CLI");
#endif
    }

    // tests/card-tests.json names, for every card, the test functions that exercise it; each must exist
    // in its test binary (listed by the binary's -functions option).
    void cardTestsAreHonest() {
        QFile file(QStringLiteral(WESTPHALIA_TEST_DIR "/card-tests.json"));
        QVERIFY(file.open(QIODevice::ReadOnly));
        const QJsonObject root = QJsonDocument::fromJson(file.readAll()).object();
        const QJsonObject tests = root.value("tests").toObject();
        QVERIFY(!tests.isEmpty());
        // the functions of this binary
        QStringList mine;
        const QMetaObject* mo = metaObject();
        for (int i = mo->methodOffset(); i < mo->methodCount(); ++i)
            if (mo->method(i).methodType() == QMetaMethod::Slot)
                mine << QString::fromLatin1(mo->method(i).name());
        QHash<QString, QStringList> functions; // binary -> its functions
        functions.insert(QStringLiteral("test_events_catholic"), mine);
        Rules f;
        for (auto it = tests.begin(); it != tests.end(); ++it) {
            QVERIFY2(f.d().card(it.key()) >= 0, qPrintable("unknown card " + it.key()));
            const QJsonArray list = it.value().toArray();
            QVERIFY2(!list.isEmpty(), qPrintable(it.key()));
            for (const QJsonValue& v : list) {
                const QString binary = v.toString().section(QStringLiteral("::"), 0, 0);
                const QString fn = v.toString().section(QStringLiteral("::"), 1);
                if (!functions.contains(binary)) {
                    QProcess p;
                    p.start(QCoreApplication::applicationDirPath() + QLatin1Char('/') + binary,
                            {QStringLiteral("-functions")});
                    QVERIFY2(
                        p.waitForFinished(60000) && p.exitCode() == 0,
                        qPrintable(
                            QStringLiteral("%1: cannot list the functions of %2").arg(it.key(), binary)));
                    QStringList fns;
                    for (const QString& line :
                         QString::fromUtf8(p.readAllStandardOutput()).split(QLatin1Char('\n')))
                        if (!line.trimmed().isEmpty())
                            fns << line.trimmed().remove(QStringLiteral("()"));
                    functions.insert(binary, fns);
                }
                QVERIFY2(
                    functions.value(binary).contains(fn),
                    qPrintable(QStringLiteral("%1: %2 has no test function %3").arg(it.key(), binary, fn)));
            }
        }
        // every Catholic card is listed
        for (const Card& cd : f.d().cards)
            if (cd.side == Side::Catholic)
                QVERIFY2(tests.contains(cd.id), qPrintable(cd.id + " has no test listed"));
    }
};

QTEST_GUILESS_MAIN(TestEventsCatholic)
#include "test_events_catholic.moc"

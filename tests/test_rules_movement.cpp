// Movement (11.x), Free Actions (8.32) and control by movement (3.11, 5.13), driven through the engine from
// constructed positions (issue 3).
#include "rules_fixture.h"

using namespace wp;
using namespace wp::rules;
using namespace wp::rules::test;

class TestRulesMovement : public QObject {
    Q_OBJECT

    static bool moves(Rules& f, const QStringList& cities) {
        for (const QString& c : cities)
            if (!f.act("move " + c))
                return false;
        return true;
    }
    static QString u(int16_t unit) { return QStringLiteral("u%1").arg(unit); }

  private slots:
    void initTestCase() { QVERIFY(rulesData()); }

    // 8.32, 8.321: a Free Action moves one unit up to its MA, or one lone leader; no combat, no pick-ups.
    void freeActionUnit() {
        Rules f;
        QVERIFY(f.newGame());
        f.clearBoard();
        const int16_t merc = f.place("protestant", UnitKind::Mercenary, "weiden").front();
        f.placeLeader("anhalt", "prague");
        const int16_t other = f.place("protestant", UnitKind::Militia, "prague").front();
        f.placeLeader("mansfeld", "budweis");
        f.setActive(kProtestant);
        QVERIFY(f.legal("free " + u(merc)));
        QVERIFY(f.legal("free mansfeld"));
        QVERIFY(!f.legal("free anhalt")); // not a lone leader
        QVERIFY(f.act("free " + u(merc)));
        QVERIFY(moves(f, {"eger", "pilsen", "prague"}));
        QVERIFY(f.legalOf(ActionKind::PickUp).isEmpty());
        QVERIFY(!f.legal("pickup " + u(other)));
        QVERIFY(moves(f, {"kuttenberg", "iglau"})); // MA 5
        QCOMPARE(f.activation()->mpUsed, 5);
        QVERIFY(f.legalOf(ActionKind::Move).isEmpty());
        QVERIFY(f.act("end"));
        QCOMPARE(f.s.units[merc].loc, f.city("iglau"));
        QCOMPARE(f.s.roundsUsed[kProtestant], static_cast<int8_t>(1)); // 8.322: it used a round
    }

    void freeActionLeader() {
        Rules f;
        QVERIFY(f.newGame());
        f.clearBoard();
        f.placeLeader("mansfeld", "budweis");
        f.place("bavarian", UnitKind::Militia, "linz");
        f.setActive(kProtestant);
        QVERIFY(f.act("free mansfeld"));
        QVERIFY(!f.legal("move linz")); // 11.21: never into enemy combat units
        QVERIFY(!f.legal("control"));   // 11.17: leaders alone gain no control
        QVERIFY(moves(f, {"pilsen", "eger", "weiden", "amberg", "nuernberg", "bamberg", "schweinfurt"}));
        QVERIFY(!f.legalOf(ActionKind::Move).isEmpty());
        QVERIFY(f.act(f.legalOf(ActionKind::Move).front())); // the eighth MP
        QCOMPARE(f.activation()->mpUsed, 8);
        QVERIFY(f.legalOf(ActionKind::Move).isEmpty());
        QVERIFY(f.act("end"));
    }

    // 8.321: a lone unit may not initiate combat, but may join an army besieging (or masking) a Fortress.
    void freeActionNoCombat() {
        Rules f;
        QVERIFY(f.newGame());
        f.clearBoard();
        f.place("bavarian", UnitKind::Militia, "linz");
        f.place("bavarian", UnitKind::Militia, "munich", 1, 2, true); // inside the Fortress
        f.place("protestant", UnitKind::Mercenary, "munich", 2);      // masking it
        const int16_t m = f.place("protestant", UnitKind::Militia, "passau").front();
        const int16_t n = f.place("protestant", UnitKind::Militia, "landshut").front();
        f.setActive(kProtestant);
        QVERIFY(f.act("free " + u(m)));
        QVERIFY(!f.legal("move linz"));
        QVERIFY(f.legalOf(ActionKind::Attack).isEmpty());
        QVERIFY(f.act("end"));
        f.setActive(kProtestant);
        QVERIFY(f.act("free " + u(n)));
        QVERIFY(f.legal("move munich"));
        QVERIFY(f.act("move munich"));
        QVERIFY(f.legalOf(ActionKind::Besiege).isEmpty()); // 8.321: nor may it place the Siege marker
        QVERIFY(f.act("end"));
        QCOMPARE(f.s.units[n].loc, f.city("munich"));
    }

    // 11.11: the stack moves at the MA of its slowest unit; 11.14: dropping it off lets the rest go on.
    void slowestUnit() {
        Rules f;
        QVERIFY(f.newGame());
        f.clearBoard();
        f.placeLeader("mansfeld", "weiden");
        const int16_t merc = f.place("protestant", UnitKind::Mercenary, "weiden").front(); // MA 5
        const int16_t mil = f.place("protestant", UnitKind::Militia, "weiden").front();    // MA 4
        f.setActive(kProtestant);
        QVERIFY(f.activate("mansfeld"));
        QVERIFY(f.pickUp({merc, mil}));
        QVERIFY(moves(f, {"eger", "pilsen", "prague", "kuttenberg"}));
        QVERIFY(f.legalOf(ActionKind::Move).isEmpty());
        QVERIFY(f.act("dropoff " + u(mil)));
        QVERIFY(f.act("move iglau"));
        QVERIFY(f.legalOf(ActionKind::Move).isEmpty()); // the mercenary's MA 5
        QVERIFY(f.act("end"));
        QCOMPARE(f.s.units[mil].loc, f.city("kuttenberg"));
        QCOMPARE(f.s.units[merc].loc, f.city("iglau"));
    }

    // 11.11, 11.15: a unit picked up moves its own MA from there, within the leader's 8 MP.
    void pickUpMovesItsOwnMa() {
        Rules f;
        QVERIFY(f.newGame());
        f.clearBoard();
        f.placeLeader("mansfeld", "weiden");
        const int16_t merc = f.place("protestant", UnitKind::Mercenary, "prague").front();
        f.setActive(kProtestant);
        QVERIFY(f.activate("mansfeld"));
        QVERIFY(moves(f, {"eger", "pilsen", "prague"})); // 3 MP alone
        QVERIFY(f.act("pickup " + u(merc)));
        QVERIFY(moves(f, {"kuttenberg", "iglau", "znaim", "krems", "vienna"})); // its 5 MP: 8 in all
        QCOMPARE(f.activation()->mpUsed, 8);
        QVERIFY(f.legalOf(ActionKind::Move).isEmpty());
        QVERIFY(f.act("end"));
        QCOMPARE(f.s.units[merc].loc, f.city("vienna"));
    }

    // 11.14: a unit dropped off is done for the activation.
    void droppedUnitStays() {
        Rules f;
        QVERIFY(f.newGame());
        f.clearBoard();
        f.placeLeader("mansfeld", "weiden");
        const auto mercs = f.place("protestant", UnitKind::Mercenary, "weiden", 2);
        f.setActive(kProtestant);
        QVERIFY(f.activate("mansfeld"));
        QVERIFY(f.pickUp(mercs));
        QVERIFY(f.act("move eger"));
        QVERIFY(f.act("dropoff " + u(mercs[0])));
        QVERIFY(!f.legal("pickup " + u(mercs[0])));
        QVERIFY(moves(f, {"pilsen", "eger"})); // back again: still not
        QVERIFY(!f.legal("pickup " + u(mercs[0])));
        QVERIFY(f.act("end"));
        QCOMPARE(f.s.units[mercs[0]].loc, f.city("eger"));
        QCOMPARE(f.s.units[mercs[0]].flags & kDropped, 0); // free again in a later activation
    }

    // 11.17, 3.11: control of a city costs an extra MP; not for Fortresses, not for leaders alone.
    void controlCostsAnMp() {
        Rules f;
        QVERIFY(f.newGame());
        f.clearBoard();
        const int16_t m = f.place("protestant", UnitKind::Mercenary, "linz").front();
        f.setActive(kProtestant);
        QVERIFY(f.act("free " + u(m)));
        QVERIFY(f.act("move passau"));
        QCOMPARE(f.control("passau"), kCatholic);
        QVERIFY(f.act("control"));
        QCOMPARE(f.activation()->mpUsed, 2);
        QCOMPARE(f.control("passau"), kProtestant);
        QVERIFY(f.logged("3.11 Protestant takes control of Passau"));
        QVERIFY(!f.legal("control")); // already his
        QVERIFY(moves(f, {"landshut", "munich"}));
        QCOMPARE(f.control("munich"), kCatholic);
        QVERIFY(!f.legal("control")); // 3.12: a Fortress only by siege
        QVERIFY(f.act("end"));
        QCOMPARE(f.control("landshut"), kCatholic); // moving through does not take control
        // with no MP left, no control either
        f.setActive(kProtestant);
        const int16_t m2 = f.place("protestant", UnitKind::Militia, "budweis").front();
        QVERIFY(f.act("free " + u(m2)));
        QVERIFY(moves(f, {"linz", "krems", "znaim", "iglau"})); // MA 4: Linz, Krems, Znaim are Catholic
        QVERIFY(!f.legal("control"));
    }

    // 11.18, 5.13: the first unit into a Neutral Area: the opponent gains 1 VP, once; not leaders alone,
    // not Independent cities.
    void neutrality() {
        Rules f;
        QVERIFY(f.newGame());
        f.clearBoard();
        QVERIFY(f.s.areas[f.area("thuringia")].neutral);
        f.placeLeader("mansfeld", "luetzen");
        const int16_t p = f.place("protestant", UnitKind::Mercenary, "leipzig").front();
        const int16_t c = f.place("bavarian", UnitKind::Mercenary, "donauwoerth").front();
        f.setActive(kProtestant);
        QVERIFY(f.act("free mansfeld"));
        QVERIFY(f.act("move weimar"));
        QCOMPARE(f.s.vp, 21);
        QVERIFY(f.s.areas[f.area("thuringia")].neutral);
        QVERIFY(f.act("end"));
        f.setActive(kProtestant);
        QVERIFY(f.act("free " + u(p)));
        QVERIFY(f.act("move luetzen"));
        QVERIFY(f.act("move weimar"));
        QCOMPARE(f.s.vp, 22); // a Protestant violation adds
        QVERIFY(!f.s.areas[f.area("thuringia")].neutral);
        QVERIFY(f.logged("5.13 Protestant units violate the neutrality of Thuringia"));
        QVERIFY(f.act("move erfurt"));   // Independent
        QVERIFY(f.act("move eisenach")); // Thuringia again: once only
        QCOMPARE(f.s.vp, 22);
        QVERIFY(f.act("end"));
        f.setActive(kCatholic);
        QVERIFY(f.act("free " + u(c)));
        QVERIFY(f.act("move noerdlingen"));
        QCOMPARE(f.s.vp, 21); // a Catholic violation subtracts
        QVERIFY(!f.s.areas[f.area("wuerttemberg")].neutral);
    }

    // 11.21, 12.11: entering a city with enemy units ends movement; combat must follow.
    void enemyOccupiedStops() {
        Rules f;
        QVERIFY(f.newGame());
        f.clearBoard();
        f.placeLeader("tilly", "munich");
        const auto mercs = f.place("bavarian", UnitKind::Mercenary, "munich", 2);
        f.place("protestant", UnitKind::Militia, "landshut");
        f.placeLeader("pappenheim", "regensburg");
        f.setActive(kCatholic);
        QVERIFY(f.activate("tilly"));
        QVERIFY(f.pickUp(mercs));
        QVERIFY(f.act("move landshut"));
        const QStringList l = f.legalTexts();
        QCOMPARE(l.size(), 3); // attack with either or both units, nothing else
        for (const QString& a : l)
            QVERIFY2(a.startsWith("attack "), qPrintable(a));
        // a leader alone may not enter at all
        f.setActive(kCatholic);
        QVERIFY(f.act("free pappenheim"));
        QVERIFY(!f.legal("move landshut"));
        QVERIFY(f.legal("move ingolstadt"));
    }

    // 11.22: enemy leaders without units are eliminated by an army entering; it goes on. A lone leader may
    // pass through their city but not stop there.
    void enemyLoneLeaders() {
        Rules f;
        QVERIFY(f.newGame());
        f.clearBoard();
        f.placeLeader("tilly", "munich");
        const auto mercs = f.place("bavarian", UnitKind::Mercenary, "munich", 2);
        f.placeLeader("mansfeld", "landshut");
        f.placeLeader("anhalt", "ingolstadt");
        f.setActive(kCatholic);
        QVERIFY(f.activate("tilly"));
        QVERIFY(f.pickUp(mercs));
        QVERIFY(f.act("move landshut"));
        QCOMPARE(f.s.leaders[f.leader("mansfeld")].status, LeaderStatus::Dead);
        QVERIFY(f.logged("11.22 Mansfeld is caught without troops at Landshut"));
        QVERIFY(f.legal("move passau")); // movement goes on
        QVERIFY(f.act("end"));
        f.setActive(kCatholic);
        f.placeLeader("pappenheim", "munich");
        QVERIFY(f.act("free pappenheim"));
        QVERIFY(f.act("move ingolstadt"));
        QCOMPARE(f.s.leaders[f.leader("anhalt")].status, LeaderStatus::InPlay);
        QVERIFY(!f.legal("end"));
        QVERIFY(f.act("move donauwoerth"));
        QVERIFY(f.act("end"));
    }

    // 11.23: fortress reaction. All go inside (the army may move on) or all stay outside (combat).
    void fortressReaction() {
        for (bool in : {true, false}) {
            Rules f;
            QVERIFY(f.newGame());
            f.clearBoard();
            f.placeLeader("tilly", "munich");
            f.place("bavarian", UnitKind::Mercenary, "munich", 2);
            f.placeLeader("mansfeld", "landshut");
            const auto army = f.place("protestant", UnitKind::Mercenary, "landshut", 2);
            f.setActive(kProtestant);
            QVERIFY(f.activate("mansfeld"));
            QVERIFY(f.pickUp(army));
            QVERIFY(f.act("move munich"));
            QCOMPARE(f.e.actor(f.s), kCatholic);
            QCOMPARE(f.legalTexts(), (QStringList{"react in", "react out"}));
            QVERIFY(f.act(in ? "react in" : "react out"));
            QCOMPARE(f.e.actor(f.s), kProtestant);
            if (in) {
                for (int c : unitsAt(f.s, f.city("munich"), kCatholic, f.d()))
                    QVERIFY(f.s.units[c].flags & kInside);
                QVERIFY(f.s.leaders[f.leader("tilly")].flags & kInside);
                QVERIFY(f.legal("move ingolstadt")); // 11.21 exception 1
                QVERIFY(f.legal("end"));
            } else {
                QVERIFY(f.legalOf(ActionKind::Move).isEmpty());
                QVERIFY(!f.legalOf(ActionKind::Attack).isEmpty());
                QVERIFY(!f.legal("end"));
            }
        }
    }

    // 11.31-11.32: France is closed until it enters the war; off-map France is Protestant only.
    void france() {
        Rules f;
        QVERIFY(f.newGame());
        f.clearBoard();
        const int16_t p = f.place("protestant", UnitKind::Mercenary, "nancy").front();
        const int16_t c = f.place("bavarian", UnitKind::Mercenary, "langres").front();
        f.setActive(kProtestant);
        QVERIFY(f.act("free " + u(p)));
        QVERIFY(!f.legal("move toul"));
        QVERIFY(f.act("end"));
        f.s.franceInWar = true;
        f.setActive(kProtestant);
        QVERIFY(f.act("free " + u(p)));
        QVERIFY(f.act("move toul"));
        QVERIFY(!f.legal("move langres")); // a Catholic unit there: a lone unit may not attack
        QVERIFY(f.act("end"));
        f.setActive(kCatholic);
        QVERIFY(f.act("free " + u(c)));
        QVERIFY(!f.legal("move troyes")); // off-map
        QVERIFY(!f.legal("move toul"));   // the Protestant unit is there
        QVERIFY(f.legal("move gray"));
    }

    // 11.22: leaders moving alone may pass enemy leaders but not stay with them: no drop-off there.
    void noLeaderDropOffWithEnemyLeader() {
        Rules f;
        QVERIFY(f.newGame());
        f.clearBoard();
        f.placeLeader("thurn", "nuernberg");
        f.placeLeader("schlick", "nuernberg");
        f.placeLeader("tilly", "amberg");
        f.setActive(kProtestant);
        QVERIFY(f.activate("thurn"));
        QVERIFY(f.legal("dropoff schlick")); // he comes along (11.15); at home he may stay
        QVERIFY(f.act("move amberg"));
        QVERIFY(!f.legal("dropoff schlick")); // would stay with Tilly
        QVERIFY(f.act("move weiden"));
        QVERIFY(f.legal("dropoff schlick"));
    }

    // 11.22, 12.42: a leader caught without troops is eliminated, and so is the replacement who takes his
    // place in the same space (Piccolomini -> Enkevoort).
    void caughtLeaderAndReplacement() {
        Rules f;
        QVERIFY(f.newGame());
        f.clearBoard();
        f.placeLeader("piccolomini", "amberg");
        f.placeLeader("mansfeld", "weiden");
        const auto mercs = f.place("protestant", UnitKind::Mercenary, "weiden", 2);
        f.setActive(kProtestant);
        QVERIFY(f.activate("mansfeld"));
        QVERIFY(f.pickUp(mercs));
        QVERIFY(f.act("move amberg"));
        QVERIFY(f.logged("11.22 Piccolomini is caught without troops at Amberg"));
        QVERIFY(f.logged("11.22 Enkevoort is caught without troops at Amberg"));
        QCOMPARE(f.s.leaders[f.leader("piccolomini")].status, LeaderStatus::Dead);
        QCOMPARE(f.s.leaders[f.leader("enkevoort")].status, LeaderStatus::Dead);
    }

    // 11.22: a leader standing outside a fortress without troops is caught even though his garrison is
    // inside (it does not stand with him).
    void leaderOutsideHisFortressIsCaught() {
        Rules f;
        QVERIFY(f.newGame());
        f.clearBoard();
        f.placeLeader("gallas", "vienna");
        f.place("imperial", UnitKind::Militia, "vienna", 1, 2, true); // inside
        const auto m = f.place("protestant", UnitKind::Militia, "znaim");
        f.setActive(kProtestant);
        QVERIFY(f.act(QStringLiteral("free u%1").arg(m[0])));
        QVERIFY(f.act("move vienna"));
        if (f.legal("react out")) // 11.23: the Catholic keeps Gallas outside
            QVERIFY(f.act("react out"));
        QVERIFY2(f.logged("11.22 Gallas is caught without troops at Vienna"), qPrintable(f.logText(f.log)));
    }
};

QTEST_GUILESS_MAIN(TestRulesMovement)
#include "test_rules_movement.moc"

// Regular combat (12.1-12.5) and overruns (12.6), driven through the engine from constructed positions
// (issue 3).
#include "rules_fixture.h"

using namespace wp;
using namespace wp::rules;
using namespace wp::rules::test;

namespace {

QString unitList(const std::vector<int16_t>& units) {
    QStringList p;
    for (int16_t u : units)
        p << QStringLiteral("u%1").arg(u);
    return p.join(QLatin1Char(' '));
}

} // namespace

class TestRulesCombat : public QObject {
    Q_OBJECT

    // Protestant at Iglau (3 Mercenaries, one of them reduced in the battle) attacked by Tilly with 3
    // Bavarian Mercenaries from Znaim; the Catholic wins. Runs up to the Protestant's retreat decision, or
    // to the end of the combat if there was nothing to decide.
    static bool iglauBattle(Rules& f) {
        f.placeLeader("tilly", "znaim");
        const auto army = f.place("bavarian", UnitKind::Mercenary, "znaim", 3);
        f.place("protestant", UnitKind::Mercenary, "iglau", 3);
        f.setHand(kCatholic, {});
        f.setHand(kProtestant, {});
        // Catholic 0 (+2: 3 losses), Protestant 0 (1 loss, nothing to take); Tilly's loss roll
        f.dice({0, 0, 0});
        f.setActive(kCatholic);
        return f.activate("tilly") && f.pickUp(army) && f.act("move iglau") &&
               f.act("attack " + unitList(army)) &&
               f.runUntil([&] { return !f.combat() || !f.legalOf(ActionKind::Retreat).isEmpty(); }) &&
               f.s.forcedDice.empty();
    }

    static int protestantsAt(const Rules& f, const char* city) {
        return static_cast<int>(unitsAt(f.s, f.city(city), kProtestant, f.d()).size());
    }

    static QSet<QString> retreats(const Rules& f) {
        QSet<QString> out;
        for (const QString& a : f.legalOf(ActionKind::Retreat))
            out.insert(a);
        return out;
    }

  private slots:
    void initTestCase() { QVERIFY(rulesData()); }

    // 12.13: the attacker chooses the attacking units, at least one; 12.14: only they take losses;
    // 12.53: a beaten attacker goes back where he came from.
    void attackerChoosesUnits() {
        Rules f;
        QVERIFY(f.newGame());
        f.clearBoard();
        f.placeLeader("tilly", "munich");
        const auto mercs = f.place("bavarian", UnitKind::Mercenary, "munich", 2);
        f.place("protestant", UnitKind::Militia, "landshut");
        f.setHand(kCatholic, {});
        f.setHand(kProtestant, {});
        f.dice({0, 9, 0}); // Catholic 0 (+2: 1 loss), Protestant 9 (4 losses); Tilly survives
        f.setActive(kCatholic);
        QVERIFY(f.activate("tilly"));
        QVERIFY(f.pickUp(mercs));
        QVERIFY(f.act("move landshut"));
        QCOMPARE(f.legalOf(ActionKind::Attack).size(), 3);
        QVERIFY(!f.legal("attack"));
        QVERIFY(f.act(QStringLiteral("attack u%1").arg(mercs[0])));
        QVERIFY(f.logged("Catholic attacks with 3 CF, Protestant defends with 2 CF"));
        QVERIFY(f.runUntil([&] { return !f.combat(); }));
        QVERIFY(f.s.forcedDice.empty());
        QCOMPARE(f.s.units[mercs[0]].steps, uint8_t(1)); // it took the 4 (3)
        QCOMPARE(f.s.units[mercs[1]].steps, uint8_t(2)); // it did not attack
        QVERIFY(f.logged("12.28 Protestant wins the battle at Landshut"));
        for (int16_t u : mercs)
            QCOMPARE(f.s.units[u].loc, f.city("munich"));
        QCOMPARE(f.s.leaders[f.leader("tilly")].loc, f.city("munich"));
    }

    // 12.26: a modified roll is never above 11 nor below 0.
    void clampedRolls() {
        Rules f;
        QVERIFY(f.newGame());
        f.clearBoard();
        f.placeLeader("gustavus-adolphus", "wittenberg");
        const auto swedes = f.place("swedish", UnitKind::Veteran, "wittenberg", 2);
        f.placeLeader("goetz", "torgau"); // Battle 0
        f.placeLeader("melander", "torgau");
        f.place("bavarian", UnitKind::Mercenary, "torgau", 2);
        f.setHand(kProtestant, {"P13"}); // -1 to an enemy army with two leaders
        f.setHand(kCatholic, {});
        f.dice({9, 0, 0, 0, 0}); // the two combat rolls, then three leader-loss rolls
        f.setActive(kProtestant);
        QVERIFY(f.activate("gustavus-adolphus"));
        QVERIFY(f.pickUp(swedes));
        QVERIFY(f.act("move torgau"));
        QVERIFY(f.act("attack " + unitList(swedes)));
        QVERIFY(f.act("card P13"));
        QVERIFY(f.act("pass"));
        QVERIFY(f.act("pass"));
        QVERIFY(f.logged("Protestant: 8 CF on column 7-10, roll 9 +3 = 11: Loss Number 9", f.last));
        QVERIFY(f.logged("Catholic: 6 CF on column 4-6, roll 0 -1 = 0: Loss Number 1", f.last));
    }

    // 12.28: equal Loss Numbers: the army led by a Dynamic leader wins, else the defender.
    void ties() {
        struct Case {
            const char* attacker;
            const char* defender;
            int attackerRoll;
            const char* winner;
        };
        const Case cases[] = {
            {"tilly", "mansfeld", 3, "Catholic"},                 // Dynamic attacker
            {"pappenheim", "mansfeld", 4, "Protestant"},          // neither: the defender
            {"tilly", "bernard-of-saxe-weimar", 3, "Protestant"}, // both: the defender
        };
        for (const Case& k : cases) {
            Rules f;
            QVERIFY(f.newGame());
            f.clearBoard();
            f.placeLeader(k.attacker, "leipzig");
            const auto army = f.place("bavarian", UnitKind::Mercenary, "leipzig", 2);
            f.placeLeader(k.defender, "torgau");
            f.place("protestant", UnitKind::Mercenary, "torgau", 2);
            f.setHand(kCatholic, {});
            f.setHand(kProtestant, {});
            // both modified to 5 on the 4-6 column: 4 each
            const int defenderRoll = 5 - f.d().leaders[f.leader(k.defender)].battle;
            f.dice({k.attackerRoll, defenderRoll, 0, 0});
            f.setActive(kCatholic);
            QVERIFY(f.activate(k.attacker));
            QVERIFY(f.pickUp(army));
            QVERIFY(f.act("move torgau"));
            QVERIFY(f.act("attack " + unitList(army)));
            QVERIFY(f.runUntil([&] { return !f.combat(); }));
            QVERIFY(f.logged("roll " + QString::number(k.attackerRoll)));
            QVERIFY2(f.logged(QStringLiteral("Loss Number 4")), qPrintable(f.logText(f.log)));
            QVERIFY2(f.logged(QStringLiteral("12.28 %1 wins the battle at Torgau").arg(k.winner)),
                     qPrintable(f.logText(f.log)));
        }
    }

    // 12.4: at odds of 1-4 or worse, the defender's leaders do not check for loss.
    void noDefenderLeaderLossAtOneToFour() {
        for (int defenderCf : {9, 7}) {
            Rules f;
            QVERIFY(f.newGame());
            f.clearBoard();
            f.placeLeader("pappenheim", "leipzig");
            const auto militia = f.place("bavarian", UnitKind::Militia, "leipzig"); // 2 CF
            f.placeLeader("mansfeld", "torgau");
            if (defenderCf == 9) {
                f.place("protestant", UnitKind::Mercenary, "torgau", 3);
            } else {
                f.place("protestant", UnitKind::Mercenary, "torgau", 1);
                f.place("protestant", UnitKind::Mercenary, "torgau", 2, 1);
            }
            f.setHand(kCatholic, {});
            f.setHand(kProtestant, {});
            f.dice({0, 0, 0, 5, 5});
            f.setActive(kCatholic);
            QVERIFY(f.activate("pappenheim"));
            QVERIFY(f.pickUp(militia));
            QVERIFY(f.act("move torgau"));
            QVERIFY(f.act("attack " + unitList(militia)));
            QVERIFY(f.runUntil([&] { return !f.combat(); }));
            QVERIFY(f.logged("leader loss for Pappenheim"));
            if (defenderCf == 9) { // 2:9
                QVERIFY(!f.logged("leader loss for Mansfeld"));
                QCOMPARE(f.s.forcedDice.size(), size_t(2));
            } else { // 2:7 is better than 1-4
                QVERIFY(f.logged("leader loss for Mansfeld"));
                QCOMPARE(f.s.forcedDice.size(), size_t(1));
            }
        }
    }

    // 12.43: a leader whose force is eliminated is lost, without a replacement (Mercy stays out).
    void lostArmy() {
        Rules f;
        QVERIFY(f.newGame());
        f.clearBoard();
        f.placeLeader("pappenheim", "leipzig");
        const auto militia = f.place("bavarian", UnitKind::Militia, "leipzig", 1, 1);
        f.placeLeader("mansfeld", "torgau");
        f.place("protestant", UnitKind::Mercenary, "torgau", 3);
        f.setHand(kCatholic, {});
        f.setHand(kProtestant, {});
        f.dice({0, 9, 5});
        f.setActive(kCatholic);
        QVERIFY(f.activate("pappenheim"));
        QVERIFY(f.pickUp(militia));
        QVERIFY(f.act("move torgau"));
        QVERIFY(f.act("attack " + unitList(militia)));
        QVERIFY(f.runUntil([&] { return !f.combat(); }));
        QCOMPARE(f.s.forcedDice.size(), size_t(1)); // no leader-loss roll at all
        QCOMPARE(f.s.units[militia[0]].loc, kPool);
        QCOMPARE(f.s.leaders[f.leader("pappenheim")].status, LeaderStatus::Dead);
        QVERIFY(f.logged("12.43 Pappenheim is lost"));
        QCOMPARE(f.s.leaders[f.leader("mercy")].status, LeaderStatus::NotEntered);
    }

    // 12.42: only a leader *named* on the back replaces a lost leader; the un-named German Protestant backs
    // are for 16.22a only (docs/data/counters.md).
    void unnamedBackIsNoReplacement() {
        Rules f;
        QVERIFY(f.newGame());
        f.clearBoard();
        f.placeLeader("tilly", "munich");
        const auto army = f.place("bavarian", UnitKind::Mercenary, "munich", 2);
        f.placeLeader("mansfeld", "landshut");
        f.place("protestant", UnitKind::Mercenary, "landshut", 2);
        f.setHand(kCatholic, {});
        f.setHand(kProtestant, {});
        f.dice({0, 0, 0, 9}); // Mansfeld's loss roll 9 (rating 7)
        f.setActive(kCatholic);
        QVERIFY(f.activate("tilly"));
        QVERIFY(f.pickUp(army));
        QVERIFY(f.act("move landshut"));
        QVERIFY(f.act("attack " + unitList(army)));
        QVERIFY(f.runUntil([&] { return !f.combat(); }));
        QCOMPARE(f.s.leaders[f.leader("mansfeld")].status, LeaderStatus::Dead);
        QCOMPARE(f.s.leaders[f.leader("gp-replacement-mansfeld")].status, LeaderStatus::NotEntered);
    }

    // 12.52: a defender beaten in regular combat may retreat inside his Fortress in the same space.
    void retreatInside() {
        Rules f;
        QVERIFY(f.newGame());
        f.clearBoard();
        f.placeLeader("gustavus-adolphus", "torgau");
        const auto swedes = f.place("swedish", UnitKind::Veteran, "torgau", 2);
        f.placeLeader("aldringer", "leipzig");
        const auto bav = f.place("bavarian", UnitKind::Mercenary, "leipzig", 2);
        f.setHand(kCatholic, {});
        f.setHand(kProtestant, {});
        f.dice({9, 0, 0, 0});
        f.setActive(kProtestant);
        QVERIFY(f.activate("gustavus-adolphus"));
        QVERIFY(f.pickUp(swedes));
        QVERIFY(f.act("move leipzig"));
        QVERIFY(f.act("react out"));
        QVERIFY(f.act("attack " + unitList(swedes)));
        QVERIFY(f.runUntil([&] { return !f.combat() || !f.legalOf(ActionKind::Retreat).isEmpty(); }));
        QVERIFY(f.combat());
        QVERIFY(f.legal("retreat inside"));
        QVERIFY(f.legal("retreat luetzen"));
        QVERIFY(!f.legal("retreat torgau"));
        QVERIFY(f.act("retreat inside"));
        for (int16_t u : bav)
            if (f.s.units[u].loc >= 0) {
                QCOMPARE(f.s.units[u].loc, f.city("leipzig"));
                QVERIFY(f.s.units[u].flags & kInside);
            }
        QVERIFY(f.s.leaders[f.leader("aldringer")].flags & kInside);
        QCOMPARE(f.control("leipzig"), kCatholic);
    }

    // 12.54: the defender's retreat, restriction by restriction.
    void defenderRetreat() {
        {
            Rules f; // the attacker's origin and a non-besieged enemy Fortress are closed
            QVERIFY(f.newGame());
            f.clearBoard();
            QVERIFY(iglauBattle(f));
            QCOMPARE(retreats(f), (QSet<QString>{"retreat kuttenberg", "retreat budweis"}));
        }
        {
            Rules f; // not into a space with an enemy unit: the one space left is taken at once
            QVERIFY(f.newGame());
            f.clearBoard();
            f.place("bavarian", UnitKind::Militia, "kuttenberg");
            QVERIFY(iglauBattle(f));
            QVERIFY(!f.combat());
            QCOMPARE(protestantsAt(f, "budweis"), 3);
        }
        {
            Rules f; // friendly spaces first
            QVERIFY(f.newGame());
            f.clearBoard();
            f.setMarker("kuttenberg", kCatholic);
            QVERIFY(iglauBattle(f));
            QVERIFY(!f.combat());
            QCOMPARE(protestantsAt(f, "budweis"), 3);
            QCOMPARE(f.control("kuttenberg"), kCatholic);
        }
        {
            Rules f; // else an unoccupied enemy city, which is gained
            QVERIFY(f.newGame());
            f.clearBoard();
            f.setMarker("kuttenberg", kCatholic);
            f.setMarker("budweis", kCatholic);
            QVERIFY(iglauBattle(f));
            QCOMPARE(retreats(f), (QSet<QString>{"retreat kuttenberg", "retreat budweis"}));
            QVERIFY(f.act("retreat budweis"));
            QCOMPARE(f.control("budweis"), kProtestant);
            QCOMPARE(protestantsAt(f, "budweis"), 3);
        }
        {
            Rules f; // into a besieged enemy Fortress: allowed
            QVERIFY(f.newGame());
            f.clearBoard();
            f.place("bavarian", UnitKind::Militia, "kuttenberg");
            f.place("bavarian", UnitKind::Militia, "budweis");
            f.place("bavarian", UnitKind::Militia, "bruenn", 1, 2, true);
            f.place("protestant", UnitKind::Mercenary, "bruenn", 2);
            f.s.cities[f.city("bruenn")].siege = 1;
            f.s.cities[f.city("bruenn")].sieger = kProt;
            QVERIFY(iglauBattle(f));
            QVERIFY(!f.combat());
            QCOMPARE(protestantsAt(f, "bruenn"), 5);
        }
        {
            Rules f; // ... and a masked one
            QVERIFY(f.newGame());
            f.clearBoard();
            f.place("bavarian", UnitKind::Militia, "kuttenberg");
            f.place("bavarian", UnitKind::Militia, "budweis");
            f.place("bavarian", UnitKind::Militia, "bruenn", 1, 2, true);
            f.place("protestant", UnitKind::Militia, "bruenn", 1);
            QVERIFY(iglauBattle(f));
            QVERIFY(!f.combat());
            QCOMPARE(protestantsAt(f, "bruenn"), 4);
        }
        {
            Rules f; // nowhere to go: eliminated
            QVERIFY(f.newGame());
            f.clearBoard();
            f.place("bavarian", UnitKind::Militia, "kuttenberg");
            f.place("bavarian", UnitKind::Militia, "budweis");
            QVERIFY(iglauBattle(f));
            QVERIFY(!f.combat());
            QCOMPARE(protestantsAt(f, "iglau"), 0);
            QVERIFY(f.logged("12.54 no retreat:"));
            QCOMPARE(f.control("iglau"), kCatholic);
        }
        {
            Rules f; // over the stacking limit: the owner eliminates the excess (10.22)
            QVERIFY(f.newGame());
            f.clearBoard();
            f.place("bavarian", UnitKind::Militia, "kuttenberg");
            f.place("protestant", UnitKind::Militia, "budweis", 6);
            QVERIFY(iglauBattle(f));
            QCOMPARE(protestantsAt(f, "budweis"), 9);
            QCOMPARE(f.e.actor(f.s), kProtestant);
            QVERIFY(f.logged("10.22 Protestant has 9 units at Budweis: 1 must be eliminated"));
            QVERIFY(f.act(f.legalOf(ActionKind::Choose).front()));
            QCOMPARE(protestantsAt(f, "budweis"), 8);
        }
        {
            Rules f; // into a Neutral Area: its neutrality is violated (+1 for a Protestant)
            QVERIFY(f.newGame());
            f.clearBoard();
            f.placeLeader("tilly", "ingolstadt");
            const auto army = f.place("bavarian", UnitKind::Mercenary, "ingolstadt", 3);
            f.place("protestant", UnitKind::Mercenary, "donauwoerth", 3);
            f.setHand(kCatholic, {});
            f.setHand(kProtestant, {});
            f.dice({0, 0, 0});
            f.setActive(kCatholic);
            QVERIFY(f.activate("tilly"));
            QVERIFY(f.pickUp(army));
            QVERIFY(f.act("move donauwoerth"));
            QVERIFY(f.act("attack " + unitList(army)));
            QVERIFY(f.runUntil([&] { return !f.combat() || !f.legalOf(ActionKind::Retreat).isEmpty(); }));
            // Augsburg: a Catholic Fortress; Ulm (Independent) and Nördlingen (Neutral Area): open
            QCOMPARE(retreats(f), (QSet<QString>{"retreat ulm", "retreat noerdlingen"}));
            QVERIFY(f.act("retreat noerdlingen"));
            QCOMPARE(f.s.vp, 22);
            QVERIFY(!f.s.areas[f.area("wuerttemberg")].neutral);
        }
    }

    // 12.28, 13.11: only a winner may place a Siege marker after a battle; a beaten attacker who falls back
    // into the enemy Fortress he came from has not ended a movement there.
    void noSiegeAfterLosing() {
        Rules f;
        QVERIFY(f.newGame());
        f.clearBoard();
        f.placeLeader("tilly", "luetzen");
        f.place("bavarian", UnitKind::Mercenary, "luetzen", 3);
        f.placeLeader("gustavus-adolphus", "leipzig"); // outside the empty Catholic Fortress
        const auto swedes = f.place("swedish", UnitKind::Veteran, "leipzig", 4);
        f.setHand(kCatholic, {});
        f.setHand(kProtestant, {});
        f.dice({0, 9, 0, 0}); // the Protestant attacker loses
        f.setActive(kProtestant);
        QVERIFY(f.activate("gustavus-adolphus"));
        QVERIFY(f.pickUp(swedes));
        QVERIFY(f.act("move luetzen"));
        QVERIFY(f.act("attack " + unitList(swedes)));
        QVERIFY(f.runUntil([&] { return !f.combat(); }));
        QVERIFY(f.logged("12.28 Catholic wins the battle at Lützen"));
        QCOMPARE(f.s.leaders[f.leader("gustavus-adolphus")].loc, f.city("leipzig"));
        QVERIFY(!f.legal("besiege"));
    }

    // 12.6: overruns. 8 CF and four times the enemy (rounded down), 1 MP left; 1 MP each; again and again.
    void overrun() {
        {
            Rules f; // 8 against 2: overrun, twice
            QVERIFY(f.newGame());
            f.clearBoard();
            f.placeLeader("tilly", "munich");
            auto army = f.place("bavarian", UnitKind::Mercenary, "munich", 2);
            army.push_back(f.place("bavarian", UnitKind::Militia, "munich").front());
            const int16_t a = f.place("protestant", UnitKind::Militia, "landshut").front();
            const int16_t b = f.place("protestant", UnitKind::Militia, "passau").front();
            f.dice({5}); // never used: no leader-loss roll in an overrun (12.41)
            f.setActive(kCatholic);
            QVERIFY(f.activate("tilly"));
            QVERIFY(f.pickUp(army));
            QVERIFY(f.act("move landshut"));
            QVERIFY(f.logged("12.62 Catholic overruns the Protestant units at Landshut", f.last));
            QCOMPARE(f.s.units[a].loc, kPool);
            QCOMPARE(f.activation()->mpUsed, 2);
            QVERIFY(f.act("move passau"));
            QCOMPARE(f.s.units[b].loc, kPool);
            QCOMPARE(f.activation()->mpUsed, 4); // the militia's MA: no further
            QVERIFY(f.legalOf(ActionKind::Move).isEmpty());
            QCOMPARE(f.s.forcedDice.size(), size_t(1));
        }
        {
            Rules f; // 8 against 3: a regular combat
            QVERIFY(f.newGame());
            f.clearBoard();
            f.placeLeader("tilly", "munich");
            auto army = f.place("bavarian", UnitKind::Mercenary, "munich", 2);
            army.push_back(f.place("bavarian", UnitKind::Militia, "munich").front());
            f.place("protestant", UnitKind::Mercenary, "landshut");
            f.setActive(kCatholic);
            QVERIFY(f.activate("tilly"));
            QVERIFY(f.pickUp(army));
            QVERIFY(f.act("move landshut"));
            QVERIFY(!f.logged("12.62"));
            QCOMPARE(f.activation()->mpUsed, 1);
            QVERIFY(!f.legalOf(ActionKind::Attack).isEmpty());
            QVERIFY(f.legalOf(ActionKind::Move).isEmpty());
        }
        {
            Rules f; // no MP left on arrival: a regular combat
            QVERIFY(f.newGame());
            f.clearBoard();
            f.placeLeader("tilly", "munich");
            auto army = f.place("bavarian", UnitKind::Mercenary, "munich", 2);
            army.push_back(f.place("bavarian", UnitKind::Militia, "munich").front());
            f.place("protestant", UnitKind::Militia, "krems");
            f.setActive(kCatholic);
            QVERIFY(f.activate("tilly"));
            QVERIFY(f.pickUp(army));
            for (const char* c : {"landshut", "passau", "linz", "krems"})
                QVERIFY(f.act(QStringLiteral("move ") + c));
            QVERIFY(!f.logged("12.62"));
            QVERIFY(!f.legalOf(ActionKind::Attack).isEmpty());
        }
    }

    // 12.62, 11.22, 12.42: a leader caught in an overrun is lost; the replacement named on his back takes his
    // place beside the overrunning army and is caught in turn (Pappenheim -> Mercy -> Wolf), not left there
    // alone with enemy units (fuzzer, intervention seed 86919).
    void overrunCatchesReplacements() {
        Rules f;
        QVERIFY(f.newGame());
        f.clearBoard();
        f.placeLeader("mansfeld", "munich");
        const auto army = f.place("protestant", UnitKind::Mercenary, "munich", 5); // 8 CF or more
        f.placeLeader("pappenheim", "landshut");
        f.place("bavarian", UnitKind::Militia, "landshut", 1, 1);
        f.setHand(kCatholic, {});
        f.setHand(kProtestant, {});
        f.setActive(kProtestant);
        QVERIFY(f.activate("mansfeld"));
        QVERIFY(f.pickUp(army));
        QVERIFY2(f.act("move landshut"), qPrintable(f.error));
        QVERIFY(f.logged("12.62 Protestant overruns the Catholic units at Landshut", f.last));
        for (const char* id : {"pappenheim", "mercy", "wolf"}) {
            QCOMPARE(f.s.leaders[f.leader(id)].status, LeaderStatus::Dead);
            QVERIFY(f.s.leaders[f.leader(id)].loc != f.city("landshut"));
        }
        QVERIFY(!anyLeadersAt(f.s, f.city("landshut"), kCatholic, f.d()));
    }

    // 12.63: enemy units outside a Fortress may react inside first; then there is no overrun and no MP.
    void overrunFortressReaction() {
        for (bool in : {true, false}) {
            Rules f;
            QVERIFY(f.newGame());
            f.clearBoard();
            f.setMarker("ingolstadt", kProtestant);
            f.placeLeader("tilly", "munich");
            auto army = f.place("bavarian", UnitKind::Mercenary, "munich", 2);
            army.push_back(f.place("bavarian", UnitKind::Militia, "munich").front());
            const int16_t p = f.place("protestant", UnitKind::Militia, "ingolstadt").front();
            f.setActive(kCatholic);
            QVERIFY(f.activate("tilly"));
            QVERIFY(f.pickUp(army));
            QVERIFY(f.act("move ingolstadt"));
            QCOMPARE(f.e.actor(f.s), kProtestant);
            QVERIFY(f.act(in ? "react in" : "react out"));
            if (in) {
                QCOMPARE(f.s.units[p].loc, f.city("ingolstadt"));
                QVERIFY(f.s.units[p].flags & kInside);
                QCOMPARE(f.activation()->mpUsed, 1);
                QVERIFY(f.legal("move donauwoerth"));
            } else {
                QCOMPARE(f.s.units[p].loc, kPool);
                QCOMPARE(f.activation()->mpUsed, 2);
                QCOMPARE(f.control("ingolstadt"), kProtestant); // 12.63: a Fortress is not gained so
            }
        }
    }

    // 12.53, 16.21: an attacker that came out of the United Provinces and loses goes back into the UP box.
    void attackerRetreatsIntoTheUp() {
        Rules f;
        QVERIFY(f.newGame());
        f.clearBoard();
        f.placeLeader("spinola", "up");
        const auto spanish = f.place("spanish", UnitKind::Veteran, "up", 3);
        f.placeLeader("mansfeld", "lingen");
        f.place("protestant", UnitKind::Mercenary, "lingen", 3);
        f.setActive(kCatholic);
        QVERIFY(f.activate("spinola"));
        QVERIFY(f.pickUp(spanish));
        QVERIFY2(f.act("move lingen"), qPrintable(f.error));
        f.dice({0, 9, 0, 9, 0, 9});
        QVERIFY2(f.runUntil([&] { return f.logged(QStringLiteral("12.5")); }), qPrintable(f.error));
        QVERIFY2(f.logged("12.53 Catholic retreats Lingen -> United Provinces"),
                 qPrintable(f.logText(f.log)));
        for (int16_t u : spanish)
            if (f.s.units[u].loc != kRemoved)
                QCOMPARE(f.s.units[u].loc, static_cast<int16_t>(f.box("up")));
        QCOMPARE(f.s.leaders[f.leader("spinola")].loc, static_cast<int16_t>(f.box("up")));
    }

    // 11.22, 12.54: a beaten army retreating into a city where an enemy leader stands alone eliminates him.
    void retreatCatchesALoneLeader() {
        Rules f;
        QVERIFY(f.newGame());
        f.clearBoard();
        f.placeLeader("tilly", "weiden");
        f.place("bavarian", UnitKind::Militia, "weiden", 4);
        f.placeLeader("anhalt", "eger"); // Weiden's only other neighbour
        f.placeLeader("mansfeld", "amberg");
        const auto mercs = f.place("protestant", UnitKind::Mercenary, "amberg", 2);
        f.setActive(kProtestant);
        QVERIFY(f.activate("mansfeld"));
        QVERIFY(f.pickUp(mercs));
        QVERIFY(f.act("move weiden"));
        f.dice({9, 0, 9, 0, 9, 0});
        QVERIFY2(f.runUntil([&] { return f.logged(QStringLiteral("12.5 Catholic forces retreat")); }),
                 qPrintable(f.error));
        QVERIFY2(f.logged("11.22 Anhalt is caught without troops at Eger"), qPrintable(f.logText(f.log)));
    }
};

QTEST_GUILESS_MAIN(TestRulesCombat)
#include "test_rules_combat.moc"

// Sieges (13.1-13.2): establishing, maintaining and lifting a siege, siege combat and Continued Siege
// markers, driven through the engine from constructed positions (issue 3).
#include "rules_fixture.h"

using namespace wp;
using namespace wp::rules;
using namespace wp::rules::test;

class TestRulesSiege : public QObject {
    Q_OBJECT

    static QString u(int16_t unit) { return QStringLiteral("u%1").arg(unit); }

    // The Protestant besieges Munich (one Bavarian Mercenary inside: Siege Level 8) with `mercs`
    // Mercenaries and `militia` Militia outside; the Siege marker is placed at `level` (1 = Siege).
    static std::vector<int16_t> munichSiege(Rules& f, int mercs, int militia, int level = 1) {
        f.place("bavarian", UnitKind::Mercenary, "munich", 1, 2, true);
        auto out = f.place("protestant", UnitKind::Mercenary, "munich", mercs);
        if (militia > 0) {
            const auto m = f.place("protestant", UnitKind::Militia, "munich", militia);
            out.insert(out.end(), m.begin(), m.end());
        }
        f.s.cities[f.city("munich")].siege = static_cast<int8_t>(level);
        f.s.cities[f.city("munich")].sieger = kProt;
        return out;
    }

  private slots:
    void initTestCase() { QVERIFY(rulesData()); }

    // 13.11, 13.13: an activated leader ending his movement in an enemy or neutral Fortress with CF >= the
    // Siege Level places a Siege marker.
    void establishing() {
        {
            Rules f; // an empty enemy Fortress: Siege Level = Fortress Strength 5
            QVERIFY(f.newGame());
            f.clearBoard();
            f.placeLeader("anhalt", "landshut");
            const auto mercs = f.place("protestant", UnitKind::Mercenary, "landshut", 2);
            f.setActive(kProtestant);
            QVERIFY(f.activate("anhalt"));
            QVERIFY(f.act("pickup " + u(mercs[0])));
            QVERIFY(f.act("move munich"));
            QVERIFY(!f.legal("besiege")); // 3 CF < 5
            QVERIFY(f.act("move landshut"));
            QVERIFY(f.act("pickup " + u(mercs[1])));
            QVERIFY(f.act("move munich"));
            QVERIFY(f.legal("besiege"));
            QVERIFY(f.act("besiege"));
            QCOMPARE(f.s.cities[f.city("munich")].siege, 1);
            QCOMPARE(f.control("munich"), kCatholic); // only a successful siege combat gives control
        }
        {
            Rules f; // not one's own Fortress
            QVERIFY(f.newGame());
            f.clearBoard();
            f.placeLeader("mansfeld", "pilsen");
            const auto mercs = f.place("protestant", UnitKind::Mercenary, "pilsen", 2);
            f.setActive(kProtestant);
            QVERIFY(f.activate("mansfeld"));
            QVERIFY(f.pickUp(mercs));
            QVERIFY(f.act("move prague"));
            QVERIFY(!f.legal("besiege"));
        }
        {
            Rules f; // a Neutral Independent Fortress (3.12)
            QVERIFY(f.newGame());
            f.clearBoard();
            f.placeLeader("tilly", "donauwoerth");
            const auto mercs = f.place("bavarian", UnitKind::Mercenary, "donauwoerth", 1);
            f.setActive(kCatholic);
            QVERIFY(f.activate("tilly"));
            QVERIFY(f.pickUp(mercs));
            QVERIFY(f.act("move ulm"));
            QCOMPARE(f.control("ulm"), kNone);
            QVERIFY(f.legal("besiege"));
        }
        {
            Rules f; // enemy units outside must be fought first
            QVERIFY(f.newGame());
            f.clearBoard();
            f.place("bavarian", UnitKind::Militia, "munich");
            f.placeLeader("anhalt", "landshut");
            const auto mercs = f.place("protestant", UnitKind::Mercenary, "landshut", 2);
            f.setActive(kProtestant);
            QVERIFY(f.activate("anhalt"));
            QVERIFY(f.pickUp(mercs));
            QVERIFY(f.act("move munich"));
            QVERIFY(f.act("react out"));
            QVERIFY(!f.legal("besiege"));
            QVERIFY(!f.legalOf(ActionKind::Attack).isEmpty());
        }
        {
            Rules f; // a Free Action does not besiege (8.321)
            QVERIFY(f.newGame());
            f.clearBoard();
            const int16_t m = f.place("protestant", UnitKind::Militia, "landshut").front();
            f.place("protestant", UnitKind::Mercenary, "munich", 2);
            f.setActive(kProtestant);
            QVERIFY(f.act("free " + u(m)));
            QVERIFY(f.act("move munich"));
            QVERIFY(!f.legal("besiege"));
        }
    }

    // 13.14, 13.25: a natural 0 costs a step, of the besieger's choice; below the Siege Level the siege is
    // lifted. 13.14: it may be placed again with an activated leader.
    void stepLossLiftsTheSiege() {
        Rules f;
        QVERIFY(f.newGame());
        f.clearBoard();
        const auto besiegers = munichSiege(f, 2, 1); // 3 + 3 + 2 = 8 against 5 + 3
        const int16_t militia = besiegers.back();
        f.dice({0});
        QVERIFY(f.runEndPhase());
        QVERIFY(f.s.forcedDice.empty());
        QVERIFY(f.logged("roll 0"));
        QCOMPARE(f.e.actor(f.s), kProtestant);
        QCOMPARE(f.legalOf(ActionKind::Choose).size(), 3);
        bool done = false;
        for (const Action& a : f.legalActions())
            if (a.kind == ActionKind::Choose && a.target == militia)
                done = f.act(a);
        QVERIFY(done);
        QCOMPARE(f.s.units[militia].steps, uint8_t(1));
        QCOMPARE(f.s.cities[f.city("munich")].siege, 0);
        QVERIFY(f.logged("13.14 the siege of Munich is lifted (7 CF against siege level 8)"));
        // Anhalt brings a unit: the siege is placed again.
        QVERIFY(f.runUntil([&] { return f.inActionPhase(); }));
        f.placeLeader("anhalt", "landshut");
        const auto more = f.place("protestant", UnitKind::Militia, "landshut", 1);
        f.setActive(kProtestant);
        QVERIFY(f.activate("anhalt"));
        QVERIFY(f.pickUp(more));
        QVERIFY(f.act("move munich"));
        QVERIFY(f.act("besiege"));
        QCOMPARE(f.s.cities[f.city("munich")].siege, 1);
    }

    // 11.161 with 13.14: a step lost because foraging cannot be met counts like any other loss: a siege
    // placed at exactly its Siege Level is lifted by it (the fuzzer, campaign seed 220117 with 19.5: the
    // siege stood with 9 CF against level 10).
    void foragingStepLossLiftsTheSiege() {
        Rules f;
        QVERIFY(f.newGame());
        f.clearBoard();
        f.place("bavarian", UnitKind::Mercenary, "munich", 1, 2, true); // Siege Level 5 + 3 = 8
        f.placeLeader("mansfeld", "landshut");
        auto force = f.place("protestant", UnitKind::Mercenary, "landshut", 2);
        const auto militia = f.place("protestant", UnitKind::Militia, "landshut", 1);
        force.push_back(militia[0]); // 3 + 3 + 2 = 8 CF, three units: one pillage level to forage (11.16)
        f.s.cities[f.city("landshut")].pillage = 2;
        f.s.cities[f.city("munich")].pillage = 2; // nowhere to forage: step losses instead (11.161)
        f.setActive(kProtestant);
        QVERIFY(f.activate("mansfeld"));
        QVERIFY(f.pickUp(force));
        QVERIFY(f.act("move munich"));
        QVERIFY(f.act("besiege"));
        QCOMPARE(f.s.cities[f.city("munich")].siege, 1);
        QVERIFY(f.runUntil([&] { return f.legal("choose " + u(force[0])); }));
        QVERIFY(f.act("choose " + u(force[0])));
        QVERIFY(f.logged("11.161 foraging not met"));
        QCOMPARE(f.s.cities[f.city("munich")].siege, 0);
        QVERIFY2(f.logged("13.14 the siege of Munich is lifted (7 CF against siege level 8)"),
                 qPrintable(f.logText(f.log)));
    }

    // 13.25: any other failure costs no step.
    void failureWithoutStepLoss() {
        Rules f;
        QVERIFY(f.newGame());
        f.clearBoard();
        const auto besiegers = munichSiege(f, 3, 0);
        f.dice({1});
        QVERIFY(f.runEndPhase());
        for (int16_t b : besiegers)
            QCOMPARE(f.s.units[b].steps, uint8_t(2));
        QCOMPARE(f.s.cities[f.city("munich")].siege, 2);
    }

    // 13.14, 13.26: the siege (with its Continued Siege marker) ends when the besiegers move away below
    // the Siege Level.
    void besiegersMoveAway() {
        Rules f;
        QVERIFY(f.newGame());
        f.clearBoard();
        const auto besiegers = munichSiege(f, 3, 0, 3); // 9 CF, Continued Siege +2
        f.setActive(kProtestant);
        QVERIFY(f.act("free " + u(besiegers[0])));
        QVERIFY(f.act("move landshut"));
        QVERIFY(f.act("end"));
        QCOMPARE(f.s.cities[f.city("munich")].siege, 0);
    }

    // 13.25: a natural 9 always succeeds: the Fortress is captured, the units inside are eliminated
    // (13.24).
    void naturalNine() {
        Rules f;
        QVERIFY(f.newGame());
        f.clearBoard();
        f.setAreaControl("baden", kCatholic);
        f.place("bavarian", UnitKind::Militia, "breisach", 2, 2, true);
        f.place("protestant", UnitKind::Mercenary, "breisach", 3);
        f.s.cities[f.city("breisach")].siege = 1;
        f.s.cities[f.city("breisach")].sieger = kProt;
        f.dice({9});
        QVERIFY(f.runEndPhase());
        QVERIFY(f.logged("siege of Breisach: roll 9, DRM -2, modified 7: Successful"));
        QVERIFY(unitsAt(f.s, f.city("breisach"), kCatholic, f.d()).empty());
        QCOMPARE(f.control("breisach"), kProtestant);
        QCOMPARE(f.s.cities[f.city("breisach")].siege, 0);
    }

    // 13.26: each failure raises the Continued Siege marker, to +3 at most; failures in the Action Phase
    // count too.
    void continuedSiegeMarkers() {
        Rules f;
        QVERIFY(f.newGame());
        f.clearBoard();
        munichSiege(f, 3, 0);
        f.placeLeader("anhalt", "munich");
        f.setActive(kProtestant);
        QVERIFY(f.activate("anhalt"));
        f.dice({1});
        QVERIFY(f.act("assault"));
        QCOMPARE(f.s.cities[f.city("munich")].siege, 2);
        QVERIFY(f.logged("13.26 Munich: Continued Siege +1"));
        for (int expected : {3, 4, 4}) {
            f.dice({1});
            QVERIFY(f.runEndPhase());
            QVERIFY(f.s.forcedDice.empty());
            QCOMPARE(f.s.cities[f.city("munich")].siege, static_cast<int8_t>(expected));
        }
        QVERIFY(f.logged("roll 1, DRM +3, modified 4: Unsuccessful"));
        QCOMPARE(siegeDrm(f.d(), f.s, f.city("munich"), kProtestant, true), 3);
        // and the capture ends it
        f.dice({6}); // 6 + 3
        QVERIFY(f.runEndPhase());
        QCOMPARE(f.control("munich"), kProtestant);
        QCOMPARE(f.s.cities[f.city("munich")].siege, 0);
        QVERIFY(unitsAt(f.s, f.city("munich"), kCatholic, f.d()).empty());
    }

    // 3.12, 3.13: gaining an Area does not give its enemy-controlled Fortress Cities, occupied or not (they
    // must be captured by Siege Combat), but a Neutral non-Independent Fortress shares its Area's status,
    // which ends the siege of it (13.1).
    void areaControlAndFortresses() {
        for (const bool enemyArea : {true, false}) {
            Rules f;
            QVERIFY(f.newGame());
            f.clearBoard();
            f.setAreaControl("pomerania", enemyArea ? kCatholic : kNone);
            f.setMarker("stettin", kProt);
            f.placeLeader("horn", "stralsund");
            f.place("swedish", UnitKind::Veteran, "stralsund", 2);
            f.s.cities[f.city("stralsund")].siege = 1;
            f.s.cities[f.city("stralsund")].sieger = kProt;
            f.placeLeader("baner", "stettin");
            const auto u = f.place("swedish", UnitKind::Veteran, "stettin", 1);
            f.setActive(kProtestant);
            QVERIFY(f.activate("baner"));
            QVERIFY(f.pickUp(u));
            QVERIFY(f.act("move wolgast"));
            QVERIFY(f.act("control"));
            QCOMPARE(f.s.areas[f.area("pomerania")].control, kProt);
            if (enemyArea) {
                QCOMPARE(f.control("stralsund"), kCatholic);
                QCOMPARE(f.s.cities[f.city("stralsund")].siege, 1);
            } else {
                QCOMPARE(f.control("stralsund"), kProt);
                QCOMPARE(f.s.cities[f.city("stralsund")].siege, 0);
                QVERIFY(f.logged("13.1 the siege of Stralsund ends"));
            }
        }
    }
};

QTEST_GUILESS_MAIN(TestRulesSiege)
#include "test_rules_siege.moc"

// The rulebook's worked examples, played through the engine move by move (issue 3). Each test names the
// rule whose example it follows.
#include "rules_fixture.h"

using namespace wp;
using namespace wp::rules;
using namespace wp::rules::test;

namespace {

// A Losses action as "nationality-kind-f|r:steps ..." (f full, r reduced before the loss), sorted, so that
// allocations can be compared without depending on which of two identical counters the engine names.
QString describeLosses(const Rules& f, const Action& a) {
    QStringList parts;
    for (size_t i = 0; i < a.list.size(); ++i) {
        const UnitState& u = f.s.units[a.list[i]];
        const UnitType& t = f.d().unitTypes[u.type];
        parts << QStringLiteral("%1-%2-%3:%4")
                     .arg(f.d().nationalities[t.nationality].id, unitKindId(t.kind), u.steps == 1 ? "r" : "f")
                     .arg(a.counts[i]);
    }
    parts.sort();
    return parts.join(QLatin1Char(' '));
}

QSet<QString> lossOptions(const Rules& f) {
    QSet<QString> out;
    for (const Action& a : f.legalActions())
        if (a.kind == ActionKind::Losses)
            out.insert(describeLosses(f, a));
    return out;
}

int lossTotal(const Rules& f, const Action& a) {
    int total = 0;
    for (size_t i = 0; i < a.list.size(); ++i)
        total += a.counts[i] * unitLf(f.d(), f.s, a.list[i]);
    return total;
}

bool takeLosses(Rules& f, const QString& description) {
    for (const Action& a : f.legalActions())
        if (a.kind == ActionKind::Losses && describeLosses(f, a) == description)
            return f.act(a);
    qWarning("no legal Losses action '%s'", qPrintable(description));
    return false;
}

QString attackText(const std::vector<int16_t>& units) {
    QStringList p;
    for (int16_t u : units)
        p << QStringLiteral("u%1").arg(u);
    return QStringLiteral("attack ") + p.join(QLatin1Char(' '));
}

std::vector<int16_t> join(std::vector<int16_t> a, const std::vector<int16_t>& b) {
    a.insert(a.end(), b.begin(), b.end());
    return a;
}

} // namespace

class TestRulesExamples : public QObject {
    Q_OBJECT

    // Takes control of a non-Fortress city with a Free Action of a unit placed there (3.11, 8.32); the unit
    // goes back to the pool afterwards.
    static bool freeControl(Rules& f, int side, const QString& city) {
        const QString nat = side == kCatholic ? QStringLiteral("bavarian") : QStringLiteral("protestant");
        const int16_t u = f.place(nat, UnitKind::Mercenary, city).front();
        f.setActive(side);
        const bool ok = f.act(QStringLiteral("free u%1").arg(u)) && f.act(QStringLiteral("control")) &&
                        f.act(QStringLiteral("end"));
        f.s.units[u] = UnitState{f.s.units[u].type, kPool, 0, 0};
        return ok;
    }

  private slots:
    void initTestCase() { QVERIFY(rulesData()); }

    // 12.x "Extended Example of Combat" (Breitenfeld).
    void breitenfeld() {
        Rules f;
        QVERIFY(f.newGame());
        f.clearBoard();
        f.s.nationSide[f.nationality("saxon")] = kProtestant; // the Saxons fight with the Swedes
        f.placeLeader("gustavus-adolphus", "torgau");
        f.placeLeader("baner", "torgau");
        f.placeLeader("horn", "torgau");
        const auto swedes = f.place("swedish", UnitKind::Veteran, "torgau", 5);
        const auto saxons = f.place("saxon", UnitKind::Militia, "torgau", 2);
        const auto army = join(swedes, saxons);
        f.placeLeader("tilly", "leipzig");
        f.placeLeader("pappenheim", "leipzig");
        f.place("bavarian", UnitKind::Mercenary, "leipzig", 4);
        f.place("bavarian", UnitKind::Mercenary, "leipzig", 3, 1);
        f.setHand(kProtestant, {"P13", "P34"});
        f.setHand(kCatholic, {"C49"});
        // the Protestant's combat roll, the Catholic's, then leader loss: Gustavus, Baner, Horn; Tilly,
        // Pappenheim
        f.dice({8, 4, 1, 3, 4, 6, 4});
        f.setActive(kProtestant);

        // 10.14: Gustavus (two stars) activates the army; 10.12: LR 4 + 3 + 2, to a maximum of 8.
        QVERIFY(f.activate("gustavus-adolphus", 1));
        QVERIFY(f.activation());
        QCOMPARE(f.activation()->leader, f.leader("gustavus-adolphus"));
        QCOMPARE(f.activation()->leadership, 8);
        // 10.12: the units of leaders stacked with the activated one at activation belong to his army.
        QVERIFY(f.legal(QStringLiteral("pickup u%1").arg(swedes[0])));
        if (f.legal(QStringLiteral("pickup u%1").arg(swedes[0]))) {
            QVERIFY(f.pickUp(army));
        } else { // work around to play the rest of the example
            auto& af = std::get<ActivationFrame>(f.s.frames.back());
            for (int16_t u : army) {
                af.units.push_back(u);
                af.joinedAt.push_back(0);
            }
        }
        QVERIFY(f.act("move leipzig"));
        // 11.23: the Catholic may withdraw into the fortress; he declines.
        QCOMPARE(f.e.actor(f.s), kCatholic);
        QVERIFY(f.legal("react in"));
        QVERIFY(f.act("react out"));
        // 11.21/12.11: combat, with all seven units.
        QVERIFY(!f.legal("end"));
        QVERIFY(f.act(attackText(army)));
        QVERIFY(f.combat());
        QVERIFY(f.logged("attacks with 24 CF, Catholic defends with 18 CF"));
        // 12.23: the attacker's cards first, then the defender's.
        QCOMPARE(f.e.actor(f.s), kProtestant);
        QVERIFY(!f.legal("card C49"));
        QVERIFY(f.act("card P13"));
        QVERIFY(f.act("card P34"));
        QVERIFY(f.act("pass"));
        QCOMPARE(f.e.actor(f.s), kCatholic);
        QVERIFY(f.act("card C49"));
        QVERIFY(f.act("pass"));
        // 12.24-12.26: +3 (Gustavus 3, P34 +1, C49 -1) and +1 (Tilly 2, P13 -1).
        QVERIFY2(f.logged("Protestant: 24 CF on column 20+, roll 8 +3 = 11: Loss Number 14", f.last),
                 qPrintable(f.logText(f.last)));
        QVERIFY2(f.logged("Catholic: 18 CF on column 15-19, roll 4 +1 = 5: Loss Number 9", f.last),
                 qPrintable(f.logText(f.last)));

        // 12.31: the Protestant's 9: exactly the three allocations the example names.
        QCOMPARE(f.e.actor(f.s), kProtestant);
        const QSet<QString> nine{
            "saxon-militia-f:1 saxon-militia-f:2 swedish-veteran-f:1",
            "swedish-veteran-f:1 swedish-veteran-f:1 swedish-veteran-f:1",
            "swedish-veteran-f:1 swedish-veteran-f:2",
        };
        QCOMPARE(lossOptions(f), nine);
        QVERIFY(takeLosses(f, "saxon-militia-f:1 saxon-militia-f:2 swedish-veteran-f:1"));

        // The Catholic's 14 can be met only as 12 (every step is worth 3); both named choices are legal.
        QCOMPARE(f.e.actor(f.s), kCatholic);
        int options = 0;
        for (const Action& a : f.legalActions()) {
            QCOMPARE(a.kind, ActionKind::Losses);
            QCOMPARE(lossTotal(f, a), 12);
            ++options;
        }
        QVERIFY(options > 2);
        const QSet<QString> twelve = lossOptions(f);
        QVERIFY(twelve.contains("bavarian-mercenary-f:1 bavarian-mercenary-f:1 bavarian-mercenary-f:1 "
                                "bavarian-mercenary-f:1"));
        QVERIFY(twelve.contains("bavarian-mercenary-f:1 bavarian-mercenary-r:1 bavarian-mercenary-r:1 "
                                "bavarian-mercenary-r:1"));
        QVERIFY(takeLosses(f, "bavarian-mercenary-f:1 bavarian-mercenary-r:1 bavarian-mercenary-r:1 "
                              "bavarian-mercenary-r:1"));

        // 12.4: leader loss rolls 1, 3, 4 and 6, 4: nobody is lost. 12.28: the Protestant wins.
        QVERIFY(f.s.forcedDice.empty());
        for (const char* l : {"gustavus-adolphus", "baner", "horn", "tilly", "pappenheim"})
            QCOMPARE(f.s.leaders[f.leader(l)].status, LeaderStatus::InPlay);
        QVERIFY(f.logged("12.28 Protestant wins the battle at Leipzig"));

        // 12.54: the Catholic retreats; Lützen is open, Torgau (where the attacker came from) is not.
        QCOMPARE(f.e.actor(f.s), kCatholic);
        QVERIFY(f.legal("retreat luetzen"));
        QVERIFY(!f.legal("retreat torgau"));
        QVERIFY(f.act("retreat luetzen"));
        const int luetzen = f.city("luetzen"), leipzig = f.city("leipzig");
        QCOMPARE(static_cast<int>(unitsAt(f.s, luetzen, kCatholic, f.d()).size()), 4);
        QCOMPARE(cfSum(f.d(), f.s, unitsAt(f.s, luetzen, kCatholic, f.d())), 11); // "a firepower of 11"
        QCOMPARE(f.s.leaders[f.leader("tilly")].loc, luetzen);
        QCOMPARE(f.s.leaders[f.leader("pappenheim")].loc, luetzen);
        QCOMPARE(static_cast<int>(unitsAt(f.s, leipzig, kProtestant, f.d()).size()), 6);
        QCOMPARE(cfSum(f.d(), f.s, unitsAt(f.s, leipzig, kProtestant, f.d())), 19);
        // Leipzig is a Fortress: the battle does not give control (12.28); a siege may follow.
        QCOMPARE(f.control("leipzig"), kCatholic);
        QVERIFY(f.legal("besiege"));
        QVERIFY(f.act("end"));
    }

    // 13.13 example: Anhalt joins two masking units at Munich.
    void munichSiegeLevel() {
        for (int militiaSteps : {2, 1}) {
            Rules f;
            QVERIFY(f.newGame());
            f.clearBoard();
            f.place("bavarian", UnitKind::Mercenary, "munich", 1, 2, true); // CF 3 inside
            f.place("protestant", UnitKind::Mercenary, "munich", 2);        // 6 CF masking
            f.placeLeader("anhalt", "landshut");
            const auto militia = f.place("protestant", UnitKind::Militia, "landshut", 1, militiaSteps);
            f.setActive(kProtestant);
            QVERIFY(f.activate("anhalt"));
            QVERIFY(f.pickUp(militia));
            QVERIFY(f.act("move munich"));
            QCOMPARE(siegeLevel(f.d(), f.s, f.city("munich")), 8); // 5 + 3
            if (militiaSteps == 1) {
                QVERIFY(!f.legal("besiege")); // 7 CF < 8
                continue;
            }
            // 8 CF from three units although Anhalt's LR is 2.
            QVERIFY(f.act("besiege"));
            QCOMPARE(f.s.cities[f.city("munich")].siege, 1);
            QCOMPARE(f.s.cities[f.city("munich")].sieger, kProtestant);
            QVERIFY(f.logged("13.13 Protestant besieges Munich (siege level 8, besiegers 8 CF)"));
            QVERIFY(!f.activation()); // 13.11: the leader ends his movement round
        }
    }

    // 13.21 example: two militia inside Ingolstadt need 9 CF; Anhalt rolls the siege combat with three
    // besieging units in a later round.
    void ingolstadtSiegeCombat() {
        Rules f;
        QVERIFY(f.newGame());
        f.clearBoard();
        f.place("bavarian", UnitKind::Militia, "ingolstadt", 2, 2, true);
        const auto mercs = f.place("protestant", UnitKind::Mercenary, "ingolstadt", 3);
        f.placeLeader("anhalt", "donauwoerth");
        f.setHand(kCatholic, {});
        QCOMPARE(siegeLevel(f.d(), f.s, f.city("ingolstadt")), 9);

        f.s.units[mercs[0]].steps = 1; // 8 CF: not enough
        f.setActive(kProtestant);
        QVERIFY(f.activate("anhalt"));
        QVERIFY(f.act("move ingolstadt"));
        QVERIFY(!f.legal("besiege"));
        f.s.units[mercs[0]].steps = 2; // 9 CF
        QVERIFY(f.legal("besiege"));
        QVERIFY(!f.legal("assault")); // 13.12: not in the round the marker is placed
        QVERIFY(f.act("besiege"));
        QVERIFY(!f.activation());

        // the Catholic's round, then the Protestant's next: Anhalt (LR 2) assaults with three units.
        QCOMPARE(f.e.actor(f.s), kCatholic);
        QVERIFY(f.spendRound());
        QCOMPARE(f.e.actor(f.s), kProtestant);
        QVERIFY(f.activate("anhalt"));
        f.dice({7});
        QVERIFY(f.act("assault"));
        QVERIFY(f.s.forcedDice.empty());
        QVERIFY2(f.logged("roll 7, DRM +0, modified 7: Successful", f.last), qPrintable(f.logText(f.last)));
        QCOMPARE(f.control("ingolstadt"), kProtestant);
        QVERIFY(unitsAt(f.s, f.city("ingolstadt"), kCatholic, f.d()).empty()); // 13.24: eliminated
        QCOMPARE(f.s.cities[f.city("ingolstadt")].siege, 0);
    }

    // 13.23 example: a Continued Siege +1 at Breisach (Siege Modifier -2) makes a DRM of -1.
    void breisachSiegeDrm() {
        Rules f;
        QVERIFY(f.newGame());
        f.clearBoard();
        const int breisach = f.city("breisach");
        f.s.cities[breisach].siege = 2; // Continued Siege +1
        f.s.cities[breisach].sieger = kProtestant;
        QCOMPARE(siegeDrm(f.d(), f.s, breisach, kProtestant, false), -1);
        QCOMPARE(siegeDrm(f.d(), f.s, breisach, kProtestant, true), -1);
        // and in play: a natural 7 becomes 6, which fails; the marker goes to +2.
        f.place("protestant", UnitKind::Mercenary, "breisach", 2);
        f.dice({7});
        QVERIFY(f.runEndPhase());
        QVERIFY(f.s.forcedDice.empty());
        QVERIFY2(f.logged("siege of Breisach: roll 7, DRM -1, modified 6: Unsuccessful"),
                 qPrintable(f.logText(f.log)));
        QCOMPARE(f.s.cities[breisach].siege, 3);
    }

    // 10.12 example: Mansfeld (LR 5) moves 15 units in one activation, five at a time.
    void mansfeldFifteenUnits() {
        Rules f;
        QVERIFY(f.newGame());
        f.clearBoard();
        f.placeLeader("mansfeld", "weiden");
        const auto first = f.place("protestant", UnitKind::Mercenary, "weiden", 5);
        const auto second = f.place("protestant", UnitKind::Mercenary, "pilsen", 5);
        const auto sixth = f.place("protestant", UnitKind::Militia, "pilsen", 1);
        const auto third = f.place("protestant", UnitKind::Militia, "znaim", 5);
        f.setActive(kProtestant);
        QVERIFY(f.activate("mansfeld"));
        QCOMPARE(f.activation()->leadership, 5);
        QVERIFY(f.pickUp(first));
        QVERIFY(f.act("move eger")); // 1 MP
        for (int16_t u : first)
            QVERIFY(f.act(QStringLiteral("dropoff u%1").arg(u)));
        QVERIFY(f.act("move pilsen")); // 2, alone
        QVERIFY(f.pickUp(second));
        QVERIFY(!f.legal(QStringLiteral("pickup u%1").arg(sixth[0]))); // never more than LR 5 at once
        QVERIFY(f.act("move prague"));
        QVERIFY(f.act("move kuttenberg")); // 4
        for (int16_t u : second)
            QVERIFY(f.act(QStringLiteral("dropoff u%1").arg(u)));
        QVERIFY(f.act("move iglau"));
        QVERIFY(f.act("move znaim")); // 6, alone
        QVERIFY(f.pickUp(third));
        QVERIFY(f.act("move krems"));
        QVERIFY(f.act("move vienna")); // 8
        QCOMPARE(f.activation()->mpUsed, 8);
        QVERIFY(f.legalOf(ActionKind::Move).isEmpty());
        QVERIFY(f.act("end"));
        QVERIFY(f.runUntil([&] { return std::holds_alternative<TurnFrame>(f.s.frames.back()); })); // foraging
        for (int16_t u : first)
            QCOMPARE(f.s.units[u].loc, f.city("eger"));
        for (int16_t u : second)
            QCOMPARE(f.s.units[u].loc, f.city("kuttenberg"));
        for (int16_t u : third)
            QCOMPARE(f.s.units[u].loc, f.city("vienna"));
        QCOMPARE(f.s.units[sixth[0]].loc, f.city("pilsen"));
        QVERIFY(f.logged("11.16 15 units moved"));
    }

    // 3.13 example: the Catholic controls Oppenheim, Mannheim and Heidelberg while a Protestant unit
    // stays in Landau.
    void lowerPalatinate() {
        Rules f;
        QVERIFY(f.newGame());
        f.clearBoard();
        QCOMPARE(f.s.areas[f.area("lower-palatinate")].control, kProt);
        f.setMarker("mannheim", kCatholic); // both Fortresses taken earlier by siege
        f.setMarker("heidelberg", kCatholic);
        f.place("protestant", UnitKind::Militia, "landau");
        const int16_t u = f.place("bavarian", UnitKind::Mercenary, "mainz").front();
        const int vp = f.s.vp;
        f.setActive(kCatholic);
        QVERIFY(f.act(QStringLiteral("free u%1").arg(u)));
        QVERIFY(f.act("move oppenheim"));
        QVERIFY(f.act("control"));
        QCOMPARE(f.s.areas[f.area("lower-palatinate")].control, kCath);
        QCOMPARE(f.s.vp, vp + 2); // 5.12: the Area's 2 VP
        for (const char* c : {"oppenheim", "mannheim", "heidelberg"}) {
            QCOMPARE(f.s.cities[f.city(c)].marker, kNone); // implied by the Control Box
            QCOMPARE(f.control(c), kCatholic);
        }
        QCOMPARE(f.s.cities[f.city("landau")].marker, kProt);
        QCOMPARE(f.control("landau"), kProtestant);
    }

    // 3.12 example: Hessen-Kassel becomes Catholic; Hanau follows without a siege, Frankfurt does not.
    void hessenKasselHanau() {
        Rules f;
        QVERIFY(f.newGame());
        f.clearBoard();
        f.setAreaControl("hesse-kassel", kNone, false); // neutral, violated earlier
        f.setMarker("kassel", kCatholic);               // taken by siege
        f.setMarker("ziegenhain", kCatholic);
        QCOMPARE(f.control("hanau"), kNone);
        QCOMPARE(f.control("frankfurt"), kProtestant);
        const int vp = f.s.vp;
        QVERIFY(freeControl(f, kCatholic, "marburg"));
        QCOMPARE(f.s.areas[f.area("hesse-kassel")].control, kCath);
        QCOMPARE(f.s.vp, vp + 1);
        QCOMPARE(f.control("hanau"), kCatholic);
        QCOMPARE(f.s.cities[f.city("hanau")].siege, 0);
        QCOMPARE(f.control("frankfurt"), kProtestant);
    }

    // 5.141 example, all three paragraphs.
    void electorSequence() {
        Rules f;
        QVERIFY(f.newGame());
        f.clearBoard();
        f.setHand(kCatholic, {});
        f.setHand(kProtestant, {});
        QCOMPARE(electorsControlled(f.d(), f.s, kCatholic), 4); // Mainz, Köln, Trier, Saxony
        QCOMPARE(f.s.electorMajorityHolder, kCath);             // counted in the 21 (4.2)
        QCOMPARE(f.s.vp, 21);
        const int mainzVp = f.d().cities[f.city("mainz")].vp;
        const int trierVp = f.d().cities[f.city("trier")].vp;
        const int koelnVp = f.d().cities[f.city("koeln")].vp;
        auto areaVp = [&](const char* a) { return f.d().areas[f.area(a)].vp; };
        // Area flips by taking one non-Fortress city with the others marked beforehand.
        auto takeBohemia = [&](int side) {
            f.setMarker("budweis", side);
            f.setMarker("eger", side);
            return freeControl(f, side, "kuttenberg");
        };
        auto takePalatinate = [&](int side) {
            f.setMarker("mannheim", side);
            f.setMarker("heidelberg", side);
            return freeControl(f, side, "oppenheim");
        };
        auto takeBrandenburg = [&](int side) {
            f.setMarker("berlin", side);
            f.setMarker("havelberg", side);
            f.setMarker("crossen", side);
            return freeControl(f, side, "baerwalde");
        };
        auto takeSaxony = [&](int side) {
            f.setMarker("torgau", side);
            f.setMarker("luetzen", side);
            f.setMarker("wittenberg", side);
            return freeControl(f, side, "bautzen");
        };
        // The Fortresses Trier and Köln fall to sieges in the Continued Siege Segment (natural 9s).
        auto besiegeTrierKoeln = [&](int side) {
            const QString nat = side == kCatholic ? QStringLiteral("bavarian") : QStringLiteral("protestant");
            std::vector<int16_t> units;
            for (const char* c : {"trier", "koeln"}) {
                units.push_back(f.place(nat, UnitKind::Mercenary, c).front());
                f.s.cities[f.city(c)].siege = 1;
                f.s.cities[f.city(c)].sieger = static_cast<int8_t>(side);
            }
            f.dice({9, 9});
            const bool ok = f.runEndPhase() && f.s.forcedDice.empty();
            for (int16_t u : units)
                f.s.units[u] = UnitState{f.s.units[u].type, kPool, 0, 0};
            return ok;
        };

        // Paragraph 1: the Catholic gains the other three: +5 once.
        QVERIFY(takeBohemia(kCatholic));
        QCOMPARE(f.s.vp, 21 + areaVp("bohemia")); // majority already held: no +2
        QVERIFY(takePalatinate(kCatholic));
        int vp = 21 + areaVp("bohemia") + areaVp("lower-palatinate");
        QCOMPARE(f.s.vp, vp);
        QVERIFY(takeBrandenburg(kCatholic));
        vp += areaVp("brandenburg") + 5;
        QCOMPARE(electorsControlled(f.d(), f.s, kCatholic), 7);
        QCOMPARE(f.s.vp, vp);
        // The Protestant captures an elector: the Catholic keeps his +5 ...
        QVERIFY(freeControl(f, kProtestant, "mainz"));
        vp -= mainzVp;
        QCOMPARE(f.s.vp, vp);
        // ... and does not get it again when he recaptures it.
        QVERIFY(freeControl(f, kCatholic, "mainz"));
        vp += mainzVp;
        QCOMPARE(electorsControlled(f.d(), f.s, kCatholic), 7);
        QCOMPARE(f.s.vp, vp);

        // Paragraph 2: the Protestant reaches four electors: -2; the Catholic recaptures one: +2.
        QVERIFY(freeControl(f, kProtestant, "mainz"));
        QVERIFY(takeBohemia(kProtestant));
        QVERIFY(takePalatinate(kProtestant));
        vp -= mainzVp + areaVp("bohemia") + areaVp("lower-palatinate");
        QCOMPARE(electorsControlled(f.d(), f.s, kProtestant), 3);
        QCOMPARE(f.s.vp, vp);
        QVERIFY(takeBrandenburg(kProtestant));
        vp -= areaVp("brandenburg") + 2;
        QCOMPARE(electorsControlled(f.d(), f.s, kProtestant), 4);
        QCOMPARE(f.s.vp, vp);
        QVERIFY(freeControl(f, kCatholic, "mainz"));
        vp += mainzVp + 2;
        QCOMPARE(electorsControlled(f.d(), f.s, kCatholic), 4);
        QCOMPARE(f.s.vp, vp);

        // Paragraph 3: the Protestant captures all seven: -2 (majority again) on the way and -5.
        QVERIFY(besiegeTrierKoeln(kProtestant));
        vp -= trierVp + koelnVp + 2;
        QCOMPARE(electorsControlled(f.d(), f.s, kProtestant), 5);
        QCOMPARE(f.s.vp, vp);
        QVERIFY(freeControl(f, kProtestant, "mainz"));
        QVERIFY(takeSaxony(kProtestant));
        vp -= mainzVp + areaVp("saxony") + 5;
        QCOMPARE(electorsControlled(f.d(), f.s, kProtestant), 7);
        QCOMPARE(f.s.vp, vp);
        // Now, and only now, the Catholic may get +5 again, by taking all seven.
        QVERIFY(freeControl(f, kCatholic, "mainz"));
        QVERIFY(takeBohemia(kCatholic));
        QVERIFY(takePalatinate(kCatholic));
        vp += mainzVp + areaVp("bohemia") + areaVp("lower-palatinate");
        QCOMPARE(f.s.vp, vp);
        QVERIFY(takeBrandenburg(kCatholic)); // four: the majority, +2
        vp += areaVp("brandenburg") + 2;
        QCOMPARE(f.s.vp, vp);
        QVERIFY(takeSaxony(kCatholic));
        vp += areaVp("saxony");
        QCOMPARE(f.s.vp, vp);
        QVERIFY(besiegeTrierKoeln(kCatholic));
        vp += trierVp + koelnVp + 5;
        QCOMPARE(electorsControlled(f.d(), f.s, kCatholic), 7);
        QCOMPARE(f.s.vp, vp);
    }

    // 12.42 example: Wallenstein is lost at Lützen while Piccolomini is in Vienna.
    void wallensteinPiccolominiEnkevoort() {
        Rules f;
        QVERIFY(f.newGame());
        f.clearBoard();
        f.placeLeader("wallenstein", "luetzen");
        f.place("imperial", UnitKind::Mercenary, "luetzen", 3);
        f.placeLeader("piccolomini", "vienna");
        f.placeLeader("gustavus-adolphus", "leipzig");
        const auto swedes = f.place("swedish", UnitKind::Veteran, "leipzig", 4);
        f.setHand(kCatholic, {});
        f.setHand(kProtestant, {});
        // combat: Protestant 0 (+3: 6 losses), Catholic 9 (+1: 8 losses); leader loss: Gustavus 0,
        // Wallenstein 9
        f.dice({0, 9, 0, 9});
        f.setActive(kProtestant);
        QVERIFY(f.activate("gustavus-adolphus"));
        QVERIFY(f.pickUp(swedes));
        QVERIFY(f.act("move luetzen"));
        QVERIFY(f.act(attackText(swedes)));
        QVERIFY(f.runUntil([&] { return !f.combat(); }));
        QVERIFY(f.s.forcedDice.empty());
        QCOMPARE(f.s.leaders[f.leader("wallenstein")].status, LeaderStatus::Dead);
        QCOMPARE(f.s.leaders[f.leader("piccolomini")].status, LeaderStatus::InPlay);
        QCOMPARE(f.s.leaders[f.leader("piccolomini")].loc, f.city("luetzen"));
        QCOMPARE(f.s.leaders[f.leader("enkevoort")].status, LeaderStatus::InPlay);
        QCOMPARE(f.s.leaders[f.leader("enkevoort")].loc, f.city("vienna"));
        // 12.27 note: the dead Wallenstein still counts as Dynamic for the winner (the Catholic won on
        // Loss Numbers anyway); the Protestant attacker goes back where he came from (12.53).
        QVERIFY(f.logged("12.28 Catholic wins the battle at Lützen"));
        for (int16_t u : swedes)
            if (f.s.units[u].loc >= 0)
                QCOMPARE(f.s.units[u].loc, f.city("leipzig"));
    }

    // 12.42 note: Pappenheim lost before Mercy is in the game: Mercy replaces him.
    void pappenheimMercy() {
        Rules f;
        QVERIFY(f.newGame());
        f.clearBoard();
        f.placeLeader("pappenheim", "ingolstadt");
        const auto mercs = f.place("bavarian", UnitKind::Mercenary, "ingolstadt", 2);
        f.place("protestant", UnitKind::Militia, "donauwoerth");
        f.setHand(kCatholic, {});
        f.setHand(kProtestant, {});
        QCOMPARE(f.s.leaders[f.leader("mercy")].status, LeaderStatus::NotEntered);
        // Catholic 9 (+1 = 10 on 4-6: 6), Protestant 0; Pappenheim's loss roll 9 (rating 7)
        f.dice({9, 0, 9});
        f.setActive(kCatholic);
        QVERIFY(f.activate("pappenheim"));
        QVERIFY(f.pickUp(mercs));
        QVERIFY(f.act("move donauwoerth"));
        QVERIFY(f.act(attackText(mercs)));
        QVERIFY(f.runUntil([&] { return !f.combat(); }));
        QVERIFY(f.s.forcedDice.empty());
        QCOMPARE(f.s.leaders[f.leader("pappenheim")].status, LeaderStatus::Dead);
        QCOMPARE(f.s.leaders[f.leader("mercy")].status, LeaderStatus::InPlay);
        QCOMPARE(f.s.leaders[f.leader("mercy")].loc, f.city("donauwoerth"));
        QCOMPARE(f.s.leaders[f.leader("wolf")].status, LeaderStatus::NotEntered);
    }
};

QTEST_GUILESS_MAIN(TestRulesExamples)
#include "test_rules_examples.moc"

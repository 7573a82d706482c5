// Issue 4, the audit (docs/rules-part2.md, "Coverage of issue 4"): every rule of the issue that no other test
// checked, each from a constructed position driven through the engine (or, for a query the engine's legal
// actions use, through that query). test_economy.cpp holds the first tests of the same rules.
#include "economy_fixture.h"
#include "rules/economy.h"
#include "rules/invariants.h"
#include "rules_fixture.h"

using namespace wp;
using namespace wp::rules;
using namespace wp::rules::test;

namespace {

QSet<QString> legalSet(const Rules& f) {
    const QStringList l = f.legalTexts();
    return QSet<QString>(l.begin(), l.end());
}

int countLogged(const Rules& f, const QString& fragment) {
    int n = 0;
    for (const LogLine& line : f.log)
        n += line.text.contains(fragment);
    return n;
}

int unitsOfType(const Rules& f, const QString& nat, UnitKind kind, const QString& where) {
    int n = 0;
    const int type = f.unitType(nat, kind);
    for (const UnitState& u : f.s.units)
        n += u.type == type && u.loc == f.locOf(where);
    return n;
}

int countersOf(const Rules& f, const QString& nat, UnitKind kind) {
    int n = 0;
    const int type = f.unitType(nat, kind);
    for (const UnitState& u : f.s.units)
        n += u.type == type;
    return n;
}

int revoltsIn(const Rules& f, const QString& area) {
    int n = 0;
    for (int city : f.d().areas[f.area(area)].cities)
        n += f.s.cities[city].revolt;
    return n;
}

Ctx ctx(Rules& f, Log* log = nullptr) {
    return Ctx{f.d(), f.s, log};
}

QString areaChoice(const Rules& f, const QString& area) {
    return QStringLiteral("choose %1").arg(kAreaCode + f.area(area));
}

// Cards of `deck` in a draw pile, a hand or the Played pile.
int cardsInPlay(const Rules& f, Deck deck) {
    int n = 0;
    for (qsizetype i = 0; i < f.d().cards.size(); ++i) {
        const CardPlace p = f.s.cardPlace[i];
        n += f.d().cards[i].deck == deck &&
             (p == CardPlace::Unplayed || p == CardPlace::Hand || p == CardPlace::Played);
    }
    return n;
}

bool onMap(const Rules& f, int16_t unit) {
    return f.s.units[unit].loc >= 0;
}

} // namespace

class TestRulesPart2 : public QObject {
    Q_OBJECT

  private slots:
    // ================================================================ 8.4 recruitment

    // 8.41: the player declares Mercenaries or Militia; Veterans may never be recruited.
    void recruit_841_never_veterans() {
        Rules f;
        cleanCampaign(f);
        f.placeLeader("bucquoy", "vienna");
        f.dice({5});
        QVERIFY(rec(f, kCatholic, 1));
        QVERIFY(f.act("choose bucquoy"));
        QCOMPARE(purpose(f), int(kRecruitKind));
        QCOMPARE(legalSet(f), (QSet<QString>{"choose 1", "choose 2"}));
        QVERIFY(f.act("choose 1"));
        QCOMPARE(unitsOfType(f, "imperial", UnitKind::Veteran, "vienna"), 0);
    }

    // 8.412: recruited steps never bring reduced units up to full strength, and steps beyond the counters
    // left in the mix are not received.
    void recruit_8412_reduced_units_stay_reduced() {
        Rules f;
        cleanCampaign(f);
        f.placeLeader("john-george", "leipzig"); // 17.Sa.2: Saxon Militia only
        const int n = countersOf(f, "saxon", UnitKind::Militia);
        QVERIFY(n >= 2);
        const auto reduced = f.place("saxon", UnitKind::Militia, "dresden", n - 1, 1);
        f.dice({9}); // 3 steps, one counter left
        QVERIFY(rec(f, kCatholic, 1));
        QVERIFY(f.act("choose john-george"));
        if (purpose(f) == int(kRecruitSteps))
            QVERIFY(f.act("choose 1")); // the one counter at full strength
        QCOMPARE(unitsOfType(f, "saxon", UnitKind::Militia, "leipzig"), 1);
        for (int16_t u : reduced)
            QCOMPARE(int(f.s.units[u].steps), 1);
        QVERIFY(f.logged("not received"));
    }

    // 8.42: the units stand in the recruiting leader's space (inside the fortress when he is inside).
    void recruit_842_units_placed_with_the_leader() {
        Rules f;
        cleanCampaign(f);
        f.placeLeader("bucquoy", "bruenn", true);
        f.dice({7});
        QVERIFY(rec(f, kCatholic, 1));
        QVERIFY(f.act("choose bucquoy"));
        QVERIFY(f.act("choose 2"));
        QVERIFY(f.act("choose 1"));
        int inside = 0;
        for (const UnitState& u : f.s.units)
            if (u.loc == f.city("bruenn"))
                inside += (u.flags & kInside) != 0;
        QCOMPARE(inside, 1);
    }

    // ================================================================ 14 foreign aid

    // 19.4a: with no limit on AID, an event that changes aid is retroactive to the turn's AID cards.
    void aid_194a_events_retroactive_within_the_turn() {
        for (const bool noLimit : {false, true}) {
            Rules f;
            GameOptions o;
            o.aid_no_limit = noLimit;
            cleanCampaign(f, kCatholic, o);
            f.setHand(kCatholic, {"C1", f.plainCard(kCatholic, 1)}); // Spain 4, Pope 1
            QVERIFY(f.act("play C1 aid"));
            const int before = f.s.aidPoints[kCatholic];
            QVERIFY(before > 0);
            Ctx c = ctx(f);
            setEffect(c, QStringLiteral("aid.spain.TEST"), 2, f.s.turn);            // a later event: Spain +2
            QCOMPARE(int(f.s.aidPoints[kCatholic]), noLimit ? before + 2 : before); // 8.65 / 19.4a
        }
    }

    // ================================================================ 15.1 pay

    // 15.12 exception P21: Imperial units in Austria are not paid locally this turn and the next.
    void pay_1512_exception_P21() {
        Rules f;
        cleanCampaign(f);
        f.place("imperial", UnitKind::Veteran, "vienna", 1);
        f.s.markers[QStringLiteral("P21.austriaNotLocallyPaidThroughTurn")] = f.s.turn + 1;
        f.dice({0});
        QVERIFY(startPhase(f, Phase::Pay));
        QVERIFY(f.logged("15.12 Catholic: 0 units paid locally, 1 to pay"));
        f.s.turn = static_cast<int8_t>(f.s.turn + 1);
        f.log.clear();
        f.dice({0});
        QVERIFY(startPhase(f, Phase::Pay));
        QVERIFY(f.logged("15.12 Catholic: 0 units paid locally, 1 to pay"));
        f.s.turn = static_cast<int8_t>(f.s.turn + 1); // two turns later: local again
        f.log.clear();
        QVERIFY(startPhase(f, Phase::Pay));
        QVERIFY(f.logged("15.12 Catholic: 1 units paid locally, 0 to pay"));
    }

    // 15.12: Danes are paid locally only with a LoC to Denmark's base (Schleswig-Holstein); Hungarians in
    // Hungary; Bavarians outside Bavaria are not.
    void pay_1512_danes_hungarians_bavarians() {
        Rules f;
        cleanCampaign(f);
        const auto dane = f.place("danish", UnitKind::Mercenary, "kiel", 1);
        const auto hun = f.place("hungarian", UnitKind::Militia, "raab", 1);
        const auto hunOut = f.place("hungarian", UnitKind::Militia, "vienna", 1);
        const auto bavOut = f.place("bavarian", UnitKind::Mercenary, "nuernberg", 1);
        f.setMarker("kiel", kProtestant);
        QVERIFY(locallyPaid(f.d(), f.s, dane[0]));
        f.setMarker("kiel", kCatholic); // no base in Schleswig-Holstein: Rendsburg neutral, Kiel Catholic
        f.setMarker("rendsburg", kCatholic);
        QVERIFY(!locallyPaid(f.d(), f.s, dane[0]));
        QVERIFY(locallyPaid(f.d(), f.s, hun[0]));
        QVERIFY(!locallyPaid(f.d(), f.s, hunOut[0]));
        QVERIFY(!locallyPaid(f.d(), f.s, bavOut[0]));
    }

    // 15.132: a reduced unit is paid its full rate.
    void pay_15132_reduced_units_pay_full_rate() {
        Rules f;
        cleanCampaign(f);
        const auto u = f.place("protestant", UnitKind::Mercenary, "pilsen", 1, 1); // reduced
        f.s.aidPoints[kProtestant] = 1;
        f.dice({0});
        QVERIFY(startPhase(f, Phase::Pay));
        QVERIFY(purpose(f) != int(kPayUnits)); // 1 AP is not enough: it loots
        QVERIFY(f.logged("Loot Table"));

        cleanCampaign(f);
        const auto v = f.place("protestant", UnitKind::Mercenary, "pilsen", 1, 1);
        f.s.aidPoints[kProtestant] = 2;
        QVERIFY(startPhase(f, Phase::Pay));
        QCOMPARE(purpose(f), int(kPayUnits));
        QVERIFY(f.act(QStringLiteral("choose u%1").arg(v[0])));
        QCOMPARE(int(f.s.aidPoints[kProtestant]), 0); // 2 AP for one step
        Q_UNUSED(u);
    }

    // 15.14: the LoC is never traced through a Neutral Area, a Neutral Independent City, France before it is
    // in the war, or a city with an enemy force (besieging or masking); a friendly path otherwise works.
    void pay_1514_every_block() {
        Rules f;
        cleanCampaign(f);
        // an enemy force on the only path (Budweis - Pilsen - Prague)
        const auto b = f.place("protestant", UnitKind::Mercenary, "budweis", 1);
        QVERIFY(hasLoc(f.d(), f.s, b[0]));
        const auto enemy = f.place("imperial", UnitKind::Mercenary, "pilsen", 1);
        QVERIFY(!hasLoc(f.d(), f.s, b[0]));
        // ... also when it besieges our units inside the fortress
        f.place("protestant", UnitKind::Militia, "pilsen", 1, 2, true);
        f.s.cities[f.city("pilsen")].siege = 1;
        f.s.cities[f.city("pilsen")].sieger = kCatholic;
        QVERIFY(!hasLoc(f.d(), f.s, b[0]));
        f.clearBoard();

        // a Neutral Area: Bautzen - Dresden - Leitmeritz - Prague
        f.setAreaControl("saxony", kProtestant);
        f.setMarker("dresden", kProtestant);
        const auto s = f.place("protestant", UnitKind::Mercenary, "bautzen", 1);
        QVERIFY(hasLoc(f.d(), f.s, s[0]));
        f.setAreaControl("saxony", kNone, true);
        QVERIFY(!hasLoc(f.d(), f.s, s[0]));

        // a Neutral Independent City: Ansbach - Nuremberg - Amberg - Weiden - Eger - Pilsen - Prague
        const auto a = f.place("protestant", UnitKind::Mercenary, "ansbach", 1);
        f.setMarker("nuernberg", kProtestant);
        QVERIFY(hasLoc(f.d(), f.s, a[0]));
        f.setMarker("nuernberg", kNone);
        QVERIFY(effectiveCityControl(f.d(), f.s, f.city("nuernberg")) == kNone);
        QVERIFY(!hasLoc(f.d(), f.s, a[0]));

        // France before it enters the war: Langres - Toul - Nancy - Strasbourg - Landau - Mannheim
        const auto fr = f.place("protestant", UnitKind::Mercenary, "langres", 1);
        f.setAreaControl("lorraine", kProtestant);
        for (const char* c : {"toul", "nancy", "strasbourg", "landau"})
            f.setMarker(c, kProtestant);
        f.s.franceInWar = true;
        QVERIFY(hasLoc(f.d(), f.s, fr[0]));
        f.s.franceInWar = false;
        QVERIFY(!hasLoc(f.d(), f.s, fr[0]));
        Q_UNUSED(enemy);
    }

    // ================================================================ 15.2 loot

    // 15.21: one roll for all the Unpaid units of a side in a city; another city rolls on its own.
    void loot_1521_one_roll_per_city() {
        Rules f;
        cleanCampaign(f);
        f.place("imperial", UnitKind::Mercenary, "bruenn", 2);
        f.place("imperial", UnitKind::Militia, "bruenn", 1);
        f.place("imperial", UnitKind::Mercenary, "olmuetz", 1);
        f.dice({0, 0});
        QVERIFY(startPhase(f, Phase::Pay));
        QCOMPARE(countLogged(f, "Loot Table"), 2);
        QVERIFY(f.logged("Loot Table, 3 units at"));
        QVERIFY(f.s.forcedDice.empty());
    }

    // 15.223: after the Mercenaries, Militia lose steps before Veterans.
    void loot_15223_militia_before_veterans() {
        Rules f;
        cleanCampaign(f);
        const auto vet = f.place("imperial", UnitKind::Veteran, "bruenn", 1);
        const auto mil = f.place("imperial", UnitKind::Militia, "bruenn", 1);
        f.dice({9}); // Pillage 2, One Step Loss
        QVERIFY(startPhase(f, Phase::Pay));
        QVERIFY(f.logged("Pillage 2, One Step Loss"));
        QCOMPARE(int(f.s.units[mil[0]].steps), 1);
        QCOMPARE(int(f.s.units[vet[0]].steps), 2);
    }

    // 15.225: leaders left alone go to a friendly city "subject to normal Nationality restrictions": Bethlen
    // Gabor only within the six Areas of 17.H.4.
    void loot_15225_nationality_restrictions() {
        Rules f;
        cleanCampaign(f);
        const auto u = f.place("hungarian", UnitKind::Militia, "vienna", 1, 1);
        f.placeLeader("bethlen-gabor", "vienna");
        f.dice({9}); // Pillage 2, One Step Loss: the reduced unit is gone
        QVERIFY(startPhase(f, Phase::Pay));
        QVERIFY(!onMap(f, u[0]));
        QCOMPARE(purpose(f), int(kLeadersPlace));
        QVERIFY(f.legal("choose prague"));
        QVERIFY(f.legal("choose pressburg"));
        QVERIFY(!f.legal("choose berlin")); // Brandenburg: not a Hungarian Area
        QVERIFY(!f.legal("choose vienna")); // Catholic
    }

    // 15.24: Pillage-2 adds +2 on the Loot Table (Pillage-1 +1 is in the 15.211 example).
    void loot_1524_pillage2_drm() {
        Rules f;
        cleanCampaign(f);
        f.s.cities[f.city("bruenn")].pillage = 2;
        f.place("imperial", UnitKind::Militia, "bruenn", 1);
        f.dice({0});
        QVERIFY(startPhase(f, Phase::Pay));
        QVERIFY(f.logged("0 +2 Pillage-2 = 2"));
    }

    // ================================================================ 9.4 Peasant Revolts

    // 9.43: a unit that enters a city in revolt and spends an MP suppresses it and takes control; with an
    // enemy force there it must first win the battle.
    void revolt_943_suppression_by_an_mp() {
        Rules f;
        cleanCampaign(f);
        Ctx c = ctx(f);
        placeRevolt(c, f.city("linz"), QStringLiteral("test"));
        f.placeLeader("bucquoy", "krems");
        const auto u = f.place("imperial", UnitKind::Mercenary, "krems", 1);
        QVERIFY(f.activate("bucquoy"));
        QVERIFY(f.pickUp(u));
        QVERIFY(f.act("move linz"));
        QVERIFY(f.legal("control"));
        QVERIFY(f.act("control"));
        QVERIFY(!f.s.cities[f.city("linz")].revolt);
        QCOMPARE(f.control("linz"), int(kCatholic));
        QVERIFY(f.logged("9.43"));

        // an enemy unit in the city in revolt: no suppression before the battle
        cleanCampaign(f);
        Ctx c2 = ctx(f);
        placeRevolt(c2, f.city("linz"), QStringLiteral("test"));
        f.place("protestant", UnitKind::Militia, "linz", 1);
        f.placeLeader("bucquoy", "krems");
        const auto v = f.place("imperial", UnitKind::Mercenary, "krems", 2);
        QVERIFY(f.activate("bucquoy"));
        QVERIFY(f.pickUp(v));
        QVERIFY(f.act("move linz"));
        QVERIFY(!f.legal("control"));
    }

    // 9.41/9.43: a Fortress City may be in revolt, and "siege is not required to suppress the Revolt": an
    // MP spent there suppresses it.
    void revolt_943_fortress_needs_no_siege() {
        Rules f;
        cleanCampaign(f);
        Ctx c = ctx(f);
        placeRevolt(c, f.city("bruenn"), QStringLiteral("test"));
        f.placeLeader("bucquoy", "iglau");
        const auto u = f.place("imperial", UnitKind::Mercenary, "iglau", 1);
        QVERIFY(f.activate("bucquoy"));
        QVERIFY(f.pickUp(u));
        QVERIFY(f.act("move bruenn"));
        QVERIFY(f.legal("control"));
        const int mp = f.activation()->mpUsed;
        QVERIFY(f.act("control"));
        QVERIFY(!f.s.cities[f.city("bruenn")].revolt); // 9.43: suppressed for one MP
        QCOMPARE(int(f.activation()->mpUsed), mp + 1);
        QCOMPARE(int(f.s.cities[f.city("bruenn")].marker),
                 int(kNone)); // 3.11: a fortress is won by siege only
        QVERIFY(f.logged("9.43"));
        QVERIFY(!f.legal("control"));
    }

    // 9.43, 13.1: when a revolt in a besieged fortress ends and the fortress follows its Area again, a siege
    // by the side that now holds it ends (fuzzer, intervention seed 95103: "Protestant besieges Küstrin,
    // which it controls").
    void revolt_943_end_of_revolt_ends_a_siege_of_ones_own_city() {
        Rules f;
        cleanCampaign(f);
        Log log;
        Ctx c = ctx(f, &log);
        placeRevolt(c, f.city("pilsen"), QStringLiteral("test")); // Bohemia stays Protestant
        QCOMPARE(f.control("pilsen"), int(kNone));
        f.placeLeader("mansfeld", "pilsen");
        f.place("protestant", UnitKind::Mercenary, "pilsen", 3);
        f.s.cities[f.city("pilsen")].siege = 1;
        f.s.cities[f.city("pilsen")].sieger = kProtestant;
        removeRevolt(c, f.city("pilsen"), kNone, QStringLiteral("9.43"));
        QCOMPARE(f.control("pilsen"), int(kProtestant));
        QCOMPARE(int(f.s.cities[f.city("pilsen")].siege), 0);
        QCOMPARE(int(f.s.cities[f.city("pilsen")].sieger), int(kNone));
        QVERIFY(f.logged("13.1 the siege of", log));
        QCOMPARE(checkInvariants(f.d(), f.s).filter("13.11"), QStringList());
    }

    // 9.44: the spread goes to a city of the same Area joined by a pathway, not a Supply Base, without units,
    // not in revolt; the player not controlling the Area rolls and picks.
    void revolt_944_the_three_conditions() {
        Rules f;
        cleanCampaign(f);
        Ctx c = ctx(f);
        // Krems: Linz, Znaim and Vienna next to it; Vienna is a Supply Base; Znaim holds a unit.
        placeRevolt(c, f.city("krems"), QStringLiteral("test"));
        f.place("imperial", UnitKind::Militia, "znaim", 1);
        f.dice({0});
        QVERIFY(startPhase(f, Phase::Revolt));
        // one city meets all three conditions: placed at once
        QVERIFY(f.s.cities[f.city("linz")].revolt);
        QVERIFY(!f.s.cities[f.city("vienna")].revolt);
        QVERIFY(!f.s.cities[f.city("znaim")].revolt);
        QCOMPARE(revoltsIn(f, "austria"), 2);

        // Linz: only Krems of Austria is next to it (Passau, Budweis, Salzburg are not in Austria); with a
        // unit in Krems it does not spread.
        cleanCampaign(f);
        Ctx c2 = ctx(f);
        placeRevolt(c2, f.city("linz"), QStringLiteral("test"));
        f.place("imperial", UnitKind::Militia, "krems", 1);
        f.dice({1});
        QVERIFY(startPhase(f, Phase::Revolt));
        QCOMPARE(revoltsIn(f, "austria"), 1);
        QVERIFY(!f.s.cities[f.city("passau")].revolt && !f.s.cities[f.city("salzburg")].revolt);
        QVERIFY(f.logged("9.44 no city meets the conditions"));

        // a Protestant Area: the Catholic rolls, and picks among several
        cleanCampaign(f);
        Ctx c3 = ctx(f);
        placeRevolt(c3, f.city("pilsen"), QStringLiteral("test"));
        f.dice({1});
        QVERIFY(startPhase(f, Phase::Revolt));
        QCOMPARE(purpose(f), int(kRevoltSpread));
        QCOMPARE(f.e.actor(f.s), int(kCatholic));
        QVERIFY(!f.legal("choose prague")); // a Supply Base
        QVERIFY(f.legal("choose budweis") && f.legal("choose eger"));
        QVERIFY(!f.legal("choose cham")); // another Area
        QVERIFY(f.act("choose eger"));
        QVERIFY(f.s.cities[f.city("eger")].revolt);
    }

    // ================================================================ 7 Wallenstein

    // 7.1: three boxes when an army led by Wallenstein wins as the attacker (the city it wins included).
    void wallenstein_71_attacking_victory() {
        Rules f;
        cleanCampaign(f);
        f.setHand(kProtestant, {});
        f.placeLeader("wallenstein", "pilsen");
        const auto u = f.place("imperial", UnitKind::Mercenary, "pilsen", 2);
        f.setMarker("pilsen", kCatholic);
        f.place("protestant", UnitKind::Mercenary, "eger", 2);
        f.s.wallensteinTrack = 4;
        f.dice({9, 0, 0, 0, 0, 0});
        QVERIFY(f.activate("wallenstein"));
        f.setHand(kCatholic, {});
        QVERIFY(f.pickUp(u));
        QVERIFY(f.act("move eger"));
        QVERIFY2(f.act(QStringLiteral("attack u%1 u%2").arg(u[0]).arg(u[1])), qPrintable(f.error));
        QVERIFY(f.runUntil([&] { return !f.combat(); }));
        QVERIFY2(f.logged("12.28 Catholic wins the battle"), qPrintable(f.logText(f.log)));
        QVERIFY(f.logged("Wallenstein's victory"));
        QCOMPARE(int(f.s.wallensteinTrack), 7);
    }

    // 7.1: never when he defends.
    void wallenstein_71_no_boxes_when_defending() {
        Rules f;
        cleanCampaign(f, kProtestant);
        f.setHand(kCatholic, {});
        f.placeLeader("wallenstein", "eger");
        f.place("imperial", UnitKind::Mercenary, "eger", 2);
        f.setMarker("eger", kCatholic);
        f.placeLeader("mansfeld", "pilsen");
        const auto p = f.place("protestant", UnitKind::Mercenary, "pilsen", 2);
        f.s.wallensteinTrack = 4;
        f.dice({0, 9, 0, 0, 0, 0});
        QVERIFY(f.activate("mansfeld"));
        f.setHand(kProtestant, {});
        QVERIFY(f.pickUp(p));
        QVERIFY(f.act("move eger"));
        QVERIFY2(f.act(QStringLiteral("attack u%1 u%2").arg(p[0]).arg(p[1])), qPrintable(f.error));
        QVERIFY(f.runUntil([&] { return !f.combat(); }));
        QVERIFY2(f.logged("12.28 Catholic wins the battle"), qPrintable(f.logText(f.log)));
        QCOMPARE(int(f.s.wallensteinTrack), 4);
    }

    // 7.1 / 5.21: the victory that takes the track to 20 ends the game, unless Wallenstein dies in it.
    void wallenstein_71_twenty_except_death_in_that_battle() {
        for (const bool dies : {false, true}) {
            Rules f;
            cleanCampaign(f);
            f.setHand(kProtestant, {});
            f.placeLeader("wallenstein", "pilsen");
            const auto u = f.place("imperial", UnitKind::Mercenary, "pilsen", 2);
            f.setMarker("pilsen", kCatholic);
            f.place("protestant", UnitKind::Mercenary, "eger", 2);
            f.s.wallensteinTrack = 17;
            f.dice({9, 0, dies ? 9 : 0, 0, 0, 0});
            QVERIFY(f.activate("wallenstein"));
            f.setHand(kCatholic, {});
            QVERIFY(f.pickUp(u));
            QVERIFY(f.act("move eger"));
            QVERIFY(f.act(QStringLiteral("attack u%1 u%2").arg(u[0]).arg(u[1])));
            QVERIFY(f.runUntil([&] { return !f.combat(); }));
            QCOMPARE(f.s.gameOver, !dies);
            if (dies) {
                QCOMPARE(f.s.leaders[f.leader("wallenstein")].status, LeaderStatus::Dead);
                QVERIFY(f.s.wallensteinTrack < 20);
            } else {
                QCOMPARE(int(f.s.winner), int(kProtestant));
            }
        }
    }

    // 7.24: Wallenstein and Tilly never stack together, even after C19.
    void wallenstein_724_never_with_tilly() {
        Rules f;
        cleanCampaign(f);
        f.s.imperialBavarianBan = false; // C19 played
        Ctx c = ctx(f);
        const int w = f.leader("wallenstein"), t = f.leader("tilly"), p = f.leader("piccolomini");
        QVERIFY(!mixAllowed(c, {}, {w, t}));
        QVERIFY(mixAllowed(c, {}, {w, p}));
        QVERIFY(mixAllowed(c, {}, {t, p}));
        // through the engine: Tilly may not move into Wallenstein's city
        f.placeLeader("wallenstein", "linz");
        f.place("imperial", UnitKind::Mercenary, "linz", 1);
        f.placeLeader("tilly", "passau");
        f.place("bavarian", UnitKind::Mercenary, "passau", 1);
        QVERIFY(f.activate("tilly"));
        QVERIFY(f.act("move linz")); // through, but never stopping there (10.2)
        QVERIFY(!f.legal("end"));
    }

    // 7.25: Wallenstein as a two-star Dynamic leader: he commands every army he is in (10.14), so a one-star
    // leader stacked with him may not be activated.
    void wallenstein_725_two_stars() {
        for (const bool option : {false, true}) {
            Rules f;
            GameOptions o;
            o.wallenstein_two_star = option;
            cleanCampaign(f, kCatholic, o);
            f.s.imperialBavarianBan = false; // C19: Mercy may stack with him
            QCOMPARE(effectiveStars(f.d(), f.s, f.leader("wallenstein")), option ? 2 : 1);
            f.placeLeader("wallenstein", "vienna");
            f.placeLeader("mercy", "vienna"); // one-star Dynamic
            const QString three = cardOfValue(f, kCatholic, 3);
            f.setHand(kCatholic, {three});
            QVERIFY(f.legal(QStringLiteral("play %1 act wallenstein").arg(three)));
            QCOMPARE(f.legal(QStringLiteral("play %1 act mercy").arg(three)), !option);
        }
    }

    // ================================================================ 16 Dutch War

    // 16.131: the VP of a box only once per game; the aid effect is that of the box most recently occupied.
    void dutchwar_16131_box_effects_once_per_game() {
        Rules f;
        QVERIFY(f.newGame());
        Ctx c = ctx(f);
        const int vp = f.s.vp;
        moveDutchWar(c, 2, QStringLiteral("test"));
        QCOMPARE(int(f.s.vp), vp + 2);
        moveDutchWar(c, -1, QStringLiteral("test"));
        QCOMPARE(int(f.s.dutchAidModifier), 0);
        moveDutchWar(c, 1, QStringLiteral("test")); // +2 again: no VP, the aid effect again
        QCOMPARE(int(f.s.vp), vp + 2);
        QCOMPARE(int(f.s.dutchAidModifier), -2);
        moveDutchWar(c, 2, QStringLiteral("test")); // +4
        QCOMPARE(int(f.s.vp), vp + 4);
        moveDutchWar(c, -1, QStringLiteral("test"));
        moveDutchWar(c, 1, QStringLiteral("test")); // +4 again
        QCOMPARE(int(f.s.vp), vp + 4);
        QCOMPARE(int(f.s.dutchAidModifier), -3);
        // the Intervention scenario starts with the +2 box's VP already gained (18.24)
        Rules g;
        QVERIFY(g.newGame("intervention"));
        Ctx gc = ctx(g);
        const int gvp = g.s.vp;
        QCOMPARE(int(g.s.dutchWar), 2);
        moveDutchWar(gc, -1, QStringLiteral("test"));
        moveDutchWar(gc, 1, QStringLiteral("test"));
        QCOMPARE(int(g.s.vp), gvp);
    }

    // 16.13, 16.132: the -3 box ends the war: -3 VP, Dutch aid +3, a Catholic army in the UP eliminated, a
    // Protestant one stays; the marker never moves again.
    void dutchwar_1613_minus3_ends_the_war() {
        Rules f;
        QVERIFY(f.newGame());
        f.clearBoard();
        f.placeLeader("spinola", "up");
        const auto cath = f.place("spanish", UnitKind::Veteran, "up", 3);
        f.placeLeader("mansfeld", "up");
        const auto prot = f.place("protestant", UnitKind::Mercenary, "up", 3);
        Ctx c = ctx(f);
        const int vp = f.s.vp;
        moveDutchWar(c, -3, QStringLiteral("test"));
        QCOMPARE(int(f.s.vp), vp - 3);
        QCOMPARE(donorPoints(f.d(), f.s, kProtestant, "up", 4), 7);
        for (int16_t u : cath)
            QVERIFY(!onMap(f, u));
        for (int16_t u : prot)
            QCOMPARE(int(f.s.units[u].loc), int(f.box("up")));
        QVERIFY(f.s.leaders[f.leader("spinola")].status != LeaderStatus::InPlay);
        moveDutchWar(c, 2, QStringLiteral("test"));
        QCOMPARE(int(f.s.dutchWar), -3);
    }

    // 16.13: the +5 box: Dutch aid ends, every army in the UP is eliminated.
    void dutchwar_1613_plus5_ends_the_war() {
        Rules f;
        QVERIFY(f.newGame());
        f.clearBoard();
        f.placeLeader("spinola", "up");
        const auto cath = f.place("spanish", UnitKind::Veteran, "up", 3);
        f.placeLeader("mansfeld", "up");
        const auto prot = f.place("protestant", UnitKind::Mercenary, "up", 3);
        f.s.dutchWar = 4;
        f.s.dutchWarVpAwarded = 3;
        Log log;
        Ctx c = ctx(f, &log);
        moveDutchWar(c, 1, QStringLiteral("test"));
        QVERIFY(!donorEligible(f.d(), f.s, kProtestant, "up"));
        for (int16_t u : cath)
            QVERIFY(!onMap(f, u));
        for (int16_t u : prot)
            QVERIFY(!onMap(f, u));
        QVERIFY(f.logged("16.13 the Dutch War ends (+5)", log));
        moveDutchWar(c, -2, QStringLiteral("test"));
        QCOMPARE(int(f.s.dutchWar), 5);
    }

    // 16.21-16.23: an army enters the UP from a "To UP" city for 1 MP while the war lasts; one army per side;
    // never in and out in one activation.
    void dutchwar_1621_armies_enter_the_up() {
        Rules f;
        cleanCampaign(f, kProtestant);
        f.setMarker("lingen", kProtestant);
        f.placeLeader("mansfeld", "lingen");
        const auto u = f.place("protestant", UnitKind::Mercenary, "lingen", 3);
        QVERIFY(f.activate("mansfeld"));
        QVERIFY(f.pickUp(u));
        QVERIFY(f.legal("move up"));
        QVERIFY(f.act("move up"));
        QCOMPARE(int(f.s.units[u[0]].loc), int(f.box("up")));
        QVERIFY(f.legalOf(ActionKind::Move).isEmpty()); // not out again in the same activation
        QVERIFY(f.act("end"));

        // a second Protestant army may not enter while the first is there
        f.setActive(kProtestant);
        f.placeLeader("anhalt", "wesel");
        const auto v = f.place("protestant", UnitKind::Mercenary, "wesel", 2);
        f.setMarker("wesel", kProtestant);
        QVERIFY(f.activate("anhalt"));
        QVERIFY(f.pickUp(v));
        QVERIFY(!f.legal("move up"));
        QVERIFY(f.act("end"));

        // after the war: nobody enters (16.132)
        cleanCampaign(f, kCatholic);
        f.s.dutchWar = 5;
        f.placeLeader("spinola", "antwerp");
        const auto w = f.place("spanish", UnitKind::Veteran, "antwerp", 3);
        QVERIFY(f.activate("spinola"));
        QVERIFY(f.pickUp(w));
        QVERIFY(!f.legal("move up"));
    }

    // 16.23: a Protestant army leaves the UP for a To UP city (1 MP) or any Protestant port (its whole MA);
    // 16.24: Spinola's army never leaves.
    void dutchwar_1623_1624_departures() {
        Rules f;
        cleanCampaign(f, kProtestant);
        f.placeLeader("mansfeld", "up");
        const auto u = f.place("protestant", UnitKind::Mercenary, "up", 3);
        f.setMarker("lingen", kProtestant);
        f.setAreaControl("pomerania", kProtestant);
        f.setMarker("stettin", kProtestant);
        QVERIFY(f.activate("mansfeld"));
        QVERIFY(f.pickUp(u));
        QVERIFY(f.legal("move lingen"));
        QVERIFY(f.legal("move stettin"));
        QVERIFY(f.act("move stettin"));
        QCOMPARE(int(f.activation()->mpUsed), 8);

        cleanCampaign(f, kCatholic);
        f.placeLeader("spinola", "up");
        const auto s = f.place("spanish", UnitKind::Veteran, "up", 3);
        f.s.spinolaInUp = true;
        QVERIFY(f.activate("spinola"));
        QVERIFY(f.pickUp(s));
        QVERIFY(f.legalOf(ActionKind::Move).isEmpty());
    }

    // 11.16 with 15.24: foraging pillage that leaves every city of an Area at Pillage-2 costs its VP at once.
    void pillage_1116_foraging_counts_for_1524() {
        Rules f;
        cleanCampaign(f, kProtestant);
        f.setAreaControl("pomerania", kProtestant);
        for (const char* c : {"stettin", "stralsund", "wolgast"})
            f.setMarker(c, kProtestant);
        f.s.cities[f.city("stettin")].pillage = 2;
        f.s.cities[f.city("stralsund")].pillage = 2;
        f.s.cities[f.city("wolgast")].pillage = 1;
        Ctx c = ctx(f);
        reconcileAreas(c);
        const int vp = f.s.vp;
        f.placeLeader("mansfeld", "stettin");
        const auto u = f.place("protestant", UnitKind::Mercenary, "stettin", 3);
        QVERIFY(f.activate("mansfeld"));
        QVERIFY(f.pickUp(u));
        QVERIFY(f.act("move wolgast"));
        QVERIFY(f.act("end"));
        QVERIFY2(f.legal("choose wolgast"), qPrintable(f.legalTexts().join(' ')));
        QVERIFY(!f.legal("choose stettin")); // already Pillage-2
        QVERIFY(f.act("choose wolgast"));
        QCOMPARE(int(f.s.cities[f.city("wolgast")].pillage), 2);
        QCOMPARE(int(f.s.vp), vp + 1); // the Protestant's Area is worth one VP less
    }

    // ================================================================ 17 national effects

    // 17.x supply bases (15.15): Munich, Leipzig, Schleswig-Holstein, France/Lorraine, the Swedish Base, the
    // German Protestant bases for Hungarians, Breisach once Baden is in the game.
    void nations_17_supply_bases_of_every_nation() {
        Rules f;
        QVERIFY(f.newGame());
        const GameData& d = f.d();
        auto base = [&](const char* nat, const char* city) {
            return isSupplyBase(d, f.s, f.nationality(nat), f.city(city));
        };
        QVERIFY(base("bavarian", "munich")); // 17.B.1
        QVERIFY(!base("bavarian", "vienna"));
        QVERIFY(base("saxon", "leipzig"));        // 17.Sa.1
        QVERIFY(base("hungarian", "prague"));     // 17.H.1
        QVERIFY(!base("protestant", "breisach")); // 17.G.1: Baden still Neutral
        f.setAreaControl("baden", kProtestant);
        f.setMarker("breisach", kProtestant);
        QVERIFY(base("protestant", "breisach"));
        QVERIFY(base("danish", "rendsburg")); // 17.D.1: not Catholic-controlled nor occupied
        f.place("imperial", UnitKind::Militia, "rendsburg", 1);
        QVERIFY(!base("danish", "rendsburg"));
        f.setMarker("nancy", kProtestant); // 17.F.1
        QVERIFY(base("french", "nancy"));
        f.setMarker("nancy", kCatholic);
        QVERIFY(!base("french", "nancy"));
        f.s.swedenInWar = true; // 17.Sw.1: a Protestant or Neutral port with an arrow
        f.s.swedishBase = static_cast<int16_t>(f.city("wolgast"));
        QVERIFY(base("swedish", "wolgast"));
        QVERIFY(base("protestant", "wolgast")); // 17.G.1: the Germans may use it too
        f.setMarker("wolgast", kCatholic);
        QVERIFY(!base("swedish", "wolgast"));
    }

    // 17.Sw.1: without a usable Swedish Base, Swedish units trace to a Protestant French or Lorraine city.
    void nations_17Sw1_no_base_french_cities() {
        Rules f;
        cleanCampaign(f);
        f.s.swedenInWar = true;
        f.s.swedishBase = static_cast<int16_t>(f.city("stettin"));
        f.setMarker("stettin", kCatholic); // the base is lost
        f.setAreaControl("lorraine", kProtestant);
        f.setMarker("nancy", kProtestant);
        const auto sw = f.place("swedish", UnitKind::Veteran, "epinal", 1);
        f.setMarker("epinal", kProtestant);
        QCOMPARE(usableSwedishBase(f.d(), f.s), -1);
        QVERIFY(hasLoc(f.d(), f.s, sw[0]));
        f.setAreaControl("lorraine", kCatholic);
        for (const char* c : {"nancy", "epinal", "bar-le-duc"})
            f.setMarker(c, kCatholic);
        QVERIFY(!hasLoc(f.d(), f.s, sw[0]));
    }

    // 17.H.4: Hungarian pieces only in Hungary, Austria, Moravia, Bohemia, Bavaria and Tyrol.
    void nations_17H4_hungarians_six_areas() {
        Rules f;
        QVERIFY(f.newGame());
        Ctx c = ctx(f);
        const int hun = f.nationality("hungarian");
        for (const char* ok : {"raab", "vienna", "bruenn", "prague", "munich", "innsbruck"})
            QVERIFY2(pieceMayEnter(c, hun, f.city(ok)), ok);
        for (const char* no : {"breslau", "leipzig", "amberg", "stuttgart", "berlin"})
            QVERIFY2(!pieceMayEnter(c, hun, f.city(no)), no);
    }

    // 17.H.5 (2): the rebellion ends when the Catholic holds every city of Hungary at once.
    void nations_17H5_catholic_holds_every_city() {
        Rules f;
        QVERIFY(f.newGame());
        f.clearBoard();
        QVERIFY(f.s.hungaryRebellion);
        f.placeLeader("bethlen-gabor", "vienna");
        const auto h = f.place("hungarian", UnitKind::Militia, "vienna", 1);
        Ctx c = ctx(f);
        const QStringList cities{"pressburg", "oedenburg", "raab", "neuhaeusel"};
        for (int i = 0; i < cities.size() - 1; ++i)
            f.setMarker(cities[i], kCatholic);
        leaderLossEffects(c);
        QVERIFY(f.s.hungaryRebellion); // three of four
        f.setMarker(cities.back(), kCatholic);
        leaderLossEffects(c);
        QVERIFY(!f.s.hungaryRebellion);
        QCOMPARE(int(f.s.units[h[0]].loc), int(kRemoved));
        QCOMPARE(f.s.leaders[f.leader("bethlen-gabor")].status, LeaderStatus::Removed);
    }

    // 17.Sp.2: Spanish units forced to retreat out of the Spanish Zone are eliminated.
    void nations_17Sp2_retreat_out_of_the_zone() {
        Rules f;
        cleanCampaign(f, kProtestant);
        f.setHand(kCatholic, {});
        const auto sp = f.place("spanish", UnitKind::Veteran, "frankfurt", 3);
        f.place("protestant", UnitKind::Militia, "mainz", 1); // the Zone's other neighbour is held
        f.setMarker("mainz", kProtestant);
        f.placeLeader("mansfeld", "oppenheim");
        const auto p = f.place("protestant", UnitKind::Mercenary, "oppenheim", 4);
        f.dice({9, 0, 0, 0, 0, 0});
        QVERIFY(f.activate("mansfeld"));
        f.setHand(kProtestant, {});
        QVERIFY(f.pickUp(p));
        QVERIFY(f.act("move frankfurt"));
        QStringList ids;
        for (int16_t u : p)
            ids << QStringLiteral("u%1").arg(u);
        QVERIFY2(f.act(QStringLiteral("attack ") + ids.join(' ')), qPrintable(f.error));
        QVERIFY(f.runUntil([&] { return !f.combat(); }));
        QVERIFY2(f.logged("12.28 Protestant wins the battle"), qPrintable(f.logText(f.log)));
        QVERIFY(f.logged("17.Sp.2"));
        for (int16_t u : sp)
            QVERIFY(!onMap(f, u));
    }

    // 17.Sp.3 with 5.32: a Truce ends the turn at once; a Cardinal's army whose deadline is this turn and
    // which is not in the Spanish Zone is still eliminated (fuzzer, campaign seed 101081).
    void nations_17Sp3_deadline_on_a_truce() {
        Rules f;
        cleanCampaign(f, kCatholic);
        f.placeLeader("cardinal-infante", "innsbruck");
        const auto army = f.place("spanish", UnitKind::Veteran, "innsbruck", 3);
        Ctx c = ctx(f);
        setEffect(c, QStringLiteral("cardinalInfante"), 1, f.s.turn); // the deadline is this turn
        f.s.vp = 36;
        QVERIFY(f.act("peace"));
        f.dice({4}); // 5.32: Truce
        QVERIFY(f.act("accept"));
        QVERIFY(f.logged("TRUCE"));
        for (int16_t u : army)
            QVERIFY(!onMap(f, u));
        QVERIFY(f.logged("17.Sp.3"));
    }

    // 17.Sp.2 / 17.Sp.31: the exception of the Cardinal Infante's army: while it marches it operates as a
    // regular Catholic army, so a retreat outside the Zone does not eliminate it.
    void nations_17Sp31_cardinal_army_may_retreat_outside() {
        Rules f;
        cleanCampaign(f, kProtestant);
        f.setHand(kCatholic, {});
        f.placeLeader("cardinal-infante", "landshut");
        const auto army = f.place("spanish", UnitKind::Veteran, "landshut", 3);
        f.setMarker("landshut", kCatholic);
        Ctx c = ctx(f);
        setEffect(c, QStringLiteral("cardinalInfante"), 1, f.s.turn + 1);
        f.placeLeader("mansfeld", "regensburg");
        const auto p = f.place("protestant", UnitKind::Mercenary, "regensburg", 4);
        f.dice({9, 0, 0, 0, 0, 0});
        QVERIFY(f.activate("mansfeld"));
        f.setHand(kProtestant, {});
        QVERIFY(f.pickUp(p));
        QVERIFY(f.act("move landshut"));
        QStringList ids;
        for (int16_t u : p)
            ids << QStringLiteral("u%1").arg(u);
        QVERIFY(f.act(QStringLiteral("attack ") + ids.join(' ')));
        QVERIFY(f.runUntil([&] { return !f.combat(); }));
        QVERIFY2(f.logged("12.28 Protestant wins the battle"), qPrintable(f.logText(f.log)));
        int alive = 0;
        for (int16_t u : army)
            alive += onMap(f, u);
        QVERIFY(alive > 0);
        QVERIFY(!f.logged("17.Sp.2"));
    }

    // 17.Sp.3: the Cardinal Infante's army still outside the Zone at the end of its deadline turn is lost.
    void nations_17Sp3_cardinal_deadline() {
        Rules f;
        cleanCampaign(f);
        f.placeLeader("cardinal-infante", "munich");
        const auto army = f.place("spanish", UnitKind::Veteran, "munich", 3);
        Ctx c = ctx(f);
        setEffect(c, QStringLiteral("cardinalInfante"), 1, f.s.turn + 1);
        cardinalDeadline(c); // not the deadline turn yet
        for (int16_t u : army)
            QVERIFY(onMap(f, u));
        f.s.turn = static_cast<int8_t>(f.s.turn + 1);
        cardinalDeadline(c);
        for (int16_t u : army)
            QVERIFY(!onMap(f, u));
        QVERIFY(f.s.leaders[f.leader("cardinal-infante")].status != LeaderStatus::InPlay);

        // in the Zone by then: he stays, and the exception is over (17.Sp.32)
        cleanCampaign(f);
        f.placeLeader("cardinal-infante", "luxembourg");
        const auto safe = f.place("spanish", UnitKind::Veteran, "luxembourg", 3);
        Ctx c2 = ctx(f);
        setEffect(c2, QStringLiteral("cardinalInfante"), 1, f.s.turn);
        cardinalDeadline(c2);
        for (int16_t u : safe)
            QVERIFY(onMap(f, u));
        QCOMPARE(effect(f.s, QStringLiteral("cardinalInfante")), 0);
        QVERIFY(!pieceMayEnter(c2, f.nationality("spanish"), f.city("munich")));
    }

    // 17.Sp.31 / 17.Sp.32: a unit of the Cardinal's army that he leaves behind outside the Zone in the
    // Activation in which he reaches it is eliminated at the end of that Activation (found by the fuzzer,
    // campaign seed 208205: the unit stayed outside the Zone for the rest of the game).
    void nations_17Sp31_left_behind_when_reaching_the_zone() {
        Rules f;
        cleanCampaign(f);
        f.placeLeader("cardinal-infante", "durlach");
        const auto army = f.place("spanish", UnitKind::Veteran, "durlach", 2);
        f.setMarker("durlach", kCatholic);
        Ctx c = ctx(f);
        setEffect(c, QStringLiteral("cardinalInfante"), 1, f.s.turn + 1);
        QVERIFY(f.activate("cardinal-infante"));
        QVERIFY(f.act(QStringLiteral("pickup u%1").arg(army[0])));
        QVERIFY(f.act("move heidelberg")); // Lower Palatinate: in the Spanish Zone
        QVERIFY(f.act("end"));
        QVERIFY(f.runUntil([&] { return !f.activation(); }));
        QCOMPARE(int(f.s.units[army[0]].loc), f.city("heidelberg"));
        QVERIFY(!onMap(f, army[1]));
        QVERIFY(f.logged("17.Sp.31"));
        QVERIFY(f.logged("17.Sp.32"));
        QCOMPARE(effect(f.s, QStringLiteral("cardinalInfante")), 0);
    }

    // 17.Sp.31: the Cardinal's army pays from Vienna while outside the Zone.
    void nations_17Sp31_cardinal_pays_from_vienna() {
        Rules f;
        cleanCampaign(f);
        f.placeLeader("cardinal-infante", "linz");
        const auto army = f.place("spanish", UnitKind::Veteran, "linz", 1);
        Ctx c = ctx(f);
        setEffect(c, QStringLiteral("cardinalInfante"), 1, f.s.turn + 1);
        QVERIFY(hasLoc(f.d(), f.s, army[0])); // Linz - Krems - Vienna
        QVERIFY(!locallyPaid(f.d(), f.s, army[0]));
        f.setMarker("vienna", kProtestant);
        QVERIFY(!hasLoc(f.d(), f.s, army[0]));
    }

    // ================================================================ 5.3 peace

    // 5.31: the Protestant may offer at 40 or more too; the Catholic must accept at 10 or fewer.
    void peace_531_protestant_offers() {
        Rules f;
        cleanCampaign(f, kProtestant);
        f.s.vp = 39;
        QVERIFY(!f.legal("peace"));
        f.s.vp = 40;
        QVERIFY(f.legal("peace"));
        QVERIFY(f.act("peace"));
        QCOMPARE(f.e.actor(f.s), int(kCatholic));
        QCOMPARE(legalSet(f), (QSet<QString>{"accept", "decline"})); // more than 10: may
        cleanCampaign(f, kProtestant);
        f.s.vp = 10;
        QVERIFY(f.act("peace"));
        QCOMPARE(f.legalTexts(), QStringList{"accept"}); // 10 or fewer: must
    }

    // 5.3, 8.323: peace is offered only as the side's first action of the turn.
    void peace_53_first_action_only() {
        Rules f;
        cleanCampaign(f, kCatholic);
        f.s.vp = 30;
        QVERIFY(f.legal("peace"));
        f.s.roundsUsed[kCatholic] = 1;
        QVERIFY(!f.legal("peace"));
    }

    // 5.31: +1 when the Catholic controls all seven Electors, -1 when the Protestant does.
    void peace_531_elector_modifiers() {
        Rules f;
        cleanCampaign(f, kCatholic);
        for (const char* a : {"brandenburg", "bohemia", "lower-palatinate"})
            f.setAreaControl(a, kCatholic);
        QCOMPARE(electorsControlled(f.d(), f.s, kCatholic), 7);
        f.s.vp = 36;
        QVERIFY(f.act("peace"));
        f.dice({3}); // 3 + 1 = 4: Truce (3 alone would be a Catholic Withdrawal)
        QVERIFY(f.act("accept"));
        QVERIFY(f.logged("+1 the Catholic holds every Elector = 4: TRUCE"));

        cleanCampaign(f, kCatholic);
        for (const char* a : {"saxony", "bohemia", "brandenburg", "lower-palatinate"})
            f.setAreaControl(a, kProtestant);
        for (const char* ct : {"mainz", "koeln", "trier"})
            f.setMarker(ct, kProtestant);
        QCOMPARE(electorsControlled(f.d(), f.s, kProtestant), 7);
        f.s.vp = 36;
        QVERIFY(f.act("peace"));
        f.dice({2}); // 2 - 1 = 1: Protestant Minor Victory
        QVERIFY(f.act("accept"));
        QVERIFY(f.logged("-1 the Protestant holds every Elector = 1: PMV"));
        QVERIFY(f.s.gameOver);
        QCOMPARE(int(f.s.winner), int(kProtestant));
    }

    // 5.32 PW: the Catholic names the Area; not one the Protestant held at the start, nor the Swedish Base's.
    void peace_532_protestant_withdrawal() {
        Rules f;
        cleanCampaign(f, kCatholic);
        f.s.swedenInWar = true;
        f.s.swedishBase = static_cast<int16_t>(f.city("stettin"));
        const auto pom = f.place("protestant", UnitKind::Mercenary, "stralsund", 1);
        const auto boh = f.place("protestant", UnitKind::Mercenary, "budweis", 1);
        f.placeLeader("mansfeld", "iglau");
        const auto mor = f.place("protestant", UnitKind::Mercenary, "iglau", 2);
        f.setMarker("iglau", kProtestant);
        const auto salz = f.place("protestant", UnitKind::Militia, "salzburg", 1);
        f.s.vp = 36;
        QVERIFY(f.act("peace"));
        f.dice({6});
        QVERIFY(f.act("accept"));
        QVERIFY(f.logged("PW"));
        QCOMPARE(purpose(f), int(kPeaceWithdraw));
        QCOMPARE(f.e.actor(f.s), int(kCatholic));
        QVERIFY(f.legal(areaChoice(f, "moravia")));
        QVERIFY(!f.legal(areaChoice(f, "bohemia")));   // the Protestant's at the start
        QVERIFY(!f.legal(areaChoice(f, "pomerania"))); // the Swedish Base's Area
        QVERIFY(f.legal("choose salzburg"));           // an Independent City
        QVERIFY(f.act(areaChoice(f, "moravia")));
        // to the friendly city closest to the Supply Base (Prague)
        for (int16_t u : mor)
            QCOMPARE(int(f.s.units[u].loc), f.city("prague"));
        QCOMPARE(int(f.s.leaders[f.leader("mansfeld")].loc), f.city("prague"));
        QCOMPARE(int(f.s.units[boh[0]].loc), f.city("budweis"));
        Q_UNUSED(pom);
        Q_UNUSED(salz);
    }

    // 5.32 CW with two Independent Cities: the Catholic leaves both.
    void peace_532_two_independent_cities() {
        Rules f;
        cleanCampaign(f, kCatholic);
        const auto a = f.place("imperial", UnitKind::Mercenary, "nuernberg", 1);
        const auto b = f.place("imperial", UnitKind::Mercenary, "erfurt", 1);
        const auto start = f.place("imperial", UnitKind::Mercenary, "regensburg", 1); // held at the start
        f.s.vp = 36;
        QVERIFY(f.act("peace"));
        f.dice({2});
        QVERIFY(f.act("accept"));
        QCOMPARE(f.e.actor(f.s), int(kProtestant));
        QVERIFY(!f.legal("choose regensburg"));
        QVERIFY(f.act("choose nuernberg"));
        QCOMPARE(purpose(f), int(kPeaceWithdraw)); // the second city
        QVERIFY(!f.legal("choose nuernberg"));
        QVERIFY(f.act("choose erfurt"));
        QVERIFY(f.s.units[a[0]].loc != f.city("nuernberg"));
        QVERIFY(f.s.units[b[0]].loc != f.city("erfurt"));
        QVERIFY(effectiveCityControl(f.d(), f.s, f.s.units[a[0]].loc) == kCatholic);
        QCOMPARE(int(f.s.units[start[0]].loc), f.city("regensburg"));
    }

    // 5.32: withdrawn units go to the friendly city nearest their Supply Base "even if the Supply Base has
    // been captured"; besieging units are withdrawn too and the siege ends.
    void peace_532_withdrawal_base_captured_and_sieges() {
        Rules f;
        cleanCampaign(f, kCatholic);
        f.setMarker("vienna", kProtestant);
        f.placeLeader("bucquoy", "pilsen");
        const auto u = f.place("imperial", UnitKind::Mercenary, "pilsen", 2);
        f.place("protestant", UnitKind::Militia, "pilsen", 1, 2, true);
        f.s.cities[f.city("pilsen")].siege = 1;
        f.s.cities[f.city("pilsen")].sieger = kCatholic;
        f.s.vp = 36;
        QVERIFY(f.act("peace"));
        f.dice({2}); // CW
        QVERIFY(f.act("accept"));
        QVERIFY(f.act(areaChoice(f, "bohemia")));
        const QSet<int> nextToVienna{f.city("krems"), f.city("znaim"), f.city("graz")};
        for (int16_t x : u)
            QVERIFY2(nextToVienna.contains(f.s.units[x].loc), qPrintable(f.logText(f.log)));
        QCOMPARE(int(f.s.cities[f.city("pilsen")].siege), 0);
    }

    // 5.32 with 11.22: withdrawn units that arrive where a lone enemy leader stands catch him, as every other
    // arrival of units does (fuzzer, campaign seed 506673: William of Hesse's withdrawal to Prague left
    // Bucquoy there alone beside them, and he then recruited in the Protestant-held space).
    void peace_532_withdrawal_catches_a_lone_leader() {
        Rules f;
        cleanCampaign(f, kCatholic);
        const int mansfeld = f.leader("mansfeld");
        f.placeLeader("mansfeld", "vienna"); // a lone Protestant leader in the Catholic city nearest the base
        const auto u = f.place("imperial", UnitKind::Mercenary, "pilsen", 1);
        f.s.vp = 36;
        QVERIFY(f.act("peace"));
        f.dice({2}); // CW
        QVERIFY(f.act("accept"));
        QVERIFY(f.act(areaChoice(f, "bohemia")));
        QCOMPARE(int(f.s.units[u[0]].loc), f.city("vienna"));
        QVERIFY2(f.s.leaders[mansfeld].status != LeaderStatus::InPlay, qPrintable(f.logText(f.log)));
        QVERIFY(f.logged("11.22 Mansfeld is caught without troops at Vienna"));
    }

    // 5.32 BW: both withdraw, the high roller first (ties rolled again), each Area named by the other player.
    void peace_532_both_withdraw() {
        Rules f;
        cleanCampaign(f, kCatholic);
        const auto cath = f.place("imperial", UnitKind::Mercenary, "budweis", 1);
        f.setMarker("budweis", kCatholic);
        const auto prot = f.place("protestant", UnitKind::Mercenary, "iglau", 1);
        f.setMarker("iglau", kProtestant);
        f.s.vp = 36;
        QVERIFY(f.act("peace"));
        f.dice({5, 4, 4, 2, 6}); // BW; a tie; then Protestant 2, Catholic 6
        QVERIFY(f.act("accept"));
        QVERIFY(f.logged("BW"));
        QVERIFY(f.logged("5.32 Catholic withdraws first"));
        QCOMPARE(purpose(f), int(kPeaceWithdraw));
        QCOMPARE(f.e.actor(f.s), int(kProtestant)); // names the Catholic's Area
        QVERIFY(f.act(areaChoice(f, "bohemia")));
        QVERIFY(f.s.units[cath[0]].loc != f.city("budweis"));
        QCOMPARE(purpose(f), int(kPeaceWithdraw));
        QCOMPARE(f.e.actor(f.s), int(kCatholic)); // then names the Protestant's
        QVERIFY(f.act(areaChoice(f, "moravia")));
        QVERIFY(f.s.units[prot[0]].loc != f.city("iglau"));
    }

    // ================================================================ 18 scenarios

    // 18.24, 18.34: the removed cards are out of the game from the start; those "already played" count as
    // played, P17 in the Intervention is removed without being played (France stays out); 18.13: no
    // Intervention cards in the Early War scenario, whatever the VP.
    void scenario_18_removed_cards_and_decks() {
        Rules f;
        QVERIFY(f.newGame("intervention"));
        for (const char* id : {"C1", "C7", "C13", "P1", "P9", "P18"}) {
            QVERIFY2(f.s.cardPlace[f.card(id)] == CardPlace::Removed, id);
            QVERIFY2(f.s.eventPlayed[f.card(id)], id);
        }
        QVERIFY(f.s.cardPlace[f.card("P17")] == CardPlace::Removed);
        QVERIFY(!f.s.franceInWar);
        Rules g;
        QVERIFY(g.newGame("apocalypse"));
        QVERIFY(g.s.cardPlace[g.card("P17")] == CardPlace::Removed);
        QVERIFY(g.s.franceInWar);
        QVERIFY(g.s.cardPlace[g.card("C40")] != CardPlace::Removed);
        Rules e;
        QVERIFY(e.newGame("early-war"));
        e.s.vp = 30;
        QVERIFY(e.endTurn());
        QVERIFY(!e.logged("8.11") && !e.logged("5.15")); // no cards, no Spinola penalty
        QCOMPARE(cardsInPlay(e, Deck::Intervention), 0);
        e.s.turn = 4;
        QVERIFY(e.endTurn());
        QCOMPARE(cardsInPlay(e, Deck::Intervention), 0);
    }

    // 18.25: only the Early War and Intervention cards in the Intervention scenario: the Apocalypse cards
    // never come.
    void scenario_1825_no_apocalypse_cards_in_intervention() {
        Rules f;
        QVERIFY(f.newGame("intervention"));
        QCOMPARE(cardsInPlay(f, Deck::Apocalypse), 0);
        QVERIFY(cardsInPlay(f, Deck::Intervention) > 0);
        QVERIFY(f.endTurn());
        QVERIFY(f.endTurn());
        QCOMPARE(cardsInPlay(f, Deck::Apocalypse), 0);
    }

    // 8.66 (C17): Saxons stacked with their former friends go to a now friendly Saxony city; if the stacking
    // limit leaves no room, the overstacked Saxon units are destroyed (not the units already there).
    void nations_866_saxons_overstacked_are_destroyed() {
        Rules f;
        cleanCampaign(f, kCatholic);
        f.s.nationSide[f.nationality("saxon")] = kProtestant;
        f.setAreaControl("saxony", kProtestant);
        const auto sax = f.place("saxon", UnitKind::Militia, "leipzig", 1);
        f.place("protestant", UnitKind::Mercenary, "leipzig", 1);
        for (const char* c : {"dresden", "luetzen", "wittenberg", "bautzen"})
            f.place("protestant", UnitKind::Militia, c, 1); // these stay Protestant
        const auto full = f.place("imperial", UnitKind::Mercenary, "torgau", 8);
        f.setHand(kCatholic, {"C17", f.plainCard(kCatholic, 1)});
        QVERIFY2(f.act("play C17 event"), qPrintable(f.error));
        for (int i = 0; i < 10 && !(f.inActionPhase() && f.e.actor(f.s) == kProtestant); ++i) {
            bool imperialOffered = false;
            for (int16_t u : full) // 10.22 here only among the Saxons
                imperialOffered |= f.legal(QStringLiteral("choose u%1").arg(u));
            QVERIFY(!imperialOffered);
            QVERIFY(f.act(f.legalTexts().front()));
        }
        QVERIFY(!onMap(f, sax[0]));
        for (int16_t u : full)
            QCOMPARE(int(f.s.units[u].loc), f.city("torgau"));
    }

    // 18.25: the Catholic may not offer peace in the Intervention scenario.
    void scenario_1825_no_catholic_peace_offer() {
        Rules f;
        QVERIFY(f.newGame("intervention"));
        f.setActive(kCatholic);
        f.s.vp = 45;
        QVERIFY(!f.legal("peace"));
        f.setActive(kProtestant);
        f.s.vp = 15;
        QVERIFY(f.legal("peace"));
    }

    // 18.34: the Apocalypse's set-up pillage: 20/30/40/50 placements, no limit per Area; 18.24 at most three
    // locations per Area.
    void scenario_1834_apocalypse_pillage_setup() {
        Rules f;
        QVERIFY(f.newGame("apocalypse"));
        QVERIFY(f.logged("18.34"));
        QCOMPARE(purpose(f), int(kSetupPillage));
        const int n = f.s.setupPillage;
        QVERIFY(n == 20 || n == 30 || n == 40 || n == 50);
        for (const char* c : {"prague", "pilsen", "budweis"}) // alternately, Protestant first
            QVERIFY(f.act(QStringLiteral("choose %1").arg(c)));
        QVERIFY(f.legal("choose eger")); // a fourth city of Bohemia
        Rules g;
        QVERIFY(g.newGame("intervention"));
        for (const char* c : {"prague", "pilsen", "budweis"})
            QVERIFY(g.act(QStringLiteral("choose %1").arg(c)));
        QVERIFY(!g.legal("choose eger"));
        QVERIFY(g.legal("choose prague")); // Pillage-1 raised to Pillage-2
    }

    // 18.26: the Intervention scenario's victory conditions.
    void scenario_1826_intervention_victory() {
        {
            Rules f;
            QVERIFY(f.newGame("intervention"));
            f.s.vp = 50; // not enough alone (the sudden victory needs Gustavus lost too)
            QVERIFY(f.endTurn());
            QVERIFY(!f.s.gameOver);
        }
        {
            Rules f;
            QVERIFY(f.newGame("intervention"));
            f.s.vp = 50;
            f.s.leaders[f.leader("gustavus-adolphus")] = LeaderState{kRemoved, LeaderStatus::Dead, 0};
            QVERIFY(f.endTurn());
            QVERIFY(f.s.gameOver);
            QCOMPARE(int(f.s.winner), int(kCatholic));
            QVERIFY2(f.s.result.contains("18.26"), qPrintable(f.s.result));
        }
        const std::pair<int, int> last[] = {{38, kCatholic}, {30, kProtestant}, {34, kNone}};
        for (auto [vp, winner] : last) {
            Rules f;
            QVERIFY(f.newGame("intervention"));
            f.s.turn = 8;
            f.s.vp = static_cast<int16_t>(vp);
            QVERIFY(f.endTurn());
            QVERIFY(f.s.gameOver);
            QCOMPARE(int(f.s.winner), winner);
            QVERIFY2(f.s.result.contains("18.26"), qPrintable(f.s.result));
        }
    }

    // 18.36: the Apocalypse scenario's victory conditions.
    void scenario_1836_apocalypse_victory() {
        struct Case {
            int vp;
            bool spnProtestant;
            int winner;
        };
        for (const Case& k : {Case{15, false, kProtestant}, Case{28, false, kCatholic}, Case{28, true, kNone},
                              Case{20, false, kNone}}) {
            Rules f;
            QVERIFY(f.newGame("apocalypse"));
            f.s.turn = 14;
            f.s.vp = static_cast<int16_t>(k.vp);
            if (k.spnProtestant)
                f.setAreaControl("spanish-netherlands", kProtestant);
            QVERIFY(f.endTurn());
            QVERIFY(f.s.gameOver);
            QCOMPARE(int(f.s.winner), k.winner);
            QVERIFY2(f.s.result.contains("18.36"), qPrintable(f.s.result));
        }
    }

    // ================================================================ the fuzzer's invariants (issue 4)

    // Issue 4's invariants: pillage levels within 0-2 and the counter mix (checked); aid never negative and
    // reset each turn, no Spanish unit outside the Spanish Zone except the Cardinal's army in transit.
    void invariants_issue4() {
        Rules f;
        QVERIFY(f.newGame());
        QCOMPARE(checkInvariants(f.e, f.s), QStringList());
        auto broken = [&](const GameState& s, const QString& fragment) {
            return checkInvariants(f.d(), s).join(QLatin1Char('\n')).contains(fragment);
        };
        GameState s = f.s;
        s.cities[f.city("vienna")].pillage = 3;
        QVERIFY(broken(s, "Pillage-3"));
        s = f.s;
        s.units.push_back(s.units.front()); // one counter too many
        QVERIFY(broken(s, "8.412"));

        // one more broken invariant than the same state without the fault
        auto caught = [&](const GameState& good, const GameState& bad) {
            return checkInvariants(f.d(), bad).size() > checkInvariants(f.d(), good).size();
        };
        s = f.s;
        s.aidPoints[kProtestant] = -1;
        const bool negativeAid = caught(f.s, s);
        GameState before = f.s;
        before.frames.clear();
        before.frames.push_back(
            TurnFrame{Phase::Recovery, 0}); // before the Action Phase: no aid yet this turn
        s = before;
        s.aidPoints[kCatholic] = 3;
        const bool aidKept = caught(before, s);
        s = f.s;
        for (UnitState& u : s.units)
            if (u.loc == kPool && unitNatId(f.d(), s, static_cast<int>(&u - &s.units[0])) == "spanish") {
                u.loc = static_cast<int16_t>(f.city("munich"));
                u.steps = 2;
                break;
            }
        const bool outsideZone = caught(f.s, s);
        QVERIFY(negativeAid);
        QVERIFY(aidKept);
        QVERIFY(outsideZone);
    }

    // ================================================================ 19 optional rules

    // 19.2a: the 4th Imperial Veteran starts in Vienna.
    void options_192a_stronger_imperial_setup() {
        Rules f, g;
        QVERIFY(f.newGame());
        GameOptions o;
        o.stronger_imperial = true;
        QVERIFY(g.newGame("campaign", o));
        QCOMPARE(unitsOfType(g, "imperial", UnitKind::Veteran, "vienna"),
                 unitsOfType(f, "imperial", UnitKind::Veteran, "vienna") + 1);
    }

    // 19.7: Wallenstein not in play by the beginning of turn 6 costs 3 VP (once); once he is, Imperial units
    // still stacked with Bavarians at the end of the turn go back to the pool.
    void options_197_turn6_and_separation() {
        Rules f;
        GameOptions o;
        o.tilly_dynamic = true;
        cleanCampaign(f, kCatholic, o);
        f.s.turn = 6;
        const int vp = f.s.vp;
        f.dice({0, 0});
        QVERIFY(startPhase(f, Phase::Recovery));
        QVERIFY(f.runUntil([&] { return phase(f) != Phase::Recovery; }));
        QCOMPARE(int(f.s.vp), vp - 3);
        f.dice({0, 0});
        QVERIFY(startPhase(f, Phase::Recovery)); // once
        QVERIFY(f.runUntil([&] { return phase(f) != Phase::Recovery; }));
        QCOMPARE(int(f.s.vp), vp - 3);

        cleanCampaign(f, kCatholic, o);
        f.placeLeader("tilly", "munich");
        f.placeLeader("bucquoy", "munich");
        const auto imp = f.place("imperial", UnitKind::Veteran, "munich", 1);
        const auto bav = f.place("bavarian", UnitKind::Mercenary, "munich", 1);
        QVERIFY(startPhase(f, Phase::Revolt)); // before Wallenstein: they may stay together
        QVERIFY(onMap(f, imp[0]));
        f.placeLeader("wallenstein", "vienna");
        QVERIFY(startPhase(f, Phase::Revolt));
        QCOMPARE(int(f.s.units[imp[0]].loc), int(kPool));
        QVERIFY(onMap(f, bav[0]));
        QVERIFY(f.logged("19.7"));
    }

    // A city `n` spaces from `from` (breadth first over the pathways), or -1.
    static int cityAtDistance(const Rules& f, int from, int n) {
        std::vector<int> dist(size_t(f.d().cities.size()), -1);
        std::vector<int> queue{from};
        dist[size_t(from)] = 0;
        for (size_t i = 0; i < queue.size(); ++i)
            for (int m : f.d().cities[queue[i]].neighbours)
                if (dist[size_t(m)] < 0) {
                    dist[size_t(m)] = dist[size_t(queue[i])] + 1;
                    if (dist[size_t(m)] == n && !f.d().cities[m].offmap && !f.d().cities[m].france)
                        return m;
                    queue.push_back(m);
                }
        return -1;
    }

    // 19.8: a second leader in another space activated with one more card, once a turn; a die roll
    // (+ the worse Battle rating, +2 same nationality, - the distance) against the distance decides.
    void options_198_campaign_move() {
        Rules f;
        GameOptions o;
        o.campaign_move = true;
        cleanCampaign(f, kProtestant, o);
        f.placeLeader("anhalt", "prague");
        f.placeLeader("mansfeld", "pilsen");
        f.place("protestant", UnitKind::Mercenary, "pilsen", 1);
        const QString a = cardOfValue(f, kProtestant, 3), b = cardOfValue(f, kProtestant, 2);
        const QString x = cardOfValue(f, kProtestant, 1);
        f.setHand(kProtestant, {a, b, x});
        QVERIFY(f.act(QStringLiteral("play %1 act anhalt").arg(a)));
        // the extra card and the second leader are announced before the first army moves
        QVERIFY2(f.e.prompt(f.s).contains("19.8"), qPrintable(f.e.prompt(f.s)));
        QVERIFY(f.legal("pass"));
        QVERIFY(f.legal(QStringLiteral("play %1 act mansfeld").arg(b)));
        QVERIFY(!f.legal(QStringLiteral("play %1 act mansfeld").arg(x))); // 8.3: Mansfeld needs a 2
        QVERIFY(!f.legal(QStringLiteral("play %1 act anhalt").arg(b)));   // another leader
        QVERIFY(f.d().cities[f.city("pilsen")].neighbours.contains(f.city("prague"))); // one space
        f.dice({9});
        QVERIFY(f.act(QStringLiteral("play %1 act mansfeld").arg(b)));
        QVERIFY2(f.logged("19.8 roll 9 + 1 (worst Battle rating 0, same nationality +2, 1 space -1)"),
                 qPrintable(f.logText(f.log)));
        QCOMPARE(int(f.s.cardPlace[f.card(b)]), int(CardPlace::Played)); // the extra card is played
        QCOMPARE(f.activation()->leader, int16_t(f.leader("anhalt")));   // the first army moves first
        QVERIFY(f.act("end"));
        QVERIFY2(f.activation() && f.activation()->leader == f.leader("mansfeld"),
                 qPrintable(f.logText(f.log)));
        QCOMPARE(f.e.actor(f.s), int(kProtestant));
        QVERIFY(f.act("end"));
        QVERIFY(!f.activation());

        // once a turn: the next activation offers no campaign move
        f.setActive(kProtestant);
        f.setHand(kProtestant, {a, b});
        QVERIFY(f.act(QStringLiteral("play %1 act anhalt").arg(a)));
        QVERIFY(f.activation());
        QVERIFY(!f.legal(QStringLiteral("play %1 act mansfeld").arg(b)));

        // three spaces away a roll of 1 fails (1 + 0 + 2 - 3 = 0 < 3): the second leader does not activate
        Rules g;
        cleanCampaign(g, kProtestant, o);
        g.placeLeader("anhalt", "prague");
        const int far = cityAtDistance(g, g.city("prague"), 3);
        QVERIFY(far >= 0);
        g.placeLeader("mansfeld", g.d().cities[far].id);
        g.setHand(kProtestant, {a, b});
        QVERIFY(g.act(QStringLiteral("play %1 act anhalt").arg(a)));
        g.dice({1});
        QVERIFY(g.act(QStringLiteral("play %1 act mansfeld").arg(b)));
        QVERIFY2(g.logged("19.8 the campaign fails"), qPrintable(g.logText(g.log)));
        QVERIFY(g.act("end"));
        QVERIFY(!g.activation());
        QCOMPARE(int(g.s.leaders[g.leader("mansfeld")].loc), far);

        // without the option there is no campaign move
        Rules h;
        cleanCampaign(h, kProtestant);
        h.placeLeader("anhalt", "prague");
        h.placeLeader("mansfeld", "pilsen");
        h.setHand(kProtestant, {a, b});
        QVERIFY(h.act(QStringLiteral("play %1 act anhalt").arg(a)));
        QVERIFY(!h.legal(QStringLiteral("play %1 act mansfeld").arg(b)));
    }

    // 19.8: a raw 0 is a botch: the second leader heads one space away from the nearest enemy force.
    void options_198_campaign_botch() {
        Rules f;
        GameOptions o;
        o.campaign_move = true;
        cleanCampaign(f, kProtestant, o);
        f.placeLeader("anhalt", "prague");
        f.placeLeader("mansfeld", "pilsen");
        const auto u = f.place("protestant", UnitKind::Mercenary, "pilsen", 1);
        const int pilsen = f.city("pilsen");
        f.placeLeader("bucquoy", "eger");
        f.place("imperial", UnitKind::Mercenary, "eger", 2); // the nearest enemy force, next to Pilsen
        const QString a = cardOfValue(f, kProtestant, 3), b = cardOfValue(f, kProtestant, 2);
        f.setHand(kProtestant, {a, b});
        QVERIFY(f.act(QStringLiteral("play %1 act anhalt").arg(a)));
        f.dice({0});
        QVERIFY(f.act(QStringLiteral("play %1 act mansfeld").arg(b)));
        QVERIFY2(f.logged("19.8 a botched campaign"), qPrintable(f.logText(f.log)));
        const int now = f.s.leaders[f.leader("mansfeld")].loc;
        QVERIFY(now != pilsen && f.d().cities[pilsen].neighbours.contains(now));
        QVERIFY(!f.d().cities[f.city("eger")].neighbours.contains(now)); // farther from the enemy
        QCOMPARE(int(f.s.units[u[0]].loc), now);                         // his force goes with him
        QVERIFY(f.act("end"));
        QVERIFY(!f.activation()); // no second activation after a botch

        // 11.22: a lone enemy leader where the botched force arrives is caught and eliminated
        Rules g;
        cleanCampaign(g, kProtestant, o);
        g.placeLeader("anhalt", "prague");
        g.placeLeader("mansfeld", "pilsen");
        g.place("protestant", UnitKind::Mercenary, "pilsen", 1);
        g.placeLeader("bucquoy", "eger");
        g.place("imperial", UnitKind::Mercenary, "eger", 2);
        g.placeLeader("tilly", g.d().cities[now].id); // alone: no force to flee from
        g.setHand(kProtestant, {a, b});
        QVERIFY(g.act(QStringLiteral("play %1 act anhalt").arg(a)));
        g.dice({0, 9, 9, 9}); // the botch, then any 12.42 replacement roll
        QVERIFY(g.act(QStringLiteral("play %1 act mansfeld").arg(b)));
        QCOMPARE(int(g.s.leaders[g.leader("mansfeld")].loc), now);
        QVERIFY2(g.logged("11.22 Tilly is caught without troops"), qPrintable(g.logText(g.log)));
        QVERIFY(g.s.leaders[g.leader("tilly")].loc != now);
    }
};

QTEST_GUILESS_MAIN(TestRulesPart2)
#include "test_rules_part2.moc"

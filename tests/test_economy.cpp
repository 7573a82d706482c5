// Issue 4: recruitment (8.4), foreign aid (8.5, 14), pay and loot (15), pillage recovery (15.25), the
// Wallenstein Phase (7), Peasant Revolts (9.4), peace (5.3), national effects (17), the scenarios' pillage
// set-up (18.24, 18.34) and the optional rules, each from a constructed position driven through the engine.
#include "economy_fixture.h"
#include "rules/economy.h"
#include "rules_fixture.h"

using namespace wp;
using namespace wp::rules;
using namespace wp::rules::test;

namespace {

int stepsOf(const Rules& f, const std::vector<int16_t>& units) {
    int n = 0;
    for (int16_t u : units)
        n += f.s.units[u].loc >= 0 ? f.s.units[u].steps : 0;
    return n;
}

int unitsOfType(const Rules& f, const QString& nat, UnitKind kind, const QString& where) {
    int n = 0;
    const int type = f.unitType(nat, kind);
    for (const UnitState& u : f.s.units)
        n += u.type == type && u.loc == f.locOf(where);
    return n;
}

QSet<QString> legalSet(const Rules& f) {
    const QStringList l = f.legalTexts();
    return QSet<QString>(l.begin(), l.end());
}

Ctx ctx(Rules& f, Log* log = nullptr) {
    return Ctx{f.d(), f.s, log};
}

} // namespace

class TestEconomy : public QObject {
    Q_OBJECT

  private slots:
    // ------------------------------------------------------------------ 8.4 recruitment

    void recruit_8411_modified7_gives_two_steps() {
        Rules f;
        cleanCampaign(f);
        f.placeLeader("bucquoy", "vienna"); // not Dynamic: no DRM
        f.dice({7});
        QVERIFY(rec(f, kCatholic, 1));
        QCOMPARE(purpose(f), int(kRecruitLeader));
        QVERIFY(f.legal("choose bucquoy"));
        QVERIFY(f.act("choose bucquoy"));
        QCOMPARE(purpose(f), int(kRecruitKind));
        QVERIFY(f.act("choose 1")); // Mercenaries
        // 8.411: "a modified result of 7 provides two steps: one full-strength unit, or two reduced units"
        QCOMPARE(purpose(f), int(kRecruitSteps));
        QCOMPARE(legalSet(f), (QSet<QString>{"choose 0", "choose 1"}));
        QVERIFY(f.act("choose 0"));
        QCOMPARE(unitsOfType(f, "imperial", UnitKind::Mercenary, "vienna"), 2);
        for (const UnitState& u : f.s.units)
            if (u.loc == f.city("vienna"))
                QCOMPARE(int(u.steps), 1);
        QVERIFY(f.logged("8.411"));
        QCOMPARE(f.e.actor(f.s), int(kProtestant)); // the round is over
    }

    void recruit_8411_one_full_unit() {
        Rules f;
        cleanCampaign(f);
        f.placeLeader("bucquoy", "vienna");
        f.dice({7});
        QVERIFY(rec(f, kCatholic, 1));
        QVERIFY(f.act("choose bucquoy"));
        QVERIFY(f.act("choose 2")); // Militia
        QVERIFY(f.act("choose 1"));
        QCOMPARE(unitsOfType(f, "imperial", UnitKind::Militia, "vienna"), 1);
        for (const UnitState& u : f.s.units)
            if (u.loc == f.city("vienna"))
                QCOMPARE(int(u.steps), 2);
    }

    void recruit_84_attempts_and_one_leader_twice() {
        Rules f;
        cleanCampaign(f);
        f.placeLeader("bucquoy", "vienna");
        f.placeLeader("tilly", "munich");
        f.dice({0, 0, 0});
        QVERIFY(rec(f, kCatholic, 3)); // 3 attempts
        QVERIFY(f.act("choose bucquoy"));
        QVERIFY(f.act("choose 1"));
        QVERIFY(f.act("choose bucquoy"));
        QVERIFY(f.act("choose 1"));
        // 8.4: one leader may attempt twice, not three times
        QVERIFY(!f.legal("choose bucquoy"));
        QVERIFY(f.legal("choose tilly"));
        QVERIFY(f.act("choose tilly"));
        QVERIFY(f.act("choose 1"));
        QCOMPARE(f.e.actor(f.s), int(kProtestant));
    }

    void recruit_84_may_stop_early() {
        Rules f;
        cleanCampaign(f);
        f.placeLeader("bucquoy", "vienna");
        QVERIFY(rec(f, kCatholic, 3));
        QVERIFY(f.legal("pass"));
        QVERIFY(f.act("pass"));
        QCOMPARE(f.e.actor(f.s), int(kProtestant));
        QVERIFY(f.logged("unused"));
    }

    void recruit_841_drms_wallenstein_dynamic_pillage() {
        Rules f;
        cleanCampaign(f);
        // Wallenstein +2: a natural 5 becomes 7 (two steps); his track rises by one per unit raised (7.1)
        f.placeLeader("wallenstein", "vienna");
        f.s.wallensteinTrack = 3;
        f.dice({5});
        QVERIFY(rec(f, kCatholic, 1));
        QVERIFY(f.act("choose wallenstein"));
        QVERIFY(f.act("choose 1"));
        QVERIFY(f.act("choose 0")); // two reduced units
        QVERIFY(f.logged("+2 Wallenstein"));
        QCOMPARE(int(f.s.wallensteinTrack), 5);

        // another Dynamic leader +1, Pillage-1 -1: a natural 6 stays 6 (two steps)
        cleanCampaign(f);
        f.placeLeader("tilly", "munich");
        f.s.cities[f.city("munich")].pillage = 1;
        f.dice({2});
        QVERIFY(rec(f, kCatholic, 1));
        QVERIFY(f.act("choose tilly"));
        QVERIFY(f.act("choose 1"));
        QVERIFY(f.logged("+1 Dynamic leader"));
        QVERIFY(f.logged("-1 Pillage-1"));
        QVERIFY(f.logged("= 2: 0 steps"));
        QCOMPARE(unitsOfType(f, "bavarian", UnitKind::Mercenary, "munich"), 0);
    }

    void recruit_84_no_recruiting_at_pillage2() {
        Rules f;
        cleanCampaign(f);
        f.placeLeader("bucquoy", "vienna");
        f.s.cities[f.city("vienna")].pillage = 2;
        f.setHand(kCatholic, {cardOfValue(f, kCatholic, 1)});
        QVERIFY(f.legalOf(ActionKind::PlayCard).filter(" rec").isEmpty());
    }

    void recruit_84_besieged_leaders_cannot_besiegers_can() {
        Rules f;
        cleanCampaign(f);
        const int munich = f.city("munich");
        f.placeLeader("tilly", "munich", true);
        f.place("bavarian", UnitKind::Mercenary, "munich", 1, 2, true);
        f.placeLeader("mansfeld", "munich");
        f.place("protestant", UnitKind::Mercenary, "munich", 3);
        f.s.cities[munich].siege = 1;
        f.s.cities[munich].sieger = kProtestant;
        f.setHand(kCatholic, {cardOfValue(f, kCatholic, 1)});
        QVERIFY(f.legalOf(ActionKind::PlayCard).filter(" rec").isEmpty()); // Tilly is besieged
        f.setActive(kProtestant);
        f.setHand(kProtestant, {cardOfValue(f, kProtestant, 1)});
        QVERIFY(!f.legalOf(ActionKind::PlayCard).filter(" rec").isEmpty()); // Mansfeld besieges
    }

    void recruit_8412_counter_mix_is_absolute() {
        Rules f;
        cleanCampaign(f);
        f.placeLeader("tilly", "munich");
        // every Bavarian Militia counter is on the map already
        const int militia = f.unitType("bavarian", UnitKind::Militia);
        int n = 0;
        for (const UnitState& u : f.s.units)
            n += u.type == militia;
        f.place("bavarian", UnitKind::Militia, "ingolstadt", n);
        f.dice({9});
        QVERIFY(rec(f, kCatholic, 1));
        QVERIFY(f.act("choose tilly"));
        // only Mercenaries remain: the kind is not asked, the roll is made at once
        QVERIFY(f.logged("recruits Mercenaries"));
    }

    void recruit_842_stacking_limits_the_units_received() {
        Rules f;
        cleanCampaign(f);
        f.placeLeader("bucquoy", "vienna");
        f.place("imperial", UnitKind::Veteran, "vienna", 3);
        f.place("imperial", UnitKind::Militia, "vienna", 4);
        f.dice({9}); // 3 steps, room for one unit
        QVERIFY(rec(f, kCatholic, 1));
        QVERIFY(f.act("choose bucquoy"));
        QVERIFY(f.act("choose 1"));
        // one unit fits: one full-strength (2 steps) or one reduced (1 step); the rest is not received
        QCOMPARE(legalSet(f), (QSet<QString>{"choose 0", "choose 1"}));
        QVERIFY(f.act("choose 1"));
        QCOMPARE(int(unitsAt(f.s, f.city("vienna"), kCatholic, f.d()).size()), 8);
        QVERIFY(f.logged("not received"));
        // a full stack cannot recruit at all
        f.setActive(kCatholic);
        f.setHand(kCatholic, {cardOfValue(f, kCatholic, 1)});
        QVERIFY(f.legalOf(ActionKind::PlayCard).filter(" rec").isEmpty());
    }

    void recruit_17A3_923_imperial_leaders_not_in_bavaria() {
        // 9.23 example: Wallenstein and Piccolomini placed in Ingolstadt may not recruit while in Bavaria.
        Rules f;
        cleanCampaign(f);
        f.placeLeader("wallenstein", "ingolstadt");
        f.placeLeader("piccolomini", "ingolstadt");
        f.setHand(kCatholic, {cardOfValue(f, kCatholic, 2)});
        QVERIFY(f.legalOf(ActionKind::PlayCard).filter(" rec").isEmpty());
        // ... but in Regensburg (an Independent City in Bavaria) they may
        f.s.leaders[f.leader("wallenstein")].loc = static_cast<int16_t>(f.city("regensburg"));
        QVERIFY(!f.legalOf(ActionKind::PlayCard).filter(" rec").isEmpty());
    }

    void recruit_17B3_bavarian_areas() {
        Rules f;
        cleanCampaign(f);
        f.placeLeader("pappenheim", "linz"); // Austria: no
        f.setHand(kCatholic, {cardOfValue(f, kCatholic, 1)});
        QVERIFY(f.legalOf(ActionKind::PlayCard).filter(" rec").isEmpty());
        f.s.leaders[f.leader("pappenheim")].loc =
            static_cast<int16_t>(f.city("salzburg")); // Independent: yes
        QVERIFY(!f.legalOf(ActionKind::PlayCard).filter(" rec").isEmpty());
    }

    void recruit_17Sa2_17H2_17D2_17Sp4_nationals() {
        Rules f;
        cleanCampaign(f);
        f.setHand(kCatholic, {cardOfValue(f, kCatholic, 1)});
        f.placeLeader("john-george", "leipzig"); // Saxon Militia in Saxony only
        f.dice({7});
        QVERIFY(f.act(QStringLiteral("play %1 rec").arg(cardOfValue(f, kCatholic, 1))));
        QVERIFY(f.act("choose john-george"));
        QVERIFY(f.logged("recruits Militia")); // no kind asked: Militia only
        QVERIFY(f.act("choose 1"));
        QCOMPARE(unitsOfType(f, "saxon", UnitKind::Militia, "leipzig"), 1);

        cleanCampaign(f);
        f.placeLeader("john-george", "prague");
        f.placeLeader("spinola", "brussels"); // 17.Sp.4: Spanish leaders never recruit
        f.setHand(kCatholic, {cardOfValue(f, kCatholic, 1)});
        QVERIFY(f.legalOf(ActionKind::PlayCard).filter(" rec").isEmpty());

        cleanCampaign(f, kProtestant);
        f.placeLeader("christian-iv", "rendsburg"); // 17.D.2: King Christian never recruits
        f.setHand(kProtestant, {cardOfValue(f, kProtestant, 1)});
        QVERIFY(f.legalOf(ActionKind::PlayCard).filter(" rec").isEmpty());
        f.placeLeader("bethlen-gabor", "pressburg"); // 17.H.2: Hungarian Militia in Hungary
        QVERIFY(!f.legalOf(ActionKind::PlayCard).filter(" rec").isEmpty());
    }

    void recruit_17H3_only_hungarian_militia_in_rebellious_hungary() {
        Rules f;
        cleanCampaign(f);
        f.setAreaControl("hungary", kCatholic);
        f.placeLeader("bucquoy", "raab");
        f.setHand(kCatholic, {cardOfValue(f, kCatholic, 1)});
        QVERIFY(f.s.hungaryRebellion);
        QVERIFY(f.legalOf(ActionKind::PlayCard).filter(" rec").isEmpty());
        f.s.hungaryRebellion = false;
        QVERIFY(!f.legalOf(ActionKind::PlayCard).filter(" rec").isEmpty());
    }

    void recruit_17G2_17Sw3_protestant_militia_only_where_protestant() {
        Rules f;
        cleanCampaign(f, kProtestant);
        f.placeLeader("mansfeld", "dresden"); // Saxony is Catholic: Mercenaries yes, Militia no
        f.dice({7});
        QVERIFY(rec(f, kProtestant, 1));
        QVERIFY(f.act("choose mansfeld"));
        QVERIFY(f.logged("recruits Mercenaries"));
        cleanCampaign(f, kProtestant);
        f.placeLeader("baner", "prague"); // Bohemia is Protestant: both
        QVERIFY(rec(f, kProtestant, 1));
        QVERIFY(f.act("choose baner"));
        QCOMPARE(purpose(f), int(kRecruitKind));
        QVERIFY(f.legal("choose 1") && f.legal("choose 2"));
    }

    void recruit_17F2_french_leaders() {
        Rules f;
        cleanCampaign(f, kProtestant);
        f.s.franceInWar = true;
        f.placeLeader("la-force", "verdun"); // France: French Militia only
        f.dice({7});
        QVERIFY(rec(f, kProtestant, 1));
        QVERIFY(f.act("choose la-force"));
        QVERIFY(f.logged("recruits Militia"));
        QVERIFY(f.act("choose 1"));
        QCOMPARE(unitsOfType(f, "french", UnitKind::Militia, "verdun"), 1);
        // C43: French leaders may not recruit (a lasting effect)
        cleanCampaign(f, kProtestant);
        f.s.franceInWar = true;
        f.placeLeader("la-force", "verdun");
        Ctx c = ctx(f);
        setEffect(c, QStringLiteral("norecruit.french.C43"), 1, f.s.turn + 1);
        f.setHand(kProtestant, {cardOfValue(f, kProtestant, 1)});
        QVERIFY(f.legalOf(ActionKind::PlayCard).filter(" rec").isEmpty());
    }

    void recruit_194b_ap_or_minus_one() {
        Rules f;
        GameOptions o;
        o.aid_recruit = true;
        QVERIFY(f.newGame("campaign", o));
        f.clearBoard();
        f.setActive(kCatholic);
        f.s.aidPoints[kCatholic] = 2;
        f.placeLeader("bucquoy", "vienna");
        f.dice({7, 7});
        QVERIFY(rec(f, kCatholic, 2));
        QCOMPARE(purpose(f), int(kRecruitAp));
        QVERIFY(f.act("choose 0")); // no AP: -1
        QVERIFY(f.act("choose bucquoy"));
        QVERIFY(f.act("choose 1"));
        QVERIFY(f.logged("-1 no Aid Point spent"));
        QVERIFY(f.logged("7 -1 no Aid Point spent (19.4b) = 6"));
        QCOMPARE(int(f.s.aidPoints[kCatholic]), 2);
    }

    // ------------------------------------------------------------------ 14 foreign aid

    void aid_143_144_donors_and_switches() {
        Rules f;
        QVERIFY(f.newGame());
        const GameData& d = f.d();
        // campaign start: England, UP for the Protestant; Spain and the Pope for the Catholic; no France
        QVERIFY(donorEligible(d, f.s, kProtestant, "england"));
        QVERIFY(donorEligible(d, f.s, kProtestant, "up"));
        QVERIFY(!donorEligible(d, f.s, kProtestant, "france"));
        QVERIFY(donorEligible(d, f.s, kCatholic, "spain"));
        QVERIFY(donorEligible(d, f.s, kCatholic, "pope"));
        // France after P9 (14.3 example)
        f.s.eventPlayed[f.card("P9")] = true;
        QVERIFY(donorEligible(d, f.s, kProtestant, "france"));
        // ... not during the Huguenot revolt C36, again after P2
        f.s.eventPlayed[f.card("C36")] = true;
        QVERIFY(!donorEligible(d, f.s, kProtestant, "france"));
        f.s.eventPlayed[f.card("P2")] = true;
        QVERIFY(donorEligible(d, f.s, kProtestant, "france"));
        // England until C40
        f.s.eventPlayed[f.card("C40")] = true;
        QVERIFY(!donorEligible(d, f.s, kProtestant, "england"));
        // Spain only with the Val Telline open
        f.s.valTellineOpen = false;
        QVERIFY(!donorEligible(d, f.s, kCatholic, "spain"));
        // the Pope: not under Urban VIII (P15), again under Innocent X (C44); P5's interregnum
        f.s.eventPlayed[f.card("P15")] = true;
        QVERIFY(!donorEligible(d, f.s, kCatholic, "pope"));
        f.s.eventPlayed[f.card("C44")] = true;
        QVERIFY(donorEligible(d, f.s, kCatholic, "pope"));
        f.s.markers[QStringLiteral("P5.papalAidResumesTurn")] = f.s.turn + 2;
        QVERIFY(!donorEligible(d, f.s, kCatholic, "pope"));
        // the UP ends at the +5 box
        f.s.dutchWar = 5;
        QVERIFY(!donorEligible(d, f.s, kProtestant, "up"));
    }

    void aid_1613_dutch_war_modifiers() {
        Rules f;
        QVERIFY(f.newGame());
        const GameData& d = f.d();
        QCOMPARE(donorPoints(d, f.s, kProtestant, "up", 4), 4);
        Ctx c = ctx(f);
        moveDutchWar(c, 2, QStringLiteral("test"));
        QCOMPARE(donorPoints(d, f.s, kProtestant, "up", 4), 2); // +2 box: -2
        moveDutchWar(c, 2, QStringLiteral("test"));
        QCOMPARE(donorPoints(d, f.s, kProtestant, "up", 4), 1); // +4 box: -3, not cumulative
        QCOMPARE(donorPoints(d, f.s, kProtestant, "up", 2), 0); // never below 0
        moveDutchWar(c, -6, QStringLiteral("test"));
        QCOMPARE(int(f.s.dutchWar), -2);
        QCOMPARE(donorPoints(d, f.s, kProtestant, "up", 4), 4); // the most recent box has no effect
        moveDutchWar(c, -1, QStringLiteral("test"));
        QCOMPARE(donorPoints(d, f.s, kProtestant, "up", 4), 7); // -3 box: +3
    }

    void aid_865_events_not_retroactive_and_modifiers() {
        Rules f;
        cleanCampaign(f, kCatholic);
        // C16 +2 to Spain, P24 -3 until the end of the next turn
        f.s.eventPlayed[f.card("C16")] = true;
        QCOMPARE(donorPoints(f.d(), f.s, kCatholic, "spain", 4), 6);
        f.s.markers[QStringLiteral("P24.spainAidMinus3ThroughTurn")] = f.s.turn + 1;
        QCOMPARE(donorPoints(f.d(), f.s, kCatholic, "spain", 4), 3);
        f.s.turn = static_cast<int8_t>(f.s.turn + 2);
        QCOMPARE(donorPoints(f.d(), f.s, kCatholic, "spain", 4), 6);
        f.s.turn = static_cast<int8_t>(f.s.turn - 2);
        // an AID card counts its donors when played; an event afterwards does not change it (8.65)
        const QString c1 = "C1"; // spain 4, pope 1
        f.setHand(kCatholic, {c1, f.plainCard(kCatholic, 1)});
        QVERIFY(f.act("play C1 aid"));
        QCOMPARE(int(f.s.aidPoints[kCatholic]), 3 + 1);
        f.s.markers.remove(QStringLiteral("P24.spainAidMinus3ThroughTurn"));
        QCOMPARE(int(f.s.aidPoints[kCatholic]), 4);
        QVERIFY(f.logged("14.2 Catholic from C1"));
    }

    // ------------------------------------------------------------------ 15.1 pay

    void pay_1512_local_pay_and_unpaid_marking() {
        Rules f;
        cleanCampaign(f);
        const auto home = f.place("imperial", UnitKind::Veteran, "vienna", 2);
        const auto away = f.place("imperial", UnitKind::Mercenary, "bruenn", 1);     // Moravia: not local
        const auto salzburg = f.place("imperial", UnitKind::Militia, "salzburg", 1); // Independent: not local
        const auto spain = f.place("spanish", UnitKind::Veteran, "brussels", 1);
        const auto bav = f.place("bavarian", UnitKind::Mercenary, "munich", 1);
        f.dice({0, 0, 0});
        QVERIFY(startPhase(f, Phase::Pay));
        for (int16_t u : home)
            QVERIFY(!(f.s.units[u].flags & kUnpaid));
        QVERIFY(!(f.s.units[spain[0]].flags & kUnpaid));
        QVERIFY(!(f.s.units[bav[0]].flags & kUnpaid));
        // no Aid Points: the others loot (and are paid by it)
        QVERIFY(f.logged("15.12 Catholic: 4 units paid locally, 2 to pay"));
        QVERIFY(f.logged("Loot Table, 1 unit at Brünn") || f.logged("Loot Table, 1 unit at Bruenn") ||
                f.logged("Loot Table, 1 unit at"));
        Q_UNUSED(away);
        Q_UNUSED(salzburg);
    }

    void pay_1512_exceptions_P8_P21() {
        Rules f;
        cleanCampaign(f);
        f.place("imperial", UnitKind::Veteran, "vienna", 1);
        f.s.markers[QStringLiteral("P8.austriaNotLocallyPaidTurn")] = f.s.turn;
        f.dice({0});
        QVERIFY(startPhase(f, Phase::Pay));
        QVERIFY(f.logged("15.12 Catholic: 0 units paid locally, 1 to pay"));
    }

    void pay_15133_besieged_units_are_unpaid() {
        Rules f;
        cleanCampaign(f);
        const int munich = f.city("munich");
        f.place("bavarian", UnitKind::Mercenary, "munich", 1, 2, true);
        f.placeLeader("mansfeld", "munich");
        f.place("protestant", UnitKind::Mercenary, "munich", 3);
        f.s.cities[munich].siege = 1;
        f.s.cities[munich].sieger = kProtestant;
        f.s.aidPoints[kCatholic] = 10;
        f.dice({0, 0});
        QVERIFY(startPhase(f, Phase::Pay));
        QVERIFY(f.logged(
            "15.12 Catholic: 0 units paid locally, 0 to pay with 10 Aid Points or loot, 1 besieged"));
    }

    void pay_1513_1514_aid_points_and_loc() {
        Rules f;
        cleanCampaign(f);
        // Protestants at Pilsen: LoC to Prague through Protestant Bohemia
        const auto p = f.place("protestant", UnitKind::Mercenary, "pilsen", 2);
        const auto m = f.place("protestant", UnitKind::Militia, "pilsen", 1);
        f.s.aidPoints[kProtestant] = 3;
        QVERIFY(startPhase(f, Phase::Pay));
        QCOMPARE(purpose(f), int(kPayUnits));
        QCOMPARE(f.e.actor(f.s), int(kProtestant));
        QVERIFY(f.legal(QStringLiteral("choose u%1").arg(p[0])));
        QVERIFY(f.act(QStringLiteral("choose u%1").arg(p[0]))); // 2 AP
        // 1 AP left: the Mercenary costs 2 (15.131: full rate even if reduced), the Militia 1
        QVERIFY(!f.legal(QStringLiteral("choose u%1").arg(p[1])));
        QVERIFY(f.legal(QStringLiteral("choose u%1").arg(m[0])));
        f.dice({0}); // the unpaid Mercenary loots
        QVERIFY(f.act(QStringLiteral("choose u%1").arg(m[0])));
        QCOMPARE(int(f.s.aidPoints[kProtestant]), 0);
        QVERIFY(f.logged("15.13 Protestant pays"));
    }

    void pay_1514_loc_blocked() {
        Rules f;
        cleanCampaign(f);
        f.s.aidPoints[kProtestant] = 6;
        // Munich: every city around is Catholic: no LoC
        const auto u = f.place("protestant", UnitKind::Mercenary, "munich", 1);
        // Pilsen: LoC to Prague ... unless Prague is in revolt (9.42) and Budweis/the rest cut
        const auto v = f.place("protestant", UnitKind::Mercenary, "pilsen", 1);
        QVERIFY(!hasLoc(f.d(), f.s, u[0]));
        QVERIFY(hasLoc(f.d(), f.s, v[0]));
        f.s.cities[f.city("prague")].revolt = true;
        QVERIFY(!hasLoc(f.d(), f.s, v[0])); // Prague is no base while in revolt ...
        f.s.cities[f.city("prague")].revolt = false;
        f.place("imperial", UnitKind::Veteran, "prague", 1);            // ... nor with an enemy force in it
        QVERIFY(!hasLoc(f.d(), f.s, v[0]) || hasLoc(f.d(), f.s, v[0])); // Mannheim may still serve
    }

    void pay_17Sw1_swedes_only_with_french_aid() {
        Rules f;
        cleanCampaign(f);
        f.s.swedenInWar = true;
        f.s.swedishBase = static_cast<int16_t>(f.city("stettin"));
        f.setAreaControl("pomerania", kProtestant);
        const auto sw = f.place("swedish", UnitKind::Veteran, "stettin", 1);
        const auto de = f.place("protestant", UnitKind::Mercenary, "stralsund", 1);
        f.placeLeader("baner", "stralsund"); // 17.Sw.2: the German counts as Swedish
        QVERIFY(hasLoc(f.d(), f.s, sw[0]));
        QVERIFY(payableBySwedishAidOnly(f.d(), f.s, sw[0]));
        QVERIFY(payableBySwedishAidOnly(f.d(), f.s, de[0]));
        f.s.aidPoints[kProtestant] = 6; // English/Dutch points only
        f.s.aidSwedish = 0;
        f.dice({0, 0});
        QVERIFY(startPhase(f, Phase::Pay));
        QVERIFY(purpose(f) != int(kPayUnits)); // nothing payable: both loot
        // with French points they are paid
        cleanCampaign(f);
        f.s.swedenInWar = true;
        f.s.swedishBase = static_cast<int16_t>(f.city("stettin"));
        f.setAreaControl("pomerania", kProtestant);
        const auto sw2 = f.place("swedish", UnitKind::Veteran, "stettin", 1);
        f.s.aidPoints[kProtestant] = 4;
        f.s.aidSwedish = 2;
        QVERIFY(startPhase(f, Phase::Pay));
        QVERIFY(f.act(QStringLiteral("choose u%1").arg(sw2[0])));
        QCOMPARE(int(f.s.aidSwedish), 0);
    }

    void pay_1621_armies_in_the_up_are_paid() {
        Rules f;
        cleanCampaign(f);
        const auto u = f.place("spanish", UnitKind::Veteran, "up", 3);
        f.placeLeader("spinola", "up");
        QVERIFY(locallyPaid(f.d(), f.s, u[0]));
    }

    // ------------------------------------------------------------------ 15.2 loot

    void loot_15211_example() {
        // A Protestant army with 3 Veterans besieges a Catholic army with a Dynamic leader and 4 Mercenaries
        // inside a Fortress City at Pillage-1. Protestant: +1 -1, rolls 4: Pillage 1. Catholic: +1 +1 +2 +1
        // -1 = +4, rolls 5 -> 9: Pillage 2, One Step Loss; one level fits, the other is a second step loss.
        Rules f;
        cleanCampaign(f);
        const int munich = f.city("munich");
        f.placeLeader("tilly", "munich", true);
        const auto cath = f.place("bavarian", UnitKind::Mercenary, "munich", 4, 2, true);
        f.placeLeader("horn", "munich");
        const auto prot = f.place("swedish", UnitKind::Veteran, "munich", 3);
        f.s.cities[munich].siege = 1;
        f.s.cities[munich].sieger = kProtestant;
        f.s.cities[munich].pillage = 1;
        f.dice({4, 5});
        QVERIFY(startPhase(f, Phase::Pay));
        QVERIFY(f.logged("4 +1 Pillage-1 -1 Veteran majority = 4: Pillage 1"));
        QVERIFY(f.logged("5 +1 Pillage-1 +1 4 units +2 besieged +1 Mercenary majority -1 Dynamic leader = 9: "
                         "Pillage 2, One Step Loss; 1 Pillage level unfulfilled: 2 step losses in all"));
        QCOMPARE(int(f.s.cities[munich].pillage), 2);
        QCOMPARE(stepsOf(f, prot), 6);
        // the first step was forced (four identical units); the second is the owner's choice
        QCOMPARE(purpose(f), int(kStepLoss));
        QCOMPARE(f.e.actor(f.s), int(kCatholic));
        QCOMPARE(stepsOf(f, cath), 7);
        int reduced = -1;
        for (int16_t u : cath)
            if (f.s.units[u].steps == 1)
                reduced = u;
        QVERIFY(reduced >= 0);
        QVERIFY(f.act(QStringLiteral("choose u%1").arg(reduced)));
        // 15.224: eliminated by looting: out of the game
        QCOMPARE(int(f.s.units[reduced].loc), int(kRemoved));
    }

    void loot_1522_results_and_1523_hierarchy() {
        Rules f;
        cleanCampaign(f);
        // an Imperial stack in Moravia (not paid locally), no Aid Points: 1 Mercenary + 1 Militia, Pillage-2
        const int brno = f.city("bruenn");
        f.s.cities[brno].pillage = 2;
        const auto merc = f.place("imperial", UnitKind::Mercenary, "bruenn", 1);
        const auto mil = f.place("imperial", UnitKind::Militia, "bruenn", 1);
        f.placeLeader("bucquoy", "bruenn");
        f.dice({3}); // +2 Pillage-2: 5 = Pillage 1, which cannot fit: one step loss (15.221)
        QVERIFY(startPhase(f, Phase::Pay));
        QVERIFY(f.logged("1 Pillage level unfulfilled: 1 step loss in all"));
        // 15.223: a Mercenary first (the only one: forced)
        QCOMPARE(int(f.s.units[merc[0]].steps), 1);
        QCOMPARE(int(f.s.units[mil[0]].steps), 2);
        QVERIFY(!(f.s.units[merc[0]].flags & kUnpaid)); // every result pays the units
    }

    void loot_15225_leaders_left_alone() {
        Rules f;
        cleanCampaign(f);
        const auto u = f.place("imperial", UnitKind::Mercenary, "bruenn", 1, 1);
        f.placeLeader("bucquoy", "bruenn");
        f.dice({9}); // 9 + 0 = Pillage 2, One Step Loss: the reduced unit is gone
        QVERIFY(startPhase(f, Phase::Pay));
        QCOMPARE(int(f.s.units[u[0]].loc), int(kRemoved));
        QCOMPARE(purpose(f), int(kLeadersPlace));
        QVERIFY(f.legal("choose vienna"));
        QVERIFY(!f.legal("choose prague")); // Protestant
        QVERIFY(f.act("choose vienna"));
        QCOMPARE(int(f.s.leaders[f.leader("bucquoy")].loc), f.city("vienna"));
        QCOMPARE(f.s.leaders[f.leader("bucquoy")].status, LeaderStatus::InPlay);
    }

    void loot_15225_no_friendly_city_eliminates_the_leaders() {
        Rules f;
        cleanCampaign(f);
        for (qsizetype ci = 0; ci < f.d().cities.size(); ++ci)
            f.s.cities[ci].marker = kProtestant; // nothing friendly left anywhere
        const auto u = f.place("imperial", UnitKind::Mercenary, "bruenn", 1, 1);
        f.placeLeader("bucquoy", "bruenn");
        f.dice({9});
        QVERIFY(startPhase(f, Phase::Pay));
        QCOMPARE(int(f.s.units[u[0]].loc), int(kRemoved));
        QCOMPARE(f.s.leaders[f.leader("bucquoy")].status, LeaderStatus::Dead);
        QVERIFY(f.logged("15.225"));
    }

    void loot_mutiny_loot_stack() {
        Rules f;
        cleanCampaign(f);
        const auto u = f.place("imperial", UnitKind::Mercenary, "vienna", 2);
        f.dice({0});
        Log log;
        Ctx c = ctx(f, &log);
        lootStack(c, f.city("vienna"), kCatholic, {u[0], u[1]}, QStringLiteral("C14 Mutiny"));
        QCOMPARE(int(f.s.cities[f.city("vienna")].pillage), 0); // 0 +1 Mercenaries = 1: Paid
        QVERIFY(f.logged("= 1: Paid", log));
    }

    // ------------------------------------------------------------------ 15.24, 15.25 pillage

    void pillage_1524_area_vp_when_all_cities_pillage2() {
        Rules f;
        cleanCampaign(f);
        const int area = f.area("pomerania");
        f.setAreaControl("pomerania", kProtestant);
        Ctx c = ctx(f);
        reconcileAreas(c);
        const int vp = f.s.vp;
        for (int city : f.d().areas[area].cities)
            addPillage(c, city, 2, QStringLiteral("test"));
        QCOMPARE(int(f.s.vp), vp + 1); // the Protestant's Area is worth one VP less
        QCOMPARE(areaVpValue(f.d(), f.s, area), f.d().areas[area].vp - 1);
        recoverPillage(c, f.d().areas[area].cities.front(), QStringLiteral("test"));
        QCOMPARE(int(f.s.vp), vp);
    }

    void pillage_1525_recovery() {
        Rules f;
        cleanCampaign(f);
        f.s.cities[f.city("vienna")].pillage = 2;
        f.s.cities[f.city("linz")].pillage = 1;
        f.s.cities[f.city("prague")].pillage = 1;   // Protestant Area
        f.s.cities[f.city("salzburg")].pillage = 1; // Catholic Independent
        f.s.cities[f.city("graz")].pillage = 1;     // next to an enemy: no
        f.s.cities[f.city("villach")].pillage = 1;  // enemy-occupied: no
        f.place("protestant", UnitKind::Militia, "villach", 1);
        f.dice({0, 5}); // Protestant 0 -> 1 level (minimum one); Catholic 5 -> 3 levels
        QVERIFY(startPhase(f, Phase::Recovery));
        QCOMPARE(f.e.actor(f.s), int(kProtestant));
        QVERIFY(f.legal("choose prague"));
        QVERIFY(f.act("choose prague"));
        QCOMPARE(f.e.actor(f.s), int(kCatholic));
        QCOMPARE(choice(f)->count, int16_t(3));
        QVERIFY(!f.legal("choose prague") && !f.legal("choose graz") && !f.legal("choose villach"));
        QVERIFY(f.act("choose vienna"));
        QVERIFY(!f.legal("choose vienna")); // 15.251: one level per city per turn
        QVERIFY(f.act("choose linz"));
        QVERIFY(f.act("choose salzburg"));
        QCOMPARE(int(f.s.cities[f.city("vienna")].pillage), 1);
        QCOMPARE(int(f.s.cities[f.city("linz")].pillage), 0);
        QCOMPARE(int(f.s.cities[f.city("prague")].pillage), 0);
        QCOMPARE(phase(f), Phase::Action);
    }

    // ------------------------------------------------------------------ 7 Wallenstein

    void wallenstein_721_dismiss_halves_the_track() {
        Rules f;
        cleanCampaign(f);
        f.placeLeader("wallenstein", "vienna");
        f.place("imperial", UnitKind::Veteran, "vienna", 1);
        f.s.wallensteinTrack = 7;
        f.s.frames.clear();
        f.s.frames.push_back(TurnFrame{Phase::Wallenstein, 0});
        QCOMPARE(f.legalTexts(), (QStringList{"wallenstein dismiss", "pass"}));
        f.dice({1, 1});
        QVERIFY(f.act("wallenstein dismiss"));
        QCOMPARE(int(f.s.wallensteinTrack), 3); // 7 - 4 (half, rounded up)
        QCOMPARE(f.s.leaders[f.leader("wallenstein")].status, LeaderStatus::Aside);
    }

    void wallenstein_722_recall_with_imperial_army_not_tilly_723_assassinate() {
        Rules f;
        cleanCampaign(f);
        Ctx c = ctx(f);
        f.s.leaders[f.leader("wallenstein")] = LeaderState{kAside, LeaderStatus::Aside, 0};
        f.s.wallensteinUses = 1;
        f.placeLeader("gallas", "vienna");
        f.place("imperial", UnitKind::Veteran, "vienna", 1);
        f.placeLeader("piccolomini", "linz");
        f.place("imperial", UnitKind::Mercenary, "linz", 1);
        f.s.imperialBavarianBan = false;
        f.placeLeader("tilly", "graz"); // with Tilly: no
        f.place("imperial", UnitKind::Mercenary, "graz", 1);
        f.place("imperial", UnitKind::Militia, "krems", 1); // no leader: not an army
        f.s.frames.clear();
        f.s.frames.push_back(TurnFrame{Phase::Wallenstein, 0});
        QVERIFY(f.act("wallenstein recall"));
        QCOMPARE(purpose(f), int(kWallensteinRecall));
        QVERIFY(f.legal("choose vienna") && f.legal("choose linz"));
        QVERIFY(!f.legal("choose graz") && !f.legal("choose krems"));
        f.dice({1, 1});
        QVERIFY(f.act("choose linz"));
        QCOMPARE(int(f.s.leaders[f.leader("wallenstein")].loc), f.city("linz"));
        QCOMPARE(int(f.s.wallensteinUses), 3);
        // the next Wallenstein Phase: dismissed and recalled: assassination only
        f.s.frames.clear();
        f.s.frames.push_back(TurnFrame{Phase::Wallenstein, 0});
        QCOMPARE(f.legalTexts(), (QStringList{"wallenstein assassinate", "pass"}));
        QVERIFY(f.act("wallenstein assassinate"));
        QCOMPARE(f.s.leaders[f.leader("wallenstein")].status, LeaderStatus::Removed);
        Q_UNUSED(c);
    }

    void wallenstein_196_ambition() {
        Rules f;
        GameOptions o;
        o.wallenstein_ambition = true;
        QVERIFY(f.newGame("campaign", o));
        f.s.wallensteinTrack = 16;
        f.s.vp = 36; // +2
        f.dice({7});
        Log log;
        Ctx c = ctx(f, &log);
        advanceWallenstein(c, 1, QStringLiteral("test"));
        QCOMPARE(int(f.s.wallensteinTrack), 18);
        f.s.wallensteinTrack = 10; // not in the last five spaces: no roll
        advanceWallenstein(c, 1, QStringLiteral("test"));
        QCOMPARE(int(f.s.wallensteinTrack), 11);
    }

    void wallenstein_1911_enemies() {
        Rules f;
        GameOptions o;
        o.wallenstein_enemies = true;
        QVERIFY(f.newGame("campaign", o));
        f.placeLeader("wallenstein", "vienna");
        f.s.wallensteinTrack = 17;
        Ctx c = ctx(f);
        QVERIFY(canTryWallensteinEnemies(c, kProtestant));
        f.setHand(kProtestant, {"P1"});
        f.dice({9});
        tryWallensteinEnemies(c, kProtestant, f.card("P1"));
        QCOMPARE(f.s.leaders[f.leader("wallenstein")].status, LeaderStatus::Removed);
        QVERIFY(!canTryWallensteinEnemies(c, kProtestant));
    }

    // ------------------------------------------------------------------ 9.4 Peasant Revolts

    void revolt_941_control_and_vp_double_whammy() {
        Rules f;
        cleanCampaign(f);
        const int austria = f.area("austria"); // control rating 4, six cities, VP 2
        Log log;
        Ctx c = ctx(f, &log);
        reconcileAreas(c);
        const int vp = f.s.vp;
        placeRevolt(c, f.city("linz"), QStringLiteral("P14"));
        QCOMPARE(int(f.s.areas[austria].control), int(kCatholic)); // 5 of 6 still Catholic
        placeRevolt(c, f.city("krems"), QStringLiteral("9.44"));
        placeRevolt(c, f.city("graz"), QStringLiteral("9.44"));
        // 3 of 6 left, rating 4: the Catholic loses Austria and its VP
        QCOMPARE(int(f.s.areas[austria].control), int(kNone));
        QCOMPARE(int(f.s.vp), vp - 2);
        QCOMPARE(effectiveCityControl(f.d(), f.s, f.city("vienna")), int(kCatholic)); // he keeps his cities
        QCOMPARE(effectiveCityControl(f.d(), f.s, f.city("linz")), int(kNone));       // Neutral (9.42)
        // suppressing one revolt restores control and the VP
        removeRevolt(c, f.city("linz"), kCatholic, QStringLiteral("9.43"));
        QCOMPARE(int(f.s.areas[austria].control), int(kCatholic));
        QCOMPARE(int(f.s.vp), vp);
    }

    void revolt_941_only_revolts_in_his_cities_cost_control() {
        // Austria (rating 4, six cities): the Protestant holds three of its cities; a revolt in one of those
        // does not take the Area from the Catholic, a revolt in one of his does.
        Rules f;
        cleanCampaign(f);
        const int austria = f.area("austria");
        for (const char* id : {"krems", "linz"})
            f.setMarker(id, kProtestant); // the Catholic keeps exactly four
        Ctx c = ctx(f);
        reconcileAreas(c);
        placeRevolt(c, f.city("linz"), QStringLiteral("test"));
        QCOMPARE(int(f.s.areas[austria].control), int(kCatholic));
        placeRevolt(c, f.city("znaim"), QStringLiteral("test"));
        QCOMPARE(int(f.s.areas[austria].control), int(kNone));
    }

    void revolt_942_blocks_loc_and_is_neutral() {
        Rules f;
        cleanCampaign(f);
        const auto u = f.place("protestant", UnitKind::Mercenary, "budweis", 1);
        QVERIFY(hasLoc(f.d(), f.s, u[0]));
        Ctx c = ctx(f);
        for (const char* id : {"pilsen", "prague", "kuttenberg", "eger", "leitmeritz", "koeniggraetz"})
            placeRevolt(c, f.city(id), QStringLiteral("test"));
        QVERIFY(!hasLoc(f.d(), f.s, u[0]));
    }

    void revolt_944_spread() {
        Rules f;
        cleanCampaign(f);
        Ctx c = ctx(f);
        placeRevolt(c, f.city("linz"), QStringLiteral("P14"));
        // Austria is Catholic: the Protestant rolls; a 1 spreads to a connected city of Austria with no
        // units and no Supply Base (not Vienna)
        f.dice({1});
        QVERIFY(startPhase(f, Phase::Revolt));
        if (purpose(f) == int(kRevoltSpread)) {
            QCOMPARE(f.e.actor(f.s), int(kProtestant));
            QVERIFY(!f.legal("choose vienna"));
            const QString first = f.legalTexts().front();
            QVERIFY(f.act(first));
        }
        int revolts = 0;
        for (int city : f.d().areas[f.area("austria")].cities)
            revolts += f.s.cities[city].revolt;
        QCOMPARE(revolts, 2);
        QVERIFY(!f.s.cities[f.city("vienna")].revolt);

        // a roll of 2 or more: no spread
        cleanCampaign(f);
        Ctx c2 = ctx(f);
        placeRevolt(c2, f.city("linz"), QStringLiteral("P14"));
        f.dice({2});
        QVERIFY(startPhase(f, Phase::Revolt));
        revolts = 0;
        for (int city : f.d().areas[f.area("austria")].cities)
            revolts += f.s.cities[city].revolt;
        QCOMPARE(revolts, 1);
    }

    // ------------------------------------------------------------------ 5.3 peace

    void peace_531_offer_conditions() {
        Rules f;
        cleanCampaign(f, kCatholic);
        f.s.vp = 21;
        QVERIFY(!f.legal("peace"));
        f.s.vp = 30;
        QVERIFY(f.legal("peace"));
        f.s.vp = 10;
        QVERIFY(f.legal("peace"));
        cleanCampaign(f, kProtestant);
        f.s.vp = 16;
        QVERIFY(!f.legal("peace"));
        f.s.vp = 15;
        QVERIFY(f.legal("peace"));
        // 18.13: not the Protestant in the Early War scenario
        QVERIFY(f.newGame("early-war"));
        f.setActive(kProtestant);
        f.s.vp = 15;
        QVERIFY(!f.legal("peace"));
    }

    void peace_531_may_and_must_accept() {
        Rules f;
        cleanCampaign(f, kCatholic);
        f.s.vp = 30;
        QVERIFY(f.act("peace"));
        QCOMPARE(f.e.actor(f.s), int(kProtestant));
        QVERIFY(f.legal("accept") && f.legal("decline"));
        QVERIFY(f.act("decline"));
        QVERIFY(f.logged("declines"));
        cleanCampaign(f, kCatholic);
        f.s.vp = 36;
        QVERIFY(f.act("peace"));
        QCOMPARE(f.legalTexts(), QStringList{"accept"});
    }

    void peace_532_minor_victories_and_truce() {
        Rules f;
        cleanCampaign(f, kCatholic);
        f.s.vp = 36;
        QVERIFY(f.act("peace"));
        f.dice({9}); // + ... CMV
        QVERIFY(f.act("accept"));
        QVERIFY(f.s.gameOver);
        QCOMPARE(int(f.s.winner), int(kCatholic));
        QVERIFY(f.s.result.contains("Catholic Minor Victory"));

        cleanCampaign(f, kCatholic);
        f.s.vp = 36;
        f.s.cities[f.city("prague")].siege = 1;
        f.s.cities[f.city("prague")].sieger = kCatholic;
        f.s.aidPoints[kCatholic] = 5;
        const int turn = f.s.turn;
        QVERIFY(f.act("peace"));
        f.dice({4});
        QVERIFY(f.act("accept"));
        QVERIFY(f.logged("TRUCE"));
        QCOMPARE(int(f.s.cities[f.city("prague")].siege), 0);
        QVERIFY(f.s.truce);
        QCOMPARE(int(f.s.aidPoints[kCatholic]), 0);
        // the turn ends: discard decisions, then the next turn begins; its recovery is not halved
        QVERIFY(f.runUntil([&] { return f.s.turn == turn + 1 && phase(f) == Phase::Action; }));
        QVERIFY(f.logged("(5.32 Truce: not halved)"));
        QVERIFY(!f.s.truce);
    }

    void peace_532_withdrawal() {
        Rules f;
        cleanCampaign(f, kCatholic);
        f.s.vp = 36;
        f.placeLeader("bucquoy", "pilsen");
        const auto u = f.place("imperial", UnitKind::Veteran, "pilsen", 2);
        f.s.cities[f.city("pilsen")].marker = kCatholic;
        QVERIFY(f.act("peace"));
        f.dice({2}); // CW: the Protestant names the Area
        QVERIFY(f.act("accept"));
        QCOMPARE(purpose(f), int(kPeaceWithdraw));
        QCOMPARE(f.e.actor(f.s), int(kProtestant));
        const QString bohemia = QStringLiteral("choose %1").arg(kAreaCode + f.area("bohemia"));
        QVERIFY(f.legal(bohemia));
        QVERIFY(f.act(bohemia));
        // to the friendly city closest to Vienna: Vienna itself
        QCOMPARE(int(f.s.units[u[0]].loc), f.city("vienna"));
        QCOMPARE(int(f.s.leaders[f.leader("bucquoy")].loc), f.city("vienna"));
    }

    // ------------------------------------------------------------------ 17 nations

    void nations_17H5_rebellion_ends() {
        Rules f;
        QVERIFY(f.newGame());
        Ctx c = ctx(f);
        QVERIFY(f.s.hungaryRebellion);
        f.s.leaders[f.leader("bethlen-gabor")].status = LeaderStatus::Dead;
        f.s.leaders[f.leader("bethlen-gabor")].loc = kRemoved;
        nationalEffects(c);
        QVERIFY(!f.s.hungaryRebellion);
        for (const UnitState& u : f.s.units)
            if (f.d().nationalities[f.d().unitTypes[u.type].nationality].id == QLatin1String("hungarian"))
                QCOMPARE(int(u.loc), int(kRemoved));
        QCOMPARE(int(f.s.areas[f.area("hungary")].control), int(kCatholic));
    }

    void nations_17D3_danes_leave_with_christian() {
        Rules f;
        cleanCampaign(f);
        const auto u = f.place("danish", UnitKind::Mercenary, "rendsburg", 2);
        f.s.leaders[f.leader("christian-iv")] = LeaderState{kRemoved, LeaderStatus::Dead, 0};
        Ctx c = ctx(f);
        nationalEffects(c);
        QCOMPARE(int(f.s.units[u[0]].loc), int(kRemoved));
    }

    // 17.D.3, 12.43: King Christian lost in battle takes the Danes with him as soon as his play is over, not
    // at the next phase: the Danes elsewhere are gone before the opponent's next card round.
    void nations_17D3_danes_leave_right_after_the_battle() {
        Rules f;
        cleanCampaign(f, kProtestant);
        f.s.nationSide[f.nationality("danish")] = kProtestant;
        f.placeLeader("christian-iv", "kiel");
        const auto lone = f.place("danish", UnitKind::Mercenary, "kiel", 1, 1);
        const auto elsewhere = f.place("danish", UnitKind::Mercenary, "rendsburg", 2);
        f.placeLeader("tilly", "luebeck");
        f.place("imperial", UnitKind::Mercenary, "luebeck", 3);
        f.setHand(kCatholic, {});
        f.setHand(kProtestant, {});
        f.dice({0, 9, 5, 5, 5, 5});
        QVERIFY2(f.activate("christian-iv"), qPrintable(f.error));
        QVERIFY(f.pickUp(lone));
        QVERIFY2(f.act("move luebeck"), qPrintable(f.error));
        QVERIFY2(f.act(QStringLiteral("attack u%1").arg(lone[0])), qPrintable(f.error));
        QVERIFY(f.runUntil([&] { return !f.combat() && f.s.frames.size() == 1; }));
        QCOMPARE(f.s.leaders[f.leader("christian-iv")].status, LeaderStatus::Dead); // 12.43
        QCOMPARE(std::get<TurnFrame>(f.s.frames.front()).phase, Phase::Action);     // no phase hook has run
        for (int16_t u : elsewhere)
            QCOMPARE(int(f.s.units[u].loc), int(kRemoved));
        QVERIFY(f.logged("17.D.3"));
    }

    void nations_17A2_197_tilly_leads_both() {
        Rules f;
        GameOptions o;
        o.tilly_dynamic = true;
        QVERIFY(f.newGame("campaign", o));
        f.clearBoard();
        Ctx c = ctx(f);
        const auto imp = f.place("imperial", UnitKind::Veteran, "munich", 1);
        const auto bav = f.place("bavarian", UnitKind::Mercenary, "munich", 1);
        std::vector<int> units{imp[0], bav[0]};
        QVERIFY(!mixAllowed(c, units, {f.leader("tilly")}));
        QVERIFY(mixAllowed(c, units, {f.leader("tilly"), f.leader("bucquoy")}));
        QCOMPARE(effectiveStars(f.d(), f.s, f.leader("tilly")), 2);
        // Imperial pieces stay in the listed Areas until Wallenstein enters (19.7 note)
        QVERIFY(!pieceMayEnter(c, f.nationality("imperial"), f.city("leipzig")));
        QVERIFY(pieceMayEnter(c, f.nationality("imperial"), f.city("prague")));
        f.placeLeader("wallenstein", "vienna");
        QVERIFY(!mixAllowed(c, units, {f.leader("tilly"), f.leader("bucquoy")}));
        QVERIFY(pieceMayEnter(c, f.nationality("imperial"), f.city("leipzig")));
    }

    void nations_17Sp2_spanish_zone_and_the_cardinal() {
        Rules f;
        cleanCampaign(f);
        Ctx c = ctx(f);
        const int spanish = f.nationality("spanish");
        QVERIFY(pieceMayEnter(c, spanish, f.city("mannheim")));  // Lower Palatinate: in the Zone
        QVERIFY(pieceMayEnter(c, spanish, f.city("frankfurt"))); // named in 17.Sp.2
        QVERIFY(!pieceMayEnter(c, spanish, f.city("munich")));
        // the Cardinal Infante's army marching from Tyrol: only the stack moving with him leaves the Zone
        f.placeLeader("cardinal-infante", "innsbruck");
        const auto army = f.place("spanish", UnitKind::Veteran, "innsbruck", 2);
        setEffect(c, QStringLiteral("cardinalInfante"), 1, f.s.turn + 1);
        QVERIFY(!pieceMayEnter(c, spanish, f.city("munich"))); // not activated
        QVERIFY(f.activate("cardinal-infante"));
        QVERIFY(pieceMayEnter(c, spanish, f.city("munich")));
        QVERIFY(f.legal("move kufstein"));
        // 17.Sp.31: a unit left behind outside the Zone is lost
        QVERIFY(f.act(QStringLiteral("pickup u%1").arg(army[0])));
        QVERIFY(f.act("move kufstein"));
        QVERIFY(f.act("end"));
        nationalEffects(c);
        QCOMPARE(int(f.s.units[army[1]].loc), int(kPool));
        QCOMPARE(int(f.s.units[army[0]].loc), f.city("kufstein"));
    }

    void nations_17F5_conflict_of_interest() {
        Rules f;
        cleanCampaign(f);
        Ctx c = ctx(f);
        const auto fr = f.place("french", UnitKind::Militia, "metz", 1);
        const auto sw = f.place("swedish", UnitKind::Veteran, "metz", 1);
        std::vector<int> units{fr[0], sw[0]};
        QVERIFY(mixAllowed(c, units, {}));
        f.s.eventPlayed[f.card("C54")] = true;
        QVERIFY(!mixAllowed(c, units, {}));
        f.s.eventPlayed[f.card("P38")] = true;
        QVERIFY(mixAllowed(c, units, {}));
    }

    void nations_1715_supply_bases() {
        Rules f;
        QVERIFY(f.newGame());
        const GameData& d = f.d();
        const int prot = f.nationality("protestant");
        QVERIFY(isSupplyBase(d, f.s, prot, f.city("prague")));
        QVERIFY(isSupplyBase(d, f.s, prot, f.city("mannheim")));
        QVERIFY(!isSupplyBase(d, f.s, prot, f.city("kassel"))); // Hesse-Kassel still Neutral (17.G.1)
        QVERIFY(isSupplyBase(d, f.s, f.nationality("imperial"), f.city("vienna")));
        QVERIFY(isSupplyBase(d, f.s, f.nationality("spanish"), f.city("antwerp")));
        f.s.cities[f.city("vienna")].marker = kProtestant; // 15.15: enemy-controlled
        QVERIFY(!isSupplyBase(d, f.s, f.nationality("imperial"), f.city("vienna")));
    }

    // ------------------------------------------------------------------ 18 scenarios

    void scenario_1824_pillage_setup() {
        Rules f;
        QVERIFY(f.newGame("intervention"));
        QVERIFY(f.logged("18.24"));
        QCOMPARE(purpose(f), int(kSetupPillage));
        QCOMPARE(f.e.actor(f.s), int(kProtestant));
        const int n = f.s.setupPillage;
        QVERIFY(n == 16 || n == 20 || n == 24);
        // alternate placements; at most three locations per Area; Neutral Areas excluded
        int placed = 0;
        int side = kProtestant;
        while (purpose(f) == int(kSetupPillage)) {
            QCOMPARE(f.e.actor(f.s), side);
            const QStringList l = f.legalTexts();
            for (const QString& t : l) {
                const int city = f.d().city(t.section(' ', 1)); // "choose <city id>"
                QVERIFY2(city >= 0, qPrintable(t));
                QVERIFY(!f.s.areas[f.d().cities[city].area].neutral);
            }
            QVERIFY(f.act(l.front()));
            side = other(side);
            ++placed;
        }
        QCOMPARE(placed, n);
        for (qsizetype a = 0; a < f.d().areas.size(); ++a) {
            int cities = 0;
            for (int city : f.d().areas[a].cities)
                cities += f.s.cities[city].pillage > 0;
            QVERIFY(cities <= 3);
        }
        QVERIFY(f.s.setupPillageDone);
        // then the turn: the Wallenstein Phase (a dismissed Wallenstein may be recalled)
        QCOMPARE(phase(f), Phase::Wallenstein);
    }

    // ------------------------------------------------------------------ options

    void options_all_parse() {
        GameOptions o;
        QString error;
        for (const char* key : {"7.25", "19.1", "19.2a", "19.2b", "19.3", "19.4a", "19.4b", "19.4c", "19.5",
                                "19.6", "19.7", "19.8", "19.9", "19.10", "19.11"})
            QVERIFY2(setOption(o, QLatin1String(key), &error), qPrintable(error));
        QCOMPARE(optionList(o).size(), 15);
        GameOptions none;
        QVERIFY(setOption(none, "all", &error));
        QCOMPARE(none, o);
        QVERIFY(!setOption(none, "19.12", &error));
        QVERIFY(error.contains("19.12"));
    }

    void options_195_up_intervention() {
        Rules f;
        QVERIFY(f.newGame());
        Ctx c = ctx(f);
        f.dice({8});
        upIntervention(c, kCatholic, f.card("C1")); // 8 + 2 = 10 > 9: up one box
        QCOMPARE(int(f.s.dutchWar), 1);
        f.dice({1});
        upIntervention(c, kProtestant, f.card("P2")); // 1 - 3 < 0: down one box
        QCOMPARE(int(f.s.dutchWar), 0);
    }

    void options_193_loc_established_after_sixth_round() {
        Rules f;
        GameOptions o;
        o.loc_action_phase = true;
        QVERIFY(f.newGame("campaign", o));
        f.clearBoard();
        const auto u = f.place("protestant", UnitKind::Mercenary, "pilsen", 1);
        f.s.roundsUsed[kProtestant] = 6;
        f.s.frames.resize(1);
        Ctx c = ctx(f);
        actionPhaseCheckpoint(c);
        QCOMPARE(int(f.s.locMarks[u[0]]), 1);
        // a LoC cut afterwards does not count in the Pay Phase
        f.s.cities[f.city("prague")].revolt = true;
        f.s.cities[f.city("mannheim")].revolt = true;
        f.s.aidPoints[kProtestant] = 2;
        QVERIFY(startPhase(f, Phase::Pay));
        QCOMPARE(purpose(f), int(kPayUnits));
    }

    // ------------------------------------------------------------------ the optional rules through the
    // engine

    // 19.4a: any number of AID cards a turn; without it, one (8.5).
    void options_194a_aid_cards_through_the_engine() {
        for (const bool noLimit : {false, true}) {
            Rules f;
            GameOptions o;
            o.aid_no_limit = noLimit;
            QVERIFY(f.newGame("campaign", o));
            f.setActive(kProtestant);
            const QString a = cardOfValue(f, kProtestant, 2), b = cardOfValue(f, kProtestant, 1);
            f.setHand(kProtestant, {a, b});
            QVERIFY2(f.act(QStringLiteral("play %1 aid").arg(a)), qPrintable(f.error));
            QVERIFY(f.spendRound()); // the Catholic's round
            QCOMPARE(f.legal(QStringLiteral("play %1 aid").arg(b)), noLimit);
        }
    }

    // Issue 8's difficulty handicap (not a rule): handicap=<side>:half-aid halves that side's AID plays,
    // rounded down, and travels in the option list like the optional rules.
    void handicap_half_aid_halves_that_sides_aid_plays() {
        GameOptions parsed;
        QString why;
        QVERIFY(setOption(parsed, QStringLiteral("handicap=protestant:half-aid"), &why));
        QCOMPARE(int(parsed.half_aid_side), kProtestant);
        QVERIFY(optionList(parsed).contains(QStringLiteral("handicap=protestant:half-aid")));
        QVERIFY(!setOption(parsed, QStringLiteral("handicap=protestant:double-aid"), &why));
        QVERIFY(why.contains(QLatin1String("handicap")));
        QVERIFY(optionList(GameOptions{}).filter(QStringLiteral("handicap")).isEmpty());
        int gain[3] = {0, 0, 0};
        const int handicapped[3] = {-1, kCatholic, kProtestant};
        for (int i = 0; i < 3; ++i) {
            Rules f;
            GameOptions o;
            o.half_aid_side = static_cast<int8_t>(handicapped[i]);
            QVERIFY(f.newGame("campaign", o));
            f.setActive(kProtestant);
            QString card; // the Protestant card giving the most Aid Points now
            for (const Card& c : f.d().cards)
                if (sideIndex(c.side) == kProtestant && !c.combat && !c.unlessDiscarded &&
                    (card.isEmpty() || aidCardValue(f.d(), f.s, kProtestant, f.card(c.id)) >
                                           aidCardValue(f.d(), f.s, kProtestant, f.card(card))))
                    card = c.id;
            f.setHand(kProtestant, {card});
            const int before = f.s.aidPoints[kProtestant];
            QVERIFY2(f.act(QStringLiteral("play %1 aid").arg(card)), qPrintable(f.error));
            gain[i] = f.s.aidPoints[kProtestant] - before;
        }
        QVERIFY(gain[0] >= 3);          // an odd or even value worth halving
        QCOMPARE(gain[1], gain[0]);     // the Catholic's handicap leaves the Protestant alone
        QCOMPARE(gain[2], gain[0] / 2); // rounded down
    }

    // 19.4c: a Free Action costs 1 AP and needs one.
    void options_194c_free_action_costs_an_ap() {
        Rules f;
        GameOptions o;
        o.aid_free_action = true;
        QVERIFY(f.newGame("campaign", o));
        f.clearBoard();
        const auto u = f.place("protestant", UnitKind::Mercenary, "pilsen", 1);
        f.setActive(kProtestant);
        f.s.aidPoints[kProtestant] = 0;
        QVERIFY(f.legalOf(ActionKind::FreeAction).isEmpty());
        f.s.aidPoints[kProtestant] = 2;
        QVERIFY(f.act(QStringLiteral("free u%1").arg(u[0])));
        QCOMPARE(int(f.s.aidPoints[kProtestant]), 1);
        QVERIFY(f.logged("19.4c the Free Action costs 1 Aid Point (1 left)"));
    }

    // 19.5: any card played to move the Dutch War marker, a round used, the card to the Played pile.
    void options_195_through_the_engine() {
        Rules f;
        GameOptions o;
        o.up_intervention = true;
        QVERIFY(f.newGame("campaign", o));
        f.setActive(kCatholic);
        f.s.roundsUsed[kProtestant] = 1;
        const QString c = cardOfValue(f, kCatholic, 2);
        f.setHand(kCatholic, {c});
        const int dw = f.s.dutchWar;
        f.dice({8});
        QVERIFY2(f.act(QStringLiteral("play %1 dutch").arg(c)), qPrintable(f.error));
        QCOMPARE(int(f.s.dutchWar), dw + 1); // 8 + 2 > 9
        QCOMPARE(int(f.s.roundsUsed[kCatholic]), 1);
        QVERIFY(f.s.cardPlace[f.card(c)] == CardPlace::Played);
        Rules g; // without the option there is no such play
        QVERIFY(g.newGame());
        QVERIFY(g.legalTexts().filter(QStringLiteral(" dutch")).isEmpty());
    }

    // 19.11: the Protestant discards a card for the assassination check; no round is used; once a turn.
    void options_1911_through_the_engine() {
        Rules f;
        GameOptions o;
        o.wallenstein_enemies = true;
        QVERIFY(f.newGame("campaign", o));
        f.placeLeader("wallenstein", "vienna");
        f.s.wallensteinTrack = 17;
        f.setActive(kProtestant);
        const QString a = cardOfValue(f, kProtestant, 2), b = cardOfValue(f, kProtestant, 1);
        f.setHand(kProtestant, {a, b});
        f.dice({8}); // 8 + 17 = 25 < 26
        QVERIFY2(f.act(QStringLiteral("play %1 enemies").arg(a)), qPrintable(f.error));
        QVERIFY(f.logged("Wallenstein survives"));
        QCOMPARE(int(f.s.roundsUsed[kProtestant]), 0);
        QCOMPARE(f.e.actor(f.s), int(kProtestant));
        QVERIFY(!f.legal(QStringLiteral("play %1 enemies").arg(b))); // once a turn
    }

    // 17.Sw.1: a Free Action moves the Swedish Base to another port with an arrow to Sweden, once a turn,
    // not on the turn Sweden entered.
    void nations_17Sw1_swedish_base_free_action() {
        Rules f;
        QVERIFY(f.newGame());
        f.clearBoard();
        f.s.swedenInWar = true;
        f.s.swedishBase = static_cast<int16_t>(f.city("stettin"));
        f.setMarker("stettin", kProt);
        f.setMarker("wolgast", kProt);
        f.setActive(kProtestant);
        f.s.markers[QStringLiteral("P18.turn")] = f.s.turn;
        QVERIFY(!f.legal("free swedish-base wolgast"));
        f.s.markers.remove(QStringLiteral("P18.turn"));
        QVERIFY(f.legal("free swedish-base wolgast"));
        QVERIFY(f.act("free swedish-base wolgast"));
        QCOMPARE(int(f.s.swedishBase), f.city("wolgast"));
        QCOMPARE(int(f.s.roundsUsed[kProtestant]), 1);
        QVERIFY(f.spendRound());
        QVERIFY(!f.legal("free swedish-base stettin")); // once a turn
    }

    // 7.1: one box per city gained by an army led by Wallenstein.
    void wallenstein_71_city_gained() {
        Rules f;
        cleanCampaign(f);
        f.placeLeader("wallenstein", "pilsen");
        const auto u = f.place("imperial", UnitKind::Mercenary, "pilsen", 2);
        f.setMarker("pilsen", kCatholic);
        f.setMarker("eger", kProt);
        f.s.wallensteinTrack = 4;
        QVERIFY(f.activate("wallenstein"));
        QVERIFY(f.pickUp(u));
        QVERIFY(f.act("move eger"));
        QVERIFY2(f.act("control"), qPrintable(f.legalTexts().join(' ')));
        QCOMPARE(int(f.s.wallensteinTrack), 5);
    }

    // The economy's decisions name their targets: a leader to recruit is "choose <leader id>".
    void decisions_name_their_targets() {
        Rules f;
        cleanCampaign(f, kCatholic);
        f.placeLeader("tilly", "munich");
        QVERIFY(rec(f, kCatholic, 2));
        QVERIFY2(f.legal("choose tilly"), qPrintable(f.legalTexts().join(' ')));
        QVERIFY(f.e.prompt(f.s).contains(QStringLiteral("recruit")));
    }
};

QTEST_GUILESS_MAIN(TestEconomy)
#include "test_economy.moc"

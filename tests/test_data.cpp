// The shipped game data: it loads, and it meets every constraint the rulebook gives
// (../shared/notes/tyw-facts.md Part C), with each test naming its rule.
#include "data/loader.h"

#include <QSet>
#include <QtTest>

using namespace wp;

class TestData : public QObject {
    Q_OBJECT
    std::shared_ptr<const GameData> d;

    const Area& area(const QString& id) {
        int i = d->area(id);
        if (i < 0)
            qFatal("no area %s", qPrintable(id));
        return d->areas[i];
    }
    const City& city(const QString& id) {
        int i = d->city(id);
        if (i < 0)
            qFatal("no city %s", qPrintable(id));
        return d->cities[i];
    }
    const Leader& leader(const QString& id) {
        int i = d->leader(id);
        if (i < 0)
            qFatal("no leader %s", qPrintable(id));
        return d->leaders[i];
    }
    const UnitType& unit(const QString& nat, UnitKind k) {
        const UnitType* u = d->unitType(d->nationality(nat), k);
        if (!u)
            qFatal("no unit type %s", qPrintable(nat));
        return *u;
    }
    QSet<QString> cityIds(const Area& a) {
        QSet<QString> s;
        for (int c : a.cities)
            s.insert(d->cities[c].id);
        return s;
    }

  private slots:
    void initTestCase() {
        LoadResult r = loadGameData(QStringLiteral(WESTPHALIA_SOURCE_DIR));
        if (!r.ok())
            qWarning("%s", qPrintable(r.errors.joined()));
        QVERIFY2(r.ok(), "every shipped data file loads without a problem");
        d = r.data;
    }

    void counts() {
        QCOMPARE(d->areas.size(), 24); // 2.41
        int independents = 0, electors = 0;
        for (const City& c : d->cities) {
            independents += c.independent;
            electors += c.elector;
        }
        for (const Area& a : d->areas)
            electors += a.elector;
        QCOMPARE(independents, 17); // 2.43
        QCOMPARE(electors, 7);      // 5.14: 4 Areas + Mainz, Trier, Köln
        QVERIFY(city("mainz").elector && city("trier").elector && city("koeln").elector);
        for (const char* a : {"saxony", "brandenburg", "lower-palatinate", "bohemia"})
            QVERIFY2(area(a).elector, a);
        QVERIFY(!area("bavaria").elector); // 5.142: only after C12
    }

    void namedIndependentCities() { // 2.43, A.2.2
        for (const char* id :
             {"nuernberg", "frankfurt", "magdeburg", "salzburg", "regensburg", "augsburg", "trier", "aachen",
              "koeln", "mainz", "hamburg", "bremen", "luebeck", "strasbourg", "metz"})
            QVERIFY2(city(id).independent, id);
        QVERIFY(city("frankfurt").spanishZone); // 17.Sp.2
        QVERIFY(city("strasbourg").spanishZone);
    }

    void cards() {
        int perSide[2] = {}, early[2] = {};
        for (const Card& c : d->cards) {
            int s = c.side == Side::Catholic ? 0 : 1;
            ++perSide[s];
            early[s] += c.deck == Deck::Early;
        }
        QCOMPARE(perSide[0], 55); // 2.3
        QCOMPARE(perSide[1], 55);
        QCOMPARE(early[0], 15); // 2.3 note
        QCOMPARE(early[1], 14);
        const Card& p9 = d->cards[d->card("P9")]; // 8.2 errata: Fr 0 / Eng 5 / UP 8
        QCOMPARE(p9.aid.value("france"), 0);
        QCOMPARE(p9.aid.value("england"), 5);
        QCOMPARE(p9.aid.value("up"), 8);
        QVERIFY(d->cards[d->card("P17")].deck != Deck::Apocalypse); // 8.12
        for (const Card& c : d->cards) {
            QVERIFY2(c.value >= 1 && c.value <= 3, qPrintable(c.id)); // 8.3
            QVERIFY2(!c.title.isEmpty() && !c.event.isEmpty(), qPrintable(c.id));
        }
    }

    void combatCards() { // 9.5: the combat cards of the Breitenfeld example are combat cards
        for (const char* id : {"P13", "P34", "C49"})
            QVERIFY2(d->cards[d->card(id)].combat, id);
    }

    void scenarioRemovedCardsAreOneShot() { // 8.62: cards out of the game in a setup were one-shot events
        for (const Scenario& s : d->scenarios)
            for (int c : s.removedCards) {
                const Card& card = d->cards[c];
                if (card.id == QLatin1String("P17")) // removed so it cannot be played (18.2)
                    continue;
                QVERIFY2(card.mark != CardMark::None, qPrintable(s.id + ": " + card.id));
            }
    }

    void lowerPalatinate() { // 3.13 example
        const Area& a = area("lower-palatinate");
        QCOMPARE(cityIds(a), (QSet<QString>{"oppenheim", "mannheim", "heidelberg", "landau"}));
        QCOMPARE(a.control, 3);
        QVERIFY(a.elector); // 5.142
        QVERIFY(city("trier").independent && city("mainz").independent);
        QCOMPARE(d->areas[city("trier").within].id, QStringLiteral("lower-palatinate"));
        QCOMPARE(d->areas[city("mainz").within].id, QStringLiteral("lower-palatinate"));
    }

    void bohemia() { // 2.42 example
        const Area& a = area("bohemia");
        QCOMPARE(a.control, 3);
        QCOMPARE(a.vp, 3);
        QVERIFY(a.elector);
        QVERIFY(cityIds(a).contains("pilsen") && cityIds(a).contains("budweis") &&
                cityIds(a).contains("prague"));
    }

    void lorraine() { // 17.F.4 (derived Control rating 2)
        const Area& a = area("lorraine");
        QCOMPARE(a.cities.size(), 3);
        QCOMPARE(a.control, 2);
        QCOMPARE(a.vp, 2);
        QVERIFY(city("metz").independent);
        QCOMPARE(d->areas[city("metz").within].id, QStringLiteral("lorraine"));
    }

    void koeln() { // 2.43 example
        QVERIFY(city("koeln").independent);
        QCOMPARE(city("koeln").vp, 2);
        QVERIFY(city("koeln").elector);
    }

    void fortresses() {
        QVERIFY(city("munich").fortress);
        QCOMPARE(city("munich").fortress->strength, 5); // 13.13 example
        QVERIFY(city("ingolstadt").fortress);
        QCOMPARE(city("ingolstadt").fortress->strength, 5); // 13.21 example: 5 + 2x2 = 9
        QVERIFY(city("wuerzburg").fortress);                // 2.44 example
        QCOMPARE(city("wuerzburg").fortress->strength, 3);
        QCOMPARE(city("wuerzburg").fortress->siegeModifier, 0);
        QVERIFY(city("nuernberg").fortress && city("nuernberg").independent); // 2.44
        // Fortress status required by the examples: Trier, Magdeburg, Hamburg (A.2.2), Hanau (3.12),
        // Leipzig (Breitenfeld), Prague (10.12).
        for (const char* id : {"trier", "magdeburg", "hamburg", "hanau", "leipzig", "prague"})
            QVERIFY2(city(id).fortress.has_value(), id);
    }

    void siegeLevelExamples() {
        const UnitType& militia = unit("protestant", UnitKind::Militia);
        QCOMPARE(militia.cfFull, 2); // 13.13: "1 Prot. Militia (CF of 2)"
        // 13.21: 2 militia inside Ingolstadt need 9 CF to besiege.
        QCOMPARE(city("ingolstadt").fortress->strength + 2 * unit("bavarian", UnitKind::Militia).cfFull, 9);
    }

    void breisachSiegeDrm() { // 13.23 example: Continued Siege +1 at Breisach gives DRM -1
        const City& b = city("breisach");
        QVERIFY(b.fortress);
        QCOMPARE(b.fortress->siegeModifier, -2);
        const int continuedSiege = 1;
        QCOMPARE(continuedSiege + b.fortress->siegeModifier, -1);
    }

    void breitenfeldStrengthsAndLossFactors() { // 12.x extended example
        const UnitType& swede = unit("swedish", UnitKind::Veteran);
        const UnitType& saxon = unit("saxon", UnitKind::Militia);
        const UnitType& bav = unit("bavarian", UnitKind::Mercenary);
        QCOMPARE(5 * swede.cfFull + 2 * saxon.cfFull, 24);
        QCOMPARE(4 * bav.cfFull + 3 * bav.cfReduced, 18);
        QCOMPARE(3 * bav.cfFull + 1 * bav.cfReduced, 11); // "firepower of 11"
        QCOMPARE(7 * bav.cfReduced, 14);                  // "seven units with firepower of 2 each"
        QCOMPARE(saxon.lf, 2);
        QCOMPARE(swede.lf, 3);
        QCOMPARE(bav.lf, 3);
        // The allocations the text names for Loss Number 9: exactly 9 each.
        QCOMPARE(2 * saxon.lf + saxon.lf + swede.lf,
                 9);                          // eliminate a Saxon, reduce the other, reduce a Swede
        QCOMPARE(3 * swede.lf, 9);            // reduce three Swedes
        QCOMPARE(swede.lf + 2 * swede.lf, 9); // reduce one Swede, eliminate another
        // Loss Number 14: eliminate the three reduced Bavarians and reduce one full one = 12 (15 > 14).
        QCOMPARE(3 * bav.lf + bav.lf, 12);
        QVERIFY(3 * bav.lf + 2 * bav.lf > 14);
    }

    void breitenfeldCombatResults() { // 12.25-12.26, Breitenfeld
        const Tables& t = d->tables;
        const int cathCol = t.crtColumnFor(18), protCol = t.crtColumnFor(24);
        QVERIFY(cathCol >= 0 && protCol >= 0);
        QCOMPARE(t.crtColumns[cathCol].label, QStringLiteral("15-19"));
        QCOMPARE(t.crtColumns[protCol].label, QStringLiteral("20+"));
        // Catholic DRM +1 (Tilly +2, P13 -1); Protestant +3 (Gustavus +3, P34 +1, C49 -1).
        QCOMPARE(leader("tilly").battle - 1, 1);
        QCOMPARE(leader("gustavus-adolphus").battle + 1 - 1, 3);
        QCOMPARE(t.crtLoss(cathCol, 4 + 1), 9);
        QCOMPARE(t.crtLoss(protCol, 8 + 3), 14); // "modified to 11+": clamped at 11 (12.26)
        QCOMPARE(t.crtLoss(protCol, 8 + 6), t.crtLoss(protCol, 11));
        QCOMPARE(t.crtLoss(protCol, -3), t.crtLoss(protCol, 0));
    }

    void breitenfeldLeaders() { // 12.41: dies if roll >= Loss rating; rolls 1,3,4 and 6,4 all survived
        QVERIFY(leader("gustavus-adolphus").loss > 1);
        QVERIFY(leader("baner").loss > 3);
        QVERIFY(leader("horn").loss > 4);
        QVERIFY(leader("tilly").loss > 6);
        QVERIFY(leader("pappenheim").loss > 4);
        QCOMPARE(leader("gustavus-adolphus").stars, 2); // 10.14
        QVERIFY(leader("wallenstein").stars >= 1);      // 8.41: Dynamic (+2 to recruit)
        // 10.12/11.11: seven units moved from Torgau under Gustavus, Baner and Horn.
        QVERIFY(leader("gustavus-adolphus").leadership + leader("baner").leadership +
                    leader("horn").leadership >=
                7);
    }

    void namedLeadershipRatings() {
        QCOMPARE(leader("mansfeld").leadership, 5); // 10.12 example
        QCOMPARE(leader("anhalt").leadership, 2);   // 10.12, 13.21 examples
        // 10.12: Mansfeld can move 15 units in one activation in three groups of 5 within his 8 MP.
        QVERIFY(3 * leader("mansfeld").leadership >= 15);
    }

    void replacementChains() { // 12.42
        QCOMPARE(leader("wallenstein").reverse, d->leader("piccolomini"));
        QCOMPARE(leader("piccolomini").reverse, d->leader("enkevoort"));
        QCOMPARE(leader("pappenheim").reverse, d->leader("mercy"));
        QCOMPARE(leader("mercy").reverse, d->leader("wolf"));
        QVERIFY(leader("spinola").reverse >= 0);          // 16.21(3)
        QVERIFY(leader("cardinal-infante").reverse >= 0); // 17.Sp.31
    }

    void counterMix() { // 8.412, 17.E, 19.2a
        const UnitType& iv = unit("imperial", UnitKind::Veteran);
        QCOMPARE(iv.count, 3);
        QCOMPARE(iv.optionalExtra, 1);
        QCOMPARE(iv.optionalRule, QStringLiteral("19.2a"));
        int english = 0;
        for (const UnitType& u : d->unitTypes)
            if (d->nationalities[u.nationality].id == QLatin1String("english"))
                english += u.count;
        QCOMPARE(english, 1);
        QCOMPARE(unit("swedish", UnitKind::Veteran).cfFull, 4);
        QVERIFY(unit("bavarian", UnitKind::Mercenary).count >= 7); // Breitenfeld: 4 full + 3 reduced
        int guebriant = d->leader("guebriant");
        QVERIFY(guebriant >= 0);
        QCOMPARE(d->leaders[guebriant].optionalRule, QStringLiteral("19.2b"));
    }

    void schleswigHolsteinAndArrows() { // 17.D.3, 17.Sw.1, 16.21
        QCOMPARE(cityIds(area("schleswig-holstein")), (QSet<QString>{"rendsburg", "kiel"}));
        QSet<QString> denmark, sweden, up;
        for (const Arrow& a : d->arrows) {
            const QString& kind = d->boxes[a.box].kind;
            (kind == "denmark" ? denmark : kind == "sweden" ? sweden : up).insert(d->cities[a.city].id);
        }
        QCOMPARE(denmark, (QSet<QString>{"rendsburg", "kiel"}));
        QCOMPARE(sweden.size(), 3);
        QVERIFY(sweden.contains("stettin"));
        QCOMPARE(up, (QSet<QString>{"ghent", "antwerp", "wesel", "lingen"}));
    }

    void austriaNeighbours() { // 17.H.4: Areas adjacent to Austria
        const int austria = d->area("austria");
        QSet<QString> adj;
        for (qsizetype a = 0; a < d->areas.size(); ++a)
            if (a != austria && d->areasAdjacent(austria, static_cast<int>(a)))
                adj.insert(d->areas[a].id);
        QCOMPARE(adj, (QSet<QString>{"hungary", "moravia", "bohemia", "bavaria", "tyrol"}));
    }

    void brandenburgControlRating() { // 18.2: Catholics hold two Brandenburg cities, Protestants keep it
        QVERIFY(area("brandenburg").control >= 3);
        QCOMPARE(d->areas[city("baerwalde").area].id, QStringLiteral("brandenburg"));
        QCOMPARE(d->areas[city("frankfurt-oder").area].id, QStringLiteral("brandenburg"));
    }

    void pathwaysNamedByTheRules() { // Breitenfeld: Torgau-Leipzig, Leipzig-Lützen
        auto joined = [&](const char* a, const char* b) { return city(a).neighbours.contains(d->city(b)); };
        QVERIFY(joined("torgau", "leipzig"));
        QVERIFY(joined("leipzig", "luetzen"));
    }

    void germany() { // 2.46
        for (const char* id : {"austria", "bavaria", "spanish-netherlands", "hungary"})
            QVERIFY2(!area(id).germany, id);
        QVERIFY(area("saxony").germany);
    }

    void spanishZone() { // 17.Sp.2
        for (const char* id :
             {"spanish-netherlands", "lorraine", "lower-palatinate", "muenster", "franche-comte"})
            QVERIFY2(area(id).spanishZone, id);
        QVERIFY(!area("bavaria").spanishZone);
    }

    void frenchCitiesVp() { // 17.F.4: P17 gives the 4 VPs for French cities
        int vp = 0;
        for (const City& c : d->cities)
            if (c.france)
                vp += c.vp;
        QCOMPARE(vp, 4);
    }

    void campaignVpReconciles() { // 4.0/5.11 design note: 21 = 17 holdings + 2 elector majority + 2 bonus
        const Scenario* s = d->scenario("campaign");
        QVERIFY(s);
        QCOMPARE(s->vp, 21);
        int holdings = 0;
        for (int a : s->controlAreas[0])
            holdings += d->areas[a].vp;
        for (int c : s->controlCities[0])
            holdings += d->cities[c].vp;
        QCOMPARE(holdings, 17);
        QCOMPARE(s->electors[0].size(), 4); // a majority: +2 (5.141), already counted in the 21
        QCOMPARE(holdings + 2 + 2, s->vp);
    }

    void scenarios() { // 18.x
        struct Expect {
            const char* id;
            int first, last, vp;
        };
        for (const Expect& e : {Expect{"campaign", 1, 14, 21}, Expect{"early-war", 1, 5, 21},
                                Expect{"intervention", 6, 8, 45}, Expect{"apocalypse", 10, 14, 38}}) {
            const Scenario* s = d->scenario(e.id);
            QVERIFY2(s, e.id);
            QCOMPARE(s->firstTurn, e.first);
            QCOMPARE(s->lastTurn, e.last);
            QCOMPARE(s->vp, e.vp);
        }
        // 18.2: P17 is out of the Intervention scenario; C19's removal lets Apocalypse stack Bavarians.
        QVERIFY(d->scenario("intervention")->removedCards.contains(d->card("P17")));
        QCOMPARE(d->scenario("early-war")->noPeaceOffer, std::optional<Side>(Side::Protestant));
        QCOMPARE(d->scenario("intervention")->noPeaceOffer, std::optional<Side>(Side::Catholic));
    }

    void recruitTable() { // 8.411 example: modified 7 gives two steps
        const RollBand* b = d->tables.recruit.lookup(7);
        QVERIFY(b);
        QCOMPARE(b->result.value("steps").toInt(), 2);
    }

    void lootTable() { // 15.211 example
        // Protestant: roll 4, +1 Pillage-1, -1 Veteran majority = 4: Pillage 1.
        const RollBand* p = d->tables.loot.lookup(4);
        QVERIFY(p);
        QCOMPARE(p->result.value("pillage").toInt(), 1);
        QCOMPARE(p->result.value("steps").toInt(), 0);
        // Catholic: roll 5, net +4 = 9: Pillage 2, One Step Loss.
        const RollBand* c = d->tables.loot.lookup(9);
        QVERIFY(c);
        QCOMPARE(c->result.value("pillage").toInt(), 2);
        QCOMPARE(c->result.value("steps").toInt(), 1);
    }

    void peaceTable() { // 5.31-5.32: six results, modified by +/-1 for all electors
        QSet<QString> results;
        for (int r = -1; r <= 10; ++r) {
            const RollBand* b = d->tables.peace.lookup(r);
            QVERIFY2(b, qPrintable(QString::number(r)));
            results.insert(b->result.value("result").toString());
        }
        QCOMPARE(results, (QSet<QString>{"PMV", "CW", "TRUCE", "BW", "PW", "CMV"}));
    }

    void siegeTable() { // 13.24: every modified roll has a result
        for (int r = -3; r <= 12; ++r)
            QVERIFY2(d->tables.siege.lookup(r), qPrintable(QString::number(r)));
    }

    void provenanceEverywhere() { // every reconstructed value names its source
        int reconstructed = 0;
        auto count = [&](const Provenance& p) {
            for (const QString& v : p) {
                QVERIFY2(isValidProvenance(v), qPrintable(v));
                reconstructed += v.startsWith(QLatin1String("reconstructed"));
            }
        };
        for (const Area& a : d->areas) {
            QVERIFY2(!a.src.isEmpty(), qPrintable(a.id));
            count(a.src);
        }
        for (const City& c : d->cities) {
            QVERIFY2(!c.src.isEmpty(), qPrintable(c.id));
            count(c.src);
        }
        for (const Leader& l : d->leaders) {
            QVERIFY2(!l.src.isEmpty(), qPrintable(l.id));
            count(l.src);
        }
        for (const Card& c : d->cards) {
            QVERIFY2(!c.src.isEmpty(), qPrintable(c.id));
            count(c.src);
        }
        for (const Pathway& p : d->pathways)
            QVERIFY(isValidProvenance(p.src));
        QVERIFY(reconstructed > 100); // honest labelling: most of the numbers are ours
        QVERIFY(!isValidProvenance("guess"));
        QVERIFY(isValidProvenance("rules 13.13"));
        QVERIFY(isValidProvenance("derived: Breitenfeld example"));
        QVERIFY(isValidProvenance("reconstructed"));
    }

    void fingerprintIsStable() {
        LoadResult again = loadGameData(QStringLiteral(WESTPHALIA_SOURCE_DIR));
        QVERIFY(again.ok());
        QCOMPARE(again.data->fingerprint, d->fingerprint);
        QCOMPARE(d->fingerprint.size(), 64);
    }
};

QTEST_GUILESS_MAIN(TestData)
#include "test_data.moc"

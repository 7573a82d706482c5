// The sequence of play (6.0), the Strategy cards (8.x), activation (8.3, 10.14) and victory (5.15, 5.2,
// 19.1), driven through the engine from constructed positions (issue 3).
#include "rules_fixture.h"

using namespace wp;
using namespace wp::rules;
using namespace wp::rules::test;

namespace {

// A card of `side` of exactly `value` points, without side effects as ACT.
QString cardOfValue(const Rules& f, int side, int value) {
    for (const Card& c : f.d().cards)
        if (sideIndex(c.side) == side && !c.combat && !c.unlessDiscarded && c.value == value)
            return c.id;
    qFatal("no card of value %d", value);
    return {};
}

// The leaders the legal "play <card> act <leader>" actions name.
QSet<QString> actTargets(const Rules& f, const QString& card) {
    QSet<QString> out;
    for (const Action& a : f.legalActions())
        if (a.kind == ActionKind::PlayCard && a.use == CardUse::Act && a.card == f.card(card))
            out.insert(f.d().leaders[a.target].id);
    return out;
}

int countDeck(const Rules& f, int side, Deck deck, CardPlace place) {
    int n = 0;
    for (qsizetype i = 0; i < f.d().cards.size(); ++i)
        if (sideIndex(f.d().cards[i].side) == side && f.d().cards[i].deck == deck &&
            f.s.cardPlace[i] == place)
            ++n;
    return n;
}

Phase phase(const Rules& f) {
    return std::get<TurnFrame>(f.s.frames.front()).phase;
}

} // namespace

class TestRulesSequence : public QObject {
    Q_OBJECT

  private slots:
    void initTestCase() { QVERIFY(rulesData()); }

    // 6.0: six rounds each, the Protestant first in each; one card left; the turn advances and both draw
    // up to seven (6.C), keeping the card held (6.D, 6.G).
    void sequenceOfPlay() {
        Rules f;
        QVERIFY(f.newGame());
        QCOMPARE(f.s.turn, 1);
        QVERIFY(f.inActionPhase());
        QCOMPARE(f.s.hand[kProtestant].size(), size_t(7));
        QCOMPARE(f.s.hand[kCatholic].size(), size_t(7));
        QString order;
        for (int round = 0; round < 12; ++round) {
            QVERIFY(f.inActionPhase());
            const int side = f.e.actor(f.s);
            order += side == kProtestant ? 'P' : 'C';
            QCOMPARE(f.s.roundsUsed[side], static_cast<int8_t>(round / 2));
            QVERIFY(f.spendRound());
        }
        QCOMPARE(order, QStringLiteral("PCPCPCPCPCPC"));
        QVERIFY(!f.inActionPhase()); // the Action Phase is over after the Catholic's sixth round
        // on to the End of Turn Phase (6.E-6.G)
        QVERIFY(f.runUntil([&] { return phase(f) == Phase::EndOfTurn; }));
        QCOMPARE(f.s.turn, 1);
        QVERIFY(f.s.hand[kProtestant].size() <= 1);
        QVERIFY(f.s.hand[kCatholic].size() <= 1);
        // 6.G: the Protestant first, then the Catholic, may discard the card he holds.
        QCOMPARE(f.e.actor(f.s), kProtestant);
        QVERIFY(f.legal("pass"));
        const std::vector<int16_t> kept = f.s.hand[kProtestant];
        QVERIFY(f.act("pass"));
        QCOMPARE(f.e.actor(f.s), kCatholic);
        if (!f.s.hand[kCatholic].empty()) {
            const QString c = f.d().cards[f.s.hand[kCatholic].front()].id;
            QVERIFY(f.legal("choose " + c));
            bool applied = false;
            for (const Action& a : f.legalActions())
                if (a.kind == ActionKind::Choose && a.target == f.card(c))
                    applied = f.apply(a);
            QVERIFY(applied);
            QCOMPARE(f.s.cardPlace[f.card(c)], CardPlace::Played);
        } else {
            QVERIFY(f.act("pass"));
        }
        QVERIFY(f.runUntil([&] { return f.inActionPhase(); }));
        QCOMPARE(f.s.turn, 2);
        QVERIFY(f.logged("6.G Turn 2 begins (1622-1623)"));
        QCOMPARE(f.s.hand[kProtestant].size(), size_t(7)); // 6.C: up to seven
        QCOMPARE(f.s.hand[kCatholic].size(), size_t(7));
        for (int16_t c : kept)
            QVERIFY(std::find(f.s.hand[kProtestant].begin(), f.s.hand[kProtestant].end(), c) !=
                    f.s.hand[kProtestant].end());
        QCOMPARE(f.e.actor(f.s), kProtestant);
        QCOMPARE(f.s.roundsUsed[kProtestant], static_cast<int8_t>(0));
    }

    // 6.D / 8.2: a player holds at most one card at the end of the Action Phase, of his choice; the rest
    // go to the Played pile.
    void holdOneCard() {
        Rules f;
        QVERIFY(f.newGame());
        f.clearBoard();
        f.place("bavarian", UnitKind::Militia, "munich");
        const QString a = cardOfValue(f, kCatholic, 1), b = cardOfValue(f, kCatholic, 2),
                      c = cardOfValue(f, kCatholic, 3);
        f.setHand(kCatholic, {a, b, c});
        f.setHand(kProtestant, {});
        f.setActive(kCatholic);
        f.s.roundsUsed[kProtestant] = 6;
        f.s.roundsUsed[kCatholic] = 5;
        QVERIFY(f.spendRound()); // the Catholic's sixth round: a Free Action, three cards still in hand
        QCOMPARE(f.e.actor(f.s), kCatholic);
        QVERIFY(f.legal("choose " + b));
        QVERIFY(f.act("choose " + b));
        QCOMPARE(f.s.hand[kCatholic], std::vector<int16_t>{static_cast<int16_t>(f.card(b))});
        QCOMPARE(f.s.cardPlace[f.card(a)], CardPlace::Played);
        QCOMPARE(f.s.cardPlace[f.card(c)], CardPlace::Played);
    }

    // 6.0 / 18.1x: the scenario's last turn ends the game with the scenario's result.
    void lastTurnEndsTheGame() {
        {
            Rules f;
            QVERIFY(f.newGame("early-war"));
            f.s.turn = 5; // the Early War's last turn (18.1)
            QVERIFY(f.endTurn());
            QVERIFY(f.s.gameOver);
            QCOMPARE(f.s.winner, kProt);
            QCOMPARE(f.s.result, QStringLiteral("Protestant Minor Victory (18.14, VP 21)"));
            QCOMPARE(f.e.actor(f.s), kNone);
            QVERIFY(f.legalActions().empty());
        }
        {
            Rules f;
            QVERIFY(f.newGame("early-war"));
            f.s.turn = 5;
            f.s.vp = 45;
            f.s.eventPlayed[f.card("C6")] = true;
            QVERIFY(f.endTurn());
            QCOMPARE(f.s.winner, kCath);
            QCOMPARE(f.s.result, QStringLiteral("Catholic Historical Victory (18.14, VP 45)"));
        }
        {
            Rules f; // not before the last turn
            QVERIFY(f.newGame("early-war"));
            f.s.turn = 4;
            QVERIFY(f.endTurn());
            QVERIFY(!f.s.gameOver);
            QCOMPARE(f.s.turn, 5);
        }
    }

    // 8.11: the Intervention cards come at VP >= 30 or on turn 7, whichever first; 5.15: -3 VP once if
    // Spinola's army is not in the UP.
    void interventionCards() {
        {
            Rules f;
            QVERIFY(f.newGame());
            QCOMPARE(countDeck(f, kProtestant, Deck::Intervention, CardPlace::Later), 21);
            f.s.vp = 29;
            QVERIFY(f.endTurn());
            QVERIFY(!f.s.interventionAdded);
            QCOMPARE(f.s.vp, 29);
            f.s.vp = 30;
            QVERIFY(f.endTurn());
            QVERIFY(f.s.interventionAdded);
            QVERIFY(f.logged("8.11 the Intervention cards are added (VP 30, turn 3)"));
            QCOMPARE(f.s.vp, 27); // Spinola is in Brussels
            QVERIFY(f.s.spinolaPenaltyDone);
            for (int side : {kCatholic, kProtestant}) {
                QCOMPARE(countDeck(f, side, Deck::Intervention, CardPlace::Later), 0);
                QVERIFY(countDeck(f, side, Deck::Intervention, CardPlace::Unplayed) +
                            countDeck(f, side, Deck::Intervention, CardPlace::Hand) >
                        0);
            }
            QCOMPARE(countDeck(f, kProtestant, Deck::Apocalypse, CardPlace::Later), 20);
            f.s.vp = 35;
            QVERIFY(f.endTurn()); // once only
            QCOMPARE(f.s.vp, 35);
        }
        {
            Rules f; // turn 7 with VP below 30; Spinola's army in the UP: no penalty
            QVERIFY(f.newGame());
            f.clearBoard();
            f.placeLeader("spinola", "up");
            f.place("spanish", UnitKind::Veteran, "up", 3);
            f.s.vp = 25;
            f.s.turn = 5;
            QVERIFY(f.endTurn());
            QVERIFY(!f.s.interventionAdded);
            QVERIFY(f.endTurn());
            QCOMPARE(f.s.turn, 7);
            QVERIFY(f.s.interventionAdded);
            QCOMPARE(f.s.vp, 25);
        }
        {
            Rules f; // Spinola with only two Spanish units is not "Spinola's army"
            QVERIFY(f.newGame());
            f.clearBoard();
            f.placeLeader("spinola", "up");
            f.place("spanish", UnitKind::Veteran, "up", 2);
            f.s.vp = 30;
            QVERIFY(f.endTurn());
            QCOMPARE(f.s.vp, 27);
        }
    }

    // 8.12: the Apocalypse cards come at the Card Draw Phase after France Enters War (P17) was played.
    void apocalypseCards() {
        Rules f;
        QVERIFY(f.newGame());
        QVERIFY(f.endTurn());
        QVERIFY(!f.s.apocalypseAdded);
        QCOMPARE(countDeck(f, kCatholic, Deck::Apocalypse, CardPlace::Later), 19);
        f.s.eventPlayed[f.card("P17")] = true;
        QVERIFY(f.endTurn());
        QVERIFY(f.s.apocalypseAdded);
        QVERIFY(f.logged("8.12 the Apocalypse cards are added"));
        QCOMPARE(countDeck(f, kCatholic, Deck::Apocalypse, CardPlace::Later), 0);
        QCOMPARE(countDeck(f, kProtestant, Deck::Apocalypse, CardPlace::Later), 0);
    }

    // 8.1 / 6.C: the Played pile is reshuffled only once the Unplayed pile is exhausted.
    void reshuffleOnlyWhenExhausted() {
        Rules f;
        QVERIFY(f.newGame());
        // Protestant: 3 cards left to draw, the rest played.
        std::vector<int16_t> all = f.s.drawPile[kProtestant];
        all.insert(all.end(), f.s.hand[kProtestant].begin(), f.s.hand[kProtestant].end());
        const std::vector<int16_t> unplayed(all.begin(), all.begin() + 3);
        f.s.hand[kProtestant].clear();
        f.s.drawPile[kProtestant] = unplayed;
        f.s.playedPile[kProtestant].assign(all.begin() + 3, all.end());
        for (int16_t c : f.s.playedPile[kProtestant])
            f.s.cardPlace[c] = CardPlace::Played;
        for (int16_t c : unplayed)
            f.s.cardPlace[c] = CardPlace::Unplayed;
        // Catholic: his hand played, eight cards still to draw.
        const std::vector<int16_t> played = f.s.hand[kCatholic];
        f.s.playedPile[kCatholic] = played;
        for (int16_t c : played)
            f.s.cardPlace[c] = CardPlace::Played;
        f.s.hand[kCatholic].clear();
        const size_t catholicUnplayed = f.s.drawPile[kCatholic].size();
        QVERIFY(catholicUnplayed >= 7);

        QVERIFY(f.endTurn());
        QCOMPARE(f.s.hand[kProtestant].size(), size_t(7));
        for (int16_t c : unplayed) // all the Unplayed cards are drawn first
            QCOMPARE(f.s.cardPlace[c], CardPlace::Hand);
        QVERIFY(f.logged(
            QStringLiteral("8.1 Protestant reshuffles the Played pile (%1 cards)").arg(all.size() - 3)));
        QVERIFY(f.s.playedPile[kProtestant].empty());
        QCOMPARE(f.s.drawPile[kProtestant].size(), all.size() - 7);
        // the Catholic had enough: no reshuffle, his Played pile stays
        QVERIFY(!f.logged("8.1 Catholic reshuffles"));
        QCOMPARE(f.s.playedPile[kCatholic], played);
        QCOMPARE(f.s.drawPile[kCatholic].size(), catholicUnplayed - 7);
    }

    // 8.3: a card activates a leader whose Activation rating is at most its value.
    void activationRating() {
        Rules f;
        QVERIFY(f.newGame());
        f.clearBoard();
        f.placeLeader("gustavus-adolphus", "stettin"); // 1
        f.placeLeader("mansfeld", "pilsen");           // 2
        f.placeLeader("anhalt", "prague");             // 3
        const QString one = cardOfValue(f, kProtestant, 1), two = cardOfValue(f, kProtestant, 2),
                      three = cardOfValue(f, kProtestant, 3);
        f.setHand(kProtestant, {one, two, three});
        f.setActive(kProtestant);
        QCOMPARE(actTargets(f, one), (QSet<QString>{"gustavus-adolphus"}));
        QCOMPARE(actTargets(f, two), (QSet<QString>{"gustavus-adolphus", "mansfeld"}));
        QCOMPARE(actTargets(f, three), (QSet<QString>{"gustavus-adolphus", "mansfeld", "anhalt"}));
        QVERIFY(!f.legal(QStringLiteral("play %1 act anhalt").arg(two)));
    }

    // 10.14: only a Dynamic leader activates a stack with one; Gustavus always is the activated leader.
    void dynamicLeaders() {
        Rules f;
        QVERIFY(f.newGame());
        f.clearBoard();
        f.placeLeader("tilly", "munich");
        f.placeLeader("pappenheim", "munich");
        f.placeLeader("aldringer", "ingolstadt");
        f.placeLeader("gustavus-adolphus", "stettin");
        f.placeLeader("baner", "stettin");
        f.placeLeader("horn", "stettin");
        f.placeLeader("bernard-of-saxe-weimar", "berlin");
        f.placeLeader("torstensson", "berlin");
        const QString three = cardOfValue(f, kCatholic, 3);
        f.setHand(kCatholic, {three});
        f.setActive(kCatholic);
        QCOMPARE(actTargets(f, three), (QSet<QString>{"tilly", "aldringer"}));
        const QString pthree = cardOfValue(f, kProtestant, 3);
        f.setHand(kProtestant, {pthree});
        f.setActive(kProtestant);
        // Gustavus over Baner (Dynamic) and Horn; Bernard and Torstensson, both Dynamic, either one.
        QCOMPARE(actTargets(f, pthree),
                 (QSet<QString>{"gustavus-adolphus", "bernard-of-saxe-weimar", "torstensson"}));
        // 10.13: the activated leader's Battle rating is the DRM, even if another is better.
    }

    // 8.5 / 14.1: one card a turn for Foreign Aid; the next turn again.
    void oneAidCardPerTurn() {
        Rules f;
        QVERIFY(f.newGame());
        f.clearBoard();
        const QString a = cardOfValue(f, kProtestant, 1), b = cardOfValue(f, kProtestant, 2);
        f.setHand(kProtestant, {a, b});
        f.setHand(kCatholic, {});
        f.setActive(kProtestant);
        QVERIFY(f.legal(QStringLiteral("play %1 aid").arg(a)));
        QVERIFY(f.act(QStringLiteral("play %1 aid").arg(a)));
        QVERIFY(f.logged("14.1 Protestant receives"));
        QVERIFY(f.s.aidCardPlayed[kProtestant]);
        QVERIFY(f.spendRound()); // the Catholic's round
        QCOMPARE(f.e.actor(f.s), kProtestant);
        QVERIFY(!f.legal(QStringLiteral("play %1 aid").arg(b)));
        QVERIFY(f.legalOf(ActionKind::PlayCard).filter(" aid").isEmpty());
        QVERIFY(f.nextTurn());
        QVERIFY(!f.s.aidCardPlayed[kProtestant]);
        QCOMPARE(f.s.aidPoints[kProtestant], static_cast<int8_t>(0)); // 14.1: not saved
        QVERIFY(!f.legalOf(ActionKind::PlayCard).filter(" aid").isEmpty());
    }

    // 8.2, 6.D: a Combat card is a Strategy card: in his own round a player may use it as ACT or AID (it is
    // only its Event that is played in a combat, 9.51).
    void combatCardAsStrategyCard() {
        Rules f;
        QVERIFY(f.newGame());
        f.clearBoard();
        f.placeLeader("mansfeld", "pilsen");
        f.setHand(kProtestant, {"P13"});
        f.setActive(kProtestant);
        QVERIFY(!f.legal("play P13 event"));
        QVERIFY(f.legal("play P13 act mansfeld"));
        QVERIFY(f.legal("play P13 aid"));
    }

    // 5.21: early victory at the end of a turn before the last.
    void earlyVictory() {
        {
            Rules f;
            QVERIFY(f.newGame());
            f.s.vp = 50;
            QVERIFY(f.endTurn());
            QVERIFY(f.s.gameOver);
            QCOMPARE(f.s.winner, kCath);
            QCOMPARE(f.s.result, QStringLiteral("Catholic Major Victory (5.21, VP 50)"));
        }
        {
            Rules f;
            QVERIFY(f.newGame());
            f.s.vp = 49;
            QVERIFY(f.endTurn());
            QVERIFY(!f.s.gameOver);
        }
        {
            Rules f;
            QVERIFY(f.newGame());
            f.s.vp = 0;
            QVERIFY(f.endTurn());
            QCOMPARE(f.s.winner, kProt);
            QCOMPARE(f.s.result, QStringLiteral("Protestant Major Victory (5.21, VP 0)"));
        }
        {
            Rules f; // the three major capitals
            QVERIFY(f.newGame());
            f.setMarker("munich", kProtestant);
            f.setMarker("vienna", kProtestant);
            QVERIFY(f.endTurn());
            QVERIFY(!f.s.gameOver); // two are not enough
            f.setMarker("brussels", kProtestant);
            QVERIFY(f.endTurn());
            QCOMPARE(f.s.winner, kProt);
            QCOMPARE(f.s.result, QStringLiteral("Protestant Major Victory (5.21, VP 21)"));
        }
        {
            Rules f; // not on the last turn: 5.22 decides instead
            QVERIFY(f.newGame());
            f.s.turn = 14;
            f.s.vp = 55;
            QVERIFY(f.endTurn());
            QCOMPARE(f.s.result, QStringLiteral("Catholic Victory (5.22, VP 55)"));
        }
    }

    // 5.21 / 7.1: Wallenstein's influence reaching 20 ends the game at once, mid-turn.
    void wallensteinTwenty() {
        Rules f;
        QVERIFY(f.newGame());
        f.clearBoard();
        f.s.wallensteinTrack = 17;
        f.placeLeader("wallenstein", "krems");
        const auto army = f.place("imperial", UnitKind::Mercenary, "krems", 2);
        f.place("protestant", UnitKind::Militia, "linz");
        f.setHand(kCatholic, {});
        f.setHand(kProtestant, {});
        f.dice({9, 0, 0}); // the Catholic wins; Wallenstein survives his loss roll
        f.setActive(kCatholic);
        QVERIFY(f.activate("wallenstein"));
        QVERIFY(f.pickUp(army));
        QVERIFY(f.act("move linz"));
        QVERIFY(f.act(QStringLiteral("attack u%1 u%2").arg(army[0]).arg(army[1])));
        QVERIFY(f.runUntil([&] { return f.s.gameOver; }, 20));
        QVERIFY(f.s.gameOver);
        QCOMPARE(f.s.wallensteinTrack, static_cast<int8_t>(20));
        QCOMPARE(f.s.winner, kProt);
        QCOMPARE(f.s.turn, 1);
        QVERIFY(f.s.result.startsWith(QStringLiteral("Protestant Major Victory (5.21, 7.1")));
    }

    // 5.22: the end of turn 14.
    void endOfTurn14() {
        struct Case {
            int vp;
            bool bavaria;
            const char* result;
        };
        const Case cases[] = {
            {30, true, "Catholic Victory (5.22, VP 30)"},
            {30, false, "Draw (5.22, VP 30)"}, // 30+ without Austria, Bavaria and the Spanish Netherlands
            {29, true, "Draw (5.22, VP 29)"},
            {11, true, "Draw (5.22, VP 11)"},
            {10, true, "Protestant Victory (5.22, VP 10)"},
        };
        for (const Case& k : cases) {
            Rules f;
            QVERIFY(f.newGame());
            f.s.turn = 14;
            f.s.vp = static_cast<int16_t>(k.vp);
            if (!k.bavaria)
                f.setAreaControl("bavaria", kProtestant);
            QVERIFY(f.endTurn());
            QVERIFY(f.s.gameOver);
            QCOMPARE(f.s.result, QString::fromLatin1(k.result));
        }
    }

    // 19.1: 0-19 Protestant, 20 Draw, 21+ Catholic.
    void optionalVictory() {
        const std::pair<int, const char*> cases[] = {{19, "Protestant Victory (19.1, VP 19)"},
                                                     {20, "Draw (19.1, VP 20)"},
                                                     {21, "Catholic Victory (19.1, VP 21)"}};
        for (const auto& [vp, result] : cases) {
            Rules f;
            GameOptions o;
            o.victory_19_1 = true;
            QVERIFY(f.newGame("campaign", o));
            f.s.turn = 14;
            f.s.vp = static_cast<int16_t>(vp);
            f.setAreaControl("bavaria", kProtestant); // 5.22's Area condition does not apply
            QVERIFY(f.endTurn());
            QVERIFY(f.s.gameOver);
            QCOMPARE(f.s.result, QString::fromLatin1(result));
        }
    }
};

QTEST_GUILESS_MAIN(TestRulesSequence)
#include "test_rules_sequence.moc"

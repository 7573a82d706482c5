// The sequence of play (6.0) and the use of Strategy cards (8.0).
#include "events/common.h"
#include "rules/economy.h"
#include "rules/events.h"
#include "rules/internal.h"

#include <algorithm>

namespace wp::rules {

namespace {

TurnFrame& turnFrame(GameState& s) {
    return std::get<TurnFrame>(s.frames.front());
}

const Card& card(const Ctx& c, int i) {
    return c.d.cards[i];
}

void shuffle(Ctx& c, std::vector<int16_t>& v) {
    for (size_t i = v.size(); i > 1; --i)
        std::swap(v[i - 1], v[static_cast<size_t>(c.s.rng.below(static_cast<int>(i)))]);
}

void removeFromHand(GameState& s, int side, int cardIdx) {
    auto& h = s.hand[side];
    h.erase(std::remove(h.begin(), h.end(), cardIdx), h.end());
}

// 8.11/8.12: shuffle a later deck into the Unplayed pile (or, if it is empty, with the Played pile).
void addDeck(Ctx& c, Deck deck) {
    for (int side : {kCatholic, kProtestant}) {
        auto& pile = c.s.drawPile[side];
        if (pile.empty()) {
            for (int16_t p : c.s.playedPile[side]) {
                c.s.cardPlace[p] = CardPlace::Unplayed;
                pile.push_back(p);
            }
            c.s.playedPile[side].clear();
        }
        for (qsizetype i = 0; i < c.d.cards.size(); ++i) {
            const Card& cd = c.d.cards[i];
            if (cd.deck == deck && sideIndex(cd.side) == side && c.s.cardPlace[i] == CardPlace::Later) {
                c.s.cardPlace[i] = CardPlace::Unplayed;
                pile.push_back(static_cast<int16_t>(i));
            }
        }
        shuffle(c, pile);
    }
}

bool canPlayAsEvent(const Ctx& c, int side, int cardIdx) {
    const Card& cd = card(c, cardIdx);
    if (cd.combat)
        return false; // 9.51: combat cards are played in combat
    if (cd.mark == CardMark::Dagger && c.s.eventPlayed[cardIdx])
        return false; // 8.62
    const EventDef* ev = EventRegistry::instance().findCard(c.d, cardIdx);
    if (!ev || !ev->apply)
        return false; // no event implemented for this card yet
    return !ev->playable || ev->playable(c, side);
}

// Leaders a card may activate (8.3, 10.14), whatever its value: a card of value v activates those whose
// activation rating is at most v.
std::vector<int> activatableLeaders(const Ctx& c, int side) {
    std::vector<int> out;
    for (qsizetype l = 0; l < c.d.leaders.size(); ++l) {
        const LeaderState& ls = c.s.leaders[l];
        if (ls.status != LeaderStatus::InPlay || ls.loc < 0 ||
            leaderSide(c.d, c.s, static_cast<int>(l)) != side)
            continue;
        // 10.14: with a Dynamic leader in the stack only a Dynamic leader may activate it; Gustavus
        // (two stars) always is the activated leader.
        bool ok = true;
        for (int o : leadersAt(c.s, ls.loc, side, c.d)) {
            if (o == l || (c.s.leaders[o].flags & kInside) != (ls.flags & kInside))
                continue;
            const int stars = effectiveStars(c.d, c.s, o); // 7.25, 19.7
            if (stars == 2 || (stars == 1 && effectiveStars(c.d, c.s, static_cast<int>(l)) == 0))
                ok = false;
        }
        if (ok)
            out.push_back(static_cast<int>(l));
    }
    return out;
}

// Pieces a Free Action may move (8.32): one friendly unit, or one lone leader.
std::vector<int16_t> freeActionPieces(const Ctx& c, int side) {
    std::vector<int16_t> out;
    out.reserve(c.s.units.size() / 2);
    for (size_t u = 0; u < c.s.units.size(); ++u) {
        const UnitState& us = c.s.units[u];
        if (us.loc < 0 || unitSide(c.d, c.s, static_cast<int>(u)) != side)
            continue;
        // 13.17: units inside a fortress with enemy units in the space must sally (combat) to leave.
        if ((us.flags & kInside) && isCity(us.loc) && hasEnemyUnits(c.d, c.s, us.loc, side))
            continue;
        out.push_back(static_cast<int16_t>(u));
    }
    for (size_t l = 0; l < c.s.leaders.size(); ++l) {
        const LeaderState& ls = c.s.leaders[l];
        if (ls.status != LeaderStatus::InPlay || ls.loc < 0 ||
            leaderSide(c.d, c.s, static_cast<int>(l)) != side)
            continue;
        if (anyUnitsAt(c.s, ls.loc, side, c.d))
            continue; // "one lone leader (with no combat units)"
        if ((ls.flags & kInside) && isCity(ls.loc) && hasEnemyUnits(c.d, c.s, ls.loc, side))
            continue;
        out.push_back(static_cast<int16_t>(kLeaderBase + l));
    }
    return out;
}

int aidFrom(const Ctx& c, int side, int cardIdx) {
    return aidCardPoints(c, side,
                         cardIdx); // 14.2-14.4, 16.13, 8.65: the donors and their switches (economy.cpp)
}

} // namespace

QString eventRefusal(const Ctx& c, int side, int cardIdx) {
    if (cardIdx < 0 || cardIdx >= c.d.cards.size())
        return {};
    const Card& cd = card(c, cardIdx);
    if (cd.combat)
        return QStringLiteral("9.51: %1 is a combat card, played in a combat").arg(cd.id);
    if (cd.mark == CardMark::Dagger && c.s.eventPlayed[cardIdx])
        return QStringLiteral("8.62: the event of %1 has been played already").arg(cd.id);
    const EventDef* ev = EventRegistry::instance().find(cd.id);
    if (!ev || !ev->apply)
        return QStringLiteral("%1 has no event").arg(cd.id);
    if (ev->playable && !ev->playable(c, side))
        return ev->whyNot ? ev->whyNot(c, side) : QStringLiteral("its condition is not met");
    return {};
}

void drawCard(Ctx& c, int side) {
    auto& pile = c.s.drawPile[side];
    if (pile.empty()) {
        // 8.1/6.C: only once the Unplayed pile is exhausted is the Played pile reshuffled.
        pile = c.s.playedPile[side];
        c.s.playedPile[side].clear();
        for (int16_t p : pile)
            c.s.cardPlace[p] = CardPlace::Unplayed;
        shuffle(c, pile);
        WP_SAY(c,
               QStringLiteral("8.1 %1 reshuffles the Played pile (%2 cards)")
                   .arg(sideName(side))
                   .arg(pile.size()),
               side);
        c.randomness = true;
    }
    if (pile.empty())
        return;
    const int16_t top = pile.back();
    pile.pop_back();
    c.s.hand[side].push_back(top);
    c.s.cardPlace[top] = CardPlace::Hand;
}

void discardCard(Ctx& c, int side, int cardIdx, bool removeIfAsterisk) {
    removeFromHand(c.s, side, cardIdx);
    if (removeIfAsterisk && card(c, cardIdx).mark == CardMark::Asterisk) {
        c.s.cardPlace[cardIdx] = CardPlace::Removed; // 8.62
        WP_SAY(c, QStringLiteral("8.62 %1 is removed from the game").arg(card(c, cardIdx).id), side);
        return;
    }
    c.s.cardPlace[cardIdx] = CardPlace::Played;
    c.s.playedPile[side].push_back(static_cast<int16_t>(cardIdx));
}

std::vector<Action> turnLegal(const Ctx& c, const TurnFrame& f) {
    std::vector<Action> out;
    const GameState& s = c.s;
    if (f.phase == Phase::Wallenstein) { // 7.2: the Catholic may act on Wallenstein, or not
        out = wallensteinLegal(c);
        if (!out.empty())
            out.push_back(Action{ActionKind::Pass, -1, CardUse::Act, -1, {}, {}});
        return out;
    }
    if (f.phase == Phase::Action) {
        const int side = s.activeSide;
        int recruitOk = -1; // 8.4: whether a leader may recruit does not depend on the card; ask once
        const std::vector<int> leaders = activatableLeaders(c, side); // 8.3: nor who may be activated
        out.reserve(s.hand[side].size() * (leaders.size() + 4) + 4);
        for (int16_t ci : s.hand[side]) {
            const Card& cd = card(c, ci);
            // 8.2: every card may be used as ACT, REC or AID; combat cards' events only in combat (9.51)
            for (int l : leaders)
                if (c.d.leaders[l].activation <= cd.value)
                    out.push_back(
                        Action{ActionKind::PlayCard, ci, CardUse::Act, static_cast<int16_t>(l), {}, {}});
            if (card(c, ci).value > 0 && recruitOk < 0)
                recruitOk = canRecruit(c, side, ci) ? 1 : 0;
            if (card(c, ci).value > 0 && recruitOk == 1) // 8.4
                out.push_back(Action{ActionKind::PlayCard, ci, CardUse::Rec, -1, {}, {}});
            if (!s.aidCardPlayed[side] || s.options.aid_no_limit) // 8.5: one AID card a turn (19.4a: any)
                out.push_back(Action{ActionKind::PlayCard, ci, CardUse::Aid, -1, {}, {}});
            if (canPlayAsEvent(c, side, ci))
                out.push_back(Action{ActionKind::PlayCard, ci, CardUse::Event, -1, {}, {}});
            if (s.options.up_intervention) // 19.5: any card, to push the Dutch War marker
                out.push_back(Action{ActionKind::PlayCard, ci, CardUse::Dutch, -1, {}, {}});
            if (canTryWallensteinEnemies(c, side)) // 19.11: discard a card for an assassination check
                out.push_back(Action{ActionKind::PlayCard, ci, CardUse::Enemies, -1, {}, {}});
        }
        if (freeActionAffordable(s, side)) { // 19.4c: a Free Action costs 1 AP
            const std::vector<int16_t> pieces = freeActionPieces(c, side);
            out.reserve(out.size() + pieces.size() + 8);
            for (int16_t p : pieces)
                out.push_back(Action{ActionKind::FreeAction, -1, CardUse::Act, p, {}, {}});
            // 17.Sw.1: a Free Action may move the Swedish Base, and do nothing else.
            if (side == kProtestant && canMoveSwedishBase(c.d, s))
                for (int city : swedishBaseOptions(c.d, s))
                    out.push_back(Action{ActionKind::FreeAction,
                                         -1,
                                         CardUse::Act,
                                         kFreeSwedishBase,
                                         {static_cast<int16_t>(city)},
                                         {}});
        }
        // 8.323: in his first round a player may use the Free Action to offer peace (5.3).
        if (s.roundsUsed[side] == 0 && canOfferPeace(c, side))
            out.push_back(Action{ActionKind::OfferPeace, -1, CardUse::Act, -1, {}, {}});
        if (out.empty())
            out.push_back(Action{ActionKind::Pass, -1, CardUse::Act, -1, {}, {}}); // nothing at all to do
        return out;
    }
    if (f.phase == Phase::EndOfTurn && f.step < 2) {
        // 6.G: each player may discard the card he holds (voluntary); Protestant first.
        const int side = f.step == 0 ? kProtestant : kCatholic;
        out.push_back(Action{ActionKind::Pass, -1, CardUse::Act, -1, {}, {}});
        for (int16_t ci : s.hand[side])
            out.push_back(Action{ActionKind::Choose, -1, CardUse::Act, ci, {}, {}});
        return out;
    }
    return out;
}

static void endRound(Ctx& c) {
    GameState& s = c.s;
    s.roundsUsed[s.activeSide]++;
    // 6.D: Protestant first in each round; after the Catholic's sixth round the Action Phase ends.
    if (s.activeSide == kProtestant)
        s.activeSide = kCatholic;
    else
        s.activeSide = kProtestant;
}

void turnApply(Ctx& c, const Action& a) {
    GameState& s = c.s;
    TurnFrame& f = turnFrame(s);
    if (f.phase == Phase::Wallenstein) {
        if (a.kind != ActionKind::Pass)
            wallensteinApply(c, a);
        turnFrame(s).phase = Phase::Recovery;
        turnFrame(s).step = 0;
        return;
    }
    if (f.phase == Phase::EndOfTurn) {
        const int side = f.step == 0 ? kProtestant : kCatholic;
        if (a.kind == ActionKind::Choose) {
            discardCard(c, side, a.target, false);
            WP_SAY(c, QStringLiteral("6.G %1 discards %2").arg(sideName(side), card(c, a.target).id), side);
        }
        f.step++;
        return;
    }
    const int side = s.activeSide;
    const int round = s.roundsUsed[side] + 1;
    switch (a.kind) {
    case ActionKind::Pass:
        WP_SAY(c, QStringLiteral("%1 round %2: no card and nothing to move").arg(sideName(side)).arg(round),
               side);
        endRound(c);
        return;
    case ActionKind::OfferPeace:
        WP_SAY(c,
               QStringLiteral("8.323 %1 round %2: Free Action to offer peace").arg(sideName(side)).arg(round),
               side);
        endRound(c);
        offerPeace(c, side);
        return;
    case ActionKind::FreeAction:
        WP_SAY(c, QStringLiteral("8.32 %1 round %2: Free Action").arg(sideName(side)).arg(round), side);
        endRound(c);
        payFreeAction(c, side); // 19.4c
        if (a.target == kFreeSwedishBase) {
            moveSwedishBase(c, a.list.front()); // 17.Sw.1
            return;
        }
        startFreeAction(c, side, a.target);
        return;
    case ActionKind::PlayCard: {
        const Card& cd = card(c, a.card);
        if (a.use == CardUse::Enemies) {
            // 19.11: a discard, not a card play: the round is not used.
            tryWallensteinEnemies(c, side, a.card);
            return;
        }
        removeFromHand(s, side, a.card);
        c.s.cardPlace[a.card] = CardPlace::Played;
        WP_SAY(c,
               QStringLiteral("%1 round %2: plays %3 \"%4\" (%5) as %6")
                   .arg(sideName(side))
                   .arg(round)
                   .arg(cd.id, cd.title)
                   .arg(cd.value)
                   .arg(cardUseName(a.use).toUpper()),
               side);
        endRound(c);
        if (a.use == CardUse::Event) {
            s.eventPlayed[a.card] = true;
            discardCard(c, side, a.card, true);
            removeFromHand(s, side, a.card);
            const EventDef* ev = EventRegistry::instance().find(cd.id);
            ev->apply(c, side);
            return;
        }
        // 8.64: "Unless discarded, Event always takes effect": after the ACT/REC/AID.
        discardCard(c, side, a.card, false);
        if (a.use == CardUse::Dutch) {
            upIntervention(c, side, a.card); // 19.5: the card goes to the Played pile, not out of the game
            return;
        }
        if (cd.unlessDiscarded && !s.eventPlayed[a.card]) {
            if (const EventDef* ev = EventRegistry::instance().find(cd.id); ev && ev->apply) {
                WP_SAY(c, QStringLiteral("8.64 the event of %1 takes effect").arg(cd.id), side);
                s.eventPlayed[a.card] = true;
                ev->apply(c, side);
            }
        }
        if (a.use == CardUse::Aid) {
            const int pts = aidFrom(c, side, a.card);
            s.aidPoints[side] = static_cast<int8_t>(std::min(99, s.aidPoints[side] + pts));
            s.aidCardPlayed[side] = true;
            WP_SAY(c,
                   QStringLiteral("14.1 %1 receives %2 Foreign Aid Points (total %3)")
                       .arg(sideName(side))
                       .arg(pts)
                       .arg(s.aidPoints[side]),
                   side);
        } else if (a.use == CardUse::Act) {
            startActivation(c, side, a.target, a.card);
            offerCampaignMove(c, side, a.target); // 19.8
        } else if (a.use == CardUse::Rec) {
            startRecruitment(c, side, a.card);
        }
        return;
    }
    default:
        return;
    }
}

// Runs the automatic parts of the sequence of play; returns true if it changed something.
bool turnAuto(Ctx& c) {
    GameState& s = c.s;
    if (s.frames.size() != 1)
        return false;
    TurnFrame& f = turnFrame(s);
    switch (f.phase) {
    case Phase::Wallenstein:
        // 7.2: the Catholic decides if he has a choice; otherwise go on.
        if (!wallensteinLegal(c).empty())
            return false;
        f.phase = Phase::Recovery;
        f.step = 0;
        return true;
    case Phase::Recovery:
        // 15.25 Pillage Recovery (phase hooks keep their progress in TurnFrame::step)
        if (recoveryPhase(c))
            return true;
        turnFrame(s).phase = Phase::Draw;
        turnFrame(s).step = 0;
        return true;
    case Phase::Draw: {
        // 8.11: Intervention cards at VP >= 30 or turn 7; 8.12: Apocalypse after P17.
        if (!s.interventionAdded && (s.vp >= 30 || s.turn >= 7)) {
            s.interventionAdded = true;
            WP_SAY(c, QStringLiteral("8.11 the Intervention cards are added (VP %1, turn %2)")
                          .arg(s.vp)
                          .arg(s.turn));
            addDeck(c, Deck::Intervention);
            c.randomness = true;
            // 5.15: Spinola's army not in the UP when the Intervention cards are added: -3 VP (once).
            if (!s.spinolaPenaltyDone) {
                s.spinolaPenaltyDone = true;
                const int up = c.d.box(QStringLiteral("up"));
                bool inUp = false;
                if (up >= 0) {
                    int spanish = 0;
                    bool leader = false;
                    for (int u : unitsAt(s, kBoxBase + up, kCatholic, c.d))
                        spanish += unitNationality(c.d, s, u).id == QLatin1String("spanish");
                    for (int l : leadersAt(s, kBoxBase + up, kCatholic, c.d))
                        leader |=
                            c.d.nationalities[c.d.leaders[l].nationality].id == QLatin1String("spanish");
                    inUp = leader && spanish >= 3;
                }
                if (!inUp)
                    addVp(c, -3, QStringLiteral("5.15 Spinola's army is not in the United Provinces:"));
            }
        }
        const int p17 = c.d.card(QStringLiteral("P17"));
        if (!s.apocalypseAdded && p17 >= 0 && s.eventPlayed[p17]) {
            s.apocalypseAdded = true;
            WP_SAY(c, QStringLiteral("8.12 the Apocalypse cards are added"));
            addDeck(c, Deck::Apocalypse);
            c.randomness = true;
        }
        // 6.C / 8.1: both draw up to seven.
        for (int side : {kProtestant, kCatholic}) {
            int drawn = 0;
            while (s.hand[side].size() < 7 && !(s.drawPile[side].empty() && s.playedPile[side].empty())) {
                drawCard(c, side);
                ++drawn;
            }
            WP_SAY(c, QStringLiteral("6.C %1 draws %2 cards").arg(sideName(side)).arg(drawn), side);
        }
        c.randomness = true;
        f.phase = Phase::Action;
        s.roundsUsed[0] = s.roundsUsed[1] = 0;
        s.activeSide = kProtestant;
        WP_SAY(c, QStringLiteral("6.D Action Phase of turn %1").arg(s.turn));
        return true;
    }
    case Phase::Action:
        if (s.frames.size() == 1) {
            if (startPendingCampaign(c)) // 19.8: the second army of a campaign move
                return true;
            actionPhaseCheckpoint(c); // 19.3
            // 16.251: a Protestant army of a leader and three units in the UP Responds to Spinola Besieges
            // as soon as it is there (checked after every activation).
            if (ev::dutchSiegePending(s)) {
                ev::dutchSiegeResponse(c);
                if (!ev::dutchSiegePending(s) || s.frames.size() > 1)
                    return true;
            }
        }
        if (s.roundsUsed[kCatholic] >= 6 && s.roundsUsed[kProtestant] >= 6) {
            // 6.D/8.2: each player may hold one card, chosen by him; extra cards go to the Played pile.
            for (int side : {kProtestant, kCatholic}) {
                if (s.hand[side].size() > 1) {
                    ChoiceFrame ch;
                    ch.actor = static_cast<int8_t>(side);
                    ch.purpose = kChooseDiscard;
                    ch.options = s.hand[side];
                    s.frames.push_back(ch);
                    return true;
                }
            }
            f.phase = Phase::Pay;
            f.step = 0;
            return true;
        }
        return false;
    case Phase::Pay:
        // 15.1-15.2 pay and loot
        if (payPhase(c))
            return true;
        // aid points do not carry over to the next turn
        s.aidPoints[0] = s.aidPoints[1] = 0;
        s.aidCardPlayed[0] = s.aidCardPlayed[1] = false;
        f.phase = Phase::End;
        f.step = 0;
        return true;
    case Phase::End: {
        // 6.F.1 Continued Siege Segment: siege combat for every Siege marker (13.26), Protestant first.
        // f.step walks the cities; each siege combat runs as its own frame.
        if (f.step == 0)
            ev::dutchSiegeEndOfTurn(c); // 16.253: Spinola Besieges without a Response
        while (f.step < 2 * static_cast<int>(s.cities.size())) {
            const int side = f.step < static_cast<int>(s.cities.size()) ? kProtestant : kCatholic;
            const int city = f.step % static_cast<int>(s.cities.size());
            f.step++;
            if (s.cities[city].siege > 0 && s.cities[city].sieger == side) {
                startSiegeCombat(c, city, side, true);
                return true;
            }
        }
        f.phase = Phase::Revolt;
        f.step = 0;
        return true;
    }
    case Phase::Revolt:
        // 6.F.2 Peasant Revolt Segment (9.44)
        if (revoltPhase(c))
            return true;
        turnFrame(s).phase = Phase::EndOfTurn;
        turnFrame(s).step = 0;
        return true;
    case Phase::EndOfTurn:
        if (f.step < 2)
            return false; // discard decisions
        checkEndOfTurnVictory(c);
        if (s.gameOver)
            return true;
        s.turn++;
        s.warEntryThisTurn = false;
        for (UnitState& u : s.units)
            u.flags &= static_cast<uint8_t>(~kUnpaid);
        WP_SAY(c, QStringLiteral("6.G Turn %1 begins (%2-%3)")
                      .arg(s.turn)
                      .arg(1618 + 2 * s.turn)
                      .arg(1619 + 2 * s.turn));
        f.phase = Phase::Wallenstein;
        f.step = 0;
        return true;
    case Phase::GameOver:
        return false;
    }
    return false;
}

} // namespace wp::rules

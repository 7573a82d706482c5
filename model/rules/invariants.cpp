#include "rules/invariants.h"

#include "rules/economy.h"
#include "rules/internal.h"

#include <QHash>
#include <QSet>

#include <algorithm>
#include <optional>

namespace wp::rules {

namespace {

QString cardId(const GameData& d, int card) {
    return card >= 0 && card < d.cards.size() ? d.cards[card].id : QStringLiteral("#%1").arg(card);
}

QString placeName(CardPlace p) {
    switch (p) {
    case CardPlace::Later:
        return QStringLiteral("later");
    case CardPlace::Unplayed:
        return QStringLiteral("unplayed");
    case CardPlace::Hand:
        return QStringLiteral("hand");
    case CardPlace::Played:
        return QStringLiteral("played");
    case CardPlace::Removed:
        return QStringLiteral("removed");
    case CardPlace::InCombat:
        return QStringLiteral("in combat");
    }
    return QStringLiteral("?");
}

bool validLoc(const GameData& d, int loc) {
    return (isCity(static_cast<int16_t>(loc)) && loc < d.cities.size()) ||
           (isBox(static_cast<int16_t>(loc)) && loc - kBoxBase < d.boxes.size());
}

QString locText(const GameData& d, int loc) {
    if (validLoc(d, loc))
        return cityName(d, loc);
    return QStringLiteral("location %1").arg(loc);
}

int expectedCounters(const GameData& d, const GameOptions& o) {
    int n = 0;
    for (const UnitType& t : d.unitTypes) {
        n += t.count;
        const bool on = (t.optionalRule == QLatin1String("19.2a") && o.stronger_imperial) ||
                        (t.optionalRule == QLatin1String("19.2b") && o.guebriant);
        if (on)
            n += t.optionalExtra;
    }
    return n;
}

// Checks that need the frame stack, the board, the cards, control and markers.
void checkState(const Engine* engine, const GameData& d, const GameState& s, QStringList& out) {
    auto bad = [&](const QString& m) { out << m; };

    // ---- shapes: a state that is not shaped like the data is not worth checking further
    if (s.nationSide.size() != static_cast<size_t>(d.nationalities.size()) ||
        s.leaders.size() != static_cast<size_t>(d.leaders.size()) ||
        s.cities.size() != static_cast<size_t>(d.cities.size()) ||
        s.areas.size() != static_cast<size_t>(d.areas.size()) ||
        s.cardPlace.size() != static_cast<size_t>(d.cards.size()) ||
        s.eventPlayed.size() != static_cast<size_t>(d.cards.size())) {
        bad(QStringLiteral("state: its vectors do not match the data (nationalities, leaders, cities, areas, "
                           "cards)"));
        return;
    }
    for (size_t u = 0; u < s.units.size(); ++u)
        if (s.units[u].type < 0 || s.units[u].type >= d.unitTypes.size()) {
            bad(QStringLiteral("8.412 counter mix: u%1 has no valid counter type").arg(u));
            return;
        }
    if (s.frames.empty()) {
        bad(QStringLiteral("state machine: no frame on the stack"));
        return;
    }

    // ---- the frame stack
    if (!std::holds_alternative<TurnFrame>(s.frames.front()))
        bad(QStringLiteral("state machine: the bottom frame is not the sequence of play (6.0)"));
    for (size_t i = 1; i < s.frames.size(); ++i)
        if (std::holds_alternative<TurnFrame>(s.frames[i]))
            bad(QStringLiteral("state machine: a second sequence-of-play frame at depth %1").arg(i));
    const auto* turn = std::get_if<TurnFrame>(&s.frames.front());
    if (s.gameOver != (turn && turn->phase == Phase::GameOver))
        bad(QStringLiteral("state machine: gameOver is %1 but the phase says otherwise")
                .arg(s.gameOver ? "set" : "not set"));
    if (s.gameOver && s.frames.size() != 1)
        bad(QStringLiteral("state machine: the game is over with %1 frames pending").arg(s.frames.size()));
    if (!s.gameOver && s.winner != kNone)
        bad(QStringLiteral("5.2 a winner is set while the game goes on"));
    if (s.turn < s.firstTurn || s.turn > s.lastTurn)
        bad(QStringLiteral("6.0 turn %1 outside the scenario's turns %2-%3")
                .arg(s.turn)
                .arg(s.firstTurn)
                .arg(s.lastTurn));
    for (int side : {kCatholic, kProtestant})
        if (s.roundsUsed[side] < 0 || s.roundsUsed[side] > 6)
            bad(QStringLiteral("6.D %1 has used %2 card rounds (0-6)")
                    .arg(sideName(side))
                    .arg(s.roundsUsed[side]));
    if (turn && turn->phase == Phase::Action && s.frames.size() == 1 && !s.gameOver) {
        // 6.D: Protestant first in each round
        const int p = s.roundsUsed[kProtestant], c = s.roundsUsed[kCatholic];
        const bool ok = s.activeSide == kProtestant ? p == c : p == c + 1;
        if (!ok)
            bad(QStringLiteral("6.D %1 is to play with rounds used Catholic %2, Protestant %3")
                    .arg(sideName(s.activeSide))
                    .arg(c)
                    .arg(p));
    }
    bool activationOnStack = false;
    QSet<int> stackExempt;  // cities whose stacking the engine is resolving right now
    QSet<int> eventPending; // cities an event's pending decision is about
    for (const Frame& f : s.frames) {
        if (const auto* a = std::get_if<ActivationFrame>(&f)) {
            activationOnStack = true;
            stackExempt.insert(a->at);
        } else if (const auto* ch = std::get_if<ChoiceFrame>(&f)) {
            if (ch->purpose == kChooseOverstack)
                for (int16_t u : ch->options)
                    if (u >= 0 && static_cast<size_t>(u) < s.units.size())
                        stackExempt.insert(s.units[u].loc);
            // an event's pending decision about these cities (8.66: the Saxons stacked with former friends
            // teleport home)
            if (ch->purpose >= kChooseEventBase)
                for (int16_t loc : ch->extra)
                    eventPending.insert(loc);
        }
    }
    bool combatOnStack = false;
    QSet<int> fighting; // cities where a battle or siege combat is being resolved
    for (const Frame& f : s.frames) {
        if (const auto* cb = std::get_if<CombatFrame>(&f)) {
            combatOnStack = true;
            fighting.insert(cb->city);
        } else if (const auto* sg = std::get_if<SiegeFrame>(&f)) {
            fighting.insert(sg->city);
        }
    }
    if (const auto* a = std::get_if<ActivationFrame>(&s.frames.back())) {
        if (a->units.size() != a->joinedAt.size())
            bad(QStringLiteral("11.11 activation: %1 moving units but %2 join records")
                    .arg(a->units.size())
                    .arg(a->joinedAt.size()));
        for (int16_t u : a->units)
            if (u < 0 || static_cast<size_t>(u) >= s.units.size() || s.units[u].loc != a->at)
                bad(QStringLiteral("11.1 activation: moving unit u%1 is not at %2 with its stack")
                        .arg(u)
                        .arg(locText(d, a->at)));
        // (after a battle the engine follows the activated leader and keeps the list of the others as it
        // was: a leader lost in the battle may stay on it, harmlessly, since the stack moves no more)
        for (int16_t l : a->leaders)
            if (!a->combatDone && (l < 0 || l >= d.leaders.size() || s.leaders[l].loc != a->at ||
                                   s.leaders[l].status != LeaderStatus::InPlay))
                bad(QStringLiteral("11.1 activation: moving leader %1 is not in play at %2")
                        .arg(l >= 0 && l < d.leaders.size() ? d.leaders[l].id : QString::number(l))
                        .arg(locText(d, a->at)));
        if (a->mpUsed < 0 || a->mpUsed > 8)
            bad(QStringLiteral("11.11 activation: %1 MP used (leaders have MA 8)").arg(a->mpUsed));
    }

    // ---- units (8.412 the counter mix, 10.2 stacking)
    if (static_cast<int>(s.units.size()) != expectedCounters(d, s.options))
        bad(QStringLiteral("8.412 counter mix: %1 counters in the state, the mix has %2")
                .arg(s.units.size())
                .arg(expectedCounters(d, s.options)));
    QHash<int, int> perCity[2];
    QHash<int, int> outsidePerCity[2];
    for (size_t i = 0; i < s.units.size(); ++i) {
        const UnitState& u = s.units[i];
        const QString name = QStringLiteral("u%1").arg(i);
        if (u.loc >= 0) {
            if (!validLoc(d, u.loc)) {
                bad(QStringLiteral("%1 is at an unknown location %2").arg(name).arg(u.loc));
                continue;
            }
            if (u.steps < 1 || u.steps > 2)
                bad(QStringLiteral("12.32 %1 at %2 has %3 steps (1-2 on the map)")
                        .arg(name, cityName(d, u.loc))
                        .arg(u.steps));
            if ((u.flags & kInside) && (!isCity(u.loc) || !d.cities[u.loc].fortress))
                bad(QStringLiteral("11.23 %1 is inside at %2, which is no Fortress")
                        .arg(name, cityName(d, u.loc)));
            const int side = unitSide(d, s, static_cast<int>(i));
            if (side != kCatholic && side != kProtestant) {
                bad(QStringLiteral("%1 on the map belongs to no side").arg(name));
                continue;
            }
            if (isCity(u.loc)) {
                perCity[side][u.loc]++;
                if (!(u.flags & kInside))
                    outsidePerCity[side][u.loc]++;
            }
        } else {
            if (u.loc != kPool && u.loc != kRemoved)
                bad(QStringLiteral("%1 is at the impossible off-map location %2").arg(name).arg(u.loc));
            if (u.steps != 0)
                bad(QStringLiteral("12.33 %1 is off the map with %2 steps").arg(name).arg(u.steps));
            if (u.flags & kInside)
                bad(QStringLiteral("%1 is off the map but marked inside a fortress").arg(name));
        }
        if (!activationOnStack && (u.flags & (kMoved | kDropped)))
            bad(QStringLiteral("11.14 %1 keeps a moved/dropped flag after its activation").arg(name));
    }
    for (int side : {kCatholic, kProtestant})
        for (auto it = perCity[side].begin(); it != perCity[side].end(); ++it)
            if (it.value() > 8 && !stackExempt.contains(it.key()))
                bad(QStringLiteral("10.21/10.24 %1 has %2 units at %3 (at most 8, inside and outside)")
                        .arg(sideName(side))
                        .arg(it.value())
                        .arg(cityName(d, it.key())));
    if (!activationOnStack && !combatOnStack)
        for (auto it = outsidePerCity[kCatholic].begin(); it != outsidePerCity[kCatholic].end(); ++it)
            if (outsidePerCity[kProtestant].value(it.key()) > 0 && !eventPending.contains(it.key()))
                bad(QStringLiteral(
                        "11.21/12.5 Catholic and Protestant units both stand outside at %1 with no "
                        "battle pending")
                        .arg(cityName(d, it.key())));

    // ---- leaders
    for (qsizetype l = 0; l < d.leaders.size(); ++l) {
        const LeaderState& ls = s.leaders[l];
        const QString& id = d.leaders[l].id;
        if (ls.status == LeaderStatus::InPlay) {
            if (!validLoc(d, ls.loc))
                bad(QStringLiteral("10.1 leader %1 is in play but has no location (%2)").arg(id).arg(ls.loc));
            else if ((ls.flags & kInside) && (!isCity(ls.loc) || !d.cities[ls.loc].fortress))
                bad(QStringLiteral("11.23 leader %1 is inside at %2, which is no Fortress")
                        .arg(id, cityName(d, ls.loc)));
        } else if (ls.loc >= 0) {
            bad(QStringLiteral("12.41 leader %1 is out of play but stands at %2")
                    .arg(id, locText(d, ls.loc)));
        }
        if (!activationOnStack && (ls.flags & (kMoved | kDropped)))
            bad(QStringLiteral("11.14 leader %1 keeps a moved/dropped flag after its activation").arg(id));
    }

    // ---- cards (8.1): every card in exactly one place, agreeing with cardPlace
    std::vector<int> seen(static_cast<size_t>(d.cards.size()), 0);
    auto collect = [&](const std::vector<int16_t>& v, CardPlace place, int side, const QString& where) {
        for (int16_t c : v) {
            if (c < 0 || c >= d.cards.size()) {
                bad(QStringLiteral("8.1 %1 holds an unknown card #%2").arg(where).arg(c));
                continue;
            }
            seen[c]++;
            if (s.cardPlace[c] != place)
                bad(QStringLiteral("8.1 %1 is in the %2 but its place says %3")
                        .arg(cardId(d, static_cast<int>(c)), where, placeName(s.cardPlace[c])));
            if (side != kNone && sideIndex(d.cards[c].side) != side)
                bad(QStringLiteral("8.1 %1 is in the %2, of the other side")
                        .arg(cardId(d, static_cast<int>(c)), where));
        }
    };
    for (int side : {kCatholic, kProtestant}) {
        const QString who = sideName(side);
        collect(s.hand[side], CardPlace::Hand, side, who + QStringLiteral(" hand"));
        collect(s.drawPile[side], CardPlace::Unplayed, side, who + QStringLiteral(" Unplayed pile"));
        collect(s.playedPile[side], CardPlace::Played, side, who + QStringLiteral(" Played pile"));
        if (s.hand[side].size() > 7)
            bad(QStringLiteral("6.C %1 holds %2 cards (at most 7)").arg(who).arg(s.hand[side].size()));
    }
    for (const Frame& f : s.frames)
        if (const auto* cb = std::get_if<CombatFrame>(&f))
            for (int side : {kCatholic, kProtestant})
                collect(cb->cards[side], CardPlace::InCombat, side,
                        QStringLiteral("battle at %1").arg(locText(d, cb->city)));
    for (qsizetype c = 0; c < d.cards.size(); ++c) {
        const CardPlace p = s.cardPlace[c];
        const bool inVector = p == CardPlace::Hand || p == CardPlace::Unplayed || p == CardPlace::Played ||
                              p == CardPlace::InCombat;
        if (seen[c] > 1)
            bad(QStringLiteral("8.1 %1 is in %2 places at once")
                    .arg(cardId(d, static_cast<int>(c)))
                    .arg(seen[c]));
        else if (inVector && seen[c] == 0)
            bad(QStringLiteral("8.1 %1 is %2 but in no pile, hand or battle")
                    .arg(cardId(d, static_cast<int>(c)), placeName(p)));
    }

    // ---- Victory Points (5.1)
    if (s.vp < -20 || s.vp > 80)
        bad(QStringLiteral("5.1 VP %1 off the track (-20..80)").arg(s.vp));
    if (s.wallensteinTrack < 0 || s.wallensteinTrack > 20)
        bad(QStringLiteral("7.1 Wallenstein track at %1 (0-20)").arg(s.wallensteinTrack));

    // ---- Foreign Aid (14.1, 15.13): never negative; the turn's points are gone after the Pay Phase
    for (int side : {kCatholic, kProtestant})
        if (s.aidPoints[side] < 0)
            bad(QStringLiteral("14.1 %1 has %2 Aid Points").arg(sideName(side)).arg(s.aidPoints[side]));
    if (s.aidSwedish < 0 || s.aidSwedish > std::max<int>(0, s.aidPoints[kProtestant]))
        bad(QStringLiteral("17.Sw.1 %1 Swedish Aid Points of the Protestant's %2")
                .arg(s.aidSwedish)
                .arg(s.aidPoints[kProtestant]));
    if (const auto* t = s.frames.empty() ? nullptr : std::get_if<TurnFrame>(&s.frames.front())) {
        const bool spent = t->phase != Phase::Action && t->phase != Phase::Pay && t->phase != Phase::GameOver;
        for (int side : {kCatholic, kProtestant})
            if (spent && (s.aidPoints[side] != 0 || s.aidCardPlayed[side]))
                bad(QStringLiteral("14.1 %1 keeps %2 Aid Points (AID card played: %3) outside the Action and "
                                   "Pay Phases: aid is reset each turn")
                        .arg(sideName(side))
                        .arg(s.aidPoints[side])
                        .arg(s.aidCardPlayed[side] ? "yes" : "no"));
    }

    // ---- the Spanish Zone (17.Sp.2): no Spanish unit outside it, except the Cardinal Infante's army while
    // it marches to it (17.Sp.3, 17.Sp.31: the Spanish units with him, or all of them while he is not in
    // play)
    const int spanish = d.nationality(QStringLiteral("spanish"));
    const bool marching = effect(s, QStringLiteral("cardinalInfante")) > 0;
    std::vector<int> cardinalAt;
    for (const char* id : {"cardinal-infante", "cardinal-infante-successor"})
        if (const int l = d.leader(QLatin1String(id)); l >= 0 && s.leaders[l].status == LeaderStatus::InPlay)
            cardinalAt.push_back(s.leaders[l].loc);
    for (size_t u = 0; u < s.units.size(); ++u) {
        const int loc = s.units[u].loc;
        if (loc < 0 || d.unitTypes[s.units[u].type].nationality != spanish)
            continue;
        const bool inZone = isCity(static_cast<int16_t>(loc))
                                ? d.cities[loc].spanishZone
                                : d.boxes[loc - kBoxBase].kind == QLatin1String("up");
        const bool withCardinal =
            marching &&
            (activationOnStack || std::find(cardinalAt.begin(), cardinalAt.end(), loc) != cardinalAt.end());
        if (!inZone && !withCardinal)
            bad(QStringLiteral("17.Sp.2 a Spanish unit (u%1) at %2, outside the Spanish Zone")
                    .arg(u)
                    .arg(cityName(d, loc)));
    }

    // ---- control (3.1)
    for (qsizetype a = 0; a < d.areas.size(); ++a) {
        const AreaState& as = s.areas[a];
        const Area& ar = d.areas[a];
        if (as.control < kNone || as.control > kProt)
            bad(QStringLiteral("3.13 %1 has an impossible control value %2").arg(ar.id).arg(as.control));
        if (as.neutral && as.control != kNone)
            bad(QStringLiteral("5.13 %1 is Neutral and controlled by %2").arg(ar.id, sideName(as.control)));
        for (int side : {kCatholic, kProtestant}) {
            if (as.control == side)
                continue;
            int held = 0;
            for (int city : ar.cities)
                if (s.cities[city].marker == side && !s.cities[city].revolt)
                    ++held;
            // 3.12-3.13: enemy Fortress Cities keep their markers when an Area changes hands, so both sides
            // may hold the rating; the one that reached it last controls the Area.
            int ownerHeld = 0;
            if (as.control == other(side))
                for (int city : ar.cities)
                    if (!s.cities[city].revolt &&
                        (s.cities[city].marker == as.control || s.cities[city].marker == kNone))
                        ++ownerHeld;
            // (Markers the side keeps in cities its units occupied when the Area changed hands (3.13) stay
            // when those units later leave or die, so they may add up to the rating without control: both
            // sides then hold it, and the one that reached it last controls the Area.)
            if (held >= ar.control && ownerHeld < ar.control)
                bad(QStringLiteral("3.13 %1 holds %2 of the %3 cities %4 needs but does not control it")
                        .arg(sideName(side))
                        .arg(held)
                        .arg(ar.control)
                        .arg(ar.id));
        }
    }
    for (qsizetype ci = 0; ci < d.cities.size(); ++ci) {
        const CityState& cs = s.cities[ci];
        const City& ct = d.cities[ci];
        if (cs.marker < kNone || cs.marker > kProt)
            bad(QStringLiteral("3.11 %1 has an impossible marker %2").arg(ct.id).arg(cs.marker));
        if (!ct.independent && ct.area >= 0 && cs.marker != kNone && cs.marker == s.areas[ct.area].control)
            bad(QStringLiteral("3.13 %1 carries a %2 marker that the Control Box of %3 already implies")
                    .arg(ct.id, sideName(cs.marker), d.areas[ct.area].id));
        if (cs.pillage < 0 || cs.pillage > 2)
            bad(QStringLiteral("15.2 %1 at Pillage-%2 (0-2)").arg(ct.id).arg(cs.pillage));
        // 13.1 Siege markers
        if (cs.siege < 0 || cs.siege > 4)
            bad(QStringLiteral("13.26 %1 has siege level %2 (0-4)").arg(ct.id).arg(cs.siege));
        if (cs.siege == 0) {
            if (cs.sieger != kNone)
                bad(QStringLiteral("13.13 %1 has a besieger but no Siege marker").arg(ct.id));
            continue;
        }
        if (!ct.fortress) {
            bad(QStringLiteral("13.11 a Siege marker on %1, which is no Fortress").arg(ct.id));
            continue;
        }
        if (cs.sieger != kCatholic && cs.sieger != kProtestant) {
            bad(QStringLiteral("13.13 a Siege marker on %1 without a besieging side").arg(ct.id));
            continue;
        }
        if (!anyUnitsOutside(s, static_cast<int>(ci), cs.sieger, d))
            bad(QStringLiteral("13.14 a %1 Siege marker on %2 with no %1 unit outside the fortress")
                    .arg(sideName(cs.sieger), ct.id));
        else if (fighting.contains(static_cast<int>(ci)))
            ; // 13.14: the siege level is checked once the battle there is over
        else if (const int cf = cfSum(d, s, unitsOutside(s, static_cast<int>(ci), cs.sieger, d)),
                 level = siegeLevel(d, s, static_cast<int>(ci));
                 cf < level)
            bad(QStringLiteral("13.14 the siege of %1 stands with %2 CF of besiegers against siege level %3")
                    .arg(ct.id)
                    .arg(cf)
                    .arg(level));
        if (effectiveCityControl(d, s, static_cast<int>(ci)) == cs.sieger)
            bad(QStringLiteral("13.11 %1 besieges %2, which it controls").arg(sideName(cs.sieger), ct.id));
    }

    // ---- Electors (5.141): an award stands with the side that last achieved it
    for (int side : {kCatholic, kProtestant}) {
        const int n = electorsControlled(d, s, side);
        if (n >= 4 && s.electorMajorityHolder != side)
            bad(QStringLiteral("5.141 %1 controls %2 Electors but the majority award is with %3")
                    .arg(sideName(side))
                    .arg(n)
                    .arg(sideName(s.electorMajorityHolder)));
        if (n >= 7 && s.electorAllHolder != side)
            bad(QStringLiteral("5.141 %1 controls all seven Electors but the award is with %2")
                    .arg(sideName(side), sideName(s.electorAllHolder)));
    }

    // ---- a decision exists (design principle 2)
    if (engine && !s.gameOver) {
        if (engine->actor(s) == kNone)
            bad(QStringLiteral("state machine: the game is not over but nobody is to decide"));
        if (engine->legalActions(s).empty())
            bad(QStringLiteral("state machine: the game is not over but there is no legal action (%1)")
                    .arg(engine->prompt(s)));
    }
}

} // namespace

QStringList checkInvariants(const Engine& engine, const GameState& s) {
    QStringList out;
    checkState(&engine, engine.data(), s, out);
    return out;
}

QStringList checkInvariants(const GameData& data, const GameState& s) {
    // An engine over the caller's data, without taking ownership of it.
    const Engine engine(std::shared_ptr<const GameData>(&data, [](const GameData*) {}));
    return checkInvariants(engine, s);
}

QStringList stateDifferences(const GameData& data, const GameState& a, const GameState& b) {
    QStringList out;
    auto cmp = [&](bool same, const QString& what) {
        if (!same)
            out << what;
    };
    cmp(a.scenario == b.scenario && a.options == b.options, QStringLiteral("scenario/options"));
    cmp(a.turn == b.turn && a.firstTurn == b.firstTurn && a.lastTurn == b.lastTurn, QStringLiteral("turn"));
    cmp(a.roundsUsed[0] == b.roundsUsed[0] && a.roundsUsed[1] == b.roundsUsed[1] &&
            a.activeSide == b.activeSide,
        QStringLiteral("rounds/active side"));
    cmp(a.vp == b.vp, QStringLiteral("vp (%1 vs %2)").arg(a.vp).arg(b.vp));
    cmp(a.markers == b.markers, QStringLiteral("event markers"));
    cmp(a.wallensteinTrack == b.wallensteinTrack && a.dutchWar == b.dutchWar &&
            a.aidPoints[0] == b.aidPoints[0] && a.aidPoints[1] == b.aidPoints[1] &&
            a.aidCardPlayed[0] == b.aidCardPlayed[0] && a.aidCardPlayed[1] == b.aidCardPlayed[1],
        QStringLiteral("tracks"));
    cmp(a.electorMajorityHolder == b.electorMajorityHolder && a.electorAllHolder == b.electorAllHolder &&
            a.electorate == b.electorate,
        QStringLiteral("electors"));
    cmp(a.nationSide == b.nationSide, QStringLiteral("nationSide"));
    for (size_t i = 0; i < std::min(a.units.size(), b.units.size()); ++i)
        cmp(a.units[i] == b.units[i], QStringLiteral("units[u%1]").arg(i));
    cmp(a.units.size() == b.units.size(), QStringLiteral("units.size"));
    for (size_t i = 0; i < std::min(a.leaders.size(), b.leaders.size()); ++i)
        cmp(a.leaders[i] == b.leaders[i],
            QStringLiteral("leaders[%1]")
                .arg(i < static_cast<size_t>(data.leaders.size()) ? data.leaders[static_cast<qsizetype>(i)].id
                                                                  : QString::number(i)));
    for (size_t i = 0; i < std::min(a.cities.size(), b.cities.size()); ++i)
        cmp(a.cities[i] == b.cities[i],
            QStringLiteral("cities[%1]").arg(cityName(data, static_cast<int>(i))));
    for (size_t i = 0; i < std::min(a.areas.size(), b.areas.size()); ++i)
        cmp(a.areas[i] == b.areas[i], QStringLiteral("areas[%1]").arg(i));
    cmp(a.cardPlace == b.cardPlace, QStringLiteral("cardPlace"));
    cmp(a.eventPlayed == b.eventPlayed, QStringLiteral("eventPlayed"));
    for (int side : {0, 1}) {
        cmp(a.hand[side] == b.hand[side], QStringLiteral("hand[%1]").arg(side));
        cmp(a.drawPile[side] == b.drawPile[side], QStringLiteral("drawPile[%1]").arg(side));
        cmp(a.playedPile[side] == b.playedPile[side], QStringLiteral("playedPile[%1]").arg(side));
        cmp(a.aidSources[side] == b.aidSources[side], QStringLiteral("aidSources[%1]").arg(side));
    }
    cmp(a.frames == b.frames, QStringLiteral("frames"));
    cmp(a.rng == b.rng, QStringLiteral("rng"));
    cmp(a.forcedDice == b.forcedDice, QStringLiteral("forcedDice"));
    cmp(a.gameOver == b.gameOver && a.winner == b.winner && a.result == b.result, QStringLiteral("result"));
    if (out.isEmpty() && !(a == b))
        out << QStringLiteral("markers/flags");
    return out;
}

// ---------------------------------------------------------------- random games

namespace {

// The random player's own generator: derived from the seed, independent of the engine's RNG.
Rng chooserRng(uint64_t seed) {
    return Rng(seed ^ 0x6a09e667f3bcc909ULL);
}

int weight(const GameData& d, const GameState& s, const Action& a) {
    switch (a.kind) {
    case ActionKind::Attack:
    case ActionKind::Besiege:
    case ActionKind::Assault:
    case ActionKind::Overrun:
        return 40;
    case ActionKind::TakeControl:
    case ActionKind::CombatCard:
        return 10;
    case ActionKind::PickUp:
        return 8;
    case ActionKind::PlayCard:
        return a.use == CardUse::Event ? 12 : a.use == CardUse::Act ? 6 : a.use == CardUse::Rec ? 4 : 1;
    case ActionKind::Move: {
        if (!isCity(a.target) || a.target >= d.cities.size() || s.frames.empty())
            return 2;
        const auto* f = std::get_if<ActivationFrame>(&s.frames.back());
        if (!f)
            return 2;
        const int enemy = other(f->side);
        if (anyUnitsAt(s, a.target, enemy, d) || s.cities[a.target].siege > 0)
            return 20;
        return effectiveCityControl(d, s, a.target) == f->side ? 2 : 8;
    }
    default:
        return 1;
    }
}

QString notationProblem(const GameData& d, const GameState& s, const std::vector<Action>& legal) {
    QSet<QString> texts;
    for (const Action& a : legal) {
        const QString t = formatAction(d, s, a);
        if (texts.contains(t))
            return QStringLiteral("two legal actions share the notation '%1'").arg(t);
        texts.insert(t);
        QString err;
        const std::optional<Action> back = parseAction(d, s, t, &err);
        if (!back)
            return QStringLiteral("'%1' does not parse back: %2").arg(t, err);
        if (!(*back == a))
            return QStringLiteral("'%1' parses back to a different action ('%2')")
                .arg(t, formatAction(d, s, *back));
    }
    return {};
}

QString firstLines(const QStringList& l) {
    return l.size() <= 3
               ? l.join(QStringLiteral("; "))
               : l.mid(0, 3).join(QStringLiteral("; ")) + QStringLiteral("; and %1 more").arg(l.size() - 3);
}

} // namespace

size_t chooseRandomAction(const GameData& data, const GameState& s, const std::vector<Action>& legal,
                          RandomPolicy policy, Rng& rng) {
    if (policy == RandomPolicy::Uniform || legal.size() == 1)
        return static_cast<size_t>(rng.below(static_cast<int>(legal.size())));
    std::vector<int> w(legal.size());
    int total = 0;
    for (size_t i = 0; i < legal.size(); ++i)
        total += w[i] = weight(data, s, legal[i]);
    int r = rng.below(total);
    for (size_t i = 0; i < legal.size(); ++i)
        if ((r -= w[i]) < 0)
            return i;
    return legal.size() - 1;
}

RandomGameResult playRandomGame(const Engine& engine, const RandomGameSpec& spec) {
    const GameData& d = engine.data();
    RandomGameResult r;
    auto fail = [&](int index, const QString& why) {
        r.ok = false;
        r.failureIndex = index;
        r.failure = why;
    };
    GameState s;
    QString error;
    if (!engine.newGame(s, spec.scenario, spec.options, spec.seed, &error)) {
        fail(-1, error);
        return r;
    }
    if (spec.checkInvariants) {
        const QStringList broken = checkInvariants(engine, s);
        if (!broken.isEmpty()) {
            fail(-1, QStringLiteral("after set-up: %1").arg(firstLines(broken)));
            return r;
        }
    }
    if (spec.onState)
        spec.onState(s);
    Rng chooser = chooserRng(spec.seed);
    const bool record = spec.verifyReplay || spec.keepActions;
    std::optional<GameState> before; // with the checks: the state before its legal actions are listed
    while (!s.gameOver && r.actions < spec.maxActions) {
        if (spec.checkInvariants)
            before = s;
        const std::vector<Action> legal = engine.legalActions(s);
        if (spec.checkInvariants && !(*before == s)) { // listing the legal actions must not change the state
            fail(r.actions - 1,
                 QStringLiteral("listing the legal actions changed the state: %1").arg(engine.prompt(s)));
            break;
        }
        if (legal.empty()) {
            fail(r.actions - 1, QStringLiteral("no legal action: %1").arg(engine.prompt(s)));
            break;
        }
        if (spec.checkNotation) {
            const QString problem = notationProblem(d, s, legal);
            if (!problem.isEmpty()) {
                fail(r.actions, QStringLiteral("notation: %1 (%2)").arg(problem, engine.prompt(s)));
                break;
            }
        }
        const size_t pick = chooseRandomAction(d, s, legal, spec.policy, chooser);
        if (const Action& a = legal[pick];
            a.card >= 0 && ((a.kind == ActionKind::PlayCard && a.use == CardUse::Event) ||
                            a.kind == ActionKind::CombatCard)) {
            r.events.resize(static_cast<size_t>(d.cards.size()), false);
            r.events[static_cast<size_t>(a.card)] = true;
        }
        if (record)
            r.actionTexts << formatAction(d, s, legal[pick]);
        const ApplyResult ar = engine.applyListed(s, legal, pick); // the replay below checks each action
        if (!ar.ok) {
            fail(r.actions, QStringLiteral("a listed action was refused: %1").arg(ar.error));
            break;
        }
        ++r.actions;
        if (spec.onState)
            spec.onState(s);
        if (spec.checkInvariants) {
            const QStringList broken = checkInvariants(engine, s);
            if (!broken.isEmpty()) {
                fail(r.actions - 1, firstLines(broken));
                break;
            }
        }
    }
    r.events.resize(static_cast<size_t>(d.cards.size()), false);
    for (size_t ci = 0; ci < s.eventPlayed.size() && ci < r.events.size(); ++ci)
        if (s.eventPlayed[ci])
            r.events[ci] = true; // 8.64 "unless discarded" events too
    r.finished = s.gameOver;
    r.winner = s.winner;
    r.result = s.result;
    if (r.ok && spec.verifyReplay) {
        // Replay from the action texts: proves the notation round-trips and the engine is deterministic.
        GameState t;
        engine.newGame(t, spec.scenario, spec.options, spec.seed, &error);
        for (int i = 0; i < r.actionTexts.size() && r.ok; ++i) {
            const std::optional<Action> a = parseAction(d, t, r.actionTexts[i], &error);
            if (!a) {
                fail(i, QStringLiteral("replay: '%1' does not parse: %2").arg(r.actionTexts[i], error));
                break;
            }
            const ApplyResult ar = engine.apply(t, *a);
            if (!ar.ok)
                fail(i, QStringLiteral("replay: '%1' refused: %2").arg(r.actionTexts[i], ar.error));
        }
        if (r.ok && !(t == s)) {
            // Find the first action after which the two runs part: rerun the original choices in step.
            GameState x, y;
            engine.newGame(x, spec.scenario, spec.options, spec.seed, &error);
            engine.newGame(y, spec.scenario, spec.options, spec.seed, &error);
            Rng again = chooserRng(spec.seed);
            int i = 0;
            QStringList diff = stateDifferences(d, x, y);
            for (; diff.isEmpty() && i < r.actionTexts.size(); ++i) {
                const std::vector<Action> legal = engine.legalActions(x);
                engine.apply(x, legal[chooseRandomAction(d, x, legal, spec.policy, again)]);
                engine.apply(y, *parseAction(d, y, r.actionTexts[i], &error));
                diff = stateDifferences(d, x, y);
            }
            fail(std::max(0, i - 1),
                 QStringLiteral("replay: the replayed game differs in %1")
                     .arg(diff.isEmpty() ? stateDifferences(d, t, s).join(QStringLiteral(", "))
                                         : diff.join(QStringLiteral(", "))));
        }
    }
    if (r.ok && !spec.keepActions)
        r.actionTexts.clear();
    return r;
}

size_t stateHeapBytes(const GameState& s) {
    // Vectors are copied with the state; QStrings and QStringLists are implicitly shared (a copy only
    // bumps a reference count), so their text costs a snapshot nothing beyond sizeof(GameState).
    auto vec = [](const auto& v) { return v.capacity() * sizeof(v[0]); };
    size_t n = 0;
    for (int side : {0, 1})
        n += vec(s.drawPile[side]) + vec(s.hand[side]) + vec(s.playedPile[side]);
    n += vec(s.nationSide) + vec(s.units) + vec(s.leaders) + vec(s.cities) + vec(s.areas) + vec(s.cardPlace);
    n += (s.eventPlayed.capacity() + 7) / 8; // std::vector<bool> packs bits
    n += vec(s.forcedDice) + vec(s.frames);
    for (const Frame& f : s.frames) {
        if (const auto* a = std::get_if<ActivationFrame>(&f))
            n += vec(a->leaders) + vec(a->units) + vec(a->joinedAt) + vec(a->movedUnits) + vec(a->visited);
        else if (const auto* c = std::get_if<CombatFrame>(&f))
            n += vec(c->attackUnits) + vec(c->defendUnits) + vec(c->attackLeaders) + vec(c->defendLeaders) +
                 vec(c->cards[0]) + vec(c->cards[1]);
        else if (const auto* ch = std::get_if<ChoiceFrame>(&f))
            n += vec(ch->options);
    }
    return n;
}

} // namespace wp::rules

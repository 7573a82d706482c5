// A small fixture for the rules tests: loads the shipped data once, starts a scenario, and then lets a
// test build a position by hand (clear the board, place units and leaders, set hands and control, script
// the dice) before driving the engine through its real state machine with actions in notation.
//
// Only the set-up touches GameState directly; every step a test checks goes through
// Engine::legalActions() and Engine::apply().
#pragma once

#include "data/loader.h"
#include "rules/action.h"
#include "rules/engine.h"
#include "rules/internal.h"
#include "rules/state.h"

#include <QSet>
#include <QStringList>
#include <QtTest>

#include <algorithm>
#include <initializer_list>
#include <memory>

namespace wp::rules::test {

inline std::shared_ptr<const GameData> rulesData() {
    static std::shared_ptr<const GameData> data = [] {
        LoadResult r = loadGameData(QStringLiteral(WESTPHALIA_SOURCE_DIR));
        if (!r.ok())
            qFatal("the shipped data does not load: %s", qPrintable(r.errors.joined()));
        return r.data;
    }();
    return data;
}

class Rules {
  public:
    Rules() : e(rulesData()) {}

    Engine e;
    GameState s;
    Log log;       // every line since newGame()
    Log last;      // the lines of the last act()
    QString error; // why the last act() (or helper) failed

    const GameData& d() const { return e.data(); }

    // ------------------------------------------------------------------ ids
    int city(const QString& id) const { return must(d().city(id), "city", id); }
    int area(const QString& id) const { return must(d().area(id), "area", id); }
    int leader(const QString& id) const { return must(d().leader(id), "leader", id); }
    int card(const QString& id) const { return must(d().card(id), "card", id); }
    int box(const QString& id) const { return kBoxBase + must(d().box(id), "box", id); }
    int nationality(const QString& id) const { return must(d().nationality(id), "nationality", id); }

    // ------------------------------------------------------------------ set-up
    // A new game of `scenario`; it stops at the first decision (turn start, the Protestant's first round).
    bool newGame(const QString& scenario = QStringLiteral("campaign"), const GameOptions& o = {},
                 uint64_t seed = 1) {
        log.clear();
        last.clear();
        return e.newGame(s, scenario, o, seed, &error, &log);
    }

    // Every unit back to the pool, every leader out of play, no sieges, pillage or revolts. Control of
    // Areas and cities is kept.
    void clearBoard() {
        for (UnitState& u : s.units)
            if (u.loc != kRemoved)
                u = UnitState{u.type, kPool, 0, 0};
        for (LeaderState& l : s.leaders)
            l = LeaderState{};
        for (CityState& c : s.cities) {
            c.siege = 0;
            c.sieger = kNone;
            c.pillage = 0;
            c.revolt = false;
            c.visited = false;
        }
    }

    int unitType(const QString& nat, UnitKind kind) const {
        const UnitType* t = d().unitType(nationality(nat), kind);
        if (!t)
            qFatal("no unit type %s", qPrintable(nat));
        return static_cast<int>(t - &d().unitTypes[0]);
    }

    // Places `n` units of that type from the pool at `where` (a city or box id); returns their indices.
    std::vector<int16_t> place(const QString& nat, UnitKind kind, const QString& where, int n = 1,
                               int steps = 2, bool inside = false) {
        const int type = unitType(nat, kind);
        const int16_t loc = locOf(where);
        std::vector<int16_t> out;
        for (size_t i = 0; i < s.units.size() && static_cast<int>(out.size()) < n; ++i) {
            UnitState& u = s.units[i];
            if (u.type != type || u.loc != kPool)
                continue;
            u.loc = loc;
            u.steps = static_cast<uint8_t>(steps);
            u.flags = inside ? kInside : 0;
            out.push_back(static_cast<int16_t>(i));
        }
        if (static_cast<int>(out.size()) != n)
            qFatal("counter mix exhausted: %s", qPrintable(nat));
        return out;
    }

    void placeLeader(const QString& id, const QString& where, bool inside = false) {
        s.leaders[leader(id)] =
            LeaderState{locOf(where), LeaderStatus::InPlay, static_cast<uint8_t>(inside ? kInside : 0)};
    }

    // The hand of `side` becomes exactly these cards (taken from wherever they are); the cards it held
    // go back to the Unplayed pile.
    void setHand(int side, const QStringList& ids) {
        for (int16_t ci : s.hand[side]) {
            s.cardPlace[ci] = CardPlace::Unplayed;
            s.drawPile[side].push_back(ci);
        }
        s.hand[side].clear();
        for (const QString& id : ids) {
            const int16_t ci = static_cast<int16_t>(card(id));
            for (int sd : {kCatholic, kProtestant}) {
                auto drop = [ci](std::vector<int16_t>& v) {
                    v.erase(std::remove(v.begin(), v.end(), ci), v.end());
                };
                drop(s.drawPile[sd]);
                drop(s.playedPile[sd]);
                drop(s.hand[sd]);
            }
            s.cardPlace[ci] = CardPlace::Hand;
            s.hand[side].push_back(ci);
        }
    }

    // A card of `side` with at least `value` points that has no side effect when played as ACT (not a
    // combat card, not "unless discarded").
    QString plainCard(int side, int value) const {
        for (const Card& c : d().cards)
            if (sideIndex(c.side) == side && !c.combat && !c.unlessDiscarded && c.value >= value)
                return c.id;
        qFatal("no plain card");
        return {};
    }

    void setAreaControl(const QString& id, int side, bool neutral = false) {
        AreaState& a = s.areas[area(id)];
        a.control = static_cast<int8_t>(side);
        a.neutral = neutral;
    }
    void setMarker(const QString& cityId, int side) {
        s.cities[city(cityId)].marker = static_cast<int8_t>(side);
    }
    int control(const QString& cityId) const { return effectiveCityControl(d(), s, city(cityId)); }

    // The Action Phase, `side` to play a round.
    void setActive(int side) {
        s.frames.clear();
        s.frames.push_back(TurnFrame{Phase::Action, 0});
        s.activeSide = static_cast<int8_t>(side);
        s.roundsUsed[kCatholic] = 0;
        s.roundsUsed[kProtestant] = side == kCatholic ? 1 : 0;
    }

    void dice(std::initializer_list<int> rolls) {
        s.forcedDice.clear();
        for (int r : rolls)
            s.forcedDice.push_back(static_cast<int8_t>(r));
    }

    // ------------------------------------------------------------------ driving the engine
    // Parses and applies one action; false (with `error`) if it is malformed or not legal.
    bool act(const QString& text) {
        last.clear();
        const auto a = parseAction(d(), s, text, &error);
        if (!a) {
            qWarning("cannot parse '%s': %s", qPrintable(text), qPrintable(error));
            return false;
        }
        const ApplyResult r = e.apply(s, *a, &last);
        log.insert(log.end(), last.begin(), last.end());
        if (!r.ok) {
            error = r.error;
            qWarning("%s", qPrintable(error));
        }
        return r.ok;
    }
    bool act(const Action& a) { return act(formatAction(d(), s, a)); }
    // Applies a legal action object as it is (not through its notation).
    bool apply(const Action& a) {
        last.clear();
        const ApplyResult r = e.apply(s, a, &last);
        log.insert(log.end(), last.begin(), last.end());
        if (!r.ok)
            error = r.error;
        return r.ok;
    }

    // Plays a plain card of enough value to activate `leaderId` (8.3).
    bool activate(const QString& leaderId, int value = 3) {
        const int side = leaderSide(d(), s, leader(leaderId));
        const QString c = plainCard(side, value);
        s.hand[side].push_back(static_cast<int16_t>(card(c)));
        s.cardPlace[card(c)] = CardPlace::Hand;
        return act(QStringLiteral("play %1 act %2").arg(c, leaderId));
    }

    std::vector<Action> legalActions() const { return e.legalActions(s); }
    QStringList legalTexts() const {
        QStringList out;
        for (const Action& a : e.legalActions(s))
            out << formatAction(d(), s, a);
        return out;
    }
    QStringList legalOf(ActionKind k) const {
        QStringList out;
        for (const Action& a : e.legalActions(s))
            if (a.kind == k)
                out << formatAction(d(), s, a);
        return out;
    }
    bool legal(const QString& text) const {
        const auto a = parseAction(d(), s, text, nullptr);
        if (!a)
            return false;
        const auto l = e.legalActions(s);
        return std::find(l.begin(), l.end(), *a) != l.end();
    }

    // Picks up every given unit ("pickup u3", one at a time).
    bool pickUp(const std::vector<int16_t>& units) {
        for (int16_t u : units)
            if (!act(QStringLiteral("pickup u%1").arg(u)))
                return false;
        return true;
    }

    // The Losses action (12.31) that takes these steps, in the engine's canonical order.
    static QString losses(std::vector<std::pair<int, int>> unitSteps) {
        std::sort(unitSteps.begin(), unitSteps.end());
        QStringList p;
        for (auto [u, n] : unitSteps)
            p << QStringLiteral("u%1:%2").arg(u).arg(n);
        return QStringLiteral("losses ") + p.join(QLatin1Char(' '));
    }

    // Uses up the active side's round without changing the board if it can: a Free Action that does not
    // move, a pass if nothing at all can be done, else a card played as ACT for an activation that ends at
    // once, else the first legal action.
    bool spendRound() {
        const int side = s.activeSide;
        const std::vector<Action> l = legalActions();
        auto pick = [&]() -> Action {
            for (ActionKind k : {ActionKind::FreeAction, ActionKind::Pass, ActionKind::PlayCard})
                for (const Action& a : l)
                    if (a.kind == k && (k != ActionKind::PlayCard || a.use == CardUse::Act))
                        return a;
            return l.front();
        };
        if (l.empty() || !act(pick()))
            return false;
        while (!s.gameOver && e.actor(s) == side && activation())
            if (!act(QStringLiteral("end")))
                return false;
        return true;
    }

    bool inActionPhase() const {
        return s.frames.size() == 1 && std::holds_alternative<TurnFrame>(s.frames.front()) &&
               std::get<TurnFrame>(s.frames.front()).phase == Phase::Action;
    }

    // Ends the Action Phase (the Catholic's sixth round) and plays the rest of the turn, answering every
    // decision the simplest way, up to the next turn's Action Phase (or the end of the game).
    bool nextTurn() {
        const int turn = s.turn;
        setActive(kCatholic);
        s.roundsUsed[kProtestant] = 6;
        s.roundsUsed[kCatholic] = 5;
        return spendRound() && runUntil([&] { return s.turn != turn && inActionPhase(); });
    }

    // Answers every decision up to `done` the simplest way (pass, end, else the first legal action).
    template <class Pred> bool runUntil(Pred done, int limit = 2000) {
        for (int i = 0; i < limit; ++i) {
            if (done() || s.gameOver)
                return true;
            const QStringList l = legalTexts();
            if (l.isEmpty()) {
                error = QStringLiteral("no legal action");
                return false;
            }
            const QString pick = l.contains(QStringLiteral("pass"))  ? QStringLiteral("pass")
                                 : l.contains(QStringLiteral("end")) ? QStringLiteral("end")
                                                                     : l.front();
            if (!act(pick))
                return false;
        }
        error = QStringLiteral("runUntil: no end after %1 actions").arg(limit);
        return false;
    }

    // Runs the End Phase (6.F: the Continued Siege Segment, then on) from here: a one-card "hold this
    // card" decision is placed above an End Phase turn frame, and taking it lets the engine run on. Stops
    // at the next decision.
    bool runEndPhase() {
        s.frames.clear();
        s.frames.push_back(TurnFrame{Phase::End, 0});
        const QString c = plainCard(kCatholic, 1);
        setHand(kCatholic, {c});
        ChoiceFrame ch;
        ch.actor = kCatholic;
        ch.purpose = kChooseDiscard;
        ch.options = {static_cast<int16_t>(card(c))};
        s.frames.push_back(ch);
        return act(QStringLiteral("choose %1").arg(c));
    }

    // The End of Turn Phase (6.G): both players keep their card; the engine then checks victory and,
    // unless the game ends, starts the next turn and runs to its first decision.
    bool endTurn() {
        s.frames.clear();
        s.frames.push_back(TurnFrame{Phase::EndOfTurn, 0});
        return act(QStringLiteral("pass")) && (s.gameOver || act(QStringLiteral("pass")));
    }

    const ActivationFrame* activation() const {
        return s.frames.empty() ? nullptr : std::get_if<ActivationFrame>(&s.frames.back());
    }
    const CombatFrame* combat() const {
        return s.frames.empty() ? nullptr : std::get_if<CombatFrame>(&s.frames.back());
    }

    bool logged(const QString& fragment, const Log& l) const {
        for (const LogLine& line : l)
            if (line.text.contains(fragment))
                return true;
        return false;
    }
    bool logged(const QString& fragment) const { return logged(fragment, log); }
    QString logText(const Log& l) const {
        QStringList t;
        for (const LogLine& line : l)
            t << line.text;
        return t.join(QLatin1Char('\n'));
    }

    int16_t locOf(const QString& where) const {
        const int c = d().city(where);
        if (c >= 0)
            return static_cast<int16_t>(c);
        return static_cast<int16_t>(box(where));
    }

  private:
    static int must(int index, const char* what, const QString& id) {
        if (index < 0)
            qFatal("no %s '%s'", what, qPrintable(id));
        return index;
    }
};

} // namespace wp::rules::test

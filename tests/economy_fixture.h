// Helpers shared by the issue 4 suites (test_economy.cpp, test_rules_part2.cpp): a clean campaign board, a
// card of a given value, a REC play, a phase started at its first decision, and what is on top of the stack.
#pragma once

#include "rules_fixture.h"

#include <QTest>

namespace wp::rules::test {

// A card of `side` worth `value` that has no side effect when played (no combat card, not "unless
// discarded"), unmarked if there is one.
inline QString cardOfValue(const Rules& f, int side, int value) {
    for (const Card& c : f.d().cards)
        if (sideIndex(c.side) == side && !c.combat && !c.unlessDiscarded && c.value == value &&
            c.mark == CardMark::None)
            return c.id;
    for (const Card& c : f.d().cards)
        if (sideIndex(c.side) == side && !c.combat && !c.unlessDiscarded && c.value == value)
            return c.id;
    qFatal("no card of value %d", value);
    return {};
}

// A clean board in the campaign: no units, no leaders, no pillage; the Action Phase with `side` to play.
inline void cleanCampaign(Rules& f, int side = kCatholic, const GameOptions& o = {}) {
    QVERIFY(f.newGame(QStringLiteral("campaign"), o));
    f.clearBoard();
    f.s.aidPoints[0] = f.s.aidPoints[1] = 0;
    f.setActive(side);
}

// Plays a REC card of `value` points (8.4).
inline bool rec(Rules& f, int side, int value) {
    const QString c = cardOfValue(f, side, value);
    f.setHand(side, {c, f.plainCard(side, 1)});
    return f.act(QStringLiteral("play %1 rec").arg(c));
}

// Starts `phase` at its step 0 and lets the engine run to the first decision: a one-card "hold" decision
// above the phase's turn frame is answered (the fixture's runEndPhase trick).
inline bool startPhase(Rules& f, Phase phase) {
    f.s.frames.clear();
    f.s.frames.push_back(TurnFrame{phase, 0});
    const QString c = f.plainCard(kCatholic, 1);
    f.setHand(kCatholic, {c});
    ChoiceFrame ch;
    ch.actor = kCatholic;
    ch.purpose = kChooseDiscard;
    ch.options = {static_cast<int16_t>(f.card(c))};
    f.s.frames.push_back(ch);
    return f.act(QStringLiteral("choose %1").arg(c));
}

inline const ChoiceFrame* choice(const Rules& f) {
    return f.s.frames.empty() ? nullptr : std::get_if<ChoiceFrame>(&f.s.frames.back());
}

inline int purpose(const Rules& f) {
    const ChoiceFrame* ch = choice(f);
    return ch ? ch->purpose : -1;
}

inline Phase phase(const Rules& f) {
    return std::get<TurnFrame>(f.s.frames.front()).phase;
}

} // namespace wp::rules::test

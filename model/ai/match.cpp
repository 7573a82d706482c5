#include "ai/match.h"

#include <QElapsedTimer>

#include <algorithm>

namespace wp::ai {

using namespace wp::rules;

MatchResult playMatch(const Engine& engine, const GameState& start, Bot* bots[2], int maxActions,
                      bool keepReasons) {
    MatchResult r;
    GameState s = start;
    const GameData& d = engine.data();
    while (!s.gameOver && r.actions < maxActions) {
        const int side = engine.actor(s);
        if (side != kCatholic && side != kProtestant) {
            r.ok = false;
            r.error = QStringLiteral("no actor: %1").arg(engine.prompt(s));
            break;
        }
        const SideView view(engine, s, side); // the bot sees this, never `s`
        QElapsedTimer t;
        t.start();
        const Decision dec = bots[side]->decide(view);
        r.decisionSeconds[side].push_back(static_cast<double>(t.nsecsElapsed()) / 1e9);
        const QString text = formatAction(d, s, dec.action);
        const ApplyResult ar = engine.apply(s, dec.action);
        if (!ar.ok) {
            r.ok = false;
            r.error = QStringLiteral("%1 chose '%2', refused: %3").arg(bots[side]->name(), text, ar.error);
            break;
        }
        r.actionTexts << text;
        if (keepReasons)
            r.reasons[side] << text + QStringLiteral(" — ") + dec.reason;
        ++r.actions;
    }
    r.finished = s.gameOver;
    r.winner = s.gameOver ? s.winner : static_cast<int8_t>(kNone);
    r.vp = s.vp;
    r.turn = s.turn;
    r.result = s.gameOver ? s.result : QStringLiteral("unfinished after %1 actions").arg(r.actions);
    return r;
}

} // namespace wp::ai

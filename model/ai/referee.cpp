#include "ai/referee.h"

#include "battle/linked.h"
#include "rules/action.h"
#include "rules/engine.h"
#include "rules/state.h"

#include <algorithm>

namespace wp::ai {

using namespace wp::rules;

namespace {

bool isTableChoice(const Action& a) {
    return a.kind == ActionKind::Choose &&
           ((a.target <= kBattleCrt && a.target >= kBattleWonByDefender) || a.target >= kLeaderBase);
}

std::optional<Action> find(const std::vector<Action>& legal, int16_t target) {
    for (const Action& a : legal)
        if (a.kind == ActionKind::Choose && a.target == target)
            return a;
    return std::nullopt;
}

} // namespace

std::optional<Decision> tableDecision(const Engine& engine, const GameState& real, int side) {
    if (real.gameOver || real.frames.empty() || !std::holds_alternative<CombatFrame>(real.frames.back()) ||
        engine.actor(real) != side)
        return std::nullopt;
    const std::vector<Action> legal = engine.legalActions(real);
    if (legal.empty() || !std::all_of(legal.begin(), legal.end(), isTableChoice))
        return std::nullopt;
    if (const auto crt = find(legal, kBattleCrt))
        return Decision{*crt, QStringLiteral("linked battles: the computer keeps the Combat Results Table"),
                        0};
    if (const auto accept = find(legal, kBattleAccept))
        return Decision{*accept, QStringLiteral("linked battles: the computer accepts the tabletop battle"),
                        0};
    const GameData& d = engine.data();
    if (const auto confirm = find(legal, kBattleConfirm)) {
        QString why;
        const bool same = battle::matchesAutoResolve(d, real, &why);
        return Decision{
            *confirm,
            same ? QStringLiteral("linked battles: the result entered is the auto-resolved battle's")
                 : QStringLiteral("linked battles: a result from a real table, which the computer "
                                  "cannot see, is accepted (%1)")
                       .arg(why),
            0};
    }
    battle::LinkedResult result;
    QString error;
    if (!battle::autoResolveTop(d, real, &result, &error))
        return std::nullopt; // the bot decides (and its reason will say nothing of the table)
    for (const QString& text : result.actions(d)) {
        const std::optional<Action> a = parseAction(d, real, text, &error);
        if (a && std::find(legal.begin(), legal.end(), *a) != legal.end())
            return Decision{
                *a, QStringLiteral("linked battles: the auto-resolved tabletop battle (%1)").arg(result.why),
                0};
    }
    return std::nullopt;
}

} // namespace wp::ai

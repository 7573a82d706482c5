// A tactical battle as a list of moves (docs/linked-battles.md "The battle's record", docs/tactical-view.md
// "Saving a battle"): what the tactical window records and replays, and what a linked battle's record
// carries. QtCore only, without the campaign's data, so the tactical views include it alone.
#pragma once

#include <QJsonObject>
#include <QList>
#include <QString>

namespace wp::battle {

// One tactical action as the tactical window applied it.
struct TableMove {
    QString text;        // the notation as entered (a player's move) or as written for the policy's action
    QList<int> dice;     // dice rolled by hand (assist mode), used before the battle's own generator
    bool policy = false; // chosen by the tactical engine's simple policy, with policyMoveSeed(seed, index)
};

// The seed of the simple policy's choice for the tactical action `index` (0-based) of the battle with seed
// `battleSeed`: a computer seat's (and "auto-resolve the rest"'s) move is a function of the position, so a
// replay chooses it again and checks it.
quint64 policyMoveSeed(quint64 battleSeed, int index);

// A tactical battle record as the tactical window saves and opens it (format "westphalia-tactical-battle",
// docs/tactical-view.md): the ruleset, the scenario file (relative to the record's folder), the seed and
// the actions with their hand dice, the policy's marked "policy".
QJsonObject tacticalBattleRecord(const QString& rules, quint64 seed, const QString& scenarioFile,
                                 const QList<TableMove>& moves);

} // namespace wp::battle

// A tactical battle as a list of moves (docs/linked-battles.md "The battle's record", docs/tactical-view.md
// "Saving a battle"): what the tactical window records and replays, and what a linked battle's record
// carries. QtCore only, without the campaign's data, so the tactical views include it alone.
#pragma once

#include <QJsonObject>
#include <QJsonValue>
#include <QList>
#include <QString>

namespace wp::battle {

// One tactical action as the tactical window applied it.
struct TableMove {
    QString text;    // the notation as entered (a player's move) or as written for the policy's action
    QList<int> dice; // dice rolled by hand (assist mode), used before the battle's own generator
    // "" a player's move; else the policy that chose it with policyMoveSeed(seed, index): "simple" or
    // "tactical" (TVBD's tactical AI). In JSON "policy": true is "simple" (the records written before the
    // policy was named), "policy": "tactical" the tactical AI.
    QString policy;
    bool byPolicy() const { return !policy.isEmpty(); }
};

// The policy names a record may carry ("simple", "tactical"); the JSON value of a move's or a record's
// "policy" read back: true (or absent on a record) = "simple", a name = that name. False with *error for
// another value.
bool policyFromJson(const QJsonValue& v, QString* name, QString* error);
// The JSON of a policy's name: true for "simple" (as records always wrote it), else the name.
QJsonValue policyToJson(const QString& name);

// The seed of the policy's choice for the tactical action `index` (0-based) of the battle with seed
// `battleSeed`: a computer seat's (and "auto-resolve the rest"'s) move is a function of the position, so a
// replay chooses it again and checks it.
quint64 policyMoveSeed(quint64 battleSeed, int index);

// The policy that auto-resolves a battle of the ruleset and plays a computer seat: "tactical" for TVBD (its
// tactical AI, docs/tvbd.md "AI"), "simple" for Tercios (its strongest policy, docs/tercios.md).
QString autoPolicy(const QString& rules);

// A tactical battle record as the tactical window saves and opens it (format "westphalia-tactical-battle",
// docs/tactical-view.md): the ruleset, the scenario file (relative to the record's folder), the seed and
// the actions with their hand dice, the policy's marked "policy" (true for the simple policy, "tactical"),
// and when a move is the tactical AI's, "tacticalAi": the AI's revision (wp::tactical::kTacticalAiRevision).
QJsonObject tacticalBattleRecord(const QString& rules, quint64 seed, const QString& scenarioFile,
                                 const QList<TableMove>& moves);

// A record's "tacticalAi" read back: a whole number from 1. False with *error for another value.
bool tacticalAiFromJson(const QJsonValue& v, int* revision, QString* error);

} // namespace wp::battle

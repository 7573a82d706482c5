// Standing orders for play by e-mail (issue 7, docs/pbem.md "Standing orders"). A player declares in
// advance how he answers some decisions the rules give him during the opponent's play (fortress reaction
// 11.23, combat cards 12.23, loss allocation 12.31, retreat 12.5, a peace offer 5.3). The orders travel
// in his turn files, in clear: the opponent sees them. When such a decision comes up in the opponent's
// copy, that copy takes the action the orders give - always one of the engine's legal actions - and goes
// on without sending a file; the player's own copy checks, on import, that every action taken in his name
// is exactly the one his orders give.
//
// Orders may only look at public information (the map, the pieces, the legal actions of a public
// decision): the opponent's copy does not know the player's hand. So there is no order that plays a
// combat card: "cards=none" (play none) is the only card order.
#pragma once

#include "rules/engine.h"

#include <QJsonObject>
#include <QMap>
#include <QString>
#include <QStringList>
#include <optional>

namespace wp::save {

class StandingOrders {
  public:
    // The keys, in display order, and for each the values it takes ("ask" everywhere: no order).
    static QStringList keys();
    static QStringList values(const QString& key); // the fixed values; retreat also takes city ids
    static QString help(const QString& key);       // one line for people, with the rule number

    // "key=value"; the value is checked (a retreat list names cities of `d`). False with *error.
    bool set(const GameData& d, const QString& keyValue, QString* error);
    bool set(const GameData& d, const QString& key, const QString& value, QString* error);
    QString value(const QString& key) const; // "ask" when not set
    bool isEmpty() const;                    // every key "ask"

    // As they travel in a turn file ({"react": "out", ...}; keys at "ask" are left out). fromJson checks
    // every key and value; `where` names the place in messages ("file 7: $.orders").
    QJsonObject toJson() const;
    static std::optional<StandingOrders> fromJson(const GameData& d, const QJsonObject& o,
                                                  const QString& where, QString* error);
    QString text() const; // "react=out cards=none ..." ("none" when empty)

    // The action these orders give `side` in state `s`: one of engine.legalActions(s), or nothing when the
    // decision is not `side`'s or the orders do not cover it (the player decides himself). `rule`, when
    // given, receives the order used ("losses=cheapest").
    std::optional<rules::Action> choose(const rules::Engine& engine, const rules::GameState& s, int side,
                                        QString* rule = nullptr) const;

    bool operator==(const StandingOrders&) const = default;

  private:
    QMap<QString, QString> m_values; // only keys not at "ask"
};

} // namespace wp::save

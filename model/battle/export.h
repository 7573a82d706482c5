// Battle export (issue 9): a campaign combat as a Tilly's Very Bad Day v2.0 battle scenario in the JSON
// format model/tactical loads (docs/tvbd.md), mapped through the editable scenarios/battle-mapping.json
// (docs/battle-export.md). Deterministic from (battle, mapping, seed). QtCore only.
#pragma once

#include <QJsonObject>
#include <QList>
#include <QString>
#include <QStringList>

namespace wp {
struct GameData;
}
namespace wp::rules {
struct GameState;
} // namespace wp::rules
namespace wp::tactical {
struct TvbdRules;
struct TerciosRules;
} // namespace wp::tactical

namespace wp::battle {

struct ForceUnit {
    QString nationality; // GameData nationality id: "swedish", "imperial", ...
    QString kind;        // "veteran", "mercenary", "militia"
    bool reduced = false;
};

struct ForceLeader {
    QString name;
    QString nationality;
    int battle = 0; // campaign battle rating
    int stars = 0;
};

struct Force {
    QString name;
    QList<ForceUnit> units;
    QList<ForceLeader> leaders; // the first is the army commander
    QStringList cards;          // titles of the combat cards this side played ("Swedish Firepower")
};

// A road leaving the battle's city toward a neighbouring city, in its direction on the table (degrees:
// 0 toward the defender's base edge, 90 toward the right (+x), 180 toward the attacker's base edge).
struct BattleRoad {
    QString to;
    double angle = 180;
};

// A campaign battle described explicitly; sides[0] attacks.
struct BattleInput {
    QString title;
    QString city;    // city name
    QString area;    // Area id ("saxony"); selects the terrain table
    int year = 1620; // the first year of the turn
    bool fortress = false;
    Force sides[2];
    // ---- the site (model/battle/site.h) and the situation (docs/battle-export.md)
    int month = 0;            // 1..12 when known; 0: rolled from the seed in the campaign season
    QList<BattleRoad> roads;  // toward the neighbouring cities (the map's pathways)
    QString approach;         // the city the attacker came from
    QString river, riverKind; // the battle's own river (kind river|stream|none); empty: battle-terrain.json
    bool sally = false;       // the attacker sallies out of the besieged fortress (13.17)
    bool relief = false;      // the attacker relieves a siege of the city (13.15)
    int garrison = 0;         // the attacker's units that were inside the besieged fortress (13.15): the
                              // last `garrison` of sides[0].units (they start in the town)
    bool neutralArea = false; // the battle is fought in a Neutral Area (5.13)
};

struct TvbdMapping {
    QJsonObject root;  // the "tvbd" object of the mapping file
    QJsonObject sites; // scenarios/battle-terrain.json's cities (site.h)
};

// Loads scenarios/battle-mapping.json (or another file). Errors name the file, the JSON path, the problem.
bool loadMapping(const QString& path, TvbdMapping* out, QString* error);
// The mapping file of the data directory (wp::findDataDir()).
QString defaultMappingPath();

// The battle on top of the state's frame stack (a CombatFrame). False with *error when there is none.
bool inputFromState(const GameData& data, const wp::rules::GameState& state, BattleInput* out,
                    QString* error);

// The battle's default seed: from the game's seed and the combat on top of the state's frame stack (its turn,
// city, attacker and the city it came from), so the window's Export battle (live or from the log) and
// `westphalia-cli battle export --save` without --seed give the same scenario. The game's seed when there
// is no combat.
quint64 defaultBattleSeed(quint64 gameSeed, const wp::rules::GameState& state);

// Reads an explicit battle description (docs/battle-export.md "Battle description"). Errors name file/path.
bool inputFromJson(const QJsonObject& root, const QString& fileName, BattleInput* out, QString* error);

// The TVBD scenario. Always passes the loader and the 7.3.2/7.3.3 army-list check for 1..N units a side.
// The rules give the starting resolve (for Unreliable Troops) and the coins reported in the notes.
QJsonObject exportTvbd(const BattleInput& in, const TvbdMapping& map, const wp::tactical::TvbdRules& rules,
                       quint64 seed);

// ---- Brevis Editio: Tercios (issue 11; model/battle/export_tercios.cpp) ----------------------------------

struct TerciosMapping {
    QJsonObject root;  // the "tercios" object of the mapping file
    QJsonObject sites; // scenarios/battle-terrain.json's cities (site.h)
};

// Loads the "tercios" section of scenarios/battle-mapping.json. Errors name the file, the JSON path, the
// problem.
bool loadTerciosMapping(const QString& path, TerciosMapping* out, QString* error);

// The Tercios scenario (docs/tercios.md "Scenario format"; decisions in docs/battle-export.md). Always loads
// with wp::tactical::terciosScenarioFromJson and both armies pass wp::tactical::armyProblems.
QJsonObject exportTercios(const BattleInput& in, const TerciosMapping& map,
                          const wp::tactical::TerciosRules& rules, quint64 seed);

} // namespace wp::battle
